"""Random-playout speed on one core: the Cython core, the reference, and a hand-written C loop.

    python -m benchmarks.speed [--short] [--json] [--games N] [--seed S] [--engines c,core,reference]

Measures whole random games per second for `durak` with 2 seats and `tan`
with 2 and 4 seats (the C loop plays only `durak` with 2 seats). Every engine
plays uniformly random legal moves from shuffled deals, so the figures compare
like with like, and plies per game and loss rates by seat must agree between
engines within sampling noise. BENCHMARKS.md, quality bars asks the core for at least 400,000
`durak` playouts a second and to be within 1.3x of the C loop.

On a shared or virtual machine one run of each can drift apart, so after the
table the C loop and the core play `durak` (2 seats) again in `--rounds`
alternating rounds (5 by default, 1 with `--short`), and the ratio reported
against the 1.3x bar is the median of the rounds' C/core ratios.

Prints docs/api.md §4 JSON lines with `--json` (a line for people otherwise) and
writes everything to `benchmarks/results/speed.json` (`speed-short.json` for
`--short`, so a quick run never replaces the figures of a full one).
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from solver.tools.bench import (
    DEFAULT_CONFIGS,
    CEngine,
    CoreEngine,
    EngineUnavailable,
    engines_named,
    game_count,
    pin_to_one_core,
    report_playouts,
)

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    compiler = shutil.which("gcc")
    gcc = ""
    if compiler:
        gcc = subprocess.run([compiler, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    return {"cpu": cpu, "python": platform.python_version(), "platform": platform.platform(), "gcc": gcc}


def c_core_rounds(rounds: int, *, short: bool, games: int | None, seed: int) -> dict[str, Any] | None:
    """The C loop and the core in alternating rounds of `durak` (2 seats): medians and ratios.

    None when the C loop cannot be built here.
    """
    c_engine, core = CEngine(), CoreEngine()
    c_rates, core_rates = [], []
    try:
        for _ in range(rounds):
            for engine, rates in ((c_engine, c_rates), (core, core_rates)):
                count = game_count(engine, short=short, games=games)
                rates.append(engine.run("durak", 2, count, seed).playouts_per_s)
    except EngineUnavailable:
        return None
    ratios = [c / k for c, k in zip(c_rates, core_rates, strict=True)]
    return {
        "rounds": rounds,
        "ratio": round(statistics.median(ratios), 4),
        "ratios": [round(r, 4) for r in ratios],
        "c_playouts_per_s": round(statistics.median(c_rates), 1),
        "core_playouts_per_s": round(statistics.median(core_rates), 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.speed", description=__doc__.split("\n\n")[0])
    parser.add_argument("--short", action="store_true", help="a quick run with few games per engine")
    parser.add_argument("--json", action="store_true", help="print docs/api.md §4 JSON lines")
    parser.add_argument("--games", type=int, help="games per engine and configuration (default: per engine)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--engines", default="c,core,reference", help="comma-separated: c, core, reference")
    parser.add_argument("--output", type=Path, help="results file (default benchmarks/results/speed.json)")
    parser.add_argument("--no-pin", dest="pin", action="store_false", help="do not pin to one CPU core")
    parser.add_argument("--rounds", type=int, help="alternating C/core rounds for the ratio (default 5)")
    args = parser.parse_args(argv)
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    if args.rounds is not None and args.rounds < 1:
        parser.error("--rounds must be at least 1")

    try:
        engines = engines_named(args.engines)
    except ValueError as error:
        parser.error(str(error))
    cpu = pin_to_one_core() if args.pin else None
    if args.pin and cpu is None:
        print("benchmarks.speed: could not pin to one core; figures may mix cores", file=sys.stderr)
    started = time.time()
    results = report_playouts(
        engines, DEFAULT_CONFIGS, short=args.short, games=args.games, seed=args.seed, as_json=args.json
    )
    rounds = c_core_rounds(
        args.rounds if args.rounds is not None else 1 if args.short else 5,
        short=args.short, games=args.games, seed=args.seed,
    ) if {"c", "core"} <= {engine.name for engine in engines} else None
    if rounds is not None:
        line = {"bench": "c_core_ratio", "rules": "durak", "players": 2, **rounds}
        print(json.dumps(line) if args.json else
              f"durak  2 seats  c/core over {rounds['rounds']} alternating rounds: median ratio "
              f"{rounds['ratio']:.3f} (range {min(rounds['ratios']):.3f}-{max(rounds['ratios']):.3f}), "
              f"core median {rounds['core_playouts_per_s']:,.0f}/s, "
              f"c median {rounds['c_playouts_per_s']:,.0f}/s",
              flush=True)
    output = args.output or RESULTS / ("speed-short.json" if args.short else "speed.json")
    output.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "benchmark": "playouts",
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
        "short": args.short,
        "seed": args.seed,
        "pinned_cpu": cpu,
        "machine": machine(),
        "results": [totals.to_json() for totals in results],
        "c_core_rounds": rounds,
    }
    output.write_text(json.dumps(record, indent=2) + "\n")
    print(f"benchmarks.speed: results written to {output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

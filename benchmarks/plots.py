"""Plots of the benchmark results: PNGs drawn from `benchmarks/results/*.json`.

    python -m benchmarks.plots [--results DIR] [--short]

Reads what the other benchmarks wrote and draws, into the same directory:

- `playouts_per_s.png`  random playouts a second per preset and engine (`speed.json`);
- `search_threads.png`  ISMCTS iterations a second against threads (`search.json`);
- `load_throughput.png` service answers and hints a second against clients (`load.json`);
- `hint_latency.png`    hint latency against iterations (`load.json`'s latency bars, which
  need two iteration counts or more: `latency_bars`, a list of bars, or bars from several
  `load*.json` files).

A plot whose results are missing is skipped with a note on standard error.
`--short` reads the `*-short.json` files of `make bench` and writes `*-short.png`, so a
quick run never replaces the plots of a full one. Matplotlib draws with Agg: no display.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
ENGINE_ORDER = ("c", "core", "reference")


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _machine(data: dict[str, Any]) -> str:
    """A short machine note for a title, from whatever the results file recorded."""
    machine = data.get("machine")
    if isinstance(machine, dict):
        cpus = f"{machine['cpus']} cores" if machine.get("cpus") else ""
        return ", ".join(part for part in (machine.get("cpu", ""), cpus, machine.get("python", "")) if part)
    return ""


def plot_speed(data: dict[str, Any], path: Path) -> None:
    """Grouped bars: playouts a second for each preset and seat count, one bar per engine (log scale)."""
    plt = _pyplot()
    results = [r for r in data["results"] if r.get("bench", "playouts") == "playouts"]
    configs = list(dict.fromkeys((r["rules"], r["players"]) for r in results))
    engines = sorted({r["engine"] for r in results},
                     key=lambda e: (ENGINE_ORDER.index(e) if e in ENGINE_ORDER else len(ENGINE_ORDER), e))
    width = 0.8 / len(engines)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for i, engine in enumerate(engines):
        xs, ys = [], []
        for j, config in enumerate(configs):
            for r in results:
                if (r["rules"], r["players"]) == config and r["engine"] == engine:
                    xs.append(j - 0.4 + width * (i + 0.5))
                    ys.append(r["playouts_per_s"])
        bars = ax.bar(xs, ys, width, label=engine)
        ax.bar_label(bars, labels=[_si(y) for y in ys], fontsize=8, padding=2)
    ax.set_xticks(range(len(configs)), [f"{rules}, {players} seats" for rules, players in configs])
    ax.set_yscale("log")
    ax.set_ylabel("random playouts per second (one core)")
    ax.set_title("Playout speed" + (f" ({_machine(data)})" if _machine(data) else ""))
    ax.legend(title="engine")
    ax.margins(y=0.15)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_search(data: dict[str, Any], path: Path) -> None:
    """ISMCTS iterations a second against threads: one line per preset and engine."""
    plt = _pyplot()
    results = [r for r in data["results"] if r.get("bench") == "ismcts"]
    if not results:
        raise _Missing("search results without ISMCTS speeds")
    lines: dict[str, list[tuple[int, float]]] = {}
    for r in results:
        engine = r.get("engine") or f"{r.get('policy', 'random')} playouts"  # results before the config
        label = f"{r['rules']}, {r['players']} seats, {engine}"
        lines.setdefault(label, []).append((r["threads"], r["iterations_per_s"]))
    threads = sorted({t for points in lines.values() for t, _ in points})
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for label, points in lines.items():
        points.sort()
        ax.plot([t for t, _ in points], [v for _, v in points], marker="o", label=label)
    ax.set_xticks(threads)
    ax.set_xlabel("search threads (root parallel)")
    ax.set_ylabel("ISMCTS iterations per second")
    ax.set_ylim(bottom=0)
    ax.set_title("Search speed against threads")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_throughput(data: dict[str, Any], path: Path) -> None:
    """Service answers and hints a second against concurrent clients."""
    plt = _pyplot()
    runs = sorted(data.get("runs") or [], key=lambda run: run["clients"])
    if not runs or not all("throughput_per_s" in run for run in runs):
        raise _Missing("load results without runs by client count")
    clients = [run["clients"] for run in runs]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(clients, [run["throughput_per_s"] for run in runs], marker="o", label="answers/s (200 and 503)")
    if all("hints_per_s" in run for run in runs):
        ax.plot(clients, [run["hints_per_s"] for run in runs], marker="s", label="hints/s (200)")
    iterations = {run.get("iterations") for run in runs}
    ax.set_xscale("log")
    ax.set_xticks(clients, [str(c) for c in clients])
    ax.set_xlabel("concurrent clients")
    ax.set_ylabel("per second")
    ax.set_ylim(bottom=0)
    note = f", {iterations.pop()} iterations a hint" if len(iterations) == 1 else ""
    ax.set_title(f"Service throughput{note}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def latency_bars(files: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every latency bar in the load results (`latency_bar` and `latency_bars`), by iterations."""
    bars = []
    for data in files:
        for bar in [data.get("latency_bar"), *(data.get("latency_bars") or [])]:
            if isinstance(bar, dict) and "iterations" in bar and "latency_ms" in bar:
                bars.append(bar)
    return sorted(bars, key=lambda bar: bar["iterations"])


def plot_latency(bars: list[dict[str, Any]], path: Path) -> None:
    """Median and p99 hint latency against iterations a hint."""
    if len({bar["iterations"] for bar in bars}) < 2:
        raise _Missing(
            f"hint latency at {len(bars)} iteration count(s); a curve needs two or more "
            "(run benchmarks.load with several --iterations into load-*.json)"
        )
    plt = _pyplot()
    xs = [bar["iterations"] for bar in bars]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(xs, [bar["latency_ms"]["median"] for bar in bars], marker="o", label="median")
    ax.plot(xs, [bar["latency_ms"]["p99"] for bar in bars], marker="^", label="p99")
    limit = next((bar["bar_ms"] for bar in bars if "bar_ms" in bar), None)
    if limit is not None:
        ax.axhline(limit, color="grey", linestyle="--", linewidth=0.8, label=f"bar {limit} ms")
    ax.set_xscale("log")
    ax.set_xticks(xs, [str(x) for x in xs])
    ax.minorticks_off()
    ax.set_xlabel("ISMCTS iterations a hint")
    ax.set_ylabel("hint latency (ms, as the client sees it)")
    ax.set_title("Hint latency against iterations")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


class _Missing(Exception):
    """The results a plot needs are not there."""


def _si(value: float) -> str:
    for factor, unit in ((1e6, "M"), (1e3, "k")):
        if value >= factor:
            return f"{value / factor:.3g}{unit}"
    return f"{value:.3g}"


def _read(path: Path) -> dict[str, Any]:
    if not path.exists():
        raise _Missing(f"no {path.name}")
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise _Missing(f"{path.name} is not a JSON object")
    return data


def draw(results: Path, short: bool = False) -> dict[str, str]:
    """Draw every plot whose results are in `results`; answer {png name: "written" or why not}."""
    suffix = "-short" if short else ""
    load_files = sorted(results.glob("load*.json"))
    load_files = [f for f in load_files if f.stem.endswith("-short") == short]

    jobs: list[tuple[str, Callable[[Path], None]]] = [
        ("playouts_per_s", lambda out: plot_speed(_read(results / f"speed{suffix}.json"), out)),
        ("search_threads", lambda out: plot_search(_read(results / f"search{suffix}.json"), out)),
        ("load_throughput", lambda out: plot_throughput(_read(results / f"load{suffix}.json"), out)),
        ("hint_latency", lambda out: plot_latency(latency_bars([_read(f) for f in load_files]), out)),
    ]
    outcome = {}
    for name, job in jobs:
        png = f"{name}{suffix}.png"
        try:
            job(results / png)
        except (_Missing, KeyError, TypeError) as why:
            reason = str(why) if isinstance(why, _Missing) else f"results lack the field {why}"
            outcome[png] = f"skipped: {reason}"
        else:
            outcome[png] = "written"
    return outcome


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.plots", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--results", type=Path, default=RESULTS, help="where the results are")
    parser.add_argument("--short", action="store_true", help="plot the *-short.json results of `make bench`")
    args = parser.parse_args(argv)
    for png, outcome in draw(args.results, short=args.short).items():
        print(f"benchmarks.plots: {args.results / png}: {outcome}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Strength against iterations: ISMCTS against an opponent at several search sizes.

    python -m benchmarks.strength [--rules durak] [--opponent greedy] [--deals 60]
                                  [--iterations 300,1000,3000,10000] [--workers N] [--short]

Each point is a paired-deal arena (every deal in both seat rotations) of
`ismcts` with a fixed iteration count per move against the opponent. Iteration
limits (not time) make every point reproducible whatever else the machine does.
Writes `benchmarks/results/strength.json` and the plot
`benchmarks/results/winrate_vs_iterations.png`; `--short` (10 deals at 100,
300 and 1000 iterations unless told otherwise) writes `strength-short.json` and
`winrate_vs_iterations-short.png` instead, so a quick run never replaces the
figures of a full one.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from solver.tools.arena import build_tasks, run_arena, summarize

RESULTS = Path(__file__).resolve().parent / "results"


def measure(
    rules: str, opponent: str, deals: int, iterations: int, seed: int, workers: int | None
) -> dict[str, Any]:
    engine = {"engine": "ismcts", "limits": {"iterations": iterations}}
    tasks = build_tasks([engine, opponent], deals, rules=rules, players=2, seed=seed)
    records = run_arena(tasks, workers=workers, progress=False)
    stats = summarize(records).to_json()["engines"][0]
    return {"iterations": iterations, "score": stats["score"], "ci95": stats["ci95"], "games": stats["games"]}


def plot(points: list[dict[str, Any]], rules: str, opponent: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [p["iterations"] for p in points]
    ys = [p["score"] for p in points]
    low = [p["score"] - p["ci95"][0] for p in points]
    high = [p["ci95"][1] - p["score"] for p in points]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.errorbar(xs, ys, yerr=[low, high], marker="o", capsize=4)
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xscale("log")
    ax.set_ylim(0, 1)
    ax.set_xlabel("ISMCTS iterations per move")
    ax.set_ylabel(f"mean score against {opponent} (95% Wilson)")
    ax.set_title(f"{rules}, 2 seats, {points[0]['games']} games a point")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rules", default="durak")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--deals", type=int)
    parser.add_argument("--iterations")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--workers", type=int, default=0, help="processes (0: every core)")
    parser.add_argument("--short", action="store_true", help="a quick run: 10 deals at 100-1000 iterations")
    args = parser.parse_args(argv)
    if args.deals is None:
        args.deals = 10 if args.short else 60
    if args.iterations is None:
        args.iterations = "100,300,1000" if args.short else "300,1000,3000,10000"
    suffix = "-short" if args.short else ""
    points = []
    for iterations in (int(x) for x in args.iterations.split(",")):
        point = measure(args.rules, args.opponent, args.deals, iterations, args.seed, args.workers or None)
        print(json.dumps(point), flush=True)
        points.append(point)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"strength{suffix}.json").write_text(
        json.dumps(
            {"rules": args.rules, "opponent": args.opponent, "deals": args.deals, "seed": args.seed,
             "short": args.short, "points": points},
            indent=2,
        )
        + "\n"
    )
    plot(points, args.rules, args.opponent, RESULTS / f"winrate_vs_iterations{suffix}.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

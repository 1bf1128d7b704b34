"""Does the engine get stronger with thinking time? A self-play ladder of iteration budgets.

    python -m benchmarks.ladder --rules durak --budgets 1000,3000,10000,30000,100000 \\
        --deals 60 --seed 77 --workers 1 --out benchmarks/results/ladder/durak [--resume]

Each rung is an arena of the engine at one budget against itself at the next
budget down, on paired deals (every deal in both seat rotations), written to
`OUT/A-B.jsonl` as its games end, so a run cut short resumes with `--resume`.
Budgets are iteration limits, not times: a rung gives the same games on a
loaded machine as on an idle one, and the ladder can run beside other work.

Reported per rung (and written to `OUT/summary.json`): the higher budget's
score with a 95% interval from the spread of its per-deal mean scores (the
luck of the deal falls out of each pair of rotations), the Elo difference and
its interval, and the Elo per doubling of the budget, `Elo / log2(B/A)`. A
search that gets stronger with time shows a positive Elo per doubling at every
rung; one that has reached its model's ceiling shows 0.

`--engine` is the seat spec the budgets are given to (default the default
engine, `{"engine": "ismcts"}`), so every later model runs the same ladder.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from solver.tools.arena import read_results
from solver.tools.arena.runners import run_arena
from solver.tools.arena.statistics import elo_difference
from solver.tools.arena.tasks import build_tasks

RESULTS = Path(__file__).resolve().parent / "results" / "ladder"


def rung_specs(engine: Mapping[str, Any], high: int, low: int) -> list[dict[str, Any]]:
    """The two seats of a rung: `engine` at `high` iterations (listed first) and at `low`."""
    specs = []
    for budget in (high, low):
        spec = dict(engine)
        spec["limits"] = {"iterations": budget}
        spec["name"] = f"{budget}it"
        specs.append(spec)
    return specs


def deal_means(records: Sequence[Mapping[str, Any]], label: str) -> list[float]:
    """`label`'s mean score on each deal (over the rotations of that deal the file holds)."""
    scores: dict[int, list[float]] = defaultdict(list)
    for record in records:
        for seat, engine in enumerate(record["engines"]):
            if engine == label:
                scores[int(record["deal"])].append(float(record["scores"][seat]))
    return [statistics.fmean(values) for _, values in sorted(scores.items())]


def rung_summary(records: Sequence[Mapping[str, Any]], high: int, low: int) -> dict[str, Any]:
    """The higher budget's score over the rung's deals, with intervals, Elo and Elo per doubling."""
    means = deal_means(records, f"{high}it")
    deals = len(means)
    if not deals:
        return {"high": high, "low": low, "deals": 0, "games": 0}
    score = statistics.fmean(means)
    half = 1.96 * statistics.stdev(means) / math.sqrt(deals) if deals > 1 else math.inf
    low_score, high_score = max(score - half, 0.0), min(score + half, 1.0)
    doublings = math.log2(high / low)

    def rounded(value: float) -> float | None:
        return round(value, 1) if math.isfinite(value) else None

    elo = elo_difference(score)
    elo_low, elo_high = elo_difference(low_score), elo_difference(high_score)
    return {
        "high": high,
        "low": low,
        "deals": deals,
        "games": len(records),
        "score": round(score, 4),
        "ci95": [round(low_score, 4), round(high_score, 4)],
        "elo": rounded(elo),
        "elo_ci95": [rounded(elo_low), rounded(elo_high)],
        "elo_per_doubling": rounded(elo / doublings),
        "elo_per_doubling_ci95": [rounded(elo_low / doublings), rounded(elo_high / doublings)],
        "seconds": round(sum(float(record["seconds"]) for record in records), 1),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="durak", help="a preset or docs/rules.md §1.6 JSON")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--budgets", default="1000,3000,10000,30000,100000", help="iterations, rising")
    parser.add_argument("--deals", default="60", help="deals per rung: one number, or one per rung")
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--engine", default='{"engine": "ismcts"}', help="the seat spec (JSON)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=RESULTS / "durak", help="a folder for the rungs")
    parser.add_argument("--resume", action="store_true", help="keep the rungs' games, play the rest")
    parser.add_argument("--summary-only", action="store_true", help="play nothing; summarize --out")
    args = parser.parse_args(argv)

    budgets = [int(text) for text in args.budgets.split(",")]
    if len(budgets) < 2 or budgets != sorted(set(budgets)) or budgets[0] < 1:
        parser.error("--budgets: at least two rising positive iteration counts")
    deal_counts = [int(text) for text in str(args.deals).split(",")]
    if len(deal_counts) == 1:
        deal_counts *= len(budgets) - 1
    if len(deal_counts) != len(budgets) - 1:
        parser.error("--deals: one number, or one per rung")
    engine = json.loads(args.engine)
    if isinstance(engine, str):
        engine = {"engine": engine}
    rules = json.loads(args.rules) if args.rules.lstrip().startswith("{") else args.rules

    args.out.mkdir(parents=True, exist_ok=True)
    rungs = []
    for (low, high), deals in zip(itertools.pairwise(budgets), deal_counts, strict=True):
        path = args.out / f"{high}-{low}.jsonl"
        if not args.summary_only:
            tasks = build_tasks(
                rung_specs(engine, high, low), deals, rules=rules, players=args.players, seed=args.seed
            )
            run_arena(tasks, workers=args.workers, out=path, resume=args.resume, progress=False)
        rung = rung_summary(read_results(path), high, low)
        rungs.append(rung)
        print(json.dumps(rung), flush=True)
    summary = {
        "command": "python -m benchmarks.ladder "
        + f"--rules {args.rules} --players {args.players} --budgets {args.budgets} --deals {args.deals} "
        + f"--seed {args.seed} --engine '{args.engine}'",
        "rules": rules,
        "players": args.players,
        "engine": engine,
        "rungs": rungs,
    }
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Two engines against one opponent on the same deals: the difference of their scores, deal by deal.

    python -m benchmarks.paired A.jsonl ENGINE_A B.jsonl ENGINE_B [--output FILE]

Two arenas played with the same rules, seed and deal count against the same
opponent deal the same decks, so the luck of the deal falls out of the
difference between the two engines' mean score on each deal (both seat
rotations). Reported: the deals both files hold, each engine's mean score over
them, and the mean difference A − B with a 95% interval from the spread of the
per-deal differences (normal approximation). A finer test than comparing two
Wilson intervals, which each carry the deals' luck.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

from solver.tools.arena import read_results

RESULTS = Path(__file__).resolve().parent / "results"


def deal_scores(records: list[dict[str, Any]], engine: str) -> dict[tuple[Any, int], float]:
    """`engine`'s mean score on each deal (keyed by the deck and the deal's number), over the
    rotations that deal was played in."""
    scores: dict[tuple[Any, int], list[float]] = defaultdict(list)
    for record in records:
        for seat, label in enumerate(record["engines"]):
            if label == engine:
                scores[(tuple(record["deck"]), record["deal"])].append(float(record["scores"][seat]))
    return {deal: sum(values) / len(values) for deal, values in scores.items()}


def compare(first: dict[tuple[Any, int], float], second: dict[tuple[Any, int], float]) -> dict[str, Any]:
    """The mean difference over the deals both hold, with its 95% interval."""
    deals = sorted(set(first) & set(second), key=lambda deal: deal[1])
    if len(deals) < 2:
        raise ValueError(f"the two arenas share {len(deals)} deal(s): same rules, seed and opponent?")
    differences = [first[deal] - second[deal] for deal in deals]
    mean = statistics.fmean(differences)
    half = 1.96 * statistics.stdev(differences) / math.sqrt(len(deals))
    return {
        "deals": len(deals),
        "first": round(statistics.fmean(first[deal] for deal in deals), 4),
        "second": round(statistics.fmean(second[deal] for deal in deals), 4),
        "difference": round(mean, 4),
        "ci95": [round(mean - half, 4), round(mean + half, 4)],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.paired", description=__doc__.split("\n\n")[0])
    parser.add_argument("first", type=Path, help="tan arena --out file of engine A")
    parser.add_argument("first_engine", help="engine A's label in that file")
    parser.add_argument("second", type=Path, help="tan arena --out file of engine B")
    parser.add_argument("second_engine", help="engine B's label in that file")
    parser.add_argument("--output", type=Path, default=None)
    args = parser.parse_args(argv)
    result = compare(
        deal_scores(read_results(args.first), args.first_engine),
        deal_scores(read_results(args.second), args.second_engine),
    )
    result = {"first": str(args.first), "second": str(args.second), **result}
    print(
        f"{result['deals']} deals: {args.first_engine} {result['first']:.3f}, "
        f"{args.second_engine} {result['second']:.3f}, difference {result['difference']:+.3f} "
        f"({result['ci95'][0]:+.3f} to {result['ci95'][1]:+.3f})"
    )
    if args.output is not None:
        args.output.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

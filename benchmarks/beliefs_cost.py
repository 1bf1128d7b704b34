"""What reading a game's history costs a hint: a record of 60 moves or more against its position.

    python -m benchmarks.beliefs_cost RESULTS.jsonl [...] [--positions 20] [--iterations 10000]
                                      [--repeat 5] [--output FILE]

From the games `tan arena --out` recorded (moves included), the first
position at ply 60 or later where a seat holding cards is to move with cards
in the stock is taken from each game, up to `--positions`. For each, two
requests are timed in turn, `--repeat` times: a hint from the seat's game
record (`read_record`: replaying the record, the history, weighing the
worlds, then the search) and a hint from the same position with no history
(uniform worlds), both at `--iterations` iterations with the same seed. Prints
and writes (`benchmarks/results/beliefs-cost.json`) the median time of each,
and the median over positions of the per-position ratio.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from solver.game.cards import Card
from solver.game.moves import Move
from solver.game.phases import Phase
from solver.game.position import Position
from solver.game.record import Record
from solver.game.reference import Game
from solver.game.rules import Rules
from solver.search import Limits, Solver
from solver.search.beliefs import read_record
from solver.tools.arena import read_results

RESULTS = Path(__file__).resolve().parent / "results"


def cases(records: list[dict[str, Any]], count: int, min_ply: int) -> list[tuple[Record, Position]]:
    """Up to `count` (record, position) pairs: the seat to move at ply `min_ply` or later."""
    found: list[tuple[Record, Position]] = []
    for record in records:
        if len(found) >= count:
            break
        if "moves" not in record or record.get("match") is not None:
            continue
        rules = Rules.from_json(record["rules"])
        deal = dict(deck=record["deck"], chance_seed=record["deal_seed"])
        first = Game.deal(rules, record["players"], **deal)  # type: ignore[arg-type]
        game = first.clone()
        history: list[tuple[int, Move]] = []
        for ply, (seat, text) in enumerate(record["moves"]):
            mover = game.to_move
            if ply >= min_ply and mover is not None and game.stock and game.phase is Phase.PLAY:
                deck = [Card.parse(card) for card in record["deck"]]
                found.append(
                    (
                        Record.of_game(first, mover, deck, history),
                        Position.from_game(game, mover),
                    )
                )
                break
            move = Move.parse(text)
            game.play(move, seat)
            history.append((seat, move))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.beliefs_cost", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("results", nargs="+", type=Path)
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--min-ply", type=int, default=60)
    parser.add_argument("--iterations", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--output", type=Path, default=RESULTS / "beliefs-cost.json")
    args = parser.parse_args(argv)
    records = [record for path in args.results for record in read_results(path)]
    solver, limits = Solver(), Limits(iterations=args.iterations)
    rows = []
    for record, position in cases(records, args.positions, args.min_ply):
        with_history, without = [], []
        for _ in range(args.repeat):
            start = time.perf_counter()
            seen, history = read_record(record)
            hint = solver.hint(seen, limits, seed=1, history=history)
            with_history.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            solver.hint(position, limits, seed=1)
            without.append((time.perf_counter() - start) * 1000)
        rows.append(
            {
                "events": len(record.events),
                "with_history_ms": round(statistics.median(with_history), 2),
                "without_ms": round(statistics.median(without), 2),
                "ratio": round(
                    statistics.median(a / b for a, b in zip(with_history, without, strict=True)), 3
                ),
                "beliefs": hint.stats.beliefs,
            }
        )
        print(json.dumps(rows[-1]))
    summary = {
        "positions": len(rows),
        "iterations": args.iterations,
        "median_events": statistics.median(r["events"] for r in rows) if rows else None,
        "median_with_history_ms": statistics.median(r["with_history_ms"] for r in rows) if rows else None,
        "median_without_ms": statistics.median(r["without_ms"] for r in rows) if rows else None,
        "median_ratio": statistics.median(r["ratio"] for r in rows) if rows else None,
        "max_ratio": max((r["ratio"] for r in rows), default=None),
    }
    print(json.dumps(summary))
    args.output.write_text(json.dumps({"summary": summary, "positions": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

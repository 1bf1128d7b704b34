"""How much dearer is an iteration in an endgame than in the opening?

    python -m benchmarks.endgames --rules durak --positions 40 --iterations 500 --seed 3 \\
        [--exact-average 256] [--output FILE]

With the stock empty and two seats left, the search solves each world's endgame
exactly inside the tree once few enough cards are in hand. Where those solves
are hard (many cards, a solve that runs out of its node budget), an iteration
used to cost a thousand times an opening's. Positions: random games of the
rules played until the stock is empty with 14–24 cards in the two hands (too
many for the root's exact solve to finish at once, so the tree search answers).
Each is searched for `--iterations` (an iteration limit, as arenas and the
command use: the case where a dear iteration makes a search run for minutes),
alternating with a 5,000-iteration search of the opening of the same deal, and the
ratio of their iterations a second (the search's own rate, without the root's
exact attempt) is reported: its median and worst over the positions. Timed,
so run it on a quiet machine; the ratio, not the rate, is the figure.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from solver.game.position import Position
from solver.game.reference import Game, random_deck
from solver.game.rules import PRESETS
from solver.search import Limits, Solver


def endgame_positions(preset: str, count: int, seed: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(opening, endgame) position pairs from random games of `preset` with two seats."""
    rules = PRESETS[preset]
    rng = random.Random(seed)
    pairs = []
    while len(pairs) < count:
        game = Game.deal(rules, 2, deck=random_deck(rules, rng.getrandbits(32)))
        opening = Position.from_game(game, game.to_move).to_json()
        while not game.over:
            cards = sum(len(hand) for hand in game.hands)
            chooses = game.to_move is not None and len(game.legal_moves()) > 1
            if not game.stock and 14 <= cards <= 24 and chooses:
                pairs.append((opening, Position.from_game(game, game.to_move).to_json()))
                break
            game.play(rng.choice(game.legal_moves()), game.to_move)
    return pairs


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="durak", choices=sorted(PRESETS))
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--iterations", type=int, default=500)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--exact-average", type=int, default=None,
                        help="the solver's option (default: its own)")
    parser.add_argument("--output", type=Path)
    args = parser.parse_args(argv)
    options = {} if args.exact_average is None else {"exact_average": args.exact_average}
    solver = Solver(**options)
    limits = Limits(iterations=args.iterations, time_ms=None)
    rows = []
    for opening, endgame in endgame_positions(args.rules, args.positions, args.seed):
        first = solver.hint(opening, Limits(iterations=5000, time_ms=None), seed=1).stats
        late = solver.hint(endgame, limits, seed=1).stats
        rate = late.iterations_per_s if late.algorithm != "exact" else None
        rows.append({
            "cards": len(endgame["hand"]) + sum(endgame["hand_counts"]) - len(endgame["hand"]),
            "opening_per_s": round(first.iterations_per_s),
            "endgame_per_s": None if rate is None else round(rate),
            "answered_by": late.algorithm,
            "ratio": None if not rate else round(first.iterations_per_s / rate, 2),
        })
        print(json.dumps(rows[-1]), flush=True)
    ratios = [row["ratio"] for row in rows if row["ratio"] is not None]
    summary = {
        "command": "python -m benchmarks.endgames " + " ".join(argv if argv is not None else []),
        "rules": args.rules, "positions": len(rows), "iterations": args.iterations, "seed": args.seed,
        "exact_average": solver.exact_average,
        "searched": len(ratios), "solved_at_the_root": len(rows) - len(ratios),
        "median_ratio": round(statistics.median(ratios), 2) if ratios else None,
        "worst_ratio": max(ratios) if ratios else None,
        "rows": rows,
    }
    print(json.dumps({key: value for key, value in summary.items() if key != "rows"}))
    if args.output:
        args.output.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

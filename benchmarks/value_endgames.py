"""How well does a value net judge endgames the exact solver can prove?

    python -m benchmarks.value_endgames --rules durak --cards 12 --positions 600 \\
        [--model value-durak-2 --model value-durak-2-c7 ...] [--output FILE] GAMES.jsonl [...]

A value net learns final scores of self-play, where the play after a state is
the engine's, not perfect; the tree leans on it at every leaf, endgames
included. Where the stock is empty and two seats are in, the exact solver
proves each state's value, so a net can be checked against the truth there
before any arena: a candidate that misjudges proven endgames (generation c7
gave a won forced take about 0.1) makes the search misplay positions the
engine of before won. Positions: the states of the recorded games (arena
results files, best games no net was trained on) with the stock empty, two
seats in, at most `--cards` cards in the two hands and a seat with a choice,
at most one per game and seat to move, in file order up to `--positions`.
Each is solved exactly for the seat to move; every model named gives its
value for that seat. Reported per model: log-loss and Brier score against
the proven score, and how often it is on the right side of one half on the
won and lost positions (draws count only in the losses).
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from solver.core import CoreGame
from solver.game.rules import PRESETS, Rules
from solver.search import _endgame
from solver.search._model import ValueModel
from solver.search.learned import named_model
from solver.tools.arena import read_results
from solver.tools.train import replay

BUDGET = 2_000_000
"""Nodes an exact solve may use; a position that needs more is skipped (and counted)."""


Proven = tuple[CoreGame, int, float]
"""A state, the seat to move and its proven score."""


def proven_positions(paths: Sequence[Path], rules: str, cards: int, count: int) -> tuple[list[Proven], int]:
    """(state, seat to move, its proven score) for up to `count` recorded endgames, and how many
    were skipped because the exact solve ran out of nodes."""
    found: list[Proven] = []
    skipped = 0
    for path in paths:
        for record in read_results(path):
            if Rules.from_json(record["rules"]) != PRESETS[rules] or int(record["players"]) != 2:
                continue
            seen: set[int] = set()
            for game in replay(record):
                snap = game.snapshot()
                seat = game.to_move
                held = sum(len(hand) for hand in snap["hands"])
                if (snap["stock"] or game.over or seat in seen or held > cards
                        or len(game.legal_codes()) < 2):
                    continue
                try:
                    solved = _endgame.solve_exact(game, seat, BUDGET)
                except TimeoutError:
                    skipped += 1
                    continue
                except ValueError:
                    continue
                seen.add(seat)
                found.append((game.copy(), seat, solved.value / 2))
                if len(found) >= count:
                    return found, skipped
    return found, skipped


def judged(model: ValueModel, positions: Sequence[Proven]) -> dict[str, Any]:
    """A model's log-loss, Brier score and side-of-a-half accuracy against the proven scores."""
    loss = brier = 0.0
    right = {"won": [0, 0], "lost": [0, 0]}
    for game, seat, truth in positions:
        p = min(max(model.value(game, seat), 1e-6), 1 - 1e-6)
        loss -= truth * math.log(p) + (1 - truth) * math.log(1 - p)
        brier += (p - truth) ** 2
        side = "won" if truth == 1.0 else "lost"
        right[side][1] += 1
        right[side][0] += (p > 0.5) == (truth == 1.0)
    n = max(len(positions), 1)
    return {"log_loss": round(loss / n, 4), "brier": round(brier / n, 4),
            **{f"right_when_{side}": round(r / max(t, 1), 3) for side, (r, t) in right.items()},
            **{f"{side}_positions": t for side, (_, t) in right.items()}}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+", type=Path, help="arena results files (JSON lines)")
    parser.add_argument("--rules", default="durak", choices=sorted(PRESETS))
    parser.add_argument("--cards", type=int, default=12, help="at most this many cards in the two hands")
    parser.add_argument("--positions", type=int, default=600)
    parser.add_argument("--model", action="append", default=None,
                        help="a value net by name (repeatable; default: the one shipped for the rules)")
    parser.add_argument("--output", type=Path)
    args = parser.parse_args(argv)
    names = args.model or [f"value-{args.rules}-2"]
    models = {name: named_model(name) for name in names}
    for name, model in models.items():
        if model.kind != "value" or model.rules != args.rules or model.players != 2:
            parser.error(f"{name} is not a two-seat value net for {args.rules}")
    positions, skipped = proven_positions(args.games, args.rules, args.cards, args.positions)
    won = sum(truth == 1.0 for _, _, truth in positions)
    result = {
        "rules": args.rules, "cards": args.cards, "positions": len(positions), "won": won,
        "skipped_over_budget": skipped, "games": [str(path) for path in args.games],
        "models": {name: judged(model.net, positions) for name, model in models.items()},  # type: ignore[arg-type]
    }
    text = json.dumps(result, indent=2)
    print(text)
    if args.output:
        args.output.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

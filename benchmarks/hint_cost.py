"""What a hint costs an engine: a few iteration-limited hints from seeded positions, as one process.

    python -m benchmarks.hint_cost --engine ismcts_playouts --rules durak --iterations 10000 --hints 5

Timed as a whole process against another engine's, in alternating pairs (BENCHMARKS.md, "What the
learned models cost"), so that a machine whose speed drifts moves both alike. The positions are
the seat to move after 2, 6, 10, … random plies of seeded deals (the same for every engine), and
each hint searches the position with the engine's options and `--iterations`; the process prints
the iterations and the search time it saw, so a run can also be read alone.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from solver.game.position import Position
from solver.game.reference import Game, random_deck
from solver.game.rules import Rules
from solver.players import make_player
from solver.players.searching import SearchPlayer
from solver.search import Limits


def positions(rules: Rules, count: int, seed: int) -> list[Position]:
    """The seat to move after 2, 6, 10, … random plies of deals `seed`, `seed` + 1, …, skipping
    positions with one legal move or nothing hidden (those are not searched)."""
    found: list[Position] = []
    deal = seed
    while len(found) < count:
        game = Game.deal(rules, 2, deck=random_deck(rules, deal))
        rng = random.Random(deal)
        for _ in range(2 + 4 * (len(found) % 8)):
            if game.over:
                break
            game.play(rng.choice(game.legal_moves()), game.to_move)
        deal += 1
        if game.over or game.to_move is None:
            continue
        position = Position.from_game(game, game.to_move)
        if len(position.legal_moves()) > 1 and position.stock:
            found.append(position)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.hint_cost",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="ismcts", help="a seat spec: a name or JSON (docs/api.md §3)")
    parser.add_argument("--rules", default="durak")
    parser.add_argument("--iterations", type=int, default=10_000)
    parser.add_argument("--hints", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    spec = json.loads(args.engine) if args.engine.lstrip().startswith("{") else args.engine
    player = make_player(spec)
    if not isinstance(player, SearchPlayer):
        parser.error(f"{args.engine}: not a searching engine")
    rules = Rules.from_json(args.rules)
    iterations = 0
    seconds = 0.0
    models = set()
    for position in positions(rules, args.hints, args.seed):
        start = time.perf_counter()
        hint = player.solver.hint(position, Limits(iterations=args.iterations), seed=args.seed)
        seconds += time.perf_counter() - start
        iterations += hint.stats.iterations
        models.add(hint.stats.model)
    print(json.dumps({"engine": spec, "rules": args.rules, "hints": args.hints, "iterations": iterations,
                      "seconds": round(seconds, 4), "iterations_per_s": round(iterations / seconds),
                      "models": sorted(models)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

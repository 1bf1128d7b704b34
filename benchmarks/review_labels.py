"""The review's labels from measured losses: what the engine's own choice loses to a second search
(the search's noise), and what the greedy player's moves lose against the engine's choices.

    python -m benchmarks.review_labels [--rules durak,tan] [--games 40] [--iterations 5000]
                                       [--seed 20] [--output FILE]

Greedy plays both seats of `--games` seeded deals per rule set (2 seats). At each
unforced play-phase decision of seat 0 the position that seat saw (with its
history of the others' moves, as a review weighs it) is searched twice, with two
seeds, at `--iterations`:

- **noise**: the first search's best move, scored by the second search, against
  the second search's best: the loss a review would charge the engine's own
  choice. A label below `good`'s bound should cover nearly all of it.
- **greedy**: the greedy move's loss in the first search (the review's loss).

It prints and writes (`benchmarks/results/review-labels.json`) the quantiles of
both, and the bounds `solver/search/review.py` takes from them: `good` below the
95th percentile of the noise (rounded up to the point); `inaccuracy`, `mistake` and
`blunder` from the greedy losses above that bound, at their 50th and 85th percentiles
(rounded to the point): a move greedy plays is typically an inaccuracy when it costs
anything, a mistake in its costliest sixth, a blunder past that.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from solver.game.moves import Move
from solver.game.phases import Phase
from solver.game.position import Position
from solver.game.reference import Game
from solver.game.rules import Rules
from solver.players import GreedyPlayer
from solver.search.beliefs import HistoryReader
from solver.search.budget import Limits
from solver.search.solver import Solver

RESULTS = Path(__file__).resolve().parent / "results"
QUANTILES = (0.5, 0.75, 0.9, 0.95, 0.99)


def measure(rules: Rules, games: int, iterations: int, seed: int) -> dict[str, list[float]]:
    """The noise and greedy losses of seat 0's unforced decisions over `games` greedy-vs-greedy deals."""
    solver = Solver()
    greedy = GreedyPlayer()
    limits = Limits(iterations=iterations)
    rng = random.Random(seed)
    noise: list[float] = []
    losses: list[float] = []
    for _ in range(games):
        game = Game.deal(rules, 2, seed=rng.getrandbits(63))
        reader = HistoryReader(0, game.trump)
        while not game.over:
            mover = game.to_move
            position = Position.from_game(game, mover)
            move = greedy.choose(position, rng.getrandbits(32))
            if mover == 0 and game.phase is Phase.PLAY and len(position.legal_moves()) > 1:
                history = reader.history()
                first = solver.hint(position, limits, seed=rng.getrandbits(63), history=history)
                second = solver.hint(position, limits, seed=rng.getrandbits(63), history=history)
                noise.append(_loss(second, first.best))
                losses.append(_loss(first, move))
            before = game.clone()
            game.play(move, mover)
            reader.observe(mover, move, before, game)
    return {"noise": noise, "greedy": losses}


def _loss(hint: Any, move: Move) -> float:
    """The review's loss of `move` in `hint`: the best move's score minus its own, at least 0."""
    scores = {value.move: value.score for value in hint.moves}
    best = scores[hint.best]
    return 0.0 if move == hint.best else max(0.0, best - scores[move])


def quantiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    return {f"p{round(q * 100)}": round(float(np.quantile(values, q)), 4) for q in QUANTILES}


def bounds(noise: list[float], greedy: list[float]) -> dict[str, float]:
    """The labels' bounds: good below the noise's 95th percentile; of the greedy losses past it,
    the median starts a mistake and the 85th percentile a blunder (each rounded to the point)."""
    good = math.ceil(float(np.quantile(noise, 0.95)) * 100) / 100
    costly = [loss for loss in greedy if loss >= good] or [good]
    mistake = max(good + 0.01, round(float(np.quantile(costly, 0.5)) * 100) / 100)
    blunder = max(mistake + 0.01, round(float(np.quantile(costly, 0.85)) * 100) / 100)
    return {"good": good, "inaccuracy": mistake, "mistake": blunder}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="durak,tan")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--iterations", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--output", type=Path, default=RESULTS / "review-labels.json")
    args = parser.parse_args(argv)
    started = time.monotonic()
    noise: list[float] = []
    greedy: list[float] = []
    per_rules: dict[str, Any] = {}
    for index, name in enumerate(args.rules.split(",")):
        measured = measure(Rules.preset_named(name), args.games, args.iterations, args.seed + index)
        noise += measured["noise"]
        greedy += measured["greedy"]
        per_rules[name] = {
            "decisions": len(measured["noise"]),
            "noise": quantiles(measured["noise"]),
            "greedy": quantiles(measured["greedy"]),
            "greedy_zero": round(
                sum(loss == 0 for loss in measured["greedy"]) / max(len(measured["greedy"]), 1), 4
            ),
        }
        print(name, json.dumps(per_rules[name]))
    result = {
        "command": "python -m benchmarks.review_labels " + " ".join(sys.argv[1:] if argv is None else argv),
        "games": args.games,
        "iterations": args.iterations,
        "seed": args.seed,
        "decisions": len(noise),
        "noise": quantiles(noise),
        "greedy": quantiles(greedy),
        "bounds_below": bounds(noise, greedy),
        "per_rules": per_rules,
        "seconds": round(time.monotonic() - started, 1),
    }
    print(json.dumps({key: result[key] for key in ("decisions", "noise", "greedy", "bounds_below")}))
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

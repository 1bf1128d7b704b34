"""Where more search changes the move, which move was right? The disagreement set.

    python -m benchmarks.disagreements GAMES.jsonl --high 30000 --low 3000 --decisions 40 \\
        --replays 12 --continue-iterations 1000 --seed 5 --out RESULT.json

The games of an arena file are replayed move by move. At each decision of the
play with more than one legal move, the engine is asked at both budgets, with
the seat's own view and history and the same seed. Where the two choose
differently, the game (with its true hidden cards) is continued from each
choice `--replays` times, the engine playing every seat at
`--continue-iterations` a move with a new move seed each time; the mover's mean
score after each choice says which choice was right, against the engine
itself. Written: each disagreement (game, ply, both moves, both mean scores),
and over all of them the share the high budget chose better, the mean score it
gained, and how often the two budgets agreed at all.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from solver.game.moves import Move
from solver.game.phases import Phase
from solver.game.position import Position
from solver.game.reference import Game, random_deck
from solver.game.rules import Rules
from solver.players import make_player
from solver.tools.arena import read_results
from solver.tools.arena.tasks import _play, _readers


def _engine(base: dict[str, Any], iterations: int) -> dict[str, Any]:
    spec = dict(base)
    spec["limits"] = {"iterations": iterations}
    return spec


def _copy_readers(readers: list[Any]) -> list[Any]:
    """Copies of the seats' history readers (their recorded states are never changed, only added to)."""
    copies = []
    for reader in readers:
        if reader is not None:
            reader = copy.copy(reader)
            reader.states = list(reader.states)
            reader.rows = list(reader.rows)
        copies.append(reader)
    return copies


def _continue(game: Game, readers: list[Any], spec: dict[str, Any], seed: int) -> list[float]:
    """Play `game` to its end with the engine in every seat; the scores."""
    game = game.clone()
    readers = _copy_readers(readers)
    players = [make_player(spec) for _ in range(game.players)]
    seeds = random.Random(seed)
    while not game.over:
        seat = game.to_move
        assert seat is not None
        reader = readers[seat]
        position = Position.from_game(game, seat)
        move = players[seat].choose(position, seeds.getrandbits(63), reader.history() if reader else None)
        _play(game, move, seat, readers)
    return [float(score) for score in game.scores]


def disagreements(
    records: Sequence[dict[str, Any]], engine: dict[str, Any], high: int, low: int, decisions: int,
    replays: int, continue_iterations: int, seed: int,
) -> dict[str, Any]:
    """The first `decisions` disagreements found in `records`, each replayed from both choices."""
    found: list[dict[str, Any]] = []
    asked = 0
    strong, weak = make_player(_engine(engine, high)), make_player(_engine(engine, low))
    follow = _engine(engine, continue_iterations)
    for record in records:
        if len(found) >= decisions:
            break
        rules = Rules.from_json(record["rules"])
        game = Game.deal(rules, record["players"], deck=random_deck(rules, record["deal_seed"]),
                         chance_seed=record["deal_seed"])
        readers = _readers(game, [strong] * game.players)
        for ply, (seat, notation) in enumerate(record["moves"]):
            if len(found) >= decisions:
                break
            if game.phase == Phase.PLAY and len(game.legal_moves()) > 1:
                position = Position.from_game(game, seat)
                history = readers[seat].history() if readers[seat] is not None else None
                decision_seed = hash((seed, record["deal"], record["rotation"], ply)) & (2**63 - 1)
                asked += 1
                choices = [player.choose(position, decision_seed, history) for player in (strong, weak)]
                if choices[0] != choices[1]:
                    means = []
                    for choice in choices:
                        after = game.clone()
                        after_readers = _copy_readers(readers)
                        _play(after, choice, seat, after_readers)
                        scores = [
                            _continue(after, after_readers, follow, decision_seed + r)[seat]
                            for r in range(replays)
                        ]
                        means.append(statistics.fmean(scores))
                    found.append({
                        "deal": record["deal"], "rotation": record["rotation"], "ply": ply, "seat": seat,
                        "high_move": choices[0].notation, "low_move": choices[1].notation,
                        "high_score": round(means[0], 4), "low_score": round(means[1], 4),
                        "stock": len(game.stock), "hand": len(game.hands[seat]),
                    })
            _play(game, Move.parse(notation), seat, readers)
    gains = [item["high_score"] - item["low_score"] for item in found]
    return {
        "high": high, "low": low, "engine": engine, "replays": replays,
        "continue_iterations": continue_iterations, "seed": seed,
        "decisions_asked": asked, "disagreements": len(found),
        "agreement": round(1 - len(found) / asked, 4) if asked else None,
        "high_better": sum(1 for gain in gains if gain > 0),
        "low_better": sum(1 for gain in gains if gain < 0),
        "mean_gain": round(statistics.fmean(gains), 4) if gains else None,
        "gain_ci95": round(1.96 * statistics.stdev(gains) / len(gains) ** 0.5, 4) if len(gains) > 1 else None,
        "items": found,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", type=Path)
    parser.add_argument("--engine", default='{"engine": "ismcts"}')
    parser.add_argument("--high", type=int, default=30000)
    parser.add_argument("--low", type=int, default=3000)
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--replays", type=int, default=12)
    parser.add_argument("--continue-iterations", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    result = disagreements(read_results(args.games), json.loads(args.engine), args.high, args.low,
                           args.decisions, args.replays, args.continue_iterations, args.seed)
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({key: value for key, value in result.items() if key != "items"}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

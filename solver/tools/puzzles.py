"""Build the shipped puzzles (docs/api.md §3, "Puzzles") from the engine's own games.

    python -m solver.tools.puzzles --seed 1 --games 12 --out service/static/puzzles.json

Plays `--games` games of the engine against itself (an arena game, `solver.tools.arena`:
the deck and every move drawn from the seed), takes each seat's record of each game,
and keeps the decisions where one move is clearly best (`solver.search.puzzles`):
proven by the exact solver in the endgame, by a wide margin of the search before.
The file says how it was made — the command, the seed, the commit, the limits —
so that the same command remakes it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from solver.game.cards import parse_cards
from solver.game.moves import Move
from solver.game.record import Record
from solver.game.reference import Game
from solver.game.rules import Rules
from solver.search import Limits, Solver
from solver.search.puzzles import Puzzle, find_puzzles
from solver.search.review import decisions
from solver.tools.arena.tasks import GameTask, play_game

__all__ = ["build", "engine_records", "main"]


def engine_records(rules: Rules, players: int, seat_spec: Any, seed: int, games: int) -> list[Record]:
    """Every seat's record of `games` arena games of `seat_spec` against itself, deal `i` shuffled
    and played from `seed` + `i`."""
    records: list[Record] = []
    seats = tuple(seat_spec for _ in range(players))
    labels = tuple(f"seat{seat}" for seat in range(players))
    for deal in range(games):
        deal_seed = seed * 1_000 + deal
        result = play_game(GameTask(rules.to_json(), players, seats, labels, deal, deal_seed, 0, deal_seed))
        deck = parse_cards(result["deck"])
        dealt = Game.deal(rules, players, deck=deck, chance_seed=deal_seed)
        history = [(seat, Move.parse(text)) for seat, text in result["moves"]]
        records.extend(Record.of_game(dealt, seat, deck, history) for seat in range(players))
    return records


def build(
    records: Sequence[Record], limits: Limits, seed: int, checks: int, most: int, min_moves: int = 2
) -> list[Puzzle]:
    """At most `most` puzzles from each record (`checks` of its decisions searched, only those of at
    least `min_moves` legal moves: two make a coin flip), all of them told apart by id (the same
    position twice is one puzzle)."""
    solver = Solver("ismcts")
    found: dict[str, Puzzle] = {}
    for number, record in enumerate(records):
        choices = [decision for decision in decisions(record)
                   if (decision.choices or len(decision.position.legal_moves())) >= min_moves]
        for puzzle in find_puzzles(choices, solver, limits, seed + number, checks, most):
            found.setdefault(puzzle.id, puzzle)
    return list(found.values())


def _commit() -> str | None:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True,
                              cwd=Path(__file__).resolve().parent).stdout.strip() or None
    except (OSError, subprocess.CalledProcessError):
        return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m solver.tools.puzzles",
                                     description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seed", type=int, default=1, help="seed of the games and of the puzzles' searches")
    parser.add_argument("--games", type=int, default=12, help="engine games to take puzzles from")
    parser.add_argument("--rules", default="tan", help="rules preset (docs/rules.md §1.6)")
    parser.add_argument("--players", type=int, default=2, help="seats at the table")
    parser.add_argument("--play-iterations", type=int, default=300, help="the engine's iterations a move")
    parser.add_argument("--iterations", type=int, default=4000, help="iterations of each puzzle's search")
    parser.add_argument("--checks", type=int, default=8, help="decisions searched in each seat's record")
    parser.add_argument("--most", type=int, default=2, help="puzzles kept from each seat's record")
    parser.add_argument("--min-moves", type=int, default=2, help="fewest legal moves a puzzle offers")
    parser.add_argument("--out", type=Path, help="where to write the puzzles (default: standard output)")
    args = parser.parse_args(argv)
    rules = Rules.preset_named(args.rules)
    spec = {"engine": "ismcts", "limits": {"iterations": args.play_iterations}}
    records = engine_records(rules, args.players, spec, args.seed, args.games)
    limits = Limits(iterations=args.iterations)
    puzzles = build(records, limits, args.seed, args.checks, args.most, args.min_moves)
    command = "python -m solver.tools.puzzles " + " ".join(argv if argv is not None else sys.argv[1:])
    out = {
        "made_by": {
            "command": command,
            "seed": args.seed,
            "commit": _commit(),
            "games": args.games,
            "rules": args.rules,
            "players": args.players,
            "engine": spec,
            "limits": limits.to_json(),
            "min_moves": args.min_moves,
        },
        "puzzles": [puzzle.to_json() for puzzle in puzzles],
    }
    text = json.dumps(out, separators=(",", ":"), sort_keys=False) + "\n"
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.write_text(text)
        proven = sum(puzzle.proven for puzzle in puzzles)
        print(f"{len(puzzles)} puzzles ({proven} proven) from {len(records)} records -> {args.out}",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

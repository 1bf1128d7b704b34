"""Fit the opponent model of weighted beliefs on recorded arena games.

    python -m benchmarks.opponent_model RESULTS.jsonl [...] [--engine ismcts] [--output FILE]

The model (`solver.search.beliefs.OpponentModel`) says a seat plays the greedy
move with probability 1 − ε, else any legal move uniformly, with one ε per kind
of decision (lead, defend, throw). Every game of the files (`tan arena --out`,
whose records keep their moves) is replayed from its deck; at each play-phase
decision of a seat played by `--engine`, the greedy move of that seat's own
position, the number of legal moves and the move played give one term of the
likelihood, and each ε is the maximum-likelihood value (golden-section search
of a concave function). Prints and writes (`benchmarks/results/opponent-model.json`)
the fitted ε, the decisions counted and how often the engine played greedy.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from solver.core import decode_move
from solver.game.moves import Move
from solver.game.position import Position
from solver.game.reference import Game
from solver.game.rules import Rules
from solver.search import _search, prepare
from solver.search.beliefs import ROLES, OpponentModel
from solver.tools.arena import read_results

RESULTS = Path(__file__).resolve().parent / "results"


def decisions(records: Iterable[dict[str, Any]], engine: str) -> dict[str, list[tuple[bool, int]]]:
    """Per kind of decision, (played the greedy move, legal moves) for every play-phase decision
    of a seat played by `engine` in the games of `records`."""
    found: dict[str, list[tuple[bool, int]]] = {role: [] for role in ROLES}
    for record in records:
        if "moves" not in record or record.get("match") is not None:
            continue
        rules = Rules.from_json(record["rules"])
        game = Game.deal(rules, record["players"], deck=record["deck"], chance_seed=record["deal_seed"])
        for seat, text in record["moves"]:
            move = Move.parse(text)
            if game.phase == "play" and record["engines"][seat].startswith(engine):
                legal = game.legal_moves()
                greedy = decode_move(_search.greedy_code(prepare(Position.from_game(game, seat)).world()))
                found[_role(game, seat)].append((move == greedy, len(legal)))
            game.play(move, seat)
    return found


def _role(game: Game, seat: int) -> str:
    if not game.table:
        return "lead"
    if seat == game.defender and not game.taking and any(pair.defense is None for pair in game.table):
        return "defend"
    return "throw"


def log_likelihood(epsilon: float, terms: Sequence[tuple[bool, int]]) -> float:
    return sum(math.log((1 - epsilon) * greedy + epsilon / legal) for greedy, legal in terms)


def fit(terms: Sequence[tuple[bool, int]]) -> float:
    """The maximum-likelihood ε in [0.001, 1] (the log-likelihood is concave in ε)."""
    low, high = 0.001, 1.0
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a, b = high - ratio * (high - low), low + ratio * (high - low)
        if log_likelihood(a, terms) < log_likelihood(b, terms):
            low = a
        else:
            high = b
    return round((low + high) / 2, 3)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.opponent_model", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("results", nargs="+", type=Path, help="tan arena --out files")
    parser.add_argument(
        "--engine", default="ismcts", help="fit the moves of seats whose engine label starts so"
    )
    parser.add_argument("--output", type=Path, default=RESULTS / "opponent-model.json")
    args = parser.parse_args(argv)
    records = [record for path in args.results for record in read_results(path)]
    found = decisions(records, args.engine)
    default = OpponentModel()
    files = [str(path) for path in args.results]
    report: dict[str, Any] = {"files": files, "engine": args.engine, "roles": {}}
    for role, terms in found.items():
        if not terms:
            continue
        epsilon = fit(terms)
        report["roles"][role] = {
            "decisions": len(terms),
            "greedy_share": round(sum(greedy for greedy, _ in terms) / len(terms), 3),
            "epsilon": epsilon,
            "log_likelihood_per_decision": round(log_likelihood(epsilon, terms) / len(terms), 4),
            "default_epsilon": getattr(default, role),
        }
    print(json.dumps(report, indent=2))
    args.output.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

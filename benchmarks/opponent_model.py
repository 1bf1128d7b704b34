"""Fit the opponent model of weighted beliefs on recorded arena games.

    python -m benchmarks.opponent_model RESULTS.jsonl [...] [--engine ismcts] [--output FILE]

The model (`solver.search.beliefs.OpponentModel`) says a seat plays the greedy
move with probability 1 − ε, else a move drawn with weight λ^k for a card move
whose card is the k-th cheapest of the legal moves' cards and κ for taking or
passing, with its own (ε, λ, κ) for each kind of decision (lead, defend,
throw). Every game of the files (`tan arena --out`, whose records keep their
moves) is replayed from its deck; at each play-phase decision of a seat played
by `--engine` the greedy move of that seat's own position, the legal moves and
the move played give one term of the likelihood. The parameters are the
maximum-likelihood ones on a grid refined once; the plain ε-greedy model
(λ = κ = 1) is fitted beside them for comparison. Prints and writes
(`benchmarks/results/opponent-model.json`) both, the decisions counted, how
often the engine played greedy and the mean log-likelihood a decision.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from solver.core import decode_move
from solver.game.cards import Card
from solver.game.moves import Action, Move
from solver.game.phases import Phase
from solver.game.position import Position
from solver.game.reference import Game
from solver.game.rules import Rules
from solver.search import _greedy, prepare
from solver.search.beliefs import ROLES
from solver.tools.arena import read_results

RESULTS = Path(__file__).resolve().parent / "results"


def decisions(records: Iterable[dict[str, Any]], engine: str) -> dict[str, list[Term]]:
    """Per kind of decision, one `Term` for every play-phase decision of a seat whose engine label
    starts with `engine` in the games of `records`."""
    found: dict[str, list[Term]] = {role: [] for role in ROLES}
    for record in records:
        if "moves" not in record or record.get("match") is not None:
            continue
        rules = Rules.from_json(record["rules"])
        game = Game.deal(rules, record["players"], deck=record["deck"], chance_seed=record["deal_seed"])
        for seat, text in record["moves"]:
            move = Move.parse(text)
            if game.phase is Phase.PLAY and record["engines"][seat].startswith(engine):
                greedy = decode_move(_greedy.greedy_code(prepare(Position.from_game(game, seat)).world()))
                found[_role(game, seat)].append(_term(game, move, greedy))
            game.play(move, seat)
    return found


@dataclass(frozen=True)
class Term:
    """One decision as the model sees it: whether the greedy move was played, the cheapness rank
    of each legal card move (k: the k-th cheapest card), how many moves take or pass, and the
    played move's rank (-1: it took or passed)."""

    greedy: bool
    ranks: tuple[int, ...]
    others: int
    played: int


def _cost(game: Game, card: Card) -> int:
    return card.index % 13 + (13 if card.suit == game.trump.suit else 0)


def _term(game: Game, move: Move, greedy: Move) -> Term:
    legal = game.legal_moves()
    cards = [m.card for m in legal if m.card is not None and m.action is not Action.PICK]
    costs = sorted({_cost(game, card) for card in cards})
    ranks = tuple(costs.index(_cost(game, card)) for card in cards)
    played = costs.index(_cost(game, move.card)) if move.card is not None else -1
    return Term(move == greedy, ranks, len(legal) - len(cards), played)


def _role(game: Game, seat: int) -> str:
    if not game.table:
        return "lead"
    if seat == game.defender and not game.taking and any(pair.defense is None for pair in game.table):
        return "defend"
    return "throw"


class Likelihood:
    """The mean log-likelihood of terms under (ε, λ, κ), vectorised."""

    def __init__(self, terms: Sequence[Term]) -> None:
        width = max((len(t.ranks) for t in terms), default=0) or 1
        self.greedy = np.array([t.greedy for t in terms], dtype=float)
        self.ranks = np.full((len(terms), width), -1)
        for i, t in enumerate(terms):
            self.ranks[i, : len(t.ranks)] = t.ranks
        self.others = np.array([t.others for t in terms], dtype=float)
        self.played = np.array([t.played for t in terms])

    def __call__(self, epsilon: float, low: float, stay: float) -> float:
        present = self.ranks >= 0
        total = np.where(present, low ** np.maximum(self.ranks, 0), 0.0).sum(axis=1) + stay * self.others
        mine = np.where(self.played >= 0, low ** np.maximum(self.played, 0), stay)
        return float(np.log((1 - epsilon) * self.greedy + epsilon * mine / total).mean())


def fit(terms: Sequence[Term], greedy_only: bool = False) -> tuple[float, float, float]:
    """Maximum-likelihood (ε, λ, κ) on a grid, refined once around the best point; with
    `greedy_only`, λ = κ = 1 (the ε-greedy model)."""
    like = Likelihood(terms)
    eps_grid = np.linspace(0.02, 1.0, 50)
    low_grid = np.array([1.0]) if greedy_only else np.linspace(0.05, 1.0, 20)
    no_others = not like.others.any()  # leads never take or pass: κ does not matter there
    stay_grid = np.array([1.0]) if greedy_only or no_others else np.exp(np.linspace(-4, 2, 25))
    best = max((like(e, lo, st), e, lo, st) for e in eps_grid for lo in low_grid for st in stay_grid)
    _, e0, l0, s0 = best
    if not greedy_only:
        fine = [
            (like(e, lo, st), e, lo, st)
            for e in np.clip(np.linspace(e0 - 0.02, e0 + 0.02, 9), 0.01, 1.0)
            for lo in np.clip(np.linspace(l0 - 0.05, l0 + 0.05, 11), 0.01, 1.0)
            for st in (s0 * np.exp(np.linspace(-0.25, 0.25, 11)) if not no_others else [1.0])
        ]
        best = max([best, *fine])
    return round(float(best[1]), 3), round(float(best[2]), 3), round(float(best[3]), 3)


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
    report: dict[str, Any] = {
        "files": [str(path) for path in args.results],
        "engine": args.engine,
        "roles": {},
    }
    for role, terms in found.items():
        if not terms:
            continue
        like = Likelihood(terms)
        greedy_eps = fit(terms, greedy_only=True)
        full = fit(terms)
        report["roles"][role] = {
            "decisions": len(terms),
            "greedy_share": round(sum(t.greedy for t in terms) / len(terms), 3),
            "epsilon_greedy": {"epsilon": greedy_eps[0], "log_likelihood": round(like(*greedy_eps), 4)},
            "model": {
                "epsilon": full[0],
                "lambda": full[1],
                "kappa": full[2],
                "log_likelihood": round(like(*full), 4),
            },
        }
    print(json.dumps(report, indent=2))
    args.output.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Puzzles from played games (docs/api.md §3, "Puzzles"): positions where one move is clearly best.

A puzzle is a decision of a game — what the seat to move saw (docs/api.md §2.2)
— where a search of the position alone (no history: anyone may ask `/v1/hint`
the same question and get the same answer) finds one move clearly better than
every other:

- **proven** where nothing is hidden (two seats, an empty stock): the exact
  solver (`_endgame.pyx`) gives every move its game-theoretic value, and the
  best value is reached by that one move only (a win where the rest draw or
  lose, a draw where the rest lose);
- **by a margin** otherwise: every other move was searched, the best move's 95%
  interval lies wholly above every other's, and its score beats the runner-up's
  by at least `CLEAR.margin` — what the review calls at least a `mistake`
  (solver/search/labels.py), so every wrong answer is a real loss.

The answer carries the best move's line (the hint's `pv`) and every move's score,
so a player who misses it sees why. Which decisions are tried is fixed by the
seed (`candidates`), and each is searched with its own seed (`decision_seed`),
so the same decisions, limits and seed give the same puzzles when the
iteration limit stops the searches.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from solver.game.moves import Move
from solver.game.phases import chance_of
from solver.search.answers import Hint, MoveValue
from solver.search.budget import Limits
from solver.search.labels import LABELS, Label
from solver.search.lines import Line
from solver.search.review import Decision, decision_seed
from solver.search.solver import Solver

__all__ = ["CLEAR", "Clarity", "Puzzle", "candidates", "clear_best", "find_puzzles", "puzzle_of"]


@dataclass(frozen=True)
class Clarity:
    """When a searched (not proven) best move is clear enough to be a puzzle's answer: its score
    beats every other's by `margin` and its interval's low end lies above every other's high end;
    every move was tried at least `min_visits` times. `pv`: the plies of the answer's line."""

    margin: float
    min_visits: int
    pv: int


CLEAR = Clarity(
    margin=dict(LABELS)[Label.INACCURACY],  # missing the answer is at least a mistake (labels.py)
    min_visits=8,
    pv=8,
)
"""The one declaration of what a clear best move is."""


@dataclass(frozen=True)
class Puzzle:
    """A decision with one clearly best move: `hint` is the search that found it (its moves ranked,
    the best's line), `proven` when the exact solver proved it, `played` the move played in the
    game (None when unknown), `seed` and `limits` the search's, so that `/v1/hint` repeats it."""

    decision: Decision
    hint: Hint
    proven: bool
    played: Move | None
    seed: int
    limits: Limits

    @property
    def best(self) -> MoveValue:
        return self.hint.moves[0]

    @property
    def runner_up(self) -> MoveValue:
        return self.hint.moves[1]

    @property
    def line(self) -> Line | None:
        return self.best.line

    @property
    def missed(self) -> bool:
        """The game's move was not the answer: a mistake to learn from."""
        return self.played is not None and self.played != self.best.move

    @property
    def id(self) -> str:
        """Names the puzzle by its position and answer (the same puzzle found twice has one id)."""
        text = json.dumps([self.decision.position.to_json(), self.best.move.notation], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def outcome(self) -> str | None:
        """What the answer proves for the seat: `win`, `draw` or `loss` (None when searched)."""
        if not self.proven:
            return None
        score = self.best.score
        return "win" if score >= 1.0 else "loss" if score <= 0.0 else "draw"

    def to_json(self) -> dict[str, Any]:
        """The puzzle as `GET /v1/puzzles` answers it (docs/api.md §3, "Puzzles")."""
        best, runner_up = self.best, self.runner_up
        return {
            "id": self.id,
            "position": self.decision.position.to_json(),
            "seat": self.decision.position.seat,
            "chance": chance_of(self.decision.position.players).value,
            "answer": {
                "move": best.move.to_json(),
                "notation": best.move.notation,
                "proven": self.proven,
                "outcome": self.outcome(),
                "score": _rounded(best.score),
                "ci95": [_rounded(x) for x in best.ci95],
                "margin": _rounded(best.score - runner_up.score),
                "runner_up": runner_up.move.notation,
            },
            "line": None if self.line is None else self.line.to_json(),
            "moves": [
                {
                    "move": value.move.to_json(),
                    "notation": value.move.notation,
                    "score": _rounded(value.score),
                    "ci95": [_rounded(x) for x in value.ci95],
                    "exact": value.exact,
                }
                for value in self.hint.moves
            ],
            "played": None if self.played is None else self.played.to_json(),
            "missed": self.missed,
            "source": {"index": self.decision.index, "seed": self.seed, "limits": self.limits.to_json()},
        }


def _rounded(value: float) -> float:
    return round(value, 4)


def clear_best(hint: Hint, clarity: Clarity = CLEAR) -> bool | None:
    """Whether the hint's first move is clearly the one best: True when proven so, False when
    clear by the search's margin, None when it is not clear (see the module's docstring)."""
    moves = hint.moves
    if len(moves) < 2:
        return None  # forced: nothing to find
    best, others = moves[0], moves[1:]
    if best.exact and all(value.exact for value in others):
        return True if all(best.score > value.score for value in others) else None
    if any(value.visits < clarity.min_visits for value in moves):
        return None  # a move barely tried could be better than it looks
    if any(best.score - value.score < clarity.margin or best.ci95[0] <= value.ci95[1] for value in others):
        return None
    return False


def candidates(found: Sequence[Decision], seed: int, most: int | None = None) -> list[Decision]:
    """The unforced decisions of `found` in the order they are tried: shuffled by `seed`, then at
    most `most` of them."""
    chosen = [decision for decision in found if not decision.forced]
    random.Random(f"puzzles:{seed}").shuffle(chosen)
    return chosen if most is None else chosen[:most]


def puzzle_of(decision: Decision, solver: Solver, limits: Limits, seed: int,
              clarity: Clarity = CLEAR) -> Puzzle | None:
    """The decision as a puzzle when one move is clearly best there, else None: one search of the
    position alone with the decision's own seed, its moves' lines asked."""
    search_seed = decision_seed(seed, decision.index)
    hint = solver.hint(decision.position, limits, seed=search_seed, pv=clarity.pv)
    proven = clear_best(hint, clarity)
    if proven is None:
        return None
    return Puzzle(decision, hint, proven, decision.move, search_seed, limits)


def find_puzzles(
    found: Iterable[Decision],
    solver: Solver,
    limits: Limits,
    seed: int = 0,
    checks: int | None = None,
    most: int | None = None,
    clarity: Clarity = CLEAR,
) -> list[Puzzle]:
    """The puzzles among `found`: at most `checks` candidates searched (`candidates`), at most
    `most` puzzles kept; the game's mistakes (`Puzzle.missed`) first, then in the game's order.
    Stops early when the solver's stop flag is set."""
    puzzles: list[Puzzle] = []
    for decision in candidates(list(found), seed, checks):
        if solver.stop is not None and solver.stop.is_set():
            break
        puzzle = puzzle_of(decision, solver, limits, seed, clarity)
        if puzzle is not None:
            puzzles.append(puzzle)
            if most is not None and len(puzzles) >= most:
                break
    puzzles.sort(key=lambda puzzle: (not puzzle.missed, puzzle.decision.index))
    return puzzles

"""The line the engine expects: each hinted move's principal variation in the search tree.

A hint asked with `pv` (docs/api.md §3, "Lines") answers, for each of its moves, the
continuation its ISMCTS tree went through most: from the move, each time the child the tree
visited most, in the seat's own view — the other seats' moves as the tree played them, in worlds
the seat cannot tell from the real one. The Cython tree draws it once the search is done
(`solver.search._tree.run_search`'s `line_depth`), so a hint without `pv` searches exactly as
before. The option is declared here once (`PV`); the HTTP schemas, the `tan hint --pv` flag and
`GET /v1/rules` read it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from solver.core import CoreGame, decode_move
from solver.game.errors import ErrorCode, TanError
from solver.game.moves import Move
from solver.search import _endgame
from solver.search.results import LinePly

__all__ = ["PV", "Line", "LineMove", "LineOption", "check_pv", "line_of", "proven_line"]


@dataclass(frozen=True)
class LineOption:
    """The hint option `pv`: how many plies of each move's line to answer (0: none)."""

    name: str
    default: int  # a request that leaves it out
    asked: int  # `tan hint --pv` without a number
    maximum: int
    min_visits: int  # a ply the tree went through fewer times than this ends the line before it
    worlds: int  # worlds drawn to find one that plays the line (docs/api.md §3, "Lines")
    meaning: str


PV = LineOption(
    name="pv",
    default=0,
    asked=8,
    maximum=16,
    min_visits=8,
    worlds=256,
    meaning="answer each move's line, the continuation the search expects, of at most this many plies "
    "(0: none; ismcts and exact answers have lines, pimc none)",
)
"""The one declaration of the `pv` option: its default, its bound and what it means."""


def check_pv(pv: int) -> int:
    """`pv` when it is a depth the option allows, else a `bad_limits` error that says the bound."""
    if isinstance(pv, bool) or not isinstance(pv, int) or not 0 <= pv <= PV.maximum:
        raise TanError(f"{PV.name} must be a whole number of plies from 0 to {PV.maximum}, not {pv!r}",
                       ErrorCode.BAD_LIMITS)
    return pv


@dataclass(frozen=True)
class LineMove:
    """One ply of a line: the move, the seat that makes it, how often the tree went through it (0
    in a proven line) and the seat's expected score there (None where the tree cannot tell)."""

    move: Move
    seat: int
    visits: int
    score: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "move": self.move.to_json(),
            "notation": self.move.notation,
            "visits": self.visits,
            "score": None if self.score is None else round(self.score, 6),
        }


@dataclass(frozen=True)
class Line:
    """A move's line, the move itself first; `score` is the seat's expected score where it ends
    (its last ply's that tells one), `exact` when the line is the exact solver's proven one."""

    moves: tuple[LineMove, ...]
    exact: bool = False

    @property
    def score(self) -> float | None:
        return next((ply.score for ply in reversed(self.moves) if ply.score is not None), None)

    def mapped(self, through: Callable[[float], float]) -> Line:
        """The line with every estimated score passed through `through` (a calibration's score
        map); a proven line's are left as they are."""
        if self.exact:
            return self
        return replace(self, moves=tuple(
            ply if ply.score is None else replace(ply, score=through(ply.score)) for ply in self.moves
        ))

    def to_json(self) -> dict[str, Any]:
        score = self.score
        return {
            "moves": [ply.to_json() for ply in self.moves],
            "score": None if score is None else round(score, 6),
            "exact": self.exact,
        }


def line_of(plies: tuple[LinePly, ...]) -> Line:
    """The tree's line (`SearchResult.lines`) with its moves read."""
    return Line(tuple(LineMove(decode_move(ply.code), ply.seat, ply.visits, ply.score) for ply in plies))


def proven_line(
    world: CoreGame,
    first: Move,
    score: float,
    depth: int,
    budget: int,
    deadline: float | None = None,
    stop: bytearray | None = None,
) -> Line:
    """The exact solver's line after `first` in a world with nothing hidden (two seats, an empty
    stock): each mover in turn plays a move of its best proven value (the first such in move
    order), so the seat's score stays the proven `score` of `first` all along. Each solve may
    take `budget` nodes and must end by `deadline` (`time.perf_counter()`); the line stops where
    one does not, or at `depth` plies."""
    game = world.copy()
    seat = game.to_move
    game.play(first)
    plies = [LineMove(first, seat, 0, score)]
    while len(plies) < depth and not game.over:
        left_ms = 0.0 if deadline is None else (deadline - time.perf_counter()) * 1000.0
        if deadline is not None and left_ms <= 0:
            break
        mover = game.to_move
        try:
            solved = _endgame.solve_exact(game, mover, budget, left_ms, stop=stop)
        except TimeoutError:
            break
        best = max(solved.move_values.values())
        move = min(decode_move(code) for code, value in solved.move_values.items() if value == best)
        game.play(move)
        plies.append(LineMove(move, mover, 0, best / 2 if mover == seat else 1 - best / 2))
    return Line(tuple(plies), exact=True)

"""What the Cython search hands back: typed fields, not positional lists.

`run_search` (solver/search/_tree.pyx) answers a `SearchResult` per thread;
`SearchResult.merge` adds the threads of a root-parallel search together.
`solve_exact` (solver/search/_endgame.pyx) answers an `ExactSolution`. Values of the exact solver are in
half points (2 a win, 1 a draw, 0 a loss), so they stay whole numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["ExactSolution", "LinePly", "RootMove", "SearchResult"]


@dataclass(frozen=True)
class RootMove:
    """One move of the root: how often it was chosen and what the searcher scored through it.

    `avail`: how often it was legal in the world of an iteration (information-set
    search counts a move only in the worlds where it can be played).
    """

    code: int
    visits: int
    reward: float
    reward_sq: float
    avail: int

    def __add__(self, other: RootMove) -> RootMove:
        if other.code != self.code:
            raise ValueError(f"cannot add the statistics of move {other.code} to move {self.code}")
        return RootMove(
            self.code,
            self.visits + other.visits,
            self.reward + other.reward,
            self.reward_sq + other.reward_sq,
            self.avail + other.avail,
        )


@dataclass(frozen=True)
class LinePly:
    """One ply of a root move's principal variation in the tree (`run_search`'s `line_depth`):
    the move, the seat that made it, how often the tree went through it, and the searcher's
    expected score there (None where the tree cannot tell it: with more than two seats, a node
    of another seat's below which the searcher never moved)."""

    code: int
    seat: int
    visits: int
    score: float | None


@dataclass(frozen=True)
class SearchResult:
    """The root statistics of one search (or several merged).

    Per seat, over all iterations: `seat_sum` and `seat_sq` the sum and sum of
    squares of its score, `seat_losses` its chance of losing summed over them (a game's end
    counts 1 when the seat scored 0; a leaf the learned value judged, 1 − its value). `time_ms` is the
    wall time of the search; `solve_nodes` the nodes of the endgames it solved
    inside the tree, `solves_skipped` those it played out because the solves had
    taken their share (the solver's `exact_average`). `lines`: by root move code, its principal
    variation (empty unless asked for; merged, the one of the search that tried the move most).
    """

    iterations: int
    worlds: int
    time_ms: float
    moves: tuple[RootMove, ...]
    seat_sum: tuple[float, ...]
    seat_sq: tuple[float, ...]
    seat_losses: tuple[float, ...]
    solve_nodes: int = 0
    solves_skipped: int = 0
    lines: dict[int, tuple[LinePly, ...]] = field(default_factory=dict)

    @classmethod
    def merge(cls, results: Sequence[SearchResult], time_ms: float) -> SearchResult:
        """Root-parallel searches added together; `time_ms` is the wall time of all of them."""
        if not results:
            raise ValueError("nothing to merge")
        seats = len(results[0].seat_sum)
        moves: dict[int, RootMove] = {}
        lines: dict[int, tuple[LinePly, ...]] = {}
        most: dict[int, int] = {}  # by move, the most visits of one search that drew its line
        for result in results:
            if len(result.seat_sum) != seats:
                raise ValueError("results of different seat counts cannot be merged")
            for move in result.moves:
                moves[move.code] = moves[move.code] + move if move.code in moves else move
                if move.code in result.lines and move.visits > most.get(move.code, -1):
                    lines[move.code] = result.lines[move.code]
                    most[move.code] = move.visits
        return cls(
            iterations=sum(result.iterations for result in results),
            worlds=sum(result.worlds for result in results),
            time_ms=time_ms,
            moves=tuple(moves.values()),
            seat_sum=tuple(sum(result.seat_sum[s] for result in results) for s in range(seats)),
            seat_sq=tuple(sum(result.seat_sq[s] for result in results) for s in range(seats)),
            seat_losses=tuple(sum(result.seat_losses[s] for result in results) for s in range(seats)),
            solve_nodes=sum(result.solve_nodes for result in results),
            solves_skipped=sum(result.solves_skipped for result in results),
            lines=lines,
        )


@dataclass(frozen=True)
class ExactSolution:
    """The exact value of a perfect-information state for one seat, and of each of its moves."""

    hero: int
    value: int  # half points: 2 win, 1 draw, 0 loss
    move_values: dict[int, int]  # move code -> half points after it
    nodes: int

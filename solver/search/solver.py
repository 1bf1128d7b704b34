"""The search API: `Solver.hint` and `Solver.evaluate` over what one seat can see.

A position (SPEC §2.2) is turned into a *sampler* — the position with only the
cards the seat knows, plus the unseen cards and where they may lie — and the
Cython search (`solver.search._search`) does the rest: SO-ISMCTS by default, PIMC as
the alternative, the exact solver where nothing is hidden (an empty stock and
two active seats). Answers are dataclasses shaped like SPEC §3's JSON.

Same position, seed, limits, algorithm and thread count give the same answer
when the iteration limit (not the clock) stops the search.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from solver.search import _search
from solver.core._core import CoreGame, decode_move
from solver.game.cards import deck as full_deck
from solver.game.errors import TanError
from solver.game.moves import Move
from solver.game.position import Position

__all__ = [
    "ALGORITHMS",
    "Evaluation",
    "Hint",
    "Limits",
    "MoveValue",
    "SearchStats",
    "Solver",
    "Value",
]

ALGORITHMS = ("ismcts", "pimc")
POLICIES = ("random", "heuristic")
_Z95 = 1.959963984540054


class LimitsError(TanError):
    """Limits that cannot be searched with."""

    code = "bad_limits"


@dataclass(frozen=True)
class Limits:
    """Stop after `iterations` or `time_ms`, whichever comes first (SPEC §3)."""

    iterations: int | None = 10_000
    time_ms: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.time_ms is None:
            raise LimitsError("limits need iterations, time_ms or both")
        if self.iterations is not None and (
            isinstance(self.iterations, bool) or not isinstance(self.iterations, int) or self.iterations < 1
        ):
            raise LimitsError(f"iterations must be a positive whole number, not {self.iterations!r}")
        if self.time_ms is not None and (
            isinstance(self.time_ms, bool)
            or not isinstance(self.time_ms, int | float)
            or not math.isfinite(self.time_ms)
            or self.time_ms <= 0
        ):
            raise LimitsError(f"time_ms must be a positive number, not {self.time_ms!r}")

    @classmethod
    def from_json(cls, data: Any) -> Limits:
        if data is None:
            return cls()
        if isinstance(data, Limits):
            return data
        if not isinstance(data, dict):
            raise LimitsError(f"limits must be an object, not {data!r}")
        extra = set(data) - {"iterations", "time_ms"}
        if extra:
            raise LimitsError(f"unknown field(s) in limits: {', '.join(sorted(extra))}")
        return cls(iterations=data.get("iterations"), time_ms=data.get("time_ms"))

    def capped(self, max_iterations: int, max_time_ms: float) -> Limits:
        """These limits within a server's caps."""
        iterations = min(self.iterations or max_iterations, max_iterations)
        time_ms = min(self.time_ms or max_time_ms, max_time_ms)
        return Limits(iterations=iterations, time_ms=time_ms)

    def to_json(self) -> dict[str, Any]:
        return {"iterations": self.iterations, "time_ms": self.time_ms}


@dataclass(frozen=True)
class SearchStats:
    algorithm: str
    iterations: int
    worlds: int
    time_ms: float
    iterations_per_s: float
    stop_reason: str
    seed: int
    threads: int

    def to_json(self) -> dict[str, Any]:
        return {
            "algorithm": self.algorithm,
            "iterations": self.iterations,
            "worlds": self.worlds,
            "time_ms": round(self.time_ms, 3),
            "iterations_per_s": round(self.iterations_per_s, 1),
            "stop_reason": self.stop_reason,
            "seed": self.seed,
            "threads": self.threads,
        }


@dataclass(frozen=True)
class Value:
    """An expected score (SPEC §1.5) with its 95% interval; `exact` when proven."""

    score: float
    ci95: tuple[float, float]
    exact: bool

    def to_json(self) -> dict[str, Any]:
        return {"score": round(self.score, 6), "ci95": [round(x, 6) for x in self.ci95], "exact": self.exact}


@dataclass(frozen=True)
class MoveValue:
    move: Move
    score: float
    ci95: tuple[float, float]
    visits: int
    exact: bool

    @property
    def notation(self) -> str:
        return self.move.notation

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.move.to_json(),
            "notation": self.move.notation,
            "score": round(self.score, 6),
            "ci95": [round(x, 6) for x in self.ci95],
            "visits": self.visits,
            "exact": self.exact,
        }


@dataclass(frozen=True)
class Hint:
    seat: int
    best: Move
    moves: list[MoveValue]
    evaluation: Value
    stats: SearchStats

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "best": self.best.to_json(),
            "moves": [move.to_json() for move in self.moves],
            "evaluation": self.evaluation.to_json(),
            "stats": self.stats.to_json(),
        }


@dataclass(frozen=True)
class Evaluation:
    seat: int
    score: float
    ci95: tuple[float, float]
    exact: bool
    scores: list[float]
    p_lose: list[float]
    stats: SearchStats

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "score": round(self.score, 6),
            "ci95": [round(x, 6) for x in self.ci95],
            "exact": self.exact,
            "scores": [round(x, 6) for x in self.scores],
            "p_lose": [round(x, 6) for x in self.p_lose],
            "stats": self.stats.to_json(),
        }


def _interval(total: float, total_sq: float, n: int) -> tuple[float, float]:
    """95% interval of a mean score in [0, 1].

    The wider of the normal interval (from the observed variance) and the
    Wilson interval of a proportion with that mean, so a handful of equal
    results never reads as certainty.
    """
    if n <= 0:
        return (0.0, 1.0)
    mean = total / n
    variance = max(total_sq / n - mean * mean, 0.0)
    half = _Z95 * math.sqrt(variance / n)
    z2 = _Z95 * _Z95
    centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
    spread = _Z95 * math.sqrt(mean * (1 - mean) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, min(mean - half, centre - spread)), min(1.0, max(mean + half, centre + spread)))


def _seed_of(seed: int, thread: int) -> int:
    """A per-thread seed, fixed by the request seed and the thread index."""
    return (seed * 0x9E3779B1 + thread * 0x85EBCA77 + 0x2545F491) & 0xFFFFFFFFFFFFFFFF


@dataclass
class _Root:
    """A position prepared for the core: the sampler and what is needed around it."""

    position: Position
    sampler: _search.Sampler
    active: list[int]
    perfect_information: bool
    legal: list[Move] = field(default_factory=list)


def prepare(position: Position | dict[str, Any]) -> _Root:
    """Turn a SPEC §2.2 position into a sampler of the worlds consistent with it."""
    pos = position if isinstance(position, Position) else Position.from_json(position)
    hands: list[list[int]] = []
    slots: list[int] = []
    seen: set[int] = set()
    for seat in range(pos.players):
        cards = list(pos.hand) if seat == pos.seat else list(pos.known[seat]) if pos.known else []
        hands.append([card.index for card in cards])
        slots.append(0 if seat == pos.seat else pos.hand_counts[seat] - len(cards))
        seen.update(card.index for card in cards)
    table = [(attack.index, defense.index if defense is not None else -1) for attack, defense in pos.table]
    for attack, defense in table:
        seen.add(attack)
        if defense >= 0:
            seen.add(defense)
    seen.update(card.index for card in pos.discard)
    stock_cards = [pos.trump.index] if pos.stock > 0 else []
    seen.update(stock_cards)
    pool = [card.index for card in full_deck(pos.rules.deck) if card.index not in seen]
    template = CoreGame.from_fields(
        pos.rules,
        pos.players,
        hands,
        stock_cards,
        pos.trump.index,
        table,
        attacker=pos.attacker,
        defender=pos.defender,
        to_move=pos.to_move if pos.to_move is not None else -1,
        taking=pos.taking,
        passed=list(pos.passed),
        finished=list(pos.finished),
        defended_once=pos.defended_once,
    )
    sampler = _search.Sampler(template, pos.seat, pool, slots, pos.stock)
    active = [seat for seat in range(pos.players) if seat not in pos.finished]
    perfect = pos.stock == 0 and len(active) == 2
    root = _Root(pos, sampler, active, perfect)
    world = sampler.sample(0)
    root.legal = world.legal_moves() if pos.to_move == pos.seat else []
    return root


class Solver:
    """Determinized search for hints and evaluations.

    `algorithm`: `ismcts` (default) or `pimc`; `threads`: root-parallel searches
    whose statistics are merged; `exploration`: the UCB constant; `policy`:
    `random` or `heuristic` playouts (a random move `noise` times in 64); `pimc_worlds`: worlds for PIMC;
    `prior`: progressive bias towards the greedy move; `opponent_policy`: the
    share of iterations (0-1, `True` = 1) in which the other seats' moves inside
    the tree come from the greedy heuristic with the hand each world deals them,
    a model of a heuristic opponent (much stronger against such players, weaker
    against searching ones: see BENCHMARKS.md);
    `exact_cards`: determinized endgames with at most this many cards in hand
    are solved exactly instead of played out; `exact_root`: a root with nothing
    hidden is solved exactly (off only to test the tree search itself) unless
    that takes more than `exact_root_nodes` nodes or the time limit, when the
    tree search answers instead.
    """

    def __init__(
        self,
        algorithm: str = "ismcts",
        threads: int = 1,
        exploration: float = 1.0,
        policy: str = "heuristic",
        noise: int = 1,
        prior: float = 0.0,
        opponent_policy: float = 0.75,
        pimc_worlds: int = 16,
        exact_cards: int = 10,
        exact_budget: int = 20_000,
        exact_root: bool = True,
        exact_root_nodes: int = 2_000_000,
    ) -> None:
        if algorithm not in ALGORITHMS:
            raise TanError(f"unknown algorithm {algorithm!r} (expected one of {', '.join(ALGORITHMS)})",
                           "bad_algorithm")
        if policy not in POLICIES:
            raise TanError(f"unknown playout policy {policy!r}", "bad_algorithm")
        if not isinstance(threads, int) or threads < 1:
            raise TanError(f"threads must be a positive whole number, not {threads!r}", "bad_limits")
        self.algorithm = algorithm
        self.threads = threads
        self.exploration = exploration
        self.policy = policy
        self.noise = noise
        self.prior = prior
        self.opponent_policy = float(opponent_policy)
        self.pimc_worlds = pimc_worlds
        self.exact_cards = exact_cards
        self.exact_budget = exact_budget
        self.exact_root = exact_root
        self.exact_root_nodes = exact_root_nodes

    # -- the two questions -------------------------------------------------------------

    def hint(
        self,
        position: Position | dict[str, Any],
        limits: Limits | None = None,
        seed: int = 0,
        multipv: int | None = None,
    ) -> Hint:
        """Ranked moves for the seat to move, which must be the position's seat."""
        limits = limits or Limits()
        root = prepare(position)
        pos = root.position
        if pos.to_move is None:
            raise TanError("the game is over: there is no move to hint", "game_over")
        if pos.to_move != pos.seat:
            raise TanError(f"seat {pos.seat} is not to move (seat {pos.to_move} is)", "not_your_turn")
        if root.perfect_information and self.exact_root:
            exact = self._exact_hint(root, limits, seed, multipv)
            if exact is not None:
                return exact
        single = len(root.legal) == 1
        run_limits = Limits(iterations=min(limits.iterations or 2000, 2000), time_ms=50) if single else limits
        result = self._run(root, run_limits, seed)
        stats = self._stats(result, run_limits, seed, "single_move" if single else None)
        moves = []
        for code, (visits, total, total_sq, _avail) in result["moves"].items():
            move = decode_move(code)
            score = total / visits if visits else 0.5
            moves.append(MoveValue(move, score, _interval(total, total_sq, visits), visits, False))
        visited = {value.move for value in moves}
        moves.extend(MoveValue(move, 0.5, (0.0, 1.0), 0, False) for move in root.legal if move not in visited)
        moves.sort(key=lambda value: (-value.visits, -value.score, value.move))
        evaluation = self._value(result, pos.seat)
        if multipv is not None:
            moves = moves[: max(1, multipv)]
        return Hint(pos.seat, moves[0].move, moves, evaluation, stats)

    def evaluate(
        self, position: Position | dict[str, Any], limits: Limits | None = None, seed: int = 0
    ) -> Evaluation:
        """Expected score of every seat, the chance each one loses, from the seat's view."""
        limits = limits or Limits()
        root = prepare(position)
        pos = root.position
        if (root.perfect_information and self.exact_root) or pos.over:
            exact = self._exact_evaluation(root, limits, seed)
            if exact is not None:
                return exact
        result = self._run(root, limits, seed)
        n = max(result["iterations"], 1)
        value = self._value(result, pos.seat)
        return Evaluation(
            seat=pos.seat,
            score=value.score,
            ci95=value.ci95,
            exact=False,
            scores=[result["seat_sum"][s] / n for s in range(pos.players)],
            p_lose=[result["seat_losses"][s] / n for s in range(pos.players)],
            stats=self._stats(result, limits, seed, None),
        )

    # -- search --------------------------------------------------------------------------

    def _run(self, root: _Root, limits: Limits, seed: int) -> dict[str, Any]:
        iterations = limits.iterations or 1 << 62
        time_ms = float(limits.time_ms or 0.0)
        per_thread = [iterations // self.threads + (1 if t < iterations % self.threads else 0)
                      for t in range(self.threads)]

        def one(thread: int) -> dict[str, Any]:
            return _search.run_search(
                root.sampler,
                iterations=max(per_thread[thread], 1),
                time_ms=time_ms,
                seed=_seed_of(seed, thread),
                exploration=self.exploration,
                policy=POLICIES.index(self.policy),
                noise=self.noise,
                prior=self.prior,
                opponent_policy=self.opponent_policy,
                resample=self.algorithm == "ismcts",
                worlds=self.pimc_worlds,
                exact_cards=self.exact_cards,
                exact_budget=self.exact_budget,
            )

        start = time.perf_counter()
        if self.threads == 1:
            results = [one(0)]
        else:
            with ThreadPoolExecutor(max_workers=self.threads) as pool:
                results = list(pool.map(one, range(self.threads)))
        merged: dict[str, Any] = {
            "iterations": sum(r["iterations"] for r in results),
            "worlds": sum(r["worlds"] for r in results),
            "time_ms": (time.perf_counter() - start) * 1000.0,
            "moves": {},
            "seat_sum": [sum(r["seat_sum"][s] for r in results) for s in range(6)],
            "seat_sq": [sum(r["seat_sq"][s] for r in results) for s in range(6)],
            "seat_losses": [sum(r["seat_losses"][s] for r in results) for s in range(6)],
        }
        for r in results:
            for code, entry in r["moves"].items():
                into = merged["moves"].setdefault(code, [0, 0.0, 0.0, 0])
                for i in range(4):
                    into[i] += entry[i]
        return merged

    def _stats(self, result: dict[str, Any], limits: Limits, seed: int, reason: str | None) -> SearchStats:
        iterations = result["iterations"]
        time_ms = result["time_ms"]
        if reason is None:
            reached = limits.iterations is not None and iterations >= limits.iterations
            reason = "iterations" if reached else "time"
        return SearchStats(
            algorithm=self.algorithm,
            iterations=iterations,
            worlds=result["worlds"],
            time_ms=time_ms,
            iterations_per_s=iterations / (time_ms / 1000.0) if time_ms > 0 else 0.0,
            stop_reason=reason,
            seed=seed,
            threads=self.threads,
        )

    @staticmethod
    def _value(result: dict[str, Any], seat: int) -> Value:
        n = result["iterations"]
        total = result["seat_sum"][seat]
        return Value(total / n if n else 0.5, _interval(total, result["seat_sq"][seat], n), False)

    # -- exact answers -------------------------------------------------------------------

    def _solve(self, root: _Root, hero: int, limits: Limits) -> tuple[int, dict[int, int], int] | None:
        """The exact values, or None when the node budget or the time limit runs out first."""
        try:
            return _search.solve_exact(
                root.sampler.sample(0), hero, self.exact_root_nodes, float(limits.time_ms or 0.0)
            )
        except TimeoutError:
            return None

    def _exact_stats(self, start: float, nodes: int, seed: int) -> SearchStats:
        time_ms = (time.perf_counter() - start) * 1000.0
        return SearchStats("exact", nodes, 1, time_ms, nodes / (time_ms / 1000.0) if time_ms else 0.0,
                           "exact", seed, 1)

    def _exact_hint(self, root: _Root, limits: Limits, seed: int, multipv: int | None) -> Hint | None:
        start = time.perf_counter()
        solved = self._solve(root, root.position.seat, limits)
        if solved is None:
            return None
        value, values, nodes = solved
        moves = [MoveValue(decode_move(code), v / 2, (v / 2, v / 2), 0, True) for code, v in values.items()]
        moves.sort(key=lambda m: (-m.score, m.move))
        if multipv is not None:
            moves = moves[: max(1, multipv)]
        evaluation = Value(value / 2, (value / 2, value / 2), True)
        stats = self._exact_stats(start, nodes, seed)
        return Hint(root.position.seat, moves[0].move, moves, evaluation, stats)

    def _exact_evaluation(self, root: _Root, limits: Limits, seed: int) -> Evaluation | None:
        pos = root.position
        start = time.perf_counter()
        nodes = 0
        if pos.over:
            scores = pos.final_scores()
        else:
            a, b = root.active
            solved = self._solve(root, a, limits)
            if solved is None:
                return None
            value, _values, nodes = solved
            scores = [1.0] * pos.players
            scores[a], scores[b] = value / 2, 1 - value / 2
        p_lose = [1.0 if score == 0.0 else 0.0 for score in scores]
        score = scores[pos.seat]
        return Evaluation(pos.seat, score, (score, score), True, scores, p_lose,
                          self._exact_stats(start, nodes, seed))

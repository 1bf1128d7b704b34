"""The search API: `Solver.hint` and `Solver.evaluate` over what one seat can see.

A position (docs/api.md §2.2) is prepared into a sampler of the worlds the
seat cannot tell apart (`solver.search.sampling`), and the Cython search
(`solver.search._tree`) does the rest: SO-ISMCTS by default, PIMC as the
alternative, and the exact solver (`solver.search._endgame`) where nothing is
hidden (an empty stock and two active seats). Answers are dataclasses shaped like the JSON of docs/api.md §3
(`solver.search.answers`).

Same position, seed, limits, algorithm and thread count give the same answer
when the iteration limit (not the clock) stops the search.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from solver.core import decode_move
from solver.game.errors import ErrorCode, GameOverError, NotYourTurnError, TanError
from solver.game.phases import Phase, chance_of
from solver.game.position import Position
from solver.search import _endgame, _tree
from solver.search._model import PolicyModel, ValueModel
from solver.search.answers import Evaluation, Hint, MoveValue, SearchStats, Tracker, Value
from solver.search.beliefs import KINDS, Beliefs, History, OpponentModel, fitted, uniform_card_chances, weigh
from solver.search.budget import Limits, StopFlag
from solver.search.config import (
    ALGORITHMS,
    PLAYOUT_OPPONENT_POLICY,
    SINGLE_MOVE_ITERATIONS,
    SearchConfig,
    config_of,
    known_kinds,
)
from solver.search.intervals import score_interval
from solver.search.labels import graded
from solver.search.learned import ModelFile, chosen_model
from solver.search.lines import PV, check_pv, line_of, proven_line
from solver.search.results import ExactSolution, SearchResult
from solver.search.sampling import Root, prepare

__all__ = ["ALGORITHMS", "SearchConfig", "Solver"]


@dataclass(frozen=True)
class Modelling:
    """How a search models play (`Solver._modelling`): the share of iterations the others play the
    greedy heuristic in the tree, the value net's weight against a playout at the leaves (0: the
    leaves are played out), the net itself (None: none), what `stats.model` calls it all, and the
    learned policy that is the tree's prior (None: none, UCB1)."""

    opponent_policy: float
    value_mix: float
    value: ModelFile | None
    name: str
    policy: ModelFile | None = None


GREEDY_READING_PRIOR = 0.1
"""With a learned value, the chance — before any of its moves is seen — that another seat is a greedy
player, when the search decides how to model it: lower than the weighing's even odds, because a
searching player plays greedy's move often in the opening, and modelling it as greedy costs more
than searching a greedy one (benchmarks/HISTORY.md, "Reading the other seats")."""


def _seed_of(seed: int, thread: int) -> int:
    """A per-thread seed, fixed by the request seed and the thread index."""
    return (seed * 0x9E3779B1 + thread * 0x85EBCA77 + 0x2545F491) & 0xFFFFFFFFFFFFFFFF


def _less_time(limits: Limits, spent_ms: float) -> Limits:
    """`limits` with the time already spent (weighing the worlds) taken off the time limit, so a
    search with beliefs takes no longer than one without."""
    if limits.time_ms is None:
        return limits
    return Limits(iterations=limits.iterations, time_ms=max(limits.time_ms - spent_ms, 1.0))


def _deadline(limits: Limits, begun: float) -> float | None:
    """The one deadline of an answer begun at `begun` (`time.perf_counter()`): every part of it —
    the exact attempt, weighing the worlds, the search — ends by then."""
    return None if limits.time_ms is None else begun + limits.time_ms / 1000.0


def _first(hint: Hint, multipv: int | None) -> Hint:
    """`hint` with each move graded against the best (labels.py), then only its best `multipv`
    moves (all when None)."""
    hint = graded(hint)
    return hint if multipv is None else replace(hint, moves=hint.moves[: max(1, multipv)])


EXACT_SHARE = 0.9
"""The share of an answer's time an exact attempt may take: the rest is kept for the search that
answers if the attempt runs out, so that the answer still ends by its deadline."""


WEIGH_SHARE = 0.5
"""The share of what is left of an answer's time that weighing the worlds by a history may take: a
long history makes every world dear, and the search after it needs time too."""


def _until(limits: Limits, deadline: float | None, share: float = 1.0) -> Limits:
    """`limits` with the time cut to `share` of the answer's time limit and to what is left before
    `deadline` (at least 1 ms, so that a search still answers)."""
    if deadline is None:
        return limits
    left_ms = (deadline - time.perf_counter()) * 1000.0 - (1.0 - share) * (limits.time_ms or 0.0)
    return Limits(iterations=limits.iterations, time_ms=max(min(left_ms, limits.time_ms or left_ms), 1.0))


class Solver:
    """Determinized search for hints and evaluations, as `config` says (`solver.search.config`:
    a `SearchConfig`, or an engine's name, `ismcts` by default) with `options` changed — every
    option, its default and the figure that keeps it is in that module's one table (docs/api.md,
    "Search options"). `threads`: root-parallel searches whose statistics are merged; `stop`: a
    flag another thread may set to end every search of this solver at once, with what it has
    found so far (an exact solve then gives way to the tree search, which stops too). An unknown
    option or a bad value is refused here (`TanError`), not in a search.
    """

    def __init__(
        self,
        config: SearchConfig | str = "ismcts",
        threads: int = 1,
        stop: StopFlag | None = None,
        **options: Any,
    ) -> None:
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise TanError(f"threads must be a positive whole number, not {threads!r}", ErrorCode.BAD_LIMITS)
        self.config = config_of(config, options)
        self.threads = threads
        self.stop = stop

    @property
    def algorithm(self) -> str:
        """The config's algorithm (`ismcts` or `pimc`), as answers and reviews name it."""
        return self.config.algorithm

    # -- the two questions -------------------------------------------------------------

    def hint(
        self,
        position: Position | dict[str, Any],
        limits: Limits | None = None,
        seed: int = 0,
        multipv: int | None = None,
        history: History | None = None,
        begun: float | None = None,
        pv: int = 0,
    ) -> Hint:
        """Ranked moves for the seat to move, which must be the position's seat; `history` is what
        the seat saw the others do (`solver.search.beliefs.read_record`). The time limit is the
        answer's: an exact attempt, weighing the worlds and the search after them share it, from
        `begun` (`time.perf_counter()`; by default now, earlier when a record was replayed first).
        `pv` > 0: each move also carries its line of at most that many plies (solver/search/lines.py),
        drawn from the ISMCTS tree once the search is done; PIMC draws none."""
        check_pv(pv)
        begun = time.perf_counter() if begun is None else begun
        limits = limits or Limits()
        deadline = _deadline(limits, begun)
        root = prepare(position)
        pos = root.position
        if pos.to_move is None:
            raise GameOverError("the game is over: there is no move to hint")
        if pos.to_move != pos.seat:
            raise NotYourTurnError(f"seat {pos.seat} is not to move (seat {pos.to_move} is)")
        if root.perfect_information and self.config._exact_root:
            exact = self._exact_hint(root, _until(limits, deadline, EXACT_SHARE), seed, begun)
            if exact is not None:
                exact = _first(self._practical(root, exact, _until(limits, deadline), seed, begun, history),
                               multipv)
                return self._proven_lines(root, exact, pv, begun, deadline)
        # A seat asked in the setup with nothing to decide searches as long as one with a choice, so
        # an engine's answer takes no less time for it (docs/rules.md §1.7: waiting tells nothing).
        single = len(root.legal) == 1 and pos.phase is not Phase.SETUP
        short = Limits(iterations=min(limits.iterations or SINGLE_MOVE_ITERATIONS, SINGLE_MOVE_ITERATIONS),
                       time_ms=limits.time_ms)
        run_limits = _until(short if single else limits, deadline)
        started = time.perf_counter()
        beliefs = self._believe(root, None if single else history, seed, run_limits)
        modelling = self._modelling(root, beliefs)  # may load a model: before the time left is taken
        run_limits = _less_time(run_limits, (time.perf_counter() - started) * 1000.0)
        line_depth = pv if self.algorithm == "ismcts" else 0
        result = self._run(root, run_limits, seed, line_depth=line_depth, modelling=modelling)
        stats = self._stats(result, run_limits, seed, "single_move" if single else None, beliefs, begun,
                            modelling)
        moves = [
            MoveValue(
                decode_move(root_move.code),
                root_move.reward / root_move.visits if root_move.visits else 0.5,
                score_interval(root_move.reward, root_move.reward_sq, root_move.visits),
                root_move.visits,
                False,
                line=line_of(result.lines[root_move.code]) if root_move.code in result.lines else None,
            )
            for root_move in result.moves
        ]
        visited = {value.move for value in moves}
        moves.extend(MoveValue(move, 0.5, (0.0, 1.0), 0, False) for move in root.legal if move not in visited)
        moves.sort(key=lambda value: (-value.visits, -value.score, value.move))
        evaluation = self._value(result, pos.seat)
        hint = Hint(pos.seat, moves[0].move, moves, evaluation, stats, chance_of(pos.players), pv)
        return _first(hint, multipv)

    def evaluate(
        self,
        position: Position | dict[str, Any],
        limits: Limits | None = None,
        seed: int = 0,
        history: History | None = None,
        begun: float | None = None,
    ) -> Evaluation:
        """Expected score of every seat, the chance each one loses, and where each card the seat
        cannot see lies (`cards`), from the seat's view and `history`. The time limit is the
        answer's from `begun`, as for `hint`."""
        begun = time.perf_counter() if begun is None else begun
        limits = limits or Limits()
        deadline = _deadline(limits, begun)
        root = prepare(position)
        pos = root.position
        started = time.perf_counter()
        beliefs = self._believe(root, history, seed, _until(limits, deadline))
        limits = _less_time(limits, (time.perf_counter() - started) * 1000.0)
        if (root.perfect_information and self.config._exact_root) or pos.over:
            exact = self._exact_evaluation(root, _until(limits, deadline, EXACT_SHARE), seed, begun)
            if exact is not None:
                return replace(exact, cards=beliefs.card_chances(pos))
        modelling = self._modelling(root, beliefs)  # may load a model: before the time left is taken
        limits = _until(limits, deadline)
        result = self._run(root, limits, seed, modelling=modelling)
        n = max(result.iterations, 1)
        value = self._value(result, pos.seat)
        return Evaluation(
            seat=pos.seat,
            score=value.score,
            ci95=value.ci95,
            exact=False,
            scores=[total / n for total in result.seat_sum],
            p_lose=[losses / n for losses in result.seat_losses],
            stats=self._stats(result, limits, seed, None, beliefs, begun, modelling),
            chance=chance_of(pos.players),
            cards=beliefs.card_chances(pos),
        )

    def track(
        self,
        position: Position | dict[str, Any],
        history: History | None = None,
        seed: int = 0,
    ) -> Tracker:
        """The card tracker of the position's seat, without a search: the discard pile, the cards
        known in the other hands, and where each card the seat cannot see lies, from worlds weighed
        by `history` as an evaluation with the same seed weighs them (its `cards`)."""
        pos = position if isinstance(position, Position) else Position.from_json(position)
        known = {seat: pos.known[seat] for seat in range(pos.players) if seat != pos.seat}
        if pos.waiting:
            # Another seat decides in secret (docs/rules.md §1.7): no world is drawn until it has.
            return Tracker(pos.seat, pos.discard, known, uniform_card_chances(pos))
        beliefs = self._believe(prepare(pos), history, seed)
        ess = beliefs.ess if beliefs.weighted else None
        return Tracker(pos.seat, pos.discard, known, beliefs.card_chances(pos), beliefs.mode, ess)

    def _believe(
        self, root: Root, history: History | None, seed: int, limits: Limits | None = None
    ) -> Beliefs:
        """The worlds the search draws: weighed by `history` when beliefs are on, within
        `WEIGH_SHARE` of `limits`' time (the time left of the answer) and the stop flag — as the
        kind of player the others are known to be (`others`) when known, else as `model` says."""
        weighed = history if self.config.beliefs and root.position.phase is Phase.PLAY else None
        time_ms = None if limits is None or limits.time_ms is None else limits.time_ms * WEIGH_SHARE
        kinds = known_kinds(self.config.others)
        model = kinds if kinds is not None else self.config._opponent_model
        if not self.config.beliefs_policy and not isinstance(model, OpponentModel):
            model = fitted(model if model is not None else KINDS)
        return weigh(root, weighed, model, self.config.particles, _seed_of(seed, 1 << 20),
                     time_ms=time_ms, stop=self.stop, policy_model=self.config.policy_model)

    # -- search --------------------------------------------------------------------------

    def _net(self, root: Root) -> ModelFile | None:
        """The value net the leaves are valued with: the one shipped for these rules, if any."""
        if not self.config.value:
            return None
        return self._chosen(root, self.config.value_model, "value")

    def _policy(self, root: Root) -> ModelFile | None:
        """The learned policy that is the tree's prior, if one was shipped for the rules: none when
        `policy_prior` is off or the others are known greedy (`ismcts_playouts`, whose model of play
        greedy is, plays them best)."""
        if not self.config.policy_prior or self.config.others == "greedy":
            return None
        return self._chosen(root, self.config.policy_model, "policy")

    @staticmethod
    def _chosen(root: Root, name: str, kind: str) -> ModelFile | None:
        """The model called `name` for the root's rules and seats (`chosen_model`)."""
        return chosen_model(root.position.rules, root.position.players, name, kind)

    def _modelling(self, root: Root, beliefs: Beliefs | None = None) -> Modelling:
        """How the search models play: the others' greedy share in the tree and the net's weight at
        the leaves, as asked; where not asked and a learned value answers, by how greedy the others
        read (`greedy`: the chance every other seat still in is a greedy player, from its moves so
        far, `Beliefs.kinds` from `GREEDY_READING_PRIOR`; 0 with no history): the others greedy
        in `PLAYOUT_OPPONENT_POLICY` × greedy of the iterations, and the leaves the net's value
        weighed 1 − greedy against a playout's — `ismcts_playouts` against a seat that has played
        greedy's moves all along, the others searched and the net alone against one that has not.
        With no value for the rules, the playouts and `PLAYOUT_OPPONENT_POLICY`. The others known
        (`others`) stand for the reading: g 1 for `greedy`, else 0."""
        net = self._net(root)
        greedy = 0.0
        if self.config.others is not None:
            greedy = 1.0 if self.config.others == "greedy" else 0.0
        elif net is not None and beliefs is not None and beliefs.evidence:
            pos = root.position
            seats = [seat for seat in range(pos.players) if seat != pos.seat and seat not in pos.finished]
            greedy = round(beliefs.chance_all_are("greedy", seats, GREEDY_READING_PRIOR), 6)
        share = self.config.opponent_policy
        if share is None:
            share = PLAYOUT_OPPONENT_POLICY if net is None else round(PLAYOUT_OPPONENT_POLICY * greedy, 6)
        mix = self.config.value_mix if self.config.value_mix is not None else round(1.0 - greedy, 6)
        value = net if net is not None and mix > 0 else None
        policy = self._policy(root)
        names = [model.name for model in (value, policy) if model is not None]
        return Modelling(share, mix if value is not None else 0.0, value, "+".join(names) or "playouts",
                         policy)

    def _run(
        self, root: Root, limits: Limits, seed: int, exact_cards: int | None = None, line_depth: int = 0,
        modelling: Modelling | None = None,
    ) -> SearchResult:
        """The search on `self.threads` root-parallel threads, their statistics merged
        (`exact_cards`: in place of the solver's own; `line_depth` > 0: each root move's line too,
        ISMCTS only; `modelling`: how play is modelled, by default `_modelling` without beliefs)."""
        entered = time.perf_counter()
        if modelling is None:
            modelling = self._modelling(root)
        iterations = limits.iterations or 1 << 62
        per_thread = [iterations // self.threads + (1 if t < iterations % self.threads else 0)
                      for t in range(self.threads)]

        config = self.config if exact_cards is None else replace(self.config, exact_cards=exact_cards)
        net_file, policy_file = modelling.value, modelling.policy
        net = net_file.net if net_file is not None else None
        policy = policy_file.net if policy_file is not None else None
        # A model read from its file the first time it is asked for (a few ms) comes off the time.
        spent_ms = (time.perf_counter() - entered) * 1000.0
        time_ms = max(float(limits.time_ms) - spent_ms, 1.0) if limits.time_ms else 0.0
        assert net is None or isinstance(net, ValueModel)
        assert policy is None or isinstance(policy, PolicyModel)

        def one(thread: int) -> SearchResult:
            return _tree.run_search(
                root.sampler,
                config,
                iterations=max(per_thread[thread], 1),
                time_ms=time_ms,
                seed=_seed_of(seed, thread),
                opponent_policy=modelling.opponent_policy,
                stop=self.stop.buffer if self.stop is not None else None,
                value=net,
                value_mix=modelling.value_mix if net is not None else 1.0,
                policy_net=policy,
                line_depth=line_depth,
                line_visits=PV.min_visits,
                line_worlds=PV.worlds,
            )

        start = time.perf_counter()
        if self.threads == 1:
            results = [one(0)]
        else:
            with ThreadPoolExecutor(max_workers=self.threads) as pool:
                results = list(pool.map(one, range(self.threads)))
        return SearchResult.merge(results, (time.perf_counter() - start) * 1000.0)

    def _stats(
        self,
        result: SearchResult,
        limits: Limits,
        seed: int,
        reason: str | None,
        beliefs: Beliefs,
        begun: float | None = None,
        modelling: Modelling | None = None,
    ) -> SearchStats:
        """The search's statistics; `time_ms` is the whole answer's wall time since `begun` (the
        search's own when None), `iterations_per_s` the search's own rate."""
        iterations = result.iterations
        search_ms = result.time_ms
        time_ms = search_ms if begun is None else (time.perf_counter() - begun) * 1000.0
        if reason is None:
            reached = limits.iterations is not None and iterations >= limits.iterations
            stopped = self.stop is not None and self.stop.is_set()
            reason = "iterations" if reached else "stopped" if stopped else "time"
        return SearchStats(
            algorithm=self.algorithm,
            iterations=iterations,
            worlds=result.worlds,
            time_ms=time_ms,
            iterations_per_s=iterations / (search_ms / 1000.0) if search_ms > 0 else 0.0,
            stop_reason=reason,
            seed=seed,
            threads=self.threads,
            beliefs=beliefs.mode,
            ess=beliefs.ess if beliefs.weighted else None,
            model=modelling.name if modelling is not None else "playouts",
            opponent_policy=modelling.opponent_policy if modelling is not None else 0.0,
            value_mix=modelling.value_mix if modelling is not None else 0.0,
        )

    @staticmethod
    def _value(result: SearchResult, seat: int) -> Value:
        n = result.iterations
        total = result.seat_sum[seat]
        return Value(total / n if n else 0.5, score_interval(total, result.seat_sq[seat], n), False)

    # -- exact answers -------------------------------------------------------------------

    def _solve(self, root: Root, hero: int, limits: Limits) -> ExactSolution | None:
        """The exact values, or None when the node budget or the time limit runs out first."""
        try:
            return _endgame.solve_exact(
                root.world(), hero, self.config._exact_root_nodes, float(limits.time_ms or 0.0),
                stop=self.stop.buffer if self.stop is not None else None,
            )
        except TimeoutError:
            return None

    def _practical(
        self, root: Root, exact: Hint, limits: Limits, seed: int, begun: float, history: History | None = None
    ) -> Hint:
        """Among the moves of the best proven value short of a win, the one the tree search likes
        best first. Minimax values assume the other seat answers perfectly; a real one may not, and
        when every move loses (or draws) the search — its playouts and opponent model play like a
        fallible player, and it solves nothing exactly here — finds the move that leaves it the most
        chances to go wrong: modelling the others as their moves so far (`history`) read them, so a
        seat read as greedy is played for greedy's mistakes. The values stay the proven ones; only
        the order of equals changes."""
        best = exact.moves[0].score
        tied = [value for value in exact.moves if value.score == best]
        if not self.config.practical or best >= 1.0 or len(tied) < 2:
            return exact
        started = time.perf_counter()
        beliefs = self._believe(root, history, seed, limits)
        modelling = self._modelling(root, beliefs)
        limits = _less_time(limits, (time.perf_counter() - started) * 1000.0)
        result = self._run(root, limits, seed, exact_cards=0, modelling=modelling)
        liked = {
            decode_move(root_move.code): (root_move.visits, root_move.reward / max(root_move.visits, 1))
            for root_move in result.moves
        }
        unseen = (0, 0.0)
        tied.sort(key=lambda value: (-liked.get(value.move, unseen)[0], -liked.get(value.move, unseen)[1]))
        moves = tied + exact.moves[len(tied):]
        stats = replace(
            exact.stats,
            iterations=exact.stats.iterations + result.iterations,
            time_ms=(time.perf_counter() - begun) * 1000.0,
            model=modelling.name,
            opponent_policy=modelling.opponent_policy,
            value_mix=modelling.value_mix,
        )
        return replace(exact, best=moves[0].move, moves=moves, stats=stats)

    def _proven_lines(self, root: Root, exact: Hint, pv: int, begun: float, deadline: float | None) -> Hint:
        """`exact` with each of its moves' proven lines of at most `pv` plies (none when `pv` is
        0), each solve within the root solve's node budget and all by the answer's deadline (the
        answer's `time_ms` counts them)."""
        if not pv:
            return exact
        world = root.world()
        stop = self.stop.buffer if self.stop is not None else None
        moves = [
            replace(value, line=proven_line(world, value.move, value.score, pv, self.config._exact_root_nodes,
                                            deadline, stop))
            for value in exact.moves
        ]
        stats = replace(exact.stats, time_ms=(time.perf_counter() - begun) * 1000.0)
        return replace(exact, moves=moves, stats=stats, pv=pv)

    def _exact_stats(self, start: float, nodes: int, seed: int) -> SearchStats:
        time_ms = (time.perf_counter() - start) * 1000.0
        return SearchStats("exact", nodes, 1, time_ms, nodes / (time_ms / 1000.0) if time_ms else 0.0,
                           "exact", seed, 1)

    def _exact_hint(self, root: Root, limits: Limits, seed: int, begun: float) -> Hint | None:
        """Every move with its proven value, best first; None when the solve runs out."""
        solved = self._solve(root, root.position.seat, limits)
        if solved is None:
            return None
        value, nodes = solved.value, solved.nodes
        moves = [
            MoveValue(decode_move(code), v / 2, (v / 2, v / 2), 0, True)
            for code, v in solved.move_values.items()
        ]
        moves.sort(key=lambda m: (-m.score, m.move))
        evaluation = Value(value / 2, (value / 2, value / 2), True)
        stats = self._exact_stats(begun, nodes, seed)
        pos = root.position
        return Hint(pos.seat, moves[0].move, moves, evaluation, stats, chance_of(pos.players))

    def _exact_evaluation(self, root: Root, limits: Limits, seed: int, begun: float) -> Evaluation | None:
        pos = root.position
        nodes = 0
        if pos.over:
            scores = pos.final_scores()
        else:
            a, b = root.active
            solved = self._solve(root, a, limits)
            if solved is None:
                return None
            value, nodes = solved.value, solved.nodes
            scores = [1.0] * pos.players
            scores[a], scores[b] = value / 2, 1 - value / 2
        p_lose = [1.0 if score == 0.0 else 0.0 for score in scores]
        score = scores[pos.seat]
        return Evaluation(pos.seat, score, (score, score), True, scores, p_lose,
                          self._exact_stats(begun, nodes, seed), chance_of(pos.players))

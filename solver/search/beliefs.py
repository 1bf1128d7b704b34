"""Weighted beliefs: the hidden hands weighed by how likely the other seats' observed moves are.

A bare position (docs/api.md §2.2) deals the cards a seat cannot see
uniformly. A game record (§2.3) says more: a seat that took a low card
instead of beating it probably holds no cheap beater, a seat that threw
nothing in probably holds none of the table's ranks. Following
inference-weighted determinization (Buro et al. on Skat; Solinas, Rebstock
and Buro), `weigh` draws `particles` uniform worlds and gives each the
likelihood of every other seat's decisions under `OpponentModel` — the greedy
move with probability 1 − ε, else a move leaning to cheap cards — computed
in the Cython search by walking each seat's history backwards from the hand
the world deals it (`weigh_worlds`). Where a learned policy ships for the
rules, the engine kind of player weighs the worlds by the policy's probability
of each move instead (`Kind.learned`): a model of exactly how the engine plays,
which says five times as much of its hand. The search then draws its worlds'
hands from the particles in proportion to their weights.

When the weights collapse (the effective sample size falls below
`min_ess`: the model explains the play badly, or the history is long), the
beliefs fall back to uniform and say so. Setup decisions (docs/rules.md §1.7)
are not weighed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from solver.core import CoreGame, encode_move
from solver.game.bounds import MAX_SEATS
from solver.game.cards import Card
from solver.game.moves import Move
from solver.game.phases import Phase
from solver.game.position import Position
from solver.game.record import Play, Record
from solver.game.reference import Game
from solver.search import _beliefs
from solver.search._model import PolicyModel
from solver.search.budget import StopFlag
from solver.search.learned import chosen_model
from solver.search.sampling import Root

__all__ = [
    "KINDS",
    "ROLES",
    "Beliefs",
    "History",
    "HistoryReader",
    "Kind",
    "OpponentModel",
    "decision_snapshot",
    "fitted",
    "kind_evidence",
    "read_record",
    "uniform_card_chances",
    "weigh",
]

# Kinds of decision the model tells apart: leading a bout, defending, and adding
# cards (throwing in, or passing) once the table holds cards.
ROLES = ("lead", "defend", "throw")

_DECIDE, _LOST, _TAKEN, _DRAWN = 0, 1, 2, 3


@dataclass(frozen=True)
class OpponentModel:
    """How another seat is assumed to choose, for each kind of decision (`ROLES`) three numbers
    (ε, λ, κ): the greedy move (the `greedy` player's) with probability 1 − ε, else a move drawn
    with weight λ^k for a card move whose card is the k-th cheapest of the legal moves' cards
    (by rank, trumps above every plain card) and κ for taking or passing. λ = κ = 1 is the plain
    ε-greedy model (any legal move alike). The defaults are fitted by maximum likelihood on the
    default engine's games (BENCHMARKS.md, `benchmarks/opponent_model.py`)."""

    lead: tuple[float, float, float] = (0.93, 0.74, 1.0)
    defend: tuple[float, float, float] = (0.74, 0.66, 0.522)
    throw: tuple[float, float, float] = (0.80, 0.54, 0.122)

    def __post_init__(self) -> None:
        for role in ROLES:
            epsilon, low, stay = getattr(self, role)
            if not (0.0 < epsilon <= 1.0 and 0.0 < low <= 1.0 and stay > 0.0):
                raise ValueError(f"{role}: need 0 < ε ≤ 1, 0 < λ ≤ 1 and κ > 0, not {getattr(self, role)!r}")

    @classmethod
    def greedy(cls, epsilon: float) -> OpponentModel:
        """The ε-greedy model: the greedy move, else any legal move alike, with one ε."""
        return cls((epsilon, 1.0, 1.0), (epsilon, 1.0, 1.0), (epsilon, 1.0, 1.0))

    def matrix(self) -> np.ndarray:
        return np.array([getattr(self, role) for role in ROLES], dtype=np.float64)


@dataclass(frozen=True)
class Kind:
    """A kind of player another seat may be: its model, how likely it is before the seat has
    seen anything (`prior`), and `power` < 1 for a model known to overstate what a move says
    (its log-likelihood is scaled by it). A kind with `learned` (ε, power) weighs the worlds
    instead by the learned policy shipped for the rules (or the engine's `policy_model`), where
    one ships: the policy's move with probability 1 − ε, else any legal move alike, its
    log-likelihood scaled by that power; where none ships, by `model` and `power`. Its `model`
    still says how likely a seat is to be of the kind (`Beliefs.kinds`): a sharp model of one
    engine's play would read any other searching player as the greedy kind."""

    name: str
    model: OpponentModel
    prior: float
    power: float = 1.0
    learned: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        if self.learned is not None:
            epsilon, power = self.learned
            if not (0.0 < epsilon <= 1.0 and 0.0 < power <= 1.0):
                raise ValueError(f"{self.name}: learned needs 0 < ε ≤ 1 and a power in (0, 1], "
                                 f"not {self.learned!r}")


# The kinds the other seats are weighed as, each seat on its own: a player who plays nearly
# always the greedy move (as many people do), and one who plays like the default engine. The
# engine is read by the learned policy (the default engine's own prior, learned from its visits),
# a uniform move one time in twenty, untempered — which scored the card tracker best, and the
# search 0.552 against the fitted model at 30,000 iterations, 0.522 at 100 ms (BENCHMARKS.md),
# while its `model` still reads whether a seat is greedy (`weigh`); where no policy
# ships, by the model fitted on its games, which overstates what a move says about its hand,
# tempered by 1/4 — the power that scored the tracker best then.
KINDS = (
    Kind("greedy", OpponentModel.greedy(0.05), 0.5),
    Kind("engine", OpponentModel(), 0.5, 0.25, learned=(0.05, 1.0)),
)


def fitted(kinds: Sequence[Kind]) -> tuple[Kind, ...]:
    """`kinds` read by their models alone, never by a learned policy (`beliefs_policy` off)."""
    return tuple(replace(kind, learned=None) for kind in kinds)


@dataclass(frozen=True)
class History:
    """What a record shows of the other seats' play, ready to weigh worlds with: a snapshot of
    each of their decisions (a full state as that seat could have seen it) and the ops of
    `weigh_worlds` (int64 rows: kind, seat, cards, seen, count, snapshot, move, role)."""

    states: tuple[CoreGame, ...] = ()
    ops: np.ndarray = field(default_factory=lambda: np.zeros((0, 8), dtype=np.int64))

    @property
    def decisions(self) -> int:
        """How many of the other seats' decisions the history weighs."""
        return len(self.states)

    @property
    def deciding(self) -> list[int]:
        """The seats with a decision in the history's ops, in order."""
        return sorted({int(seat) for kind, seat in self.ops[:, :2] if kind == _DECIDE})

    def without(self, seats: Sequence[int]) -> History:
        """The history without the ops of `seats` (whose hands nothing is hidden of)."""
        return self._of(seats, False)

    def only(self, seats: Sequence[int]) -> History:
        """The history of `seats` alone."""
        return self._of(seats, True)

    def _of(self, seats: Sequence[int], theirs: bool) -> History:
        if not len(self.ops):
            return self
        keep = np.isin(self.ops[:, 1], list(seats)) == theirs
        return History(self.states, np.ascontiguousarray(self.ops[keep]))


def _mask(cards: Any) -> int:
    bits = 0
    for card in cards:
        bits |= 1 << card.index
    return bits


def _role(game: Game, seat: int) -> int:
    if not game.table:
        return ROLES.index("lead")
    if seat == game.defender and not game.taking and any(pair.defense is None for pair in game.table):
        return ROLES.index("defend")
    return ROLES.index("throw")


class HistoryReader:
    """Builds one seat's `History` move by move, from what that seat saw: feed it every move of
    the game with the world before and after it (`observe`, or as `Record.replay`'s watch).
    It reads of the other seats only what the seat saw too: the cards they played and took,
    how many they drew, and who drew the face-up bottom card."""

    def __init__(self, seat: int, trump: Card) -> None:
        self.seat = seat
        self.seen = 1 << trump.index  # cards seen face up so far: none of them is in the stock
        self.states: list[CoreGame] = []
        self.rows: list[tuple[int, ...]] = []

    def __call__(self, _index: int, event: Play, before: Game, after: Game) -> None:
        self.observe(event.seat, event.move, before, after)

    def observe(
        self, mover: int, move: Move, before: Game, after: Game, snapshot: CoreGame | None = None
    ) -> None:
        """`mover` played `move` in `before`, which led to `after`; `snapshot` is the mover's
        decision as `decision_snapshot` makes it (given when several readers share it)."""
        on_table = {card for pair in before.table for card in (pair.attack, pair.defense) if card}
        if move.card is not None:
            on_table.add(move.card)
        bottom = before.stock[-1] if before.stock else None
        # A tribute given in this move (docs/rules.md §1.7) moves a card the seat sees only as
        # its giver or receiver (or, dealt last and shown, as the trump card): to any other seat
        # the giver lost nothing it saw and the receiver drew a card.
        hidden: set[Card] = set()
        if after.tributed is not None and before.tributed is None:
            giver, receiver, card = after.tributed
            if self.seat not in (giver, receiver) and not (card == after.trump and not after.stock):
                hidden = {card}
        for seat in range(before.players):
            self.seen |= _mask(before.hands[seat] - after.hands[seat] - hidden)
        if move.card is not None:
            self.seen |= 1 << move.card.index
        for seat in range(before.players):
            if seat == self.seat:
                continue
            if mover == seat and before.phase is Phase.PLAY:
                role = _role(before, seat)
                self.rows.append((_DECIDE, seat, 0, 0, 0, len(self.states), encode_move(move), role))
                self.states.append(snapshot if snapshot is not None else decision_snapshot(before))
            lost = before.hands[seat] - after.hands[seat] - hidden
            gained = after.hands[seat] - before.hands[seat]
            taken = gained & on_table
            drawn = gained - taken
            if lost:
                self.rows.append((_LOST, seat, _mask(lost), 0, 0, 0, 0, 0))
            if taken:
                self.rows.append((_TAKEN, seat, _mask(taken), 0, 0, 0, 0, 0))
            if drawn:
                shown = {bottom} & drawn if bottom is not None else set()
                self.rows.append((_DRAWN, seat, _mask(shown), self.seen, len(drawn), 0, 0, 0))

    def copy(self) -> HistoryReader:
        """A reader that goes on from here on its own (the snapshots are shared: never changed)."""
        other = HistoryReader.__new__(HistoryReader)
        other.seat, other.seen = self.seat, self.seen
        other.states, other.rows = list(self.states), list(self.rows)
        return other

    def history(self) -> History:
        """What the seat has seen so far."""
        ops = np.array(self.rows, dtype=np.int64).reshape(-1, 8)
        return History(tuple(self.states), ops)


def decision_snapshot(before: Game) -> CoreGame:
    """The state of a decision in the fast core. The model reads only the mover's hand, which
    the weighing replaces, and what every seat sees (the table, the counts, the stock's size),
    so the world's other hands may be any with the right counts."""
    return CoreGame.from_fields(
        before.rules,
        before.players,
        [[card.index for card in hand] for hand in before.hands],
        [card.index for card in before.stock],
        before.trump.index,
        [(pair.attack.index, -1 if pair.defense is None else pair.defense.index) for pair in before.table],
        attacker=before.attacker,
        defender=before.defender,
        to_move=before.to_move if before.to_move is not None else -1,
        taking=before.taking,
        passed=list(before.passed),
        finished=list(before.finished),
        defended_once=before.defended_once,
    )


def read_record(record: Record) -> tuple[Position, History]:
    """Replay `record` once: the position its seat sees at the end (another seat's secret setup
    decision left pending taken as a keep, docs/api.md §2.3), with the record's match block, and
    the history to weigh worlds with."""
    reader = HistoryReader(record.seat, record.trump)
    world = record.replay(reader, settle=True)
    return record.position_of(world), reader.history()


@dataclass(frozen=True)
class Beliefs:
    """Weighted worlds: each particle's hands (`MAX_SEATS` columns, the seat's own and known
    cards included) and its normalised weight; `ess` the effective sample size (Σw)² / Σw².

    `mode`: `uniform` (no history to weigh), `weighted` (the likelihoods as they are),
    `tempered` (the likelihoods raised to `power` < 1, the largest that keeps `ess` at the
    minimum: the model explains the play badly or the history is long, so the beliefs lean
    back towards uniform), `collapsed` (no world explains the history: uniform) or `unweighed`
    (the answer's time ran out, or it was stopped, before a world was weighed: uniform).
    """

    hands: np.ndarray
    weights: np.ndarray
    ess: float
    mode: str
    power: float = 1.0
    decisions: int = 0
    evidence: dict[int, dict[str, float]] = field(default_factory=dict)
    """For each other seat whose decisions were weighed, the log-likelihood of them under each kind
    of player, the hand it held summed out (`kind_evidence`)."""
    priors: dict[str, float] = field(default_factory=dict)
    """Each kind's chance before anything is seen (the weighing's)."""

    def kinds(self, seat: int, prior: Mapping[str, float] | None = None) -> dict[str, float]:
        """The chance that `seat` is each kind of player, given its decisions: from the weighing's
        priors, or from `prior` (a chance per kind); empty when nothing of it was weighed."""
        evidence = self.evidence.get(seat)
        if not evidence:
            return {}
        chosen = dict(self.priors) if prior is None else dict(prior)
        names = list(evidence)
        joint = np.array([math.log(chosen[name]) if chosen.get(name, 0.0) > 0 else -np.inf for name in names])
        joint += np.array([evidence[name] for name in names])
        posterior = np.exp(joint - np.logaddexp.reduce(joint))
        return {name: float(p) for name, p in zip(names, posterior, strict=True)}

    def chance_all_are(self, kind: str, seats: Sequence[int], prior: float | None = None) -> float:
        """The chance that every seat of `seats` is a player of `kind` (each read alone, so the
        product), with the weighing's priors or `prior` for `kind` (the other kinds sharing the rest
        as the weighing's priors do); 0 when no seat is given or one of them was not read."""
        if not seats:
            return 0.0
        chance = 1.0
        for seat in seats:
            priors = None
            if prior is not None:
                rest = sum(p for name, p in self.priors.items() if name != kind)
                priors = {name: (prior if name == kind else (1.0 - prior) * p / rest)
                          for name, p in self.priors.items()}
            chance *= self.kinds(seat, priors).get(kind, 0.0)
        return chance

    @property
    def weighted(self) -> bool:
        return self.mode in ("weighted", "tempered")

    def card_chances(self, position: Position) -> dict[Card, list[float]]:
        """For every card the seat cannot see: the chance it lies in each seat's hand, then in the
        stock (or elsewhere unseen: a pending pick's offered hands), from the weighted worlds."""
        if self.mode == "unweighed":
            return uniform_card_chances(position)
        unseen = position.unseen_cards()
        if not unseen:
            return {}
        index = np.array([card.index for card in unseen], dtype=np.uint64)
        held = (self.hands[:, : position.players, None] >> index[None, None, :]) & np.uint64(1)
        chance = np.einsum("p,psc->cs", self.weights, held.astype(np.float64))
        rest = np.clip(1.0 - chance.sum(axis=1, keepdims=True), 0.0, 1.0)
        table = np.hstack([chance, rest])
        return {card: [round(float(x), 6) for x in row] for card, row in zip(unseen, table, strict=True)}


def uniform_card_chances(position: Position) -> dict[Card, list[float]]:
    """`Beliefs.card_chances` of uniform worlds, worked out rather than drawn: every card the seat
    cannot see is equally likely in each unknown slot of another hand, the stock and another seat's
    offered hands, and a card of `in_stock` lies in the stock. For positions no world can be drawn
    from yet: another seat deciding in secret in the setup (docs/rules.md §1.7)."""
    unseen = position.unseen_cards()
    stock_only = set(position.in_stock)
    slots = position.hidden_slots().seats
    free = sum(card not in stock_only for card in unseen)
    spread = [slots.get(seat, 0) / free if free else 0.0 for seat in range(position.players)]
    table: dict[Card, list[float]] = {}
    for card in unseen:
        row = [0.0] * position.players if card in stock_only else spread
        table[card] = [round(x, 6) for x in row] + [round(max(0.0, 1.0 - sum(row)), 6)]
    return table


def kind_evidence(
    per_kind: np.ndarray, kinds: Sequence[Kind], seats: Sequence[int]
) -> dict[int, dict[str, float]]:
    """Each seat's log-likelihood of its decisions under each kind of player, with the hand it held
    summed out: the log of the mean over the worlds (uniform draws) of the kind's likelihood.
    Untempered: a kind's `power` flattens its weights of worlds, but a flattened likelihood is no
    probability of the moves, and would make the flatter kind the likelier whatever was played.
    `per_kind`: the log-likelihoods of the possible worlds (worlds × seats × kinds)."""
    evidence: dict[int, dict[str, float]] = {}
    for seat in seats:
        marginal = np.logaddexp.reduce(per_kind[:, seat, :], axis=0) - math.log(len(per_kind))
        evidence[seat] = {kind.name: float(value) for kind, value in zip(kinds, marginal, strict=True)}
    return evidence


def _ess(weights: np.ndarray) -> float:
    return float(np.square(weights.sum()) / np.square(weights).sum())


def _tempered(log_weights: np.ndarray, min_ess: float) -> tuple[np.ndarray, float, float]:
    """Normalised weights exp(power · log w) with the largest power in (0, 1] whose ESS is at
    least `min_ess` (bisection: the ESS falls as the power grows), the ESS and the power."""
    shifted = log_weights - log_weights.max()

    def at(power: float) -> tuple[np.ndarray, float]:
        weights = np.exp(power * shifted)
        return weights / weights.sum(), _ess(weights)

    weights, ess = at(1.0)
    if ess >= min_ess:
        return weights, ess, 1.0
    low, high = 0.0, 1.0
    for _ in range(30):
        middle = (low + high) / 2
        if at(middle)[1] >= min_ess:
            low = middle
        else:
            high = middle
    weights, ess = at(low)
    return weights, ess, low


def weigh(
    root: Root,
    history: History | None,
    model: OpponentModel | Sequence[Kind] | None = None,
    particles: int = 16384,
    seed: int = 0,
    min_ess: float = 256.0,
    budget: int | None = 1 << 17,
    time_ms: float | None = None,
    stop: StopFlag | None = None,
    policy_model: str = "",
) -> Beliefs:
    """`particles` worlds of `root` weighed by `history` (uniform weights without one); from then
    on the sampler of `root` draws its worlds' hands from them when they are weighted.

    Each other seat is one of the `model` kinds (`KINDS` by default; one `OpponentModel` is
    one kind) with its prior: a world's weight is the product over seats of
    Σ_kind prior · likelihood^power, a `learned` kind's likelihood the learned policy's where one
    ships for the rules (or the one called `policy_model`, the searching engine's own, so that an
    earlier generation reads the others by the policy it searches with). `budget` caps the work
    — worlds times the decisions weighed — by drawing fewer worlds for a long history (never
    fewer than 1,024), so a hint with a long record costs about as much as a short one. The
    weighing also ends after `time_ms` or once `stop` is set, with the worlds weighed by then
    (`unweighed`, uniform, when that is none): it counts against its answer's time like the search
    after it. A seat whose hand the seat sees whole weighs no world but is still read
    (`Beliefs.evidence`, `_known_evidence`)."""
    kinds = _kinds(model)
    if particles < 1:
        raise ValueError(f"particles must be positive, not {particles!r}")
    if time_ms is not None and not time_ms > 0:
        raise ValueError(f"time_ms must be positive, not {time_ms!r}")
    root.sampler.set_particles(np.zeros((0, MAX_SEATS), dtype=np.uint64), np.zeros(0))
    hidden = root.position.hidden_slots()
    slots = hidden.seats
    known = [s for s in range(root.position.players) if not slots.get(s)]
    history = history or History()
    # A seat whose hand the seat sees whole weighs no world, but its moves still say what kind
    # of player it is: read apart, so the worlds' weights and their draws stay as they were; the
    # time it takes comes off the weighing's.
    started = time.perf_counter()
    read = _known_evidence(root, history.only(known), kinds, seed, time_ms, stop)
    if time_ms is not None:
        time_ms = max(time_ms - (time.perf_counter() - started) * 1000.0, 1e-3)
    history = history.without(known)
    priors = {kind.name: kind.prior / sum(k.prior for k in kinds) for kind in kinds}
    weighed = int((history.ops[:, 0] == _DECIDE).sum()) if len(history.ops) else 0
    if not any(slots.values()) and not hidden.stock:
        particles = 1  # nothing hidden: every world is the one the seat sees
    if budget is not None and weighed:
        particles = min(particles, max(1024, budget // weighed))
    hands = np.zeros((particles, MAX_SEATS), dtype=np.uint64)
    shipped = chosen_model(root.position.rules, root.position.players, policy_model, "policy") if any(
        kind.learned for kind in kinds) else None
    policy = shipped.net if shipped is not None and isinstance(shipped.net, PolicyModel) else None
    # Each kind's own model's column, then a column for each kind the policy reads: the worlds are
    # weighed by the reading, and what each kind's own model says of the moves stays the kinds'
    # evidence (the chance a seat is greedy), which a sharp model of one engine would misread.
    reading = [(i, kind.learned) for i, kind in enumerate(kinds) if kind.learned and policy is not None]
    columns = [kind.model.matrix() for kind in kinds]
    columns += [OpponentModel.greedy(epsilon).matrix() for _, (epsilon, _power) in reading]
    models = np.ascontiguousarray(np.stack(columns))
    learned = sum(1 << (len(kinds) + j) for j in range(len(reading)))
    per_kind = np.zeros((particles, MAX_SEATS, len(columns)), dtype=np.float64)
    done, _ruled_out = _beliefs.weigh_worlds(
        root.sampler, list(history.states), history.ops, models, seed, hands, per_kind,
        time_ms=time_ms or 0.0, stop=stop.buffer if stop is not None else None,
        policy=policy, learned=learned,
    )
    if not len(history.ops):
        return Beliefs(hands, np.full(particles, 1.0 / particles), float(particles), "uniform",
                       evidence=read, priors=priors)
    if not done:  # out of time (or stopped) before the first world: every world alike
        return Beliefs(hands[:1], np.ones(1), 1.0, "unweighed", 0.0, history.decisions, read, priors)
    particles, hands, per_kind = done, hands[:done], per_kind[:done]
    uniform = np.full(particles, 1.0 / particles)
    possible = per_kind[:, 0, 0] > -1e299
    if not possible.any():
        return Beliefs(hands, uniform, float(particles), "collapsed", 0.0, history.decisions, read, priors)
    prior = np.log(np.array([kind.prior for kind in kinds]) / sum(kind.prior for kind in kinds))
    power = np.array([kind.power for kind in kinds])
    explained = per_kind[possible]  # the possible worlds' columns, one copy
    own = explained[:, :, : len(kinds)]  # each kind's own model: its evidence
    weighing = own.copy()
    for j, (i, (_epsilon, by_power)) in enumerate(reading):
        weighing[:, :, i] = explained[:, :, len(kinds) + j]
        power[i] = by_power
    mixed = np.logaddexp.reduce(prior + power * weighing, axis=2).sum(axis=1)
    weights = np.zeros(particles)
    weights[possible], ess, temper = _tempered(mixed, min(min_ess, float(possible.sum())))
    root.sampler.set_particles(hands, weights)
    mode = "weighted" if temper == 1.0 else "tempered"
    deciding = history.deciding
    return Beliefs(hands, weights, ess, mode, temper, history.decisions,
                   {**read, **kind_evidence(own, kinds, deciding)}, priors)


KNOWN_WORLDS = 256
"""Draws of which cards a seat whose hand is known drew when, over which its kinds' evidence is
averaged (`_known_evidence`): its hand is the same in every world, so a few hundred suffice."""


def _known_evidence(
    root: Root, history: History, kinds: Sequence[Kind], seed: int, time_ms: float | None,
    stop: StopFlag | None,
) -> dict[int, dict[str, float]]:
    """`kind_evidence` of the seats in `history` (whose hands the seat sees whole): each kind's
    own model of their moves, walked back from the hands they hold, over `KNOWN_WORLDS` draws of
    when they drew which cards. Without it the search would forget, the moment a seat's last
    hidden card is seen (the stock gone, two seats), what it had read of the player — and meet a
    greedy player's endgame as a searching one's."""
    deciding = history.deciding
    if len(kinds) < 2 or not deciding:
        return {}
    models = np.ascontiguousarray(np.stack([kind.model.matrix() for kind in kinds]))
    hands = np.zeros((KNOWN_WORLDS, MAX_SEATS), dtype=np.uint64)
    per_kind = np.zeros((KNOWN_WORLDS, MAX_SEATS, len(kinds)), dtype=np.float64)
    done, _ruled_out = _beliefs.weigh_worlds(
        root.sampler, list(history.states), history.ops, models, seed ^ 0x6B6E6F776E, hands, per_kind,
        time_ms=time_ms or 0.0, stop=stop.buffer if stop is not None else None,
    )
    per_kind = per_kind[:done]
    possible = per_kind[:, deciding[0], 0] > -1e299
    if not possible.any():
        return {}
    return kind_evidence(per_kind[possible], kinds, deciding)


def _kinds(model: OpponentModel | Sequence[Kind] | None) -> tuple[Kind, ...]:
    if model is None:
        return KINDS
    if isinstance(model, OpponentModel):
        return (Kind("model", model, 1.0),)
    kinds = tuple(model)
    if not kinds or any(kind.prior <= 0 or not 0 < kind.power <= 1 for kind in kinds):
        raise ValueError("kinds need a positive prior and a power in (0, 1] each")
    return kinds

# cython: language_level=3
"""A learned evaluation of a determinized world, for the leaves of the search tree.

Greedy playouts tell the tree how a game ends when both sides play greedily;
a value learned from the engine's own games tells it how a game ends when they
play as the engine does (solver/search/learned.py, benchmarks/train_value.py).
`world_features` describes a world from one seat's side, the same in every
suit: a card is a *slot*, its rank plus 13 when it is a trump, so the model
does not have to learn each trump suit apart. `solver.search.features` is
the same function in readable Python; a test holds the two together.

Features (N_FEATURES = 94), in order:
- 0–25 the seat's hand by slot (a plain slot counts its cards out of 3, a trump slot 0 or 1),
- 26–51 the other active seats' hands together, 52–77 the attack cards not yet beaten,
- 78 the seat's cards / 12, 79 the others' cards / 12, 80 the stock / 24, 81 the stock is empty,
- 82 the seat attacks, 83 it defends, 84 it is to move, 85 the defender takes,
- 86 the attack cards on the table / 12, 87 the rank of the trump card still in the stock / 12 (0 if drawn),
- 88 the seat's trumps / 6, 89 the others' trumps / 6,
- 90 whose trump is highest (1 the seat's, 0 the others', 0.5 no trumps in hands),
- 91 the other active seats beyond the first, 92 the seat's plain cards of the deck's three
  lowest ranks / 6, 93 (the seat's cards − the others') / 12.
"""

from libc.math cimport exp
from libc.stdint cimport uint64_t
from libc.string cimport memset

import numpy as np

from solver.core._core cimport (
    MAX_MOVES, MAX_SEATS, MK_ATTACK, MK_DEFEND, MK_PASS, MK_TAKE, MK_TRANSFER, PHASE_PLAY, RANKS, Rng, State,
    card_cost, gen_moves, move_card, move_kind, move_target, rank_of, rng_next, tan_highbit, tan_lowbit,
    tan_popcount,
)
from solver.core._core cimport CoreGame


cdef inline int slot_of(const State* s, int card) noexcept nogil:
    """A card's slot: its `card_cost` (its rank, + 13 when a trump)."""
    return card_cost(s, card)


cdef inline void add_cards(const State* s, uint64_t cards, double* block) noexcept nogil:
    cdef int card, slot
    while cards:
        card = tan_lowbit(cards)
        cards &= cards - 1
        slot = slot_of(s, card)
        block[slot] += 1.0 if slot >= RANKS else 1.0 / 3.0


cdef inline uint64_t low_cards(int low_rank) noexcept nogil:
    """The cards of the deck's three lowest ranks, in every suit."""
    cdef uint64_t cards = 0
    cdef int suit, rank
    for suit in range(4):
        for rank in range(low_rank, low_rank + 3):
            cards |= (<uint64_t>1) << (suit * RANKS + rank)
    return cards


cdef void world_features(const State* s, int seat, double* out) noexcept nogil:
    """The N_FEATURES features of world `s` seen from `seat` (docstring of this module)."""
    cdef uint64_t mine = s.hands[seat], theirs = 0, undefended = s.undefended, trumps = s.trump_mask
    cdef int other, others = 0, low_rank = RANKS - s.rules.deck // 4
    cdef int my_high, their_high
    memset(out, 0, N_FEATURES * sizeof(double))
    for other in range(s.players):
        if other != seat and (s.active >> other) & 1:
            theirs |= s.hands[other]
            others += 1
    add_cards(s, mine, out)
    add_cards(s, theirs, out + SLOTS)
    add_cards(s, undefended, out + 2 * SLOTS)
    out[78] = tan_popcount(mine) / 12.0
    out[79] = tan_popcount(theirs) / 12.0
    out[80] = s.n_stock / 24.0
    out[81] = 1.0 if s.n_stock == 0 else 0.0
    out[82] = 1.0 if s.attacker == seat else 0.0
    out[83] = 1.0 if s.defender == seat else 0.0
    out[84] = 1.0 if s.to_move == seat else 0.0
    out[85] = 1.0 if s.taking else 0.0
    out[86] = s.n_table / 12.0
    out[87] = rank_of(s.stock[0]) / 12.0 if s.n_stock > 0 else 0.0
    out[88] = tan_popcount(mine & trumps) / 6.0
    out[89] = tan_popcount(theirs & trumps) / 6.0
    my_high = tan_highbit(mine & trumps) if mine & trumps else -1
    their_high = tan_highbit(theirs & trumps) if theirs & trumps else -1
    out[90] = 0.5 if my_high == their_high else (1.0 if my_high > their_high else 0.0)
    out[91] = others - 1 if others > 1 else 0
    out[92] = tan_popcount(mine & ~trumps & low_cards(low_rank)) / 6.0
    out[93] = (tan_popcount(mine) - tan_popcount(theirs)) / 12.0


cdef double net_logit(const ValueNet* net, const double* x) noexcept nogil:
    """The net's log-odds that the seat does not lose, from raw features `x`."""
    cdef double hidden[MAX_HIDDEN]
    cdef double total = net.b2, xi
    cdef const double* column
    cdef int i, j, n = net.hidden
    for j in range(n):
        hidden[j] = net.b1[j]
    for i in range(N_FEATURES):
        xi = x[i]
        if xi != 0.0:
            total += net.skip[i] * xi
            column = &net.w1[i * MAX_HIDDEN]
            for j in range(n):
                hidden[j] += column[j] * xi
    for j in range(n):
        if hidden[j] > 0.0:
            total += net.w2[j] * hidden[j]
    return total


cdef double net_value(const ValueNet* net, const State* s, int seat) noexcept nogil:
    """The expected score of `seat` in world `s`, by the net."""
    cdef double x[N_FEATURES]
    world_features(s, seat, x)
    return 1.0 / (1.0 + exp(-net_logit(net, x)))


cdef int net_scores(const ValueNet* net, const State* s, double* scores) noexcept nogil:
    """Every seat's expected score of a two-way fight in the play (0: not such a state).

    The seats already out score 1; the two still in share one: the mean of what the net says
    from each side, so the two scores add up to 1 whichever seat is asked first.
    """
    cdef int seat, a = -1, b = -1
    cdef double va, vb
    if s.over or s.phase != PHASE_PLAY or not two_seats_in(s, &a, &b):
        return 0
    for seat in range(s.players):
        scores[seat] = 1.0
    va = net_value(net, s, a)
    vb = net_value(net, s, b)
    scores[a] = 0.5 * (va + 1.0 - vb)
    scores[b] = 1.0 - scores[a]
    return 1


# -- the policy ------------------------------------------------------------------------------
#
# A move's features are read only from what its mover sees — its own hand, the table, the size
# of the stock and of the other hands — so the same policy models a seat whose hand the searcher
# cannot see without peeking at the world the search dealt it. Offsets of the groups (each
# split by the stock: 0 while it lasts, 1 once empty):
#   0   kind (lead, throw-in, defend, take, pass, transfer, other) × stock            14
#   14  the card's slot × its use (lead, throw-in, defend, transfer) × stock         208
#   222 a defence's target slot × stock                                              52
#   274 a lead's cards of its rank in the mover's hand (1–4) × stock                  8
#   282 kind × (mover's cards − the fewest of another seat still in: ≤−3, −2…−1, 0, 1…2, ≥3)  35
#   317 take or pass × attack cards on the table (1, 2, 3, 4+) × stock               16
#
# A contextual policy (`PolicyNet.context`) adds to each move feature's weight its dot product
# with the mover's view of the state (`mover_view`, P_VIEW numbers): the world features of the
# mover less what only the world knows — the others' hands (26–51), their trumps (89) and whose
# trump is highest (90). So a move's score depends on the hand, the table and the stock it is
# played into, not on its kind, card and hand sizes alone, and it still reads only what the
# mover sees.

cdef enum:
    K_LEAD = 0
    K_THROW = 1
    K_DEFEND = 2
    K_TAKE = 3
    K_PASS = 4
    K_TRANSFER = 5
    K_OTHER = 6


cdef int move_features(const State* s, int move, int* idx) noexcept nogil:
    """The features that are on for `move` of the seat to move in `s`; returns how many."""
    cdef int kind = move_kind(move), k, n = 0, card, use = -1, stock = 1 if s.n_stock == 0 else 0
    cdef int seat, fewest = 99, diff, bucket, table, same
    cdef uint64_t hand = s.hands[s.to_move]
    if kind == MK_ATTACK:
        k = K_LEAD if s.n_table == 0 else K_THROW
    elif kind == MK_DEFEND:
        k = K_DEFEND
    elif kind == MK_TAKE:
        k = K_TAKE
    elif kind == MK_PASS:
        k = K_PASS
    elif kind == MK_TRANSFER:
        k = K_TRANSFER
    else:
        k = K_OTHER
    idx[n] = k * 2 + stock
    n += 1
    if k == K_LEAD or k == K_THROW or k == K_DEFEND or k == K_TRANSFER:
        card = move_card(move)
        use = 0 if k == K_LEAD else 1 if k == K_THROW else 2 if k == K_DEFEND else 3
        idx[n] = 14 + (slot_of(s, card) * 4 + use) * 2 + stock
        n += 1
        if k == K_DEFEND:
            idx[n] = 222 + slot_of(s, move_target(move)) * 2 + stock
            n += 1
        if k == K_LEAD:
            same = tan_popcount(hand & ((<uint64_t>0x8004002001) << rank_of(card)))  # the four suits of its rank
            idx[n] = 274 + (same - 1) * 2 + stock
            n += 1
    for seat in range(s.players):
        if seat != s.to_move and (s.active >> seat) & 1 and tan_popcount(s.hands[seat]) < fewest:
            fewest = tan_popcount(s.hands[seat])
    if fewest == 99:
        fewest = 0
    diff = tan_popcount(hand) - fewest
    bucket = 0 if diff <= -3 else 1 if diff < 0 else 2 if diff == 0 else 3 if diff <= 2 else 4
    idx[n] = 282 + k * 5 + bucket
    n += 1
    if k == K_TAKE or k == K_PASS:
        table = s.n_table if s.n_table < 4 else 4
        if table > 0:
            idx[n] = 317 + ((table - 1) * 2 + (0 if k == K_TAKE else 1)) * 2 + stock
            n += 1
    return n


cdef void mover_view(const State* s, double* out) noexcept nogil:
    """The P_VIEW numbers of the mover's view of `s` (the header above): its world features
    without the others' hands, their trumps and whose trump is highest."""
    cdef double x[N_FEATURES]
    cdef int i, n = 0
    world_features(s, s.to_move, x)
    for i in range(N_FEATURES):
        if i < SLOTS or 2 * SLOTS <= i < 89 or i > 90:
            out[n] = x[i]
            n += 1


cdef int policy_probabilities(const PolicyNet* net, const State* s, const int* moves, int n,
                              double* out) noexcept nogil:
    """The policy's probability of each of the `n` `moves` (legal in `s`) in `out`; returns n."""
    cdef int idx[P_ACTIVE]
    cdef double view[P_VIEW]
    cdef int on[P_VIEW]             # the view's nonzero entries: most card slots are empty
    cdef double by_feature[P_FEATURES]
    cdef unsigned char known[P_FEATURES]  # a feature's context term, computed once per call
    cdef int i, j, k, m, f, n_on = 0
    cdef double top = -1.0e300, total = 0.0, score, dot
    cdef const double* row
    if net.context:
        mover_view(s, view)
        for k in range(P_VIEW):
            if view[k] != 0.0:
                on[n_on] = k
                n_on += 1
        memset(known, 0, P_FEATURES)
    for i in range(n):
        m = move_features(s, moves[i], idx)
        score = 0.0
        for j in range(m):
            f = idx[j]
            score += net.w[f]
            if net.context:
                if not known[f]:
                    row = &net.u[f * P_VIEW]
                    dot = 0.0
                    for k in range(n_on):
                        dot += row[on[k]] * view[on[k]]
                    by_feature[f] = dot
                    known[f] = 1
                score += by_feature[f]
        out[i] = score / net.temperature
        if out[i] > top:
            top = out[i]
    for i in range(n):
        out[i] = exp(out[i] - top)
        total += out[i]
    for i in range(n):
        out[i] /= total
    return n


cdef int policy_sample(const PolicyNet* net, const State* s, Rng* rng) noexcept nogil:
    """A move of the seat to move in `s`, drawn from the policy."""
    cdef int moves[MAX_MOVES]
    cdef double p[MAX_MOVES]
    cdef int n = gen_moves(s, moves), i
    cdef double u, run = 0.0
    if n == 1:
        return moves[0]
    policy_probabilities(net, s, moves, n, p)
    u = (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)
    for i in range(n - 1):
        run += p[i]
        if u < run:
            return moves[i]
    return moves[n - 1]


# -- Python faces ------------------------------------------------------------------------

FEATURES = N_FEATURES
HIDDEN_MAX = MAX_HIDDEN
POLICY_FEATURES = P_FEATURES
POLICY_ACTIVE = P_ACTIVE
POLICY_VIEW = P_VIEW


def policy_features(CoreGame game, int code) -> list[int]:
    """The policy features that are on for the legal move `code` of the seat to move."""
    cdef int idx[P_ACTIVE]
    cdef int n
    if game.state.over or code not in game.legal_codes():
        raise ValueError(f"move {code} is not legal here")
    n = move_features(&game.state, code, idx)
    return [idx[i] for i in range(n)]


def policy_view(CoreGame game) -> np.ndarray:
    """The mover's view of `game` that a contextual policy weighs its move features by
    (float64, POLICY_VIEW long)."""
    if game.state.over:
        raise ValueError("the game is over: no one is to move")
    out = np.zeros(P_VIEW, dtype=np.float64)
    cdef double[::1] view = out
    mover_view(&game.state, &view[0])
    return out


cdef class PolicyModel:
    """A policy's weights in C, for the search (`net` is read without the GIL)."""

    def __init__(self, weights, double temperature=1.0, context=None):
        cdef int i, k
        weights = np.asarray(weights, dtype=np.float64)
        if weights.shape != (P_FEATURES,) or not np.isfinite(weights).all():
            raise ValueError(f"a policy needs {P_FEATURES} finite weights")
        if not temperature > 0.0:
            raise ValueError("the policy's temperature must be positive")
        if context is not None:
            context = np.asarray(context, dtype=np.float64)
            if context.shape != (P_FEATURES, P_VIEW) or not np.isfinite(context).all():
                raise ValueError(f"a contextual policy needs {P_FEATURES} × {P_VIEW} finite weights")
        memset(&self.net, 0, sizeof(PolicyNet))
        for i in range(P_FEATURES):
            self.net.w[i] = weights[i]
        self.net.temperature = temperature
        if context is not None:
            self.net.context = 1
            for i in range(P_FEATURES):
                for k in range(P_VIEW):
                    self.net.u[i * P_VIEW + k] = context[i, k]

    @property
    def contextual(self) -> bool:
        """Whether a move's score depends on the mover's view of the state too."""
        return self.net.context == 1

    def probabilities(self, CoreGame game) -> dict[int, float]:
        """The policy's probability of each legal move code of the seat to move."""
        cdef int moves[MAX_MOVES]
        cdef double p[MAX_MOVES]
        cdef int n, i
        if game.state.over:
            return {}
        with nogil:
            n = gen_moves(&game.state, moves)
            policy_probabilities(&self.net, &game.state, moves, n, p)
        return {moves[i]: p[i] for i in range(n)}


def features(CoreGame game, int seat) -> np.ndarray:
    """The features of `game`'s world from `seat` (float64, FEATURES long)."""
    if not 0 <= seat < game.state.players:
        raise ValueError(f"no seat {seat} at a {game.state.players}-seat table")
    out = np.zeros(N_FEATURES, dtype=np.float64)
    cdef double[::1] view = out
    world_features(&game.state, seat, &view[0])
    return out


cdef class ValueModel:
    """A value net's weights in C, for the search (`net` is read without the GIL)."""

    def __init__(self, mean, scale, w1, b1, w2, skip, double b2):
        cdef int i, j
        mean = np.asarray(mean, dtype=np.float64)
        scale = np.asarray(scale, dtype=np.float64)
        skip = np.asarray(skip, dtype=np.float64)
        w1 = np.asarray(w1, dtype=np.float64).reshape(-1, N_FEATURES) if np.size(w1) else np.zeros((0, N_FEATURES))
        b1 = np.asarray(b1, dtype=np.float64).reshape(-1)
        w2 = np.asarray(w2, dtype=np.float64).reshape(-1)
        if mean.shape != (N_FEATURES,) or scale.shape != (N_FEATURES,) or skip.shape != (N_FEATURES,):
            raise ValueError(f"a value net needs {N_FEATURES} means, scales and skip weights")
        if w1.shape[0] > MAX_HIDDEN or b1.shape[0] != w1.shape[0] or w2.shape[0] != w1.shape[0]:
            raise ValueError(f"a value net has at most {MAX_HIDDEN} hidden units, each with a bias and a weight")
        if not (np.isfinite(mean).all() and np.isfinite(scale).all() and np.isfinite(skip).all()
                and np.isfinite(w1).all() and np.isfinite(b1).all() and np.isfinite(w2).all()):
            raise ValueError("a value net's weights must be finite")
        # Fold the standardization z = (x - mean) * scale into the weights: w·z + b = (w·scale)·x
        # + (b - w·(scale·mean)), computed in the same order as the trainer's numpy.
        memset(&self.net, 0, sizeof(ValueNet))
        self.hidden = w1.shape[0]
        self.net.hidden = self.hidden
        folded = w1 * scale
        b1 = b1 - folded @ mean
        self.net.b2 = b2 - float((skip * scale) @ mean)
        for i in range(N_FEATURES):
            self.net.skip[i] = skip[i] * scale[i]
        for j in range(self.hidden):
            self.net.b1[j] = b1[j]
            self.net.w2[j] = w2[j]
            for i in range(N_FEATURES):
                self.net.w1[i * MAX_HIDDEN + j] = folded[j, i]

    def value(self, CoreGame game, int seat) -> float:
        """`seat`'s expected score in `game`'s world, by the net (computed without the GIL)."""
        cdef double v
        if not 0 <= seat < game.state.players:
            raise ValueError(f"no seat {seat} at a {game.state.players}-seat table")
        with nogil:
            v = net_value(&self.net, &game.state, seat)
        return v

    def scores(self, CoreGame game) -> list[float] | None:
        """Every seat's expected score of a two-way fight in the play, or None for other states."""
        cdef double out[MAX_SEATS]
        cdef int ok
        with nogil:
            ok = net_scores(&self.net, &game.state, out)
        return [out[i] for i in range(game.state.players)] if ok else None

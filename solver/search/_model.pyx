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

`table_features` describes a world of any table (2 to 6 seats) from one seat's side, for the
value of every seat (`net_scores` of a SET_TABLE net: who is the durak); its readable twin is
`solver.search.features.table_features`. Features (N_TABLE_FEATURES = 243), in order:
- 0–25 the seat's hand by slot, 26–51 the attack cards not yet beaten,
- 52 the seat's cards / 12, 53 it attacks, 54 it defends, 55 it is to move, 56 its trumps / 6,
  57 its plain cards of the deck's three lowest ranks / 6, 58 whose trump is highest (1 the
  seat's, 0 another active seat's, 0.5 no trumps in hands),
- 59 the stock / 24, 60 the stock is empty, 61 the defender takes, 62 the attack cards on the
  table / 12, 63 the rank of the trump card still in the stock / 12 (0 if drawn),
- 64 the other seats still in / 5, 65 (the seat's cards − the fewest of another seat in) / 12,
  66 (the seat's cards − the most of another seat in) / 12, 67 the seat has passed,
- then for each place p = 1 … 5 after the seat in play order (the seat (seat + p) mod players;
  zeros where the table has no such place), 35 numbers from 68 + 35 (p − 1): its hand by slot
  (26), it is in, it has finished, it attacks, it defends, it may throw in (in, neither attacker
  nor defender), it is to move, its cards / 12, its trumps / 6, it has passed.
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


cdef void table_features(const State* s, int seat, double* out) noexcept nogil:
    """The N_TABLE_FEATURES features of world `s` seen from `seat`, at a table of any size
    (docstring of this module)."""
    cdef uint64_t mine = s.hands[seat], trumps = s.trump_mask, cards
    cdef int other, place, base, others = 0, fewest = 99, most = -1, size, high, is_in
    cdef int my_high, their_high = -1, low_rank = RANKS - s.rules.deck // 4
    memset(out, 0, N_TABLE_FEATURES * sizeof(double))
    add_cards(s, mine, out)
    add_cards(s, s.undefended, out + SLOTS)
    for other in range(s.players):
        if other != seat and (s.active >> other) & 1:
            others += 1
            size = tan_popcount(s.hands[other])
            fewest = size if size < fewest else fewest
            most = size if size > most else most
            if s.hands[other] & trumps:
                high = tan_highbit(s.hands[other] & trumps)
                their_high = high if high > their_high else their_high
    if others == 0:
        fewest = 0
        most = 0
    my_high = tan_highbit(mine & trumps) if mine & trumps else -1
    out[52] = tan_popcount(mine) / 12.0
    out[53] = 1.0 if s.attacker == seat else 0.0
    out[54] = 1.0 if s.defender == seat else 0.0
    out[55] = 1.0 if s.to_move == seat else 0.0
    out[56] = tan_popcount(mine & trumps) / 6.0
    out[57] = tan_popcount(mine & ~trumps & low_cards(low_rank)) / 6.0
    out[58] = 0.5 if my_high == their_high else (1.0 if my_high > their_high else 0.0)
    out[59] = s.n_stock / 24.0
    out[60] = 1.0 if s.n_stock == 0 else 0.0
    out[61] = 1.0 if s.taking else 0.0
    out[62] = s.n_table / 12.0
    out[63] = rank_of(s.stock[0]) / 12.0 if s.n_stock > 0 else 0.0
    out[64] = others / 5.0
    out[65] = (tan_popcount(mine) - fewest) / 12.0
    out[66] = (tan_popcount(mine) - most) / 12.0
    out[67] = 1.0 if (s.passed >> seat) & 1 else 0.0
    for place in range(1, s.players if s.players <= PLACES else PLACES + 1):
        other = (seat + place) % s.players
        base = TABLE_HEADER + (place - 1) * PLACE
        cards = s.hands[other]
        add_cards(s, cards, out + base)
        is_in = (s.active >> other) & 1
        out[base + 26] = 1.0 if is_in else 0.0
        out[base + 27] = 0.0 if is_in else 1.0
        out[base + 28] = 1.0 if s.attacker == other else 0.0
        out[base + 29] = 1.0 if s.defender == other else 0.0
        out[base + 30] = 1.0 if is_in and s.attacker != other and s.defender != other else 0.0
        out[base + 31] = 1.0 if s.to_move == other else 0.0
        out[base + 32] = tan_popcount(cards) / 12.0
        out[base + 33] = tan_popcount(cards & trumps) / 6.0
        out[base + 34] = 1.0 if (s.passed >> other) & 1 else 0.0


cdef double net_logit(const ValueNet* net, const double* x) noexcept nogil:
    """The net's log-odds that the seat does not lose, from raw features `x` (`net.width` long)."""
    cdef double hidden[MAX_HIDDEN]
    cdef double total = net.b2, xi
    cdef const double* column
    cdef int i, j, n = net.hidden
    for j in range(n):
        hidden[j] = net.b1[j]
    for i in range(net.width):
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
    """The net's own reading of `seat` in world `s`: the chance that it does not lose (for a
    SET_TABLE net, before the seats' readings are weighed against each other in `net_scores`)."""
    cdef double x[MAX_FEATURES]
    if net.feature_set == SET_TABLE:
        table_features(s, seat, x)
    else:
        world_features(s, seat, x)
    return 1.0 / (1.0 + exp(-net_logit(net, x)))


cdef int table_scores(const ValueNet* net, const State* s, double* scores) noexcept nogil:
    """Every seat's expected score by a SET_TABLE net, in any state of the play with two seats or
    more still in (0: another state): the chance that each seat in is the durak is a softmax of
    minus the net's log-odds from its side, and its score 1 − that; the seats out score 1. So the
    scores add up to the players − 1, as a game's with a loser do (docs/rules.md §1.5)."""
    cdef double x[MAX_FEATURES]
    cdef double durak[MAX_SEATS]
    cdef double top = -1.0e300, total = 0.0
    cdef int seat, seats_in = 0
    if s.over or s.phase != PHASE_PLAY:
        return 0
    for seat in range(s.players):
        if (s.active >> seat) & 1:
            table_features(s, seat, x)
            durak[seat] = -net_logit(net, x)
            top = durak[seat] if durak[seat] > top else top
            seats_in += 1
    if seats_in < 2:
        return 0
    for seat in range(s.players):
        if (s.active >> seat) & 1:
            durak[seat] = exp(durak[seat] - top)
            total += durak[seat]
    for seat in range(s.players):
        scores[seat] = 1.0 - durak[seat] / total if (s.active >> seat) & 1 else 1.0
    return 1


cdef int net_scores(const ValueNet* net, const State* s, double* scores) noexcept nogil:
    """Every seat's expected score by the net (0: a state it does not value). A SET_TABLE net
    values every state of the play (`table_scores`); a SET_TWO_SEAT net a two-way fight in the play:
    the seats already out score 1, the two still in share one — the mean of what the net says
    from each side, so the two scores add up to 1 whichever seat is asked first.
    """
    cdef int seat, a = -1, b = -1
    cdef double va, vb
    if net.feature_set == SET_TABLE:
        return table_scores(net, s, scores)
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
TABLE_FEATURES = N_TABLE_FEATURES
FEATURE_SETS = {"two-seat": N_FEATURES, "table": N_TABLE_FEATURES}
"""A value file's `feature_set` (absent: "two-seat") and the features it reads."""
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


def table_features_of(CoreGame game, int seat) -> np.ndarray:
    """The features of `game`'s world from `seat` at a table of any size (float64,
    TABLE_FEATURES long)."""
    if not 0 <= seat < game.state.players:
        raise ValueError(f"no seat {seat} at a {game.state.players}-seat table")
    out = np.zeros(N_TABLE_FEATURES, dtype=np.float64)
    cdef double[::1] view = out
    table_features(&game.state, seat, &view[0])
    return out


cdef class ValueModel:
    """A value net's weights in C, for the search (`net` is read without the GIL). `feature_set`:
    which features it reads (`FEATURE_SETS`): "two-seat" values a two-way fight, "table" every
    seat at a table of any size."""

    def __init__(self, mean, scale, w1, b1, w2, skip, double b2, str feature_set="two-seat"):
        cdef int i, j, width
        if feature_set not in FEATURE_SETS:
            raise ValueError(f"no feature set {feature_set!r}: one of {', '.join(FEATURE_SETS)}")
        width = FEATURE_SETS[feature_set]
        mean = np.asarray(mean, dtype=np.float64)
        scale = np.asarray(scale, dtype=np.float64)
        skip = np.asarray(skip, dtype=np.float64)
        w1 = np.asarray(w1, dtype=np.float64).reshape(-1, width) if np.size(w1) else np.zeros((0, width))
        b1 = np.asarray(b1, dtype=np.float64).reshape(-1)
        w2 = np.asarray(w2, dtype=np.float64).reshape(-1)
        if mean.shape != (width,) or scale.shape != (width,) or skip.shape != (width,):
            raise ValueError(f"a value net needs {width} means, scales and skip weights")
        if w1.shape[0] > MAX_HIDDEN or b1.shape[0] != w1.shape[0] or w2.shape[0] != w1.shape[0]:
            raise ValueError(f"a value net has at most {MAX_HIDDEN} hidden units, each with a bias and a weight")
        if not (np.isfinite(mean).all() and np.isfinite(scale).all() and np.isfinite(skip).all()
                and np.isfinite(w1).all() and np.isfinite(b1).all() and np.isfinite(w2).all()):
            raise ValueError("a value net's weights must be finite")
        # Fold the standardization z = (x - mean) * scale into the weights: w·z + b = (w·scale)·x
        # + (b - w·(scale·mean)), computed in the same order as the trainer's numpy.
        memset(&self.net, 0, sizeof(ValueNet))
        self.feature_set = feature_set
        self.net.feature_set = SET_TABLE if feature_set == "table" else SET_TWO_SEAT
        self.net.width = width
        self.hidden = w1.shape[0]
        self.net.hidden = self.hidden
        folded = w1 * scale
        b1 = b1 - folded @ mean
        self.net.b2 = b2 - float((skip * scale) @ mean)
        for i in range(width):
            self.net.skip[i] = skip[i] * scale[i]
        for j in range(self.hidden):
            self.net.b1[j] = b1[j]
            self.net.w2[j] = w2[j]
            for i in range(width):
                self.net.w1[i * MAX_HIDDEN + j] = folded[j, i]

    def value(self, CoreGame game, int seat) -> float:
        """`seat`'s expected score in `game`'s world, by the net (computed without the GIL): for a
        "table" net its score among every seat's where the net values the state (`scores`), else
        the net's own reading from its side."""
        cdef double v
        cdef double out[MAX_SEATS]
        if not 0 <= seat < game.state.players:
            raise ValueError(f"no seat {seat} at a {game.state.players}-seat table")
        with nogil:
            if self.net.feature_set == SET_TABLE and table_scores(&self.net, &game.state, out):
                v = out[seat]
            else:
                v = net_value(&self.net, &game.state, seat)
        return v

    def scores(self, CoreGame game) -> list[float] | None:
        """Every seat's expected score where the net values the state (a "two-seat" net: a two-way
        fight in the play; a "table" net: any state of the play), or None."""
        cdef double out[MAX_SEATS]
        cdef int ok
        with nogil:
            ok = net_scores(&self.net, &game.state, out)
        return [out[i] for i in range(game.state.players)] if ok else None

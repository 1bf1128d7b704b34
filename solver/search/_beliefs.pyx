# cython: language_level=3
"""Weighing worlds by what the other seats did (solver.search.beliefs).

`weigh_worlds` draws uniform worlds from a sampler (solver/search/_sampling.pyx)
and gives each, for every other seat and every kind of player, the
log-likelihood of that seat's observed decisions had it held the world's hand:
a walk back through its history in which each decision is scored by an opponent
model built on the greedy policy (solver/search/_greedy.pxd), or for a kind that
asks for it on the learned policy (solver/search/_model.pxd). Without the
interpreter.
"""

from libc.math cimport log
from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from solver.core._core cimport (
    MAX_MOVES, MAX_SEATS, MK_ATTACK, MK_DEFEND, MK_TRANSFER, Rng, State, card_cost, gen_moves, move_card,
    move_kind, rng_below, rng_seed, tan_popcount, tan_select,
)

from solver.core._core cimport CoreGame
from solver.search._clock cimport now_ms
from solver.search._greedy cimport greedy_move
from solver.search._model cimport PolicyModel, PolicyNet, policy_probabilities
from solver.search._sampling cimport Sampler, SamplerC, sample_uniform


cdef void decision_probabilities(const State* st, int observed, const double* models, int n_types,
                                 int stride, const PolicyNet* policy, unsigned int learned,
                                 double* out) noexcept nogil:
    """P(the seat to move of `st` plays `observed`) under each of `n_types` opponent models
    (`models + t * stride`: (ε, λ, κ)) into `out[t]`: the greedy move with probability 1 − ε,
    else a move drawn with weight λ^k for a card move whose card is the k-th cheapest among the
    legal moves' cards (by `card_cost`: rank, trumps above), and κ for taking or passing. A type
    whose bit is set in `learned` (with a `policy`) puts the learned policy's probability of the
    move in place of the greedy move: the policy with probability 1 − ε, else the (λ, κ) draw."""
    cdef int moves[MAX_MOVES]
    cdef int ranks[MAX_MOVES]
    cdef double learned_p[MAX_MOVES]
    cdef int n = gen_moves(st, moves), i, t, card, cost, found = -1, is_greedy
    cdef uint32_t costs = 0
    cdef double total, eps, lam, kappa, mine, w, by_policy = 0.0
    if n <= 0:
        for t in range(n_types):
            out[t] = 1.0
        return
    for i in range(n):
        ranks[i] = -1
        if move_kind(moves[i]) in (MK_ATTACK, MK_DEFEND, MK_TRANSFER):
            card = move_card(moves[i])
            ranks[i] = card_cost(st, card)
            costs |= <uint32_t>1 << ranks[i]
        if moves[i] == observed:
            found = i
    for i in range(n):
        if ranks[i] >= 0:
            ranks[i] = tan_popcount(costs & ((<uint32_t>1 << ranks[i]) - 1))
    is_greedy = greedy_move(st) == observed
    if policy != NULL and learned and found >= 0:
        policy_probabilities(policy, st, moves, n, learned_p)
        by_policy = learned_p[found]
    for t in range(n_types):
        eps = models[t * stride]
        lam = models[t * stride + 1]
        kappa = models[t * stride + 2]
        total = 0.0
        mine = 0.0
        for i in range(n):
            w = lam ** ranks[i] if ranks[i] >= 0 else kappa
            total += w
            if i == found:
                mine = w
        if policy != NULL and (learned >> t) & 1:
            out[t] = (eps * mine / total if found >= 0 else 1e-9) + (1.0 - eps) * by_policy
        else:
            out[t] = (eps * mine / total if found >= 0 else 1e-9) + (1.0 - eps if is_greedy else 0.0)


cdef int seat_log_likelihood(State* states, const long long* ops, int n_ops, int seat, uint64_t hand,
                             const double* models, int n_types, int n_roles, const PolicyNet* policy,
                             unsigned int learned, Rng* rng, double* logp) noexcept nogil:
    """log P(the seat's observed decisions | it holds `hand` now), under each of `n_types` models
    (`models`: n_types × n_roles × (ε, λ, κ)), added to `logp[t]`, walking its history
    backwards: cards it lost go back, cards it took leave, draws give back a uniformly chosen set
    of the cards it could have drawn there (one sample of the sum over which cards were drawn
    when). Returns 0 when the hand cannot have come about, else 1."""
    cdef int i, j, t, need, avail, g, kind
    cdef uint64_t cand, mandatory, saved
    cdef double p[MAX_TYPES]
    cdef const long long* op
    cdef State* st
    for i in range(n_ops - 1, -1, -1):
        op = &ops[i * 8]
        if op[COL_SEAT] != seat:
            continue
        kind = <int>op[COL_KIND]
        if kind == OP_LOST:
            hand |= <uint64_t>op[COL_CARDS]
        elif kind == OP_TAKEN:
            hand &= ~<uint64_t>op[COL_CARDS]
        elif kind == OP_DRAWN:
            mandatory = <uint64_t>op[COL_CARDS]
            if mandatory & ~hand:
                return 0
            hand &= ~mandatory
            need = <int>op[COL_COUNT] - tan_popcount(mandatory)
            cand = hand & ~<uint64_t>op[COL_SEEN]
            avail = tan_popcount(cand)
            if avail < need:
                return 0
            for j in range(need):
                g = tan_select(cand, rng_below(rng, avail))
                cand &= ~(<uint64_t>1 << g)
                hand &= ~(<uint64_t>1 << g)
                avail -= 1
        else:
            st = &states[op[COL_STATE]]
            saved = st.hands[seat]
            st.hands[seat] = hand
            decision_probabilities(st, <int>op[COL_MOVE], &models[3 * op[COL_ROLE]], n_types, 3 * n_roles,
                                   policy, learned, p)
            st.hands[seat] = saved
            for t in range(n_types):
                logp[t] += log(p[t])
    return 1


def weigh_worlds(Sampler sampler, list states, const long long[:, ::1] ops, const double[:, :, ::1] models,
                 uint64_t seed, uint64_t[:, ::1] hands, double[:, :, ::1] log_weights, double time_ms=0,
                 unsigned char[::1] stop=None, PolicyModel policy=None, unsigned int learned=0) -> tuple:
    """Draw `hands.shape[0]` uniform worlds of `sampler` (its weights ignored) into `hands`
    (a row of `MAX_SEATS` hands each) and, for each seat and each kind of player of `models`
    (types × kinds of decision × (ε, λ, κ)), the log-likelihood of that seat's decisions in the
    history `ops` if it were that kind of player into `log_weights[world, seat, type]` (-1e300
    everywhere in a world the history rules out). Returns (worlds weighed, worlds ruled out).

    A long history makes each world dear (its decisions are walked one by one), so the walk ends
    early after `time_ms` (0: no limit) or once another thread sets `stop` (a one-byte buffer, as
    in `run_search`), checked before each world: only the first `worlds weighed` rows are then
    filled in. The types whose bits are set in `learned` score the moves with `policy` (a
    `PolicyModel`) in place of the greedy move (`decision_probabilities`). Releases the GIL."""
    cdef int n = hands.shape[0], n_states = len(states), n_ops = ops.shape[0], i, t, seat, ruled_out = 0
    cdef int n_types = models.shape[0], n_roles = models.shape[1], possible, done = 0
    cdef double deadline_ms = now_ms() + time_ms if time_ms > 0 else 0
    cdef volatile unsigned char* stop_at = &stop[0] if stop is not None and stop.shape[0] > 0 else NULL
    cdef uint64_t weighed = 0
    cdef size_t head
    cdef State* snaps
    cdef State world
    cdef Rng rng
    cdef double lw[MAX_SEATS][MAX_TYPES]
    cdef SamplerC uniform = sampler.c
    cdef const PolicyNet* net = &policy.net if policy is not None else NULL
    if (hands.shape[1] != MAX_SEATS or log_weights.shape[0] != n or log_weights.shape[1] != MAX_SEATS
            or log_weights.shape[2] != n_types):
        raise ValueError("hands need MAX_SEATS columns and log_weights (worlds, MAX_SEATS, types)")
    if n_ops and ops.shape[1] != 8:
        raise ValueError("ops need 8 columns")
    if not 1 <= n_types <= MAX_TYPES or n_roles < 1 or models.shape[2] != 3:
        raise ValueError(f"models need 1 to {MAX_TYPES} types of (ε, λ, κ) for each kind of decision")
    if learned >> n_types or (learned and policy is None):
        raise ValueError("learned names a type the models do not have, or no policy is given")
    for i in range(n_ops):
        if ops[i, COL_KIND] == OP_DECIDE and not 0 <= ops[i, COL_STATE] < n_states:
            raise ValueError("an op names a snapshot that is not there")
        if ops[i, COL_KIND] == OP_DECIDE and not 0 <= ops[i, COL_ROLE] < n_roles:
            raise ValueError("an op names a kind of decision the models do not have")
        if not 0 <= ops[i, COL_SEAT] < sampler.c.template.players or ops[i, COL_SEAT] == sampler.seat:
            raise ValueError("an op names the searcher or a seat outside the game")
        if ops[i, COL_KIND] != OP_DECIDE:
            weighed |= <uint64_t>1 << ops[i, COL_SEAT]
    snaps = <State*>malloc(max(n_states, 1) * sizeof(State))
    if snaps == NULL:
        raise MemoryError("no memory for the snapshots")
    # The model reads a decision's state but never its repetition record (`history`, most of a
    # State's bytes): copying only what comes before it makes a long history's set-up cheap.
    head = <size_t>(<char*>&snaps[0].history[0] - <char*>&snaps[0])
    for i in range(n_states):
        memcpy(&snaps[i], &(<CoreGame?>states[i]).state, head)
        snaps[i].history_len = 0
        if snaps[i].over or snaps[i].to_move < 0:
            free(snaps)
            raise ValueError("a snapshot has no seat to move")
        weighed |= <uint64_t>1 << snaps[i].to_move
    uniform.n_particles = 0
    rng_seed(&rng, seed)
    with nogil:
        for i in range(n):
            if (stop_at != NULL and stop_at[0]) or (deadline_ms > 0 and now_ms() >= deadline_ms):
                break
            sample_uniform(&uniform, &world, &rng)
            possible = 1
            for seat in range(MAX_SEATS):
                for t in range(n_types):
                    lw[seat][t] = 0.0
                hands[i, seat] = world.hands[seat] if seat < world.players else 0
                if possible and seat < world.players and (weighed >> seat) & 1:
                    possible = seat_log_likelihood(snaps, &ops[0, 0] if n_ops else NULL, n_ops, seat,
                                                   world.hands[seat], &models[0, 0, 0], n_types, n_roles,
                                                   net, learned, &rng, lw[seat])
            ruled_out += not possible
            for seat in range(MAX_SEATS):
                for t in range(n_types):
                    log_weights[i, seat, t] = lw[seat][t] if possible else -1e300
            done += 1
    free(snaps)
    return done, ruled_out

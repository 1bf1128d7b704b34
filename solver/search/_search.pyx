# cython: language_level=3
"""Determinized search over the fast core: sampling, ISMCTS, PIMC, exact endgames.

- `Sampler` deals the cards a seat cannot see uniformly at random to the
  other seats' unknown slots and the stock (OpenSpiel's ResampleFromInfostate).
- `run_search` is single-observer ISMCTS (one tree over the searcher's
  information sets, a new world each iteration, availability counts, max^n
  rewards) or PIMC (a fixed world per tree, results averaged), all `nogil`.
- `solve_exact` is alpha-beta with a transposition table for positions with an
  empty stock and two active seats, where every card is known by elimination.

Python callers go through `solver.search.Solver`; this module holds no
policy about limits or output formats, and answers typed results
(`solver.search.results`).
"""

cimport cython
from libc.math cimport log, sqrt
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from solver.core._core cimport (
    HISTORY_CAP, MAX_MOVES, MAX_SEATS, MK_ATTACK, MK_DEFEND, MK_PASS, MK_TAKE, MK_TRANSFER,
    MK_KEEP, MK_PICK, MK_REDEAL, MK_SWAP, PHASE_PLAY, PHASE_SETUP, STEP_PICK, STEP_REDEAL,
    Rng, State, apply_move, attack_limit, beaters_c, bout_key, can_transfer_c, gen_moves, last_word,
    make_move, move_card, move_kind, playable, playout, random_move, rng_below, rng_next,
    rng_seed, state_copy, state_scores, state_shuffle_deal, tan_lowbit, tan_popcount,
)

from solver.core._core cimport CoreGame
from solver.search._model cimport (
    N_FEATURES, PolicyModel, PolicyNet, ValueModel, ValueNet, net_scores, policy_probabilities, policy_sample,
    two_seats_in, world_features,
)

import numpy as np

from solver.search.results import ExactSolution, RootMove, SearchResult


cdef inline double now_ms() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec * 1000.0 + ts.tv_nsec / 1.0e6


# -- sampling hidden cards -----------------------------------------------------------

ctypedef struct SamplerC:
    State template            # hands hold only the cards the searcher knows
    uint8_t pool[52]          # the unseen cards that may lie anywhere unseen
    int n_pool
    uint8_t stock_only[52]    # unseen cards known to lie in the stock
    int n_stock_only
    int slots[MAX_SEATS]      # unknown cards in each seat's hand
    int set_slots             # the two offered hands of another seat's pending pick (0 or 2 hands)
    int stock_size            # cards in the stock, trump card included while it lies there
    int seat                  # the searcher
    # Weighted beliefs (solver.search.beliefs): worlds' hands drawn in proportion to weights.
    int n_particles           # 0: the uniform sampler
    uint64_t* particles       # n_particles × MAX_SEATS hands
    double* cdf               # cumulative weights, the last one 1


cdef inline void shuffle_cards(uint8_t* cards, int n, Rng* rng) noexcept nogil:
    cdef int i, j
    cdef uint8_t tmp
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp


cdef void sample_world(const SamplerC* smp, State* out, Rng* rng) noexcept nogil:
    """A world the seat cannot tell from the real one: uniformly dealt, or, with weighted
    beliefs, the hands of a particle drawn by weight and the rest of the unseen cards
    shuffled into the stock."""
    if smp.n_particles:
        sample_particle(smp, out, rng)
    else:
        sample_uniform(smp, out, rng)


cdef void sample_particle(const SamplerC* smp, State* out, Rng* rng) noexcept nogil:
    """The hands of a particle drawn in proportion to its weight; the stock shuffled."""
    cdef uint8_t cards[104]
    cdef double u = (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)
    cdef int lo = 0, hi = smp.n_particles - 1, mid, seat, i, k = 0
    cdef uint64_t held = 0
    while lo < hi:
        mid = (lo + hi) // 2
        if smp.cdf[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    state_copy(out, &smp.template)
    for seat in range(out.players):
        out.hands[seat] |= smp.particles[lo * MAX_SEATS + seat]
        held |= out.hands[seat]
    for i in range(smp.n_pool):
        if not (held >> smp.pool[i]) & 1:
            cards[k] = smp.pool[i]
            k += 1
    memcpy(&cards[k], smp.stock_only, smp.n_stock_only)
    k += smp.n_stock_only
    shuffle_cards(cards, k, rng)
    out.n_stock = smp.stock_size
    for i in range(1, smp.stock_size):
        out.stock[i] = cards[i - 1]


cdef void sample_uniform(const SamplerC* smp, State* out, Rng* rng) noexcept nogil:
    """A full state: the unseen cards dealt uniformly to the unknown slots (hands, the offered
    hands of another seat's pick) and the stock, the cards known to lie in the stock there."""
    cdef uint8_t cards[104]
    cdef int i, k = 0, seat, part, n
    state_copy(out, &smp.template)
    memcpy(cards, smp.pool, smp.n_pool)
    shuffle_cards(cards, smp.n_pool, rng)
    for seat in range(out.players):
        for i in range(smp.slots[seat]):
            out.hands[seat] |= <uint64_t>1 << cards[k]
            k += 1
    for part in range(2 if smp.set_slots else 0):
        out.redeal_sets[part] = 0
        for i in range(smp.set_slots // 2):
            out.redeal_sets[part] |= <uint64_t>1 << cards[k]
            k += 1
    if smp.n_stock_only:
        n = smp.n_pool - k
        memcpy(&cards[smp.n_pool], smp.stock_only, smp.n_stock_only)
        shuffle_cards(&cards[k], n + smp.n_stock_only, rng)
    # stock[0] (the trump card at the bottom) is in the template; the rest is unseen.
    out.n_stock = smp.stock_size
    for i in range(1, smp.stock_size):
        out.stock[i] = cards[k]
        k += 1
    if out.phase == PHASE_SETUP and out.rules.redeal_without_trump:
        rng_seed(&out.chance, rng_next(rng))  # a redeal's shuffle to come is unseen too


# -- exact endgame solver --------------------------------------------------------------

ctypedef struct TTEntry:
    uint64_t key
    int move
    uint8_t lower
    uint8_t upper
    uint8_t used

cdef enum:
    SOLVER_MAX_DEPTH = 1024

ctypedef struct Solver:
    TTEntry* table
    State* frames        # one child state per depth, off the C stack (states are large)
    uint64_t mask
    long nodes
    long budget          # 0: unlimited
    double deadline_ms   # 0: none
    volatile unsigned char* stop  # another thread sets it non-zero to stop now; NULL: none
    int aborted
    int hero             # the seat whose value (in half points) is computed


cdef int solver_init(Solver* sv, int log2_size) noexcept nogil:
    sv.mask = (<uint64_t>1 << log2_size) - 1
    sv.table = <TTEntry*>calloc(sv.mask + 1, sizeof(TTEntry))
    sv.frames = <State*>malloc(SOLVER_MAX_DEPTH * sizeof(State))
    sv.nodes = 0
    sv.budget = 0
    sv.deadline_ms = 0
    sv.stop = NULL
    sv.aborted = 0
    if sv.table == NULL or sv.frames == NULL:
        free(sv.table)
        free(sv.frames)
        sv.table = NULL
        sv.frames = NULL
        return 0
    return 1


cdef void solver_free(Solver* sv) noexcept nogil:
    free(sv.table)
    free(sv.frames)
    sv.table = NULL
    sv.frames = NULL


cdef inline uint64_t mix(uint64_t h, uint64_t x) noexcept nogil:
    h ^= x + <uint64_t>0x9E3779B97F4A7C15 + (h << 6) + (h >> 2)
    h ^= h >> 31
    h *= <uint64_t>0xBF58476D1CE4E5B9
    return h ^ (h >> 29)


cdef uint64_t position_key(const State* s) noexcept nogil:
    """Everything of a state that matters for the rest of the game (stock assumed empty)."""
    cdef uint64_t h = <uint64_t>0x12345
    cdef int seat
    for seat in range(s.players):
        h = mix(h, s.hands[seat])
    h = mix(h, s.table_cards)
    h = mix(h, s.undefended)
    h = mix(h, <uint64_t>(s.attacker | (s.defender << 4) | (s.to_move << 8) | (s.taking << 12)
                          | (s.defended_once << 13) | (s.passed << 16) | (<uint64_t>s.active << 24)))
    return h


cdef inline int terminal_value(const State* s, int hero) noexcept nogil:
    """The hero's score in half points: 2 win, 1 draw, 0 loss."""
    cdef double scores[MAX_SEATS]
    state_scores(s, scores)
    return <int>(scores[hero] * 2.0 + 0.5)


cdef inline int repeats(const State* s) noexcept nogil:
    """A new bout start that repeats an earlier one since the last reset: a draw to a search (docs/rules.md §1.5)."""
    cdef uint64_t key
    cdef int i
    if s.n_table != 0 or s.over or s.history_len < 2:
        return 0
    key = s.history[s.history_len - 1]
    for i in range(s.history_len - 1):
        if s.history[i] == key:
            return 1
    return 0


cdef inline int move_cost(const State* s, int move) noexcept nogil:
    """Ordering heuristic: cheap cards first, trumps late, take last."""
    cdef int kind = move_kind(move)
    cdef int card = move_card(move)
    if kind == MK_TAKE:
        return 100
    if kind == MK_PASS:
        return 30
    return (card % 13) + (40 if card // 13 == s.trump_suit else 0)


cdef void order_moves(const State* s, int* moves, int n, int first) noexcept nogil:
    cdef int i, j, m, c
    cdef int costs[MAX_MOVES]
    for i in range(n):
        costs[i] = -1 if moves[i] == first else move_cost(s, moves[i])
    for i in range(1, n):
        m = moves[i]
        c = costs[i]
        j = i - 1
        while j >= 0 and costs[j] > c:
            moves[j + 1] = moves[j]
            costs[j + 1] = costs[j]
            j -= 1
        moves[j + 1] = m
        costs[j + 1] = c


cdef int alphabeta(Solver* sv, const State* s, int alpha, int beta, int depth) noexcept nogil:
    """Value for the hero in half points (0…2) of a perfect-information state.

    Stops early (`sv.aborted`) past the node budget, the deadline, the depth of
    `sv.frames`, or once `sv.stop` is set; the caller then discards the value.
    """
    cdef int moves[MAX_MOVES]
    cdef int n, i, v, best, best_move = -1, alpha0 = alpha, beta0 = beta, tt_move = -1
    cdef uint64_t key
    cdef TTEntry* entry
    cdef State* child
    cdef int maximizing
    if s.over:
        return terminal_value(s, sv.hero)
    sv.nodes += 1
    if ((sv.budget and sv.nodes > sv.budget) or depth >= SOLVER_MAX_DEPTH
            or ((sv.nodes & 4095) == 0 and ((sv.deadline_ms > 0 and now_ms() >= sv.deadline_ms)
                                            or (sv.stop != NULL and sv.stop[0])))):
        sv.aborted = 1
        return 1
    child = &sv.frames[depth]
    key = position_key(s)
    entry = &sv.table[key & sv.mask]
    if entry.used and entry.key == key:
        if entry.lower >= beta:
            return entry.lower
        if entry.upper <= alpha:
            return entry.upper
        if entry.lower > alpha:
            alpha = entry.lower
        if entry.upper < beta:
            beta = entry.upper
        if alpha >= beta:
            return alpha
        tt_move = entry.move
    n = gen_moves(s, moves)
    order_moves(s, moves, n, tt_move)
    maximizing = s.to_move == sv.hero
    best = -1 if maximizing else 3
    for i in range(n):
        state_copy(child, s)
        apply_move(child, moves[i])
        if repeats(child):
            v = 1
        else:
            v = alphabeta(sv, child, alpha, beta, depth + 1)
        if sv.aborted:
            return 1
        if maximizing:
            if v > best:
                best = v
                best_move = moves[i]
            if best > alpha:
                alpha = best
        else:
            if v < best:
                best = v
                best_move = moves[i]
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    entry.key = key
    entry.used = 1
    entry.move = best_move
    entry.lower = 0
    entry.upper = 2
    if best > alpha0 and best < beta0:
        entry.lower = best
        entry.upper = best
    elif best <= alpha0:
        entry.upper = best
    else:
        entry.lower = best
    return best


cdef inline int is_perfect_information(const State* s) noexcept nogil:
    """Empty stock and two active seats in play: every card is known by elimination (docs/api.md §3)."""
    return s.n_stock == 0 and tan_popcount(s.active) == 2 and not s.over and s.phase == PHASE_PLAY


cdef int solve_value(Solver* sv, const State* s) noexcept nogil:
    """Exact value for `sv.hero` with a full window."""
    return alphabeta(sv, s, 0, 2, 0)


# -- the light playout policy ----------------------------------------------------------

cdef inline int cheapest(const State* s, uint64_t cards) noexcept nogil:
    """The lowest non-trump of `cards` by rank, else the lowest trump (cards must not be empty)."""
    cdef uint64_t plain = cards & ~s.trump_mask
    cdef int card, best = -1, best_rank = 99
    if not plain:
        return tan_lowbit(cards)  # trumps are one suit: the lowest bit is the lowest trump
    while plain:
        card = tan_lowbit(plain)
        plain &= plain - 1
        if card % 13 < best_rank:
            best_rank = card % 13
            best = card
    return best


cdef inline int greedy_move(const State* s) noexcept nogil:
    """The greedy policy: the one definition behind the `greedy` player, the playout
    policy and the opponent model. It reads only what the seat to move can see.

    Lead the lowest card (trumps last); transfer with a plain card; defend each
    card as cheaply as possible but take rather than beat with a high trump
    (queen or better) while the stock holds more than six cards, or when a card
    cannot be beaten; throw in the cheapest card of a rank on the table when it
    is a plain card below the jack, or any plain card while the defender takes
    or once the stock is empty, or a trump once the stock is empty and the hand
    holds at most two cards; else pass. With the defender's last word, let the
    defence stand. Under đút 2 a 2 is played only when the rules allow it.
    Before the first lead: redeal a trumpless hand and pick the new hand with
    more trumps (then the higher cards); swap for the trump card unless that
    gives up the lead for a card below the jack.
    """
    cdef uint64_t hand, b, targets
    cdef int t, c, best_card = -1, best_target = -1, best_cost = 1000, cost
    if s.phase == PHASE_SETUP:
        return greedy_setup(s)
    hand = s.hands[s.to_move]
    if s.n_table == 0:
        return make_move(MK_ATTACK, cheapest(s, playable(s, hand)), 0)
    if s.undefended and not s.taking:
        if can_transfer_c(s):
            b = playable(s, hand) & s.table_rank_cards & ~s.trump_mask
            if b:
                return make_move(MK_TRANSFER, tan_lowbit(b), 0)
        targets = s.undefended
        while targets:
            t = tan_lowbit(targets)
            targets &= targets - 1
            b = hand & beaters_c(s, t)
            if not b:
                return MK_TAKE
            c = cheapest(s, b)
            cost = c % 13
            if (s.trump_mask >> c) & 1:
                cost += 13
                if c % 13 >= 10 and s.n_stock > 6:
                    return MK_TAKE
            if cost < best_cost:
                best_cost = cost
                best_card = c
                best_target = t
        return make_move(MK_DEFEND, best_card, best_target)
    if last_word(s):
        return MK_PASS
    if s.n_table < attack_limit(s):
        b = playable(s, hand) & s.table_rank_cards
        if b:
            c = cheapest(s, b)
            if not (s.trump_mask >> c) & 1:
                if c % 13 < 9 or s.taking or s.n_stock == 0:
                    return make_move(MK_ATTACK, c, 0)
            elif s.n_stock == 0 and tan_popcount(hand) <= 2:
                return make_move(MK_ATTACK, c, 0)
    return MK_PASS


cdef inline int hand_value(const State* s, uint64_t cards) noexcept nogil:
    """How good a hand looks before play: its trumps first, then its ranks."""
    cdef int value = 100 * tan_popcount(cards & s.trump_mask)
    while cards:
        value += tan_lowbit(cards) % 13
        cards &= cards - 1
    return value


cdef inline int greedy_setup(const State* s) noexcept nogil:
    """The greedy policy's setup decisions (docs/rules.md §1.7)."""
    if s.setup_step == STEP_REDEAL:
        return MK_REDEAL
    if s.setup_step == STEP_PICK:
        return make_move(MK_PICK, 1 if hand_value(s, s.redeal_sets[1]) > hand_value(s, s.redeal_sets[0]) else 0, 0)
    if s.rules.trump_swap_cedes_lead and s.trump_card % 13 < 9:
        return MK_KEEP
    return MK_SWAP


cdef int heuristic_move(const State* s, Rng* rng, int noise) noexcept nogil:
    """The greedy move, or a uniformly random one `noise` times in 64 (playouts and the model)."""
    if noise > 0 and rng_below(rng, 64) < noise:
        return random_move(s, rng)
    return greedy_move(s)


cdef int policy_playout(State* s, Rng* rng, Playouts policy, int noise) noexcept nogil:
    """Play to the end of the game: uniformly random moves, or the greedy policy with noise."""
    if policy == PLAYOUTS_RANDOM:
        return playout(s, rng)
    cdef int plies = 0
    while not s.over:
        apply_move(s, heuristic_move(s, rng, noise))
        plies += 1
    return plies


# -- the tree ----------------------------------------------------------------------------

ctypedef struct Node:
    int move
    int mover
    int first_child
    int next_sibling
    int visits
    int avail
    double reward
    double reward_sq
    double prior         # 1 when the greedy heuristic plays this move where it was first seen

ctypedef struct Tree:
    Node* nodes
    int n_nodes
    int cap
    double seat_sum[MAX_SEATS]
    double seat_sq[MAX_SEATS]
    long seat_losses[MAX_SEATS]
    long iterations
    long worlds
    long solve_nodes         # nodes of the endgames solved inside the tree
    long solves_skipped      # endgames played out because the solves had taken their share
    int failed


cdef int tree_init(Tree* t, int cap) noexcept nogil:
    memset(t, 0, sizeof(Tree))
    t.nodes = <Node*>malloc(cap * sizeof(Node))
    if t.nodes == NULL:
        return 0
    t.cap = cap
    t.n_nodes = 1
    memset(&t.nodes[0], 0, sizeof(Node))
    t.nodes[0].first_child = -1
    t.nodes[0].next_sibling = -1
    t.nodes[0].mover = -1
    return 1


cdef int tree_add(Tree* t, int parent, int move, int mover) noexcept nogil:
    cdef Node* grown
    cdef int i
    if t.n_nodes == t.cap:
        grown = <Node*>realloc(t.nodes, 2 * t.cap * sizeof(Node))
        if grown == NULL:
            t.failed = 1
            return -1
        t.nodes = grown
        t.cap *= 2
    i = t.n_nodes
    t.n_nodes += 1
    t.nodes[i].move = move
    t.nodes[i].mover = mover
    t.nodes[i].first_child = -1
    t.nodes[i].next_sibling = t.nodes[parent].first_child
    t.nodes[i].visits = 0
    t.nodes[i].avail = 0
    t.nodes[i].reward = 0.0
    t.nodes[i].reward_sq = 0.0
    t.nodes[i].prior = 0.0
    t.nodes[parent].first_child = i
    return i


ctypedef struct SearchParams:
    long max_iterations
    double deadline_ms       # absolute, 0: none
    volatile unsigned char* stop  # another thread sets it non-zero to stop now; NULL: none
    double exploration
    Playouts policy
    int noise                # heuristic playouts: random moves in 64
    double prior_weight     # progressive bias towards the greedy move: weight / (visits + 1)
    int opponent_policy      # in 64 iterations, how many let other seats play the heuristic in the tree
    int resample             # 1: ISMCTS (a world per iteration); 0: one fixed world
    int exact_cards          # solve determinized endgames with at most this many cards in hands
    long exact_budget        # node budget of one such solve
    long exact_average       # the solves' nodes an iteration may take on average (0: no bound)
    const ValueNet* value    # a learned value for the leaves (NULL: play them out)
    int value_depth          # greedy plies played before the value is asked
    double value_mix         # the value's weight against a playout's result (1: no playout)
    const PolicyNet* policy_net  # a learned policy (NULL: none), used where `policy_uses` says:
    int policy_uses          # POLICY_OPPONENT | POLICY_PLAYOUTS | POLICY_PRIOR


cdef inline int find_child(const Tree* t, int parent, int move) noexcept nogil:
    cdef int c = t.nodes[parent].first_child
    while c >= 0:
        if t.nodes[c].move == move:
            return c
        c = t.nodes[c].next_sibling
    return -1


cdef int endgame_scores(Solver* sv, const State* s, double* scores, long budget) noexcept nogil:
    """Exact scores of a perfect-information state in `scores`; 0 if the budget ran out."""
    cdef int seat, a = -1, b = -1, v
    for seat in range(s.players):
        if (s.active >> seat) & 1:
            if a < 0:
                a = seat
            else:
                b = seat
    sv.hero = a
    sv.nodes = 0
    sv.budget = budget
    sv.aborted = 0
    v = solve_value(sv, s)
    if sv.aborted:
        return 0
    for seat in range(s.players):
        scores[seat] = 1.0
    scores[a] = v / 2.0
    scores[b] = 1.0 - v / 2.0
    return 1


cdef inline int solved_endgame(Solver* sv, const State* st, const SearchParams* p, Tree* t,
                               double* scores) noexcept nogil:
    """Exact scores of a small perfect-information world instead of a playout (0 if not solved).

    The solves of a search may take `exact_average` nodes an iteration on average (and one
    solve's budget besides): past that, worlds are played out until the iterations catch up,
    so an endgame where every world needs a hard solve costs no more than a small factor of
    an opening's iteration (a solve that runs out of its budget counts all the same)."""
    cdef int seat, cards = 0, solved
    if sv == NULL or not is_perfect_information(st):
        return 0
    for seat in range(st.players):
        cards += tan_popcount(st.hands[seat])
    if cards > p.exact_cards:
        return 0
    if p.exact_average > 0 and t.solve_nodes > p.exact_average * (t.iterations + 1) + p.exact_budget:
        t.solves_skipped += 1
        return 0
    solved = endgame_scores(sv, st, scores, p.exact_budget)
    t.solve_nodes += sv.nodes
    return solved


cdef enum:
    POLICY_OPPONENT = 1   # the other seats' modelled moves in the tree are drawn from the policy
    POLICY_PLAYOUTS = 2   # playouts draw their moves from the policy
    POLICY_PRIOR = 4      # the tree's moves are expanded in the policy's order, biased by it


cdef inline int model_move(const SearchParams* p, int use, State* st, Rng* rng) noexcept nogil:
    """The model's move: the learned policy's where it is used for `use`, else the heuristic's."""
    if p.policy_net != NULL and p.policy_uses & use:
        return policy_sample(p.policy_net, st, rng)
    return heuristic_move(st, rng, p.noise)


cdef void play_out(State* st, const SearchParams* p, Rng* rng) noexcept nogil:
    """A playout to the end of the game, by the policy where it plays them, else as `policy_playout`."""
    if p.policy_net != NULL and p.policy_uses & POLICY_PLAYOUTS:
        while not st.over:
            apply_move(st, policy_sample(p.policy_net, st, rng))
        return
    policy_playout(st, rng, p.policy, p.noise)


cdef void leaf_scores(State* st, const SearchParams* p, Rng* rng, double* scores) noexcept nogil:
    """The scores a leaf of the tree backs up: a playout's, the learned value's, or a mix of the two.

    With a value, the leaf is played on by `value_depth` greedy plies and then valued by the net;
    a world the net cannot value (more than two seats still in, the setup) is played out.
    """
    cdef double learned[MAX_SEATS]
    cdef int plies = 0, seat
    if p.value != NULL:
        while not st.over and plies < p.value_depth:
            apply_move(st, model_move(p, POLICY_PLAYOUTS, st, rng))
            plies += 1
        if not st.over and net_scores(p.value, st, learned):
            if p.value_mix >= 1.0:
                for seat in range(st.players):
                    scores[seat] = learned[seat]
                return
            play_out(st, p, rng)
            state_scores(st, scores)
            for seat in range(st.players):
                scores[seat] = p.value_mix * learned[seat] + (1.0 - p.value_mix) * scores[seat]
            return
    play_out(st, p, rng)
    state_scores(st, scores)


cdef void search_loop(const SamplerC* smp, Tree* t, Solver* sv, const SearchParams* p, Rng* rng) noexcept nogil:
    """ISMCTS iterations (or UCT in one fixed world) until a limit is reached."""
    cdef State world, st
    cdef int moves[MAX_MOVES]
    cdef int legal_child[MAX_MOVES]
    cdef double prior[MAX_MOVES]
    cdef int path[4096]
    cdef double scores[MAX_SEATS]
    cdef int n, i, node, child, depth, untried, pick, seat, done, greedy, modelled
    cdef double best_ucb, ucb, mean, logn
    cdef Node* c
    if not p.resample:
        sample_world(smp, &world, rng)
        t.worlds += 1
    while t.iterations < p.max_iterations:
        if p.stop != NULL and p.stop[0]:
            break
        # The clock every iteration (a few tens of ns against microseconds), so that a slow
        # iteration — an endgame solved exactly inside it — cannot carry the search far past it.
        if p.deadline_ms > 0 and now_ms() >= p.deadline_ms:
            break
        if p.resample:
            sample_world(smp, &st, rng)
            t.worlds += 1
        else:
            state_copy(&st, &world)
        node = 0
        depth = 0
        done = 0
        modelled = p.opponent_policy >= 64 or (p.opponent_policy > 0 and rng_below(rng, 64) < p.opponent_policy)
        # Selection and expansion (SO-ISMCTS).
        while not st.over and depth < 4000:
            if depth > 0 and solved_endgame(sv, &st, p, t, scores):
                done = 1
                break
            n = gen_moves(&st, moves)
            untried = 0
            for i in range(n):
                child = find_child(t, node, moves[i])
                legal_child[i] = child
                if child < 0:
                    untried += 1
                else:
                    t.nodes[child].avail += 1
            if modelled and st.to_move != smp.seat:
                # The opponent plays its heuristic move with the hand this world gave it;
                # the node is still made, so our later decisions are told its move apart.
                greedy = model_move(p, POLICY_OPPONENT, &st, rng)
                child = find_child(t, node, greedy)
                if child < 0:
                    child = tree_add(t, node, greedy, st.to_move)
                    if child < 0:
                        return
                    t.nodes[child].avail = 1
                    apply_move(&st, greedy)
                    path[depth] = child
                    depth += 1
                    break
                apply_move(&st, greedy)
                path[depth] = child
                depth += 1
                node = child
                continue
            if untried > 0:
                # Expand the greedy move first when it is untried, else a random untried move;
                # with the policy as the prior, the untried move it likes best.
                pick = -1
                greedy = -1
                if p.policy_net != NULL and p.policy_uses & POLICY_PRIOR:
                    policy_probabilities(p.policy_net, &st, moves, n, prior)
                    best_ucb = -1.0
                    for i in range(n):
                        if legal_child[i] < 0 and prior[i] > best_ucb:
                            best_ucb = prior[i]
                            pick = i
                elif p.prior_weight > 0:
                    greedy = heuristic_move(&st, rng, 0)
                for i in range(n):
                    if legal_child[i] < 0 and moves[i] == greedy:
                        pick = i
                if pick < 0:
                    pick = rng_below(rng, untried)
                    for i in range(n):
                        if legal_child[i] < 0:
                            if pick == 0:
                                pick = i
                                break
                            pick -= 1
                child = tree_add(t, node, moves[pick], st.to_move)
                if child < 0:
                    return
                t.nodes[child].avail = 1
                if p.policy_net != NULL and p.policy_uses & POLICY_PRIOR:
                    t.nodes[child].prior = prior[pick]
                else:
                    t.nodes[child].prior = 1.0 if moves[pick] == greedy else 0.0
                apply_move(&st, moves[pick])
                path[depth] = child
                depth += 1
                break
            best_ucb = -1.0e300
            child = -1
            for i in range(n):
                c = &t.nodes[legal_child[i]]
                mean = c.reward / c.visits
                ucb = (mean + p.exploration * sqrt(log(<double>c.avail) / c.visits)
                       + p.prior_weight * c.prior / (c.visits + 1))
                if ucb > best_ucb:
                    best_ucb = ucb
                    child = legal_child[i]
            apply_move(&st, t.nodes[child].move)
            path[depth] = child
            depth += 1
            node = child
        # Simulation.
        if not done and not solved_endgame(sv, &st, p, t, scores):
            leaf_scores(&st, p, rng, scores)
        # Backpropagation (max^n: each node keeps its mover's reward).
        for i in range(depth):
            c = &t.nodes[path[i]]
            c.visits += 1
            c.reward += scores[c.mover]
            c.reward_sq += scores[c.mover] * scores[c.mover]
        t.nodes[0].visits += 1
        for seat in range(st.players):
            t.seat_sum[seat] += scores[seat]
            t.seat_sq[seat] += scores[seat] * scores[seat]
            if scores[seat] == 0.0:
                t.seat_losses[seat] += 1
        t.iterations += 1


# -- Python faces ------------------------------------------------------------------------

cdef class Sampler:
    """The hidden-card sampler of one position (built by `solver.search.sampling.prepare`)."""

    cdef SamplerC c
    cdef readonly int seat
    cdef readonly object rules

    def __init__(self, CoreGame template, int seat, pool, slots, int stock_size, stock_only=(),
                 int set_slots=0):
        """`template`: the position with only known cards in hands and the trump card
        at stock[0] when the stock is not empty; `pool`: the unseen card indices that
        may lie anywhere unseen; `slots`: unknown cards per seat; `stock_size`: cards in
        the stock; `stock_only`: unseen cards known to lie in the stock; `set_slots`:
        the cards of the two offered hands of another seat's pending pick."""
        cdef int i
        if sum(slots) + set_slots + max(stock_size - 1, 0) != len(pool) + len(stock_only):
            raise ValueError("unseen cards do not match the unknown slots and the stock")
        if len(stock_only) > max(stock_size - 1, 0):
            raise ValueError("more cards known to lie in the stock than it holds")
        memcpy(&self.c.template, &template.state, sizeof(State))
        self.seat = seat
        self.rules = template.rules
        self.c.n_pool = len(pool)
        for i, card in enumerate(pool):
            self.c.pool[i] = card
        for i in range(MAX_SEATS):
            self.c.slots[i] = slots[i] if i < len(slots) else 0
        self.c.n_stock_only = len(stock_only)
        for i, card in enumerate(stock_only):
            self.c.stock_only[i] = card
        self.c.set_slots = set_slots
        self.c.stock_size = stock_size
        self.c.seat = seat

    def __dealloc__(self):
        free(self.c.particles)
        free(self.c.cdf)

    def set_particles(self, const uint64_t[:, ::1] hands, const double[::1] weights) -> None:
        """Draw worlds' hands from `hands` (one row of `MAX_SEATS` hands per particle) in
        proportion to `weights` from now on; no rows: back to the uniform sampler."""
        cdef int i, j, n = hands.shape[0]
        cdef double total = 0.0, run = 0.0
        if n and (hands.shape[1] != MAX_SEATS or weights.shape[0] != n):
            raise ValueError(f"particles need {MAX_SEATS} hands a row and one weight each")
        if n and self.c.set_slots:
            raise ValueError("offered hands of a pending pick cannot be weighted")
        for i in range(n):
            if not weights[i] >= 0.0:
                raise ValueError("weights must not be negative")
            total += weights[i]
        if n and not total > 0.0:
            raise ValueError("weights must not all be zero")
        free(self.c.particles)
        free(self.c.cdf)
        self.c.particles = NULL
        self.c.cdf = NULL
        self.c.n_particles = 0
        if not n:
            return
        self.c.particles = <uint64_t*>malloc(n * MAX_SEATS * sizeof(uint64_t))
        self.c.cdf = <double*>malloc(n * sizeof(double))
        if self.c.particles == NULL or self.c.cdf == NULL:
            raise MemoryError("no memory for the particles")
        for i in range(n):
            for j in range(MAX_SEATS):
                self.c.particles[i * MAX_SEATS + j] = hands[i, j] & ~self.c.template.hands[j]
            run += weights[i]
            self.c.cdf[i] = run / total
        self.c.cdf[n - 1] = 1.0
        self.c.n_particles = n

    @property
    def particles(self) -> int:
        """How many weighted particles the worlds come from (0: uniform)."""
        return self.c.n_particles

    def sample(self, uint64_t seed) -> CoreGame:
        """One world drawn with `seed`."""
        cdef Rng rng
        cdef CoreGame game = CoreGame(self.rules)
        rng_seed(&rng, seed)
        sample_world(&self.c, &game.state, &rng)
        return game


# Playout policies by name (the `Solver`'s `policy` option); the tree reads the enum.
_PLAYOUTS = {"random": PLAYOUTS_RANDOM, "heuristic": PLAYOUTS_GREEDY}


def run_search(Sampler sampler, *, long iterations, double time_ms, uint64_t seed,
               double exploration=1.0, str policy="random", int noise=1, double prior=0.0,
               double opponent_policy=0.0, bint resample=True, int worlds=1,
               int exact_cards=10, long exact_budget=20000, long exact_average=256,
               unsigned char[::1] stop=None, ValueModel value=None, int value_depth=0,
               double value_mix=1.0, PolicyModel policy_net=None, int policy_uses=0) -> SearchResult:
    """One search (one thread): ISMCTS, or PIMC over `worlds` fixed worlds. Releases the GIL.

    `stop`: a one-byte buffer another thread may set non-zero (`solver.search.budget.StopFlag`);
    the search then ends within an iteration, with what it has found so far.
    `value`: a learned value net (solver/search/_model.pyx) for the leaves, asked after
    `value_depth` greedy plies and mixed with a playout's result by `value_mix` (1: no playout).
    `policy_net`: a learned policy, used where `policy_uses` says (bits: 1 the other seats' modelled
    moves, 2 playouts, 4 the tree's expansion order and its prior, weighted by `prior`).

    Returns the root statistics as a `SearchResult`: per root move its visits,
    reward sum and sum of squares for the searcher and availability, plus
    per-seat sums and losses over all iterations.
    """
    cdef Tree tree
    cdef Solver sv
    cdef Solver* svp = NULL
    cdef SearchParams p
    cdef Rng rng
    cdef double start = now_ms()
    cdef int w, n_worlds = worlds if not resample else 1
    cdef int players = sampler.c.template.players
    cdef long per_world, done_iterations = 0
    cdef int c
    if policy not in _PLAYOUTS:
        raise ValueError(f"unknown playout policy {policy!r} (expected one of {', '.join(_PLAYOUTS)})")
    rng_seed(&rng, seed)
    p.deadline_ms = start + time_ms if time_ms > 0 else 0
    p.stop = &stop[0] if stop is not None and stop.shape[0] > 0 else NULL
    p.exploration = exploration
    p.policy = _PLAYOUTS[policy]
    p.noise = noise
    p.prior_weight = prior
    p.opponent_policy = <int>(opponent_policy * 64 + 0.5)
    p.resample = resample
    p.exact_cards = exact_cards
    p.exact_budget = exact_budget
    p.exact_average = exact_average
    if not 0.0 <= value_mix <= 1.0 or value_depth < 0:
        raise ValueError("value_mix must lie in [0, 1] and value_depth must not be negative")
    p.value = &value.net if value is not None else NULL
    p.value_depth = value_depth
    p.value_mix = value_mix
    p.policy_net = &policy_net.net if policy_net is not None else NULL
    p.policy_uses = policy_uses if policy_net is not None else 0
    if exact_cards > 0:
        if not solver_init(&sv, 18):
            raise MemoryError("no memory for the endgame table")
        # An endgame solved inside an iteration gives way at the deadline (or the stop) like the
        # search: the iteration then plays out instead.
        sv.deadline_ms = p.deadline_ms
        sv.stop = p.stop
        svp = &sv
    roots = {}
    seat_sum = [0.0] * players
    seat_sq = [0.0] * players
    seat_losses = [0] * players
    total_worlds = 0
    solve_nodes = 0
    solves_skipped = 0
    try:
        for w in range(n_worlds):
            if not tree_init(&tree, 1024):
                raise MemoryError("no memory for the search tree")
            per_world = (iterations - done_iterations) // (n_worlds - w)
            p.max_iterations = per_world
            with nogil:
                search_loop(&sampler.c, &tree, svp, &p, &rng)
            done_iterations += tree.iterations
            total_worlds += tree.worlds
            solve_nodes += tree.solve_nodes
            solves_skipped += tree.solves_skipped
            c = tree.nodes[0].first_child
            while c >= 0:
                move = RootMove(tree.nodes[c].move, tree.nodes[c].visits, tree.nodes[c].reward,
                                tree.nodes[c].reward_sq, tree.nodes[c].avail)
                roots[move.code] = roots[move.code] + move if move.code in roots else move
                c = tree.nodes[c].next_sibling
            for i in range(players):
                seat_sum[i] += tree.seat_sum[i]
                seat_sq[i] += tree.seat_sq[i]
                seat_losses[i] += tree.seat_losses[i]
            failed = tree.failed
            free(tree.nodes)
            if failed:
                raise MemoryError("the search tree outgrew memory")
            if (p.deadline_ms > 0 and now_ms() >= p.deadline_ms) or (p.stop != NULL and p.stop[0]):
                break
    finally:
        if svp != NULL:
            solver_free(&sv)
    return SearchResult(
        iterations=done_iterations,
        worlds=total_worlds,
        time_ms=now_ms() - start,
        moves=tuple(roots.values()),
        seat_sum=tuple(seat_sum),
        seat_sq=tuple(seat_sq),
        seat_losses=tuple(seat_losses),
        solve_nodes=solve_nodes,
        solves_skipped=solves_skipped,
    )


# -- weighing worlds by what the other seats did (solver.search.beliefs) -------------------

cdef enum BeliefOp:
    OP_DECIDE = 0   # the seat chose `move` in snapshot `state`, in model class `role`
    OP_LOST = 1     # cards left the seat's hand (played): it held them before
    OP_TAKEN = 2    # cards the seat picked up from the table
    OP_DRAWN = 3    # `count` cards drawn from the stock, `cards` of them seen (the trump card);
                    # none of `seen` (cards seen before) can have been drawn

cdef enum:  # the columns of an op row (int64)
    COL_KIND = 0
    COL_SEAT = 1
    COL_CARDS = 2
    COL_SEEN = 3
    COL_COUNT = 4
    COL_STATE = 5
    COL_MOVE = 6
    COL_ROLE = 7


cdef inline int nth_bit(uint64_t mask, int n) noexcept nogil:
    """The index of the `n`-th set bit of `mask` (from 0, lowest first)."""
    while n > 0:
        mask &= mask - 1
        n -= 1
    return tan_lowbit(mask)


cdef enum:
    MAX_TYPES = 8  # kinds of player a history is weighed under at once


cdef void decision_probabilities(const State* st, int observed, const double* models, int n_types,
                                 int stride, double* out) noexcept nogil:
    """P(the seat to move of `st` plays `observed`) under each of `n_types` opponent models
    (`models + t * stride`: (ε, λ, κ)) into `out[t]`: the greedy move with probability 1 − ε,
    else a move drawn with weight λ^k for a card move whose card is the k-th cheapest among the
    legal moves' cards (rank, trumps above), and κ for taking or passing."""
    cdef int moves[MAX_MOVES]
    cdef int ranks[MAX_MOVES]
    cdef int n = gen_moves(st, moves), i, t, card, cost, found = -1, is_greedy
    cdef uint32_t costs = 0
    cdef double total, eps, lam, kappa, mine, w
    if n <= 0:
        for t in range(n_types):
            out[t] = 1.0
        return
    for i in range(n):
        ranks[i] = -1
        if move_kind(moves[i]) in (MK_ATTACK, MK_DEFEND, MK_TRANSFER):
            card = move_card(moves[i])
            ranks[i] = card % 13 + (13 if (st.trump_mask >> card) & 1 else 0)
            costs |= <uint32_t>1 << ranks[i]
        if moves[i] == observed:
            found = i
    for i in range(n):
        if ranks[i] >= 0:
            ranks[i] = tan_popcount(costs & ((<uint32_t>1 << ranks[i]) - 1))
    is_greedy = greedy_move(st) == observed
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
        out[t] = (eps * mine / total if found >= 0 else 1e-9) + (1.0 - eps if is_greedy else 0.0)


cdef int seat_log_likelihood(State* states, const long long* ops, int n_ops, int seat, uint64_t hand,
                             const double* models, int n_types, int n_roles, Rng* rng,
                             double* logp) noexcept nogil:
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
                g = nth_bit(cand, rng_below(rng, avail))
                cand &= ~(<uint64_t>1 << g)
                hand &= ~(<uint64_t>1 << g)
                avail -= 1
        else:
            st = &states[op[COL_STATE]]
            saved = st.hands[seat]
            st.hands[seat] = hand
            decision_probabilities(st, <int>op[COL_MOVE], &models[3 * op[COL_ROLE]], n_types, 3 * n_roles, p)
            st.hands[seat] = saved
            for t in range(n_types):
                logp[t] += log(p[t])
    return 1


def weigh_worlds(Sampler sampler, list states, const long long[:, ::1] ops, const double[:, :, ::1] models,
                 uint64_t seed, uint64_t[:, ::1] hands, double[:, :, ::1] log_weights, double time_ms=0,
                 unsigned char[::1] stop=None) -> tuple:
    """Draw `hands.shape[0]` uniform worlds of `sampler` (its weights ignored) into `hands`
    (a row of `MAX_SEATS` hands each) and, for each seat and each kind of player of `models`
    (types × kinds of decision × (ε, λ, κ)), the log-likelihood of that seat's decisions in the
    history `ops` if it were that kind of player into `log_weights[world, seat, type]` (-1e300
    everywhere in a world the history rules out). Returns (worlds weighed, worlds ruled out).

    A long history makes each world dear (its decisions are walked one by one), so the walk ends
    early after `time_ms` (0: no limit) or once another thread sets `stop` (a one-byte buffer, as
    in `run_search`), checked before each world: only the first `worlds weighed` rows are then
    filled in. Releases the GIL."""
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
    if (hands.shape[1] != MAX_SEATS or log_weights.shape[0] != n or log_weights.shape[1] != MAX_SEATS
            or log_weights.shape[2] != n_types):
        raise ValueError("hands need MAX_SEATS columns and log_weights (worlds, MAX_SEATS, types)")
    if n_ops and ops.shape[1] != 8:
        raise ValueError("ops need 8 columns")
    if not 1 <= n_types <= MAX_TYPES or n_roles < 1 or models.shape[2] != 3:
        raise ValueError(f"models need 1 to {MAX_TYPES} types of (ε, λ, κ) for each kind of decision")
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
                                                   &rng, lw[seat])
            ruled_out += not possible
            for seat in range(MAX_SEATS):
                for t in range(n_types):
                    log_weights[i, seat, t] = lw[seat][t] if possible else -1e300
            done += 1
    free(snaps)
    return done, ruled_out


def greedy_examples(CoreGame template, int games, uint64_t seed, int noise=8, double share=0.25):
    """Training examples from `games` greedy games of `template`'s rules and seats (a uniformly
    random move `noise` times in 64): the features of a `share` of the two-way states of the
    play, from each seat still in, with the seat's final score. Returns (features, scores, game).

    A value learned from these predicts how greedy play ends — what a playout says, without a
    playout's noise; the same seed gives the same examples."""
    cdef State st
    cdef Rng rng
    cdef int g, seat, a, b, row, first, players = template.state.players
    cdef long n = 0, cap = 1024
    cdef double scores[MAX_SEATS]
    cdef uint64_t threshold = <uint64_t>(share * 18446744073709551615.0) if share < 1.0 else 0
    x = np.zeros((cap, N_FEATURES))
    y = np.zeros(cap)
    which = np.zeros(cap, dtype=np.int64)
    seat_of = np.zeros(cap, dtype=np.int32)
    cdef double[:, ::1] xv = x
    cdef double[::1] yv = y
    cdef long long[::1] wv = which
    cdef int[::1] sv = seat_of
    rng_seed(&rng, seed)
    for g in range(games):
        state_shuffle_deal(&st, &template.state.rules, players, &rng)
        first = n
        while not st.over:
            if st.phase == PHASE_PLAY and (threshold == 0 or rng_next(&rng) < threshold):
                if two_seats_in(&st, &a, &b):
                    if n + 2 > cap:
                        cap *= 2
                        x = np.resize(x, (cap, N_FEATURES))
                        y = np.resize(y, cap)
                        which = np.resize(which, cap)
                        seat_of = np.resize(seat_of, cap)
                        xv, yv, wv, sv = x, y, which, seat_of
                    world_features(&st, a, &xv[n, 0])
                    world_features(&st, b, &xv[n + 1, 0])
                    sv[n] = a
                    sv[n + 1] = b
                    n += 2
            apply_move(&st, heuristic_move(&st, &rng, noise))
        state_scores(&st, scores)
        for row in range(first, n):
            yv[row] = scores[sv[row]]
            wv[row] = g
    return x[:n].copy(), y[:n].copy(), which[:n].copy()


def greedy_code(CoreGame game) -> int:
    """The greedy policy's move (a core move code) for the seat to move of `game`."""
    if game.state.over:
        raise ValueError("the game is over: no seat is to move")
    return greedy_move(&game.state)


def solve_exact(CoreGame game, int hero, long budget=0, double time_ms=0,
                unsigned char[::1] stop=None) -> ExactSolution:
    """Exact value of a perfect-information state for `hero`, and each move's value.

    Returns an `ExactSolution` with values in half points (2 win, 1 draw,
    0 loss), or raises `ValueError` if the state is not an
    empty-stock two-seat position. `budget` caps nodes (0: none); if it runs out
    `TimeoutError` is raised, as it is past `time_ms` (0: no limit) or once another
    thread sets `stop` (as in `run_search`).
    """
    cdef Solver sv
    cdef const State* s = &game.state
    cdef int moves[MAX_MOVES]
    cdef int n, i, v, best
    cdef State child_state
    if not is_perfect_information(s):
        raise ValueError("not a perfect-information position (needs an empty stock and two active seats)")
    if not (s.active >> hero) & 1:
        raise ValueError(f"seat {hero} is not active")
    if not solver_init(&sv, 20):
        raise MemoryError("no memory for the endgame table")
    values = {}
    try:
        sv.hero = hero
        sv.budget = budget
        sv.deadline_ms = now_ms() + time_ms if time_ms > 0 else 0
        sv.stop = &stop[0] if stop is not None and stop.shape[0] > 0 else NULL
        sv.aborted = 0
        sv.nodes = 0
        n = gen_moves(s, moves)
        with nogil:
            best = solve_value(&sv, s)
        if sv.aborted:
            raise TimeoutError("endgame node budget exhausted")
        for i in range(n):
            state_copy(&child_state, s)
            apply_move(&child_state, moves[i])
            with nogil:
                v = 1 if repeats(&child_state) else solve_value(&sv, &child_state)
            if sv.aborted:
                raise TimeoutError("endgame node budget exhausted")
            values[moves[i]] = v
        nodes = sv.nodes
    finally:
        solver_free(&sv)
    return ExactSolution(hero, best, values, nodes)

# cython: language_level=3
"""The tree search over determinized worlds: SO-ISMCTS and PIMC, all `nogil`.

`run_search` is single-observer ISMCTS (one tree over the searcher's
information sets, a new world each iteration from the sampler
(solver/search/_sampling.pyx), availability counts, max^n rewards) or PIMC (a
fixed world per tree, results averaged).

A search's three rules are chosen once, when it begins, each a `cdef` function declared in
`_tree.pxd` (as scikit-learn's tree splits criterion, splitter and tree): the selection
(`selection`: PUCT over a learned policy, UCB1 over the policy's order, or UCB1), the leaf's
value (`leaf_value`: the learned net (solver/search/_model.pyx) alone, mixed with a greedy
playout (solver/search/_greedy.pxd), or the playout) and the backup (`backup_maxn`).
`descend` walks one iteration down the tree, where the other seats may play the greedy
heuristic (the modelled iterations) and small endgames with nothing hidden are solved
exactly (solver/search/_endgame.pyx); `search_loop` draws the worlds and runs the
iterations.

Once a search is done, `run_search` may also draw each root move's line, the principal
variation the tree expects (docs/api.md §3, "Lines"), walking the finished tree: the search
loop itself does not change.

Python callers go through `solver.search.Solver`; this module holds no
policy about limits or output formats, and answers typed results
(`solver.search.results`).
"""

from libc.math cimport NAN, isnan, log, sqrt
from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memset

from solver.core._core cimport (
    MAX_MOVES, MAX_SEATS, Rng, State, apply_move, gen_moves, rng_below, rng_seed, state_copy, state_scores,
    tan_popcount,
)

from solver.search._clock cimport now_ms
from solver.search._endgame cimport Solver, endgame_scores, is_perfect_information, solver_free, solver_init
from solver.search._greedy cimport greedy_playout, heuristic_move
from solver.search._model cimport PolicyModel, ValueModel, net_scores, policy_probabilities
from solver.search._sampling cimport Sampler, SamplerC, sample_world

from solver.search.results import LinePly, RootMove, SearchResult


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


cdef inline int find_child(const Tree* t, int parent, int move) noexcept nogil:
    cdef int c = t.nodes[parent].first_child
    while c >= 0:
        if t.nodes[c].move == move:
            return c
        c = t.nodes[c].next_sibling
    return -1


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


cdef inline void play_out(State* st, Rng* rng) noexcept nogil:
    """A playout to the end of the game by the greedy heuristic (`GREEDY_NOISE` random moves in 64)."""
    greedy_playout(st, rng, GREEDY_NOISE)


cdef inline void count_losses(const double* scores, int players, double weight, double* losses) noexcept nogil:
    """A game's end: each seat that scored 0 lost it (`weight` of a leaf's losses)."""
    cdef int seat
    for seat in range(players):
        if scores[seat] == 0.0:
            losses[seat] += weight


# -- selection: which move a node of the searching tree tries (one rule a search) -------------
#
# Each rule is given the node's legal `moves`, each one's child (`legal_child`, -1: untried) and
# how many are untried, and answers the index of the move to go down or to add; where it reads
# the learned policy it leaves each move's probability in `prior` (the new child's prior).

cdef inline int random_untried(const int* legal_child, int n, int untried, Rng* rng) noexcept nogil:
    """One of the untried moves, uniformly."""
    cdef int i, pick = rng_below(rng, untried)
    for i in range(n):
        if legal_child[i] < 0:
            if pick == 0:
                return i
            pick -= 1
    return -1


cdef inline int likeliest_untried(const SearchParams* p, State* st, const int* moves, const int* legal_child,
                                  int n, double* prior) noexcept nogil:
    """The untried move the policy likes best (the first of equals)."""
    cdef int i, pick = -1
    cdef double best = -1.0
    policy_probabilities(p.policy_net, st, moves, n, prior)
    for i in range(n):
        if legal_child[i] < 0 and prior[i] > best:
            best = prior[i]
            pick = i
    return pick


cdef inline int ucb1(const SearchParams* p, const Tree* t, const int* legal_child, int n) noexcept nogil:
    """UCB1 over availability counts among tried moves (every move is tried here)."""
    cdef int i, pick = 0
    cdef double best = -1.0e300, ucb
    cdef const Node* c
    for i in range(n):
        c = &t.nodes[legal_child[i]]
        ucb = c.reward / c.visits + p.exploration * sqrt(log(<double>c.avail) / c.visits)
        if ucb > best:
            best = ucb
            pick = i
    return pick


cdef int select_ucb1(const SearchParams* p, const Tree* t, State* st, const int* moves, const int* legal_child,
                     int n, int untried, int depth, double* prior, Rng* rng) noexcept nogil:
    """No policy: a random untried move while there is one, then UCB1."""
    if untried > 0:
        return random_untried(legal_child, n, untried, rng)
    return ucb1(p, t, legal_child, n)


cdef int select_ordered_ucb1(const SearchParams* p, const Tree* t, State* st, const int* moves,
                             const int* legal_child, int n, int untried, int depth, double* prior,
                             Rng* rng) noexcept nogil:
    """The policy as the order of expansion (`puct` 0): its likeliest untried move while there is
    one, then UCB1."""
    cdef int pick
    if untried > 0:
        pick = likeliest_untried(p, st, moves, legal_child, n, prior)
        return pick if pick >= 0 else random_untried(legal_child, n, untried, rng)
    return ucb1(p, t, legal_child, n)


cdef int select_puct(const SearchParams* p, const Tree* t, State* st, const int* moves, const int* legal_child,
                     int n, int untried, int depth, double* prior, Rng* rng) noexcept nogil:
    """PUCT (AlphaZero's rule over availability counts): the policy's probability keeps its weight as
    the node's visits grow, so the search spends them on the moves the policy likes; an untried move
    counts the tried ones' mean for its own. At the root and at a new node the likeliest untried
    move first, so that every root move has a row."""
    cdef int i, pick = -1
    cdef long visits = 0
    cdef double best = -1.0e300, ucb, mean = 0.0, sqrt_n
    cdef const Node* c
    if untried > 0 and (depth == 0 or untried == n):
        pick = likeliest_untried(p, st, moves, legal_child, n, prior)
        return pick if pick >= 0 else random_untried(legal_child, n, untried, rng)
    if untried > 0:
        policy_probabilities(p.policy_net, st, moves, n, prior)
    for i in range(n):
        if legal_child[i] >= 0:
            visits += t.nodes[legal_child[i]].visits
            mean += t.nodes[legal_child[i]].reward
    mean = mean / visits if visits > 0 else 0.5
    sqrt_n = sqrt(<double>(visits + 1))  # an untried move's √N: the visits of the tried ones
    for i in range(n):
        if legal_child[i] < 0:
            ucb = mean + p.puct * prior[i] * sqrt_n
        else:
            c = &t.nodes[legal_child[i]]
            ucb = c.reward / c.visits + p.puct * c.prior * sqrt(<double>c.avail) / (c.visits + 1)
        if ucb > best:
            best = ucb
            pick = i
    return pick


cdef SelectFn selection(const SearchParams* p) noexcept nogil:
    """The search's selection rule, chosen once: PUCT with a policy and `puct` > 0, UCB1 over the
    policy's order with a policy alone, else UCB1."""
    if p.policy_net == NULL:
        return select_ucb1
    if p.puct > 0:
        return select_puct
    return select_ordered_ucb1


# -- the leaf's value (one rule a search) -------------------------------------------------------

cdef void leaf_playout(State* st, const SearchParams* p, Rng* rng, double* scores, double* losses) noexcept nogil:
    """A greedy playout's scores; `losses`, each seat's chance the leaf says it lost (set here): 1 or
    0 at a game's end."""
    cdef int seat
    for seat in range(st.players):
        losses[seat] = 0.0
    play_out(st, rng)
    state_scores(st, scores)
    count_losses(scores, st.players, 1.0, losses)


cdef void leaf_net(State* st, const SearchParams* p, Rng* rng, double* scores, double* losses) noexcept nogil:
    """The learned value's scores, and 1 − each as the seat's chance of losing (its score is the
    chance it does not lose, a draw aside); a world the net cannot value (the setup; more than two
    seats still in for a two-seat net) is played out."""
    cdef double learned[MAX_SEATS]
    cdef int seat
    if not st.over and net_scores(p.value, st, learned):
        for seat in range(st.players):
            scores[seat] = learned[seat]
            losses[seat] = 1.0 - learned[seat]
        return
    leaf_playout(st, p, rng, scores, losses)


cdef void leaf_mixed(State* st, const SearchParams* p, Rng* rng, double* scores, double* losses) noexcept nogil:
    """The learned value mixed with a playout's result by `value_mix`, and the losses so mixed; a
    world the net cannot value is played out."""
    cdef double learned[MAX_SEATS]
    cdef int seat
    if st.over or not net_scores(p.value, st, learned):
        leaf_playout(st, p, rng, scores, losses)
        return
    for seat in range(st.players):
        losses[seat] = 0.0
    play_out(st, rng)
    state_scores(st, scores)
    count_losses(scores, st.players, 1.0 - p.value_mix, losses)
    for seat in range(st.players):
        scores[seat] = p.value_mix * learned[seat] + (1.0 - p.value_mix) * scores[seat]
        losses[seat] += p.value_mix * (1.0 - learned[seat])


cdef LeafFn leaf_value(const SearchParams* p) noexcept nogil:
    """The search's leaf rule, chosen once: the net alone, the net mixed with a playout, or a playout."""
    if p.value == NULL:
        return leaf_playout
    if p.value_mix >= 1.0:
        return leaf_net
    return leaf_mixed


# -- the backup (max^n) -------------------------------------------------------------------------

cdef void backup_maxn(Tree* t, const int* path, int depth, const double* scores, const double* losses,
                      int players) noexcept nogil:
    """Max^n: each node on the path keeps its mover's reward; the root counts the visit, and each
    seat's summed score, square and losses."""
    cdef int i, seat
    cdef Node* c
    for i in range(depth):
        c = &t.nodes[path[i]]
        c.visits += 1
        c.reward += scores[c.mover]
        c.reward_sq += scores[c.mover] * scores[c.mover]
    t.nodes[0].visits += 1
    for seat in range(players):
        t.seat_sum[seat] += scores[seat]
        t.seat_sq[seat] += scores[seat] * scores[seat]
        t.seat_losses[seat] += losses[seat]


# -- one iteration's way down, and the loop ------------------------------------------------------

cdef int descend(const SamplerC* smp, Tree* t, Solver* sv, const SearchParams* p, Rng* rng, State* st,
                 SelectFn select, int modelled, int solves, int* path, double* scores, int* done) noexcept nogil:
    """Selection and expansion (SO-ISMCTS) in the world `st`, from the root to a new node, the game's
    end or an endgame solved in the tree (`done`, its `scores`); the nodes passed are left in `path`.
    In a `modelled` iteration the other seats play the greedy heuristic's move. Returns how many
    nodes the path holds, or -1 when the tree could not grow."""
    cdef int moves[MAX_MOVES]
    cdef int legal_child[MAX_MOVES]
    cdef double prior[MAX_MOVES]
    cdef int n, i, node = 0, depth = 0, child, untried, pick, greedy
    cdef int puct = p.puct > 0 and p.policy_net != NULL
    done[0] = 0
    while not st.over and depth < 4000:
        if depth > 0 and solves and solved_endgame(sv, st, p, t, scores):
            done[0] = 1
            break
        n = gen_moves(st, moves)
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
            greedy = heuristic_move(st, rng, GREEDY_NOISE)
            child = find_child(t, node, greedy)
            if child < 0:
                child = tree_add(t, node, greedy, st.to_move)
                if child < 0:
                    return -1
                t.nodes[child].avail = 1
                if puct:  # the policy's probability, for PUCT when the seat is searched here
                    policy_probabilities(p.policy_net, st, moves, n, prior)
                    for i in range(n):
                        if moves[i] == greedy:
                            t.nodes[child].prior = prior[i]
                apply_move(st, greedy)
                path[depth] = child
                return depth + 1
            apply_move(st, greedy)
            path[depth] = child
            depth += 1
            node = child
            continue
        pick = select(p, t, st, moves, legal_child, n, untried, depth, prior, rng)
        if legal_child[pick] >= 0:  # a tried move: down the tree
            child = legal_child[pick]
            apply_move(st, t.nodes[child].move)
            path[depth] = child
            depth += 1
            node = child
            continue
        child = tree_add(t, node, moves[pick], st.to_move)
        if child < 0:
            return -1
        t.nodes[child].avail = 1
        if p.policy_net != NULL:
            t.nodes[child].prior = prior[pick]
        apply_move(st, moves[pick])
        path[depth] = child
        return depth + 1
    return depth


cdef void search_loop(const SamplerC* smp, Tree* t, Solver* sv, const SearchParams* p, Rng* rng) noexcept nogil:
    """ISMCTS iterations (or UCT in one fixed world) until a limit is reached: the selection rule,
    the leaf's value and the backup are chosen once, here, and each iteration draws a world, goes
    down (`descend`), values the leaf and backs it up."""
    cdef State world, st
    cdef int path[4096]
    cdef double scores[MAX_SEATS]
    cdef double losses[MAX_SEATS]
    cdef int depth, seat, done, modelled, solves
    cdef SelectFn select = selection(p)
    cdef LeafFn leaf = leaf_value(p)
    cdef BackupFn backup = backup_maxn
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
        modelled = p.opponent_policy >= 64 or (p.opponent_policy > 0 and rng_below(rng, 64) < p.opponent_policy)
        # A solve's value assumes the others answer perfectly; an iteration that models them as the
        # greedy heuristic plays its endgames out by that model instead (unless `exact_modelled`).
        solves = not modelled or p.exact_modelled
        depth = descend(smp, t, sv, p, rng, &st, select, modelled, solves, path, scores, &done)
        if depth < 0:
            return
        if not done and not (solves and solved_endgame(sv, &st, p, t, scores)):
            leaf(&st, p, rng, scores, losses)
        else:
            for seat in range(st.players):
                losses[seat] = 1.0 if scores[seat] == 0.0 else 0.0
        backup(t, path, depth, scores, losses, st.players)
        t.iterations += 1


# -- the line the engine expects (after the search, never inside it) ------------------------

cdef enum:
    MAX_LINE = 64   # the longest line `run_search` draws (the service asks for far fewer plies)


cdef int line_nodes(const Tree* t, int first, int depth, int min_visits, int* out) noexcept nogil:
    """The principal variation from the root move `first`: its node, then each time the child
    visited most (ties: the better mean for its mover, then the lower move), while that child was
    visited at least `min_visits` times, up to `depth` nodes in all. Returns how many."""
    cdef int n = 0, node = first, c, best
    cdef double best_mean, mean
    while n < depth:
        out[n] = node
        n += 1
        best = -1
        best_mean = 0.0
        c = t.nodes[node].first_child
        while c >= 0:
            if t.nodes[c].visits >= min_visits and t.nodes[c].visits > 0:
                mean = t.nodes[c].reward / t.nodes[c].visits
                if (best < 0 or t.nodes[c].visits > t.nodes[best].visits
                        or (t.nodes[c].visits == t.nodes[best].visits
                            and (mean > best_mean or (mean == best_mean and t.nodes[c].move < t.nodes[best].move)))):
                    best = c
                    best_mean = mean
            c = t.nodes[c].next_sibling
        if best < 0:
            break
        node = best
    return n


cdef int line_replayed(State* st, const Tree* t, const int* nodes, int n, int seat) noexcept nogil:
    """How many plies of the line `nodes` the world `st` plays: each ply's mover must be the seat
    to move and its move legal there, and the seat's own moves stop once it has drawn a card it
    could not see (from then on its moves depend on cards it does not know it will hold)."""
    cdef int moves[MAX_MOVES]
    cdef int i, k, m, legal, drew = 0
    cdef uint64_t before, seen
    for i in range(n):
        m = t.nodes[nodes[i]].move
        if st.over or st.to_move != t.nodes[nodes[i]].mover:
            return i
        if st.to_move == seat and drew:
            return i
        legal = 0
        for k in range(gen_moves(st, moves)):
            if moves[k] == m:
                legal = 1
                break
        if not legal:
            return i
        before = st.hands[seat]
        seen = st.table_cards | ((<uint64_t>1) << st.trump_card)
        apply_move(st, m)
        if st.hands[seat] & ~before & ~seen:
            drew = 1
    return n


cdef int line_played(const SamplerC* smp, const Tree* t, const int* nodes, int n, int worlds,
                     Rng* rng) noexcept nogil:
    """The longest start of the line that one of `worlds` worlds drawn as the search draws them
    plays (`line_replayed`): the other seats' moves are then legal in a world the seat cannot
    tell from the real one. Stops at the first world that plays it all."""
    cdef State st
    cdef int w, played, longest = 0
    for w in range(worlds):
        sample_world(smp, &st, rng)
        played = line_replayed(&st, t, nodes, n, smp.seat)
        if played > longest:
            longest = played
        if longest == n:
            break
    return longest


cdef double seat_score(const Tree* t, int node, int seat, int players) noexcept nogil:
    """The seat's expected score through `node`: its own mean where it moved; with two seats the
    other's complement (the scores add up to 1); else the mean of the seat's scores through the
    children, weighed by their visits (NaN when none tells)."""
    cdef int c
    cdef double total = 0.0, score
    cdef long weight = 0
    if t.nodes[node].visits == 0:
        return NAN
    if t.nodes[node].mover == seat:
        return t.nodes[node].reward / t.nodes[node].visits
    if players == 2:
        return 1.0 - t.nodes[node].reward / t.nodes[node].visits
    c = t.nodes[node].first_child
    while c >= 0:
        score = seat_score(t, c, seat, players)
        if not isnan(score):
            total += score * t.nodes[c].visits
            weight += t.nodes[c].visits
        c = t.nodes[c].next_sibling
    return total / weight if weight > 0 else NAN


cdef dict tree_lines(const SamplerC* smp, const Tree* t, int depth, int min_visits, int worlds,
                     Rng* rng):
    """Each visited root move's line (`line_nodes`, cut where no drawn world plays it), as
    `LinePly`s by move code."""
    cdef int nodes[MAX_LINE]
    cdef int c = t.nodes[0].first_child, n, i
    cdef double score
    lines = {}
    while c >= 0:
        if t.nodes[c].visits > 0:
            with nogil:
                n = line_nodes(t, c, depth, min_visits, nodes)
                n = line_played(smp, t, nodes, n, worlds, rng)
            plies = []
            for i in range(n):
                score = seat_score(t, nodes[i], smp.seat, smp.template.players)
                plies.append(LinePly(t.nodes[nodes[i]].move, t.nodes[nodes[i]].mover,
                                     t.nodes[nodes[i]].visits, None if isnan(score) else score))
            lines[t.nodes[c].move] = tuple(plies)
        c = t.nodes[c].next_sibling
    return lines


def run_search(Sampler sampler, config, *, long iterations, double time_ms, uint64_t seed,
               double opponent_policy=0.0, unsigned char[::1] stop=None, ValueModel value=None,
               double value_mix=1.0, PolicyModel policy_net=None,
               int line_depth=0, int line_visits=1, int line_worlds=1) -> SearchResult:
    """One search (one thread) as `config` says (`solver.search.config.SearchConfig`: the algorithm,
    exploration, PUCT's constant and the in-tree solves): ISMCTS, or PIMC over its `pimc_worlds`
    fixed worlds. Releases the GIL.

    PIMC shares the iterations and the time out among its worlds, each world its part of
    what is left.

    What the solver chose for this search (`Solver._modelling`): `opponent_policy`, the share of
    iterations whose other seats play the greedy heuristic in the tree; `value`, a learned value
    net (solver/search/_model.pyx) for the leaves, mixed with a playout's result by `value_mix`
    (1: no playout); `policy_net`, a learned policy that is the tree's prior (its expansion order,
    and with `puct` > 0 the P of PUCT; None: UCB1).
    `stop`: a one-byte buffer another thread may set non-zero (`solver.search.budget.StopFlag`);
    the search then ends within an iteration, with what it has found so far.
    Endgames of at most `exact_cards` cards are solved in the tree; with `exact_modelled` false,
    the iterations whose other seats play the greedy heuristic play them out by that model, since
    a solve's value is what perfect answers leave, not what greedy's do.
    `line_depth` > 0 (ISMCTS only): once the search is done, each root move's principal variation
    of at most that many plies, through children visited at least `line_visits` times and cut
    where none of `line_worlds` worlds drawn with a seed of its own plays it (`tree_lines`).

    Returns the root statistics as a `SearchResult`: per root move its visits,
    reward sum and sum of squares for the searcher and availability, plus
    per-seat sums and losses over all iterations.
    """
    cdef Tree tree
    cdef Solver sv
    cdef Solver* svp = NULL
    cdef SearchParams p
    cdef Rng rng, line_rng
    cdef double start = now_ms()
    cdef double deadline = start + time_ms if time_ms > 0 else 0
    cdef double world_start
    cdef bint resample = config.algorithm == "ismcts"
    cdef int exact_cards = config.exact_cards
    cdef int w, n_worlds = config.pimc_worlds if not resample else 1
    cdef int players = sampler.c.template.players
    cdef long per_world, done_iterations = 0
    cdef int c
    rng_seed(&rng, seed)
    p.deadline_ms = deadline
    p.stop = &stop[0] if stop is not None and stop.shape[0] > 0 else NULL
    p.exploration = config.exploration
    p.puct = config.puct
    p.opponent_policy = <int>(opponent_policy * 64 + 0.5)
    p.resample = resample
    p.exact_cards = exact_cards
    p.exact_budget = config.exact_budget
    p.exact_average = config.exact_average
    p.exact_modelled = config.exact_modelled
    if not 0.0 <= value_mix <= 1.0:
        raise ValueError("value_mix must lie in [0, 1]")
    p.value = &value.net if value is not None else NULL
    p.value_mix = value_mix
    p.policy_net = &policy_net.net if policy_net is not None else NULL
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
    seat_losses = [0.0] * players
    total_worlds = 0
    solve_nodes = 0
    solves_skipped = 0
    lines = {}
    if line_depth > 0 and not resample:
        raise ValueError("lines are drawn from an ISMCTS tree (resample), not from PIMC's trees")
    if not 0 <= line_depth <= MAX_LINE or line_visits < 1 or line_worlds < 1:
        raise ValueError(f"line_depth must lie in [0, {MAX_LINE}], line_visits and line_worlds be at least 1")
    try:
        for w in range(n_worlds):
            if not tree_init(&tree, 1024):
                raise MemoryError("no memory for the search tree")
            per_world = (iterations - done_iterations) // (n_worlds - w)
            p.max_iterations = per_world
            if deadline > 0:
                # The time is shared out like the iterations, each world its part of what is left,
                # so that a time limit searches every one of PIMC's worlds (ISMCTS's one tree: all).
                world_start = now_ms()
                p.deadline_ms = world_start + (deadline - world_start) / (n_worlds - w)
                if svp != NULL:
                    sv.deadline_ms = p.deadline_ms
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
            if line_depth > 0 and not tree.failed:
                rng_seed(&line_rng, seed ^ 0x6C696E65)  # the search's own draws stay as they were
                lines = tree_lines(&sampler.c, &tree, line_depth, line_visits, line_worlds, &line_rng)
            for i in range(players):
                seat_sum[i] += tree.seat_sum[i]
                seat_sq[i] += tree.seat_sq[i]
                seat_losses[i] += tree.seat_losses[i]
            failed = tree.failed
            free(tree.nodes)
            if failed:
                raise MemoryError("the search tree outgrew memory")
            if (deadline > 0 and now_ms() >= deadline) or (p.stop != NULL and p.stop[0]):
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
        lines=lines,
    )

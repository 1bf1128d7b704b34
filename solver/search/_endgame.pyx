# cython: language_level=3
"""The exact endgame solver: alpha-beta with a transposition table.

For positions with two active seats and an empty stock, or only the face-up
trump card left in it, where every card is known by elimination
(`is_known_by_elimination`), the value for one seat in
half points (2 win, 1 draw, 0 loss). `solve_exact` answers the root's value
and each move's (`solver.search.Solver` asks it where nothing is hidden); the
tree (solver/search/_tree.pyx) solves small determinized endgames with
`endgame_scores` instead of playing them out.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, malloc

from solver.core._core cimport (
    MAX_MOVES, MAX_SEATS, MK_PASS, MK_TAKE, State, apply_move, gen_moves, is_trump, move_card, move_kind,
    rank_of, state_copy, state_scores,
)

from solver.core._core cimport CoreGame
from solver.search._clock cimport now_ms

from solver.search.results import ExactSolution

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
    """Everything of a state that matters for the rest of the game. The stock is empty or holds the
    trump card alone, so its size says all of it (mixed in only when not empty: the keys of
    empty-stock states, and so the tree's solves, are as they were)."""
    cdef uint64_t h = <uint64_t>0x12345
    cdef int seat
    for seat in range(s.players):
        h = mix(h, s.hands[seat])
    h = mix(h, s.table_cards)
    h = mix(h, s.undefended)
    h = mix(h, <uint64_t>(s.attacker | (s.defender << 4) | (s.to_move << 8) | (s.taking << 12)
                          | (s.defended_once << 13) | (s.passed << 16) | (<uint64_t>s.active << 24)))
    if s.n_stock:
        h = mix(h, <uint64_t>s.n_stock)
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


cdef inline int order_cost(const State* s, int move) noexcept nogil:
    """The solver's move ordering: cheap cards first, then passing, then trumps, and taking last.

    Not `card_cost`: a trump here is ranked after a pass (rank + 40 against the pass's 30), so
    that the search tries holding its trumps back before spending one."""
    cdef int kind = move_kind(move)
    cdef int card = move_card(move)
    if kind == MK_TAKE:
        return 100
    if kind == MK_PASS:
        return 30
    return rank_of(card) + (40 if is_trump(s, card) else 0)


cdef void order_moves(const State* s, int* moves, int n, int first) noexcept nogil:
    cdef int i, j, m, c
    cdef int costs[MAX_MOVES]
    for i in range(n):
        costs[i] = -1 if moves[i] == first else order_cost(s, moves[i])
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


cdef int solve_value(Solver* sv, const State* s) noexcept nogil:
    """Exact value for `sv.hero` with a full window."""
    return alphabeta(sv, s, 0, 2, 0)


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


def solve_exact(CoreGame game, int hero, long budget=0, double time_ms=0,
                unsigned char[::1] stop=None) -> ExactSolution:
    """Exact value of a perfect-information state for `hero`, and each move's value.

    Returns an `ExactSolution` with values in half points (2 win, 1 draw,
    0 loss), or raises `ValueError` if the state is not a two-seat position with an empty stock
    or the trump card alone in it. `budget` caps nodes (0: none); if it runs out
    `TimeoutError` is raised, as it is past `time_ms` (0: no limit) or once another
    thread sets `stop` (as in `run_search`).
    """
    cdef Solver sv
    cdef const State* s = &game.state
    cdef int moves[MAX_MOVES]
    cdef int n, i, v, best
    cdef State child_state
    if not is_known_by_elimination(s):
        raise ValueError("not a perfect-information position (needs two active seats and an empty stock "
                         "or the trump card alone in it)")
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

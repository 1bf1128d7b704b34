# cython: language_level=3
"""Declarations of the exact endgame solver (solver/search/_endgame.pyx): its table and its state."""

from libc.stdint cimport uint8_t, uint64_t

from solver.core._core cimport PHASE_PLAY, State, tan_popcount


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


cdef inline int is_perfect_information(const State* s) noexcept nogil:
    """Empty stock and two active seats in play: every card is known by elimination (docs/api.md §3).
    The tree solves such worlds in place of a playout (`_tree.solved_endgame`)."""
    return s.n_stock == 0 and tan_popcount(s.active) == 2 and not s.over and s.phase == PHASE_PLAY


cdef inline int is_known_by_elimination(const State* s) noexcept nogil:
    """As `is_perfect_information`, or one card left in the stock: the trump card, face up, so still
    nothing is hidden (docs/api.md §3). `solve_exact` proves such roots; the tree keeps its in-place
    solves to an empty stock (a solve one draw earlier is a change of play not measured)."""
    return s.n_stock <= 1 and tan_popcount(s.active) == 2 and not s.over and s.phase == PHASE_PLAY


cdef int solver_init(Solver* sv, int log2_size) noexcept nogil
cdef void solver_free(Solver* sv) noexcept nogil
cdef int alphabeta(Solver* sv, const State* s, int alpha, int beta, int depth) noexcept nogil
cdef int solve_value(Solver* sv, const State* s) noexcept nogil
cdef int endgame_scores(Solver* sv, const State* s, double* scores, long budget) noexcept nogil

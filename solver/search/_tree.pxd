# cython: language_level=3
"""Declarations of the tree search (solver/search/_tree.pyx): its nodes, its tree and its parameters."""

from solver.core._core cimport MAX_SEATS, Rng, State
from solver.search._endgame cimport Solver
from solver.search._model cimport PolicyNet, ValueNet
from solver.search._sampling cimport SamplerC


ctypedef struct Node:
    int move
    int mover
    int first_child
    int next_sibling
    int visits
    int avail
    double reward
    double reward_sq
    double prior         # the policy's probability of this move where it was first seen (0: no policy)

ctypedef struct Tree:
    Node* nodes
    int n_nodes
    int cap
    double seat_sum[MAX_SEATS]
    double seat_sq[MAX_SEATS]
    double seat_losses[MAX_SEATS]   # each seat's chance of losing, summed over the iterations
    long iterations
    long worlds
    long solve_nodes         # nodes of the endgames solved inside the tree
    long solves_skipped      # endgames played out because the solves had taken their share
    int failed


ctypedef struct SearchParams:
    long max_iterations
    double deadline_ms       # absolute, 0: none
    volatile unsigned char* stop  # another thread sets it non-zero to stop now; NULL: none
    double exploration       # UCB1's constant, where the tree selects by UCB1
    double puct             # > 0 with a policy: PUCT selection with this constant
    int opponent_policy      # in 64 iterations, how many let other seats play the heuristic in the tree
    int resample             # 1: ISMCTS (a world per iteration); 0: one fixed world
    int exact_cards          # solve determinized endgames with at most this many cards in hands
    long exact_budget        # node budget of one such solve
    long exact_average       # the solves' nodes an iteration may take on average (0: no bound)
    int exact_modelled       # 1: solve them in iterations that model the others as greedy too
    const ValueNet* value    # a learned value for the leaves (NULL: play them out)
    double value_mix         # the value's weight against a playout's result (1: no playout)
    const PolicyNet* policy_net  # a learned policy, the tree's prior (NULL: none, UCB1)


cdef enum:
    GREEDY_NOISE = 1   # the greedy heuristic's random moves in 64, in playouts and the modelled others


# One search's three rules, each chosen once when the search begins (`selection`, `leaf_value`,
# `backup_maxn`) rather than switched by flags at every node.
ctypedef int (*SelectFn)(const SearchParams* p, const Tree* t, State* st, const int* moves,
                         const int* legal_child, int n, int untried, int depth, double* prior,
                         Rng* rng) noexcept nogil
ctypedef void (*LeafFn)(State* st, const SearchParams* p, Rng* rng, double* scores,
                        double* losses) noexcept nogil
ctypedef void (*BackupFn)(Tree* t, const int* path, int depth, const double* scores, const double* losses,
                          int players) noexcept nogil


cdef int tree_init(Tree* t, int cap) noexcept nogil
cdef int tree_add(Tree* t, int parent, int move, int mover) noexcept nogil

# Selection: the index of the move a node tries (its child, or the one to add).
cdef int select_ucb1(const SearchParams* p, const Tree* t, State* st, const int* moves, const int* legal_child,
                     int n, int untried, int depth, double* prior, Rng* rng) noexcept nogil
cdef int select_ordered_ucb1(const SearchParams* p, const Tree* t, State* st, const int* moves,
                             const int* legal_child, int n, int untried, int depth, double* prior,
                             Rng* rng) noexcept nogil
cdef int select_puct(const SearchParams* p, const Tree* t, State* st, const int* moves, const int* legal_child,
                     int n, int untried, int depth, double* prior, Rng* rng) noexcept nogil
cdef SelectFn selection(const SearchParams* p) noexcept nogil

# The leaf's value: its scores and each seat's chance of having lost.
cdef void leaf_playout(State* st, const SearchParams* p, Rng* rng, double* scores, double* losses) noexcept nogil
cdef void leaf_net(State* st, const SearchParams* p, Rng* rng, double* scores, double* losses) noexcept nogil
cdef void leaf_mixed(State* st, const SearchParams* p, Rng* rng, double* scores, double* losses) noexcept nogil
cdef LeafFn leaf_value(const SearchParams* p) noexcept nogil

# The backup.
cdef void backup_maxn(Tree* t, const int* path, int depth, const double* scores, const double* losses,
                      int players) noexcept nogil

cdef int descend(const SamplerC* smp, Tree* t, Solver* sv, const SearchParams* p, Rng* rng, State* st,
                 SelectFn select, int modelled, int solves, int* path, double* scores, int* done) noexcept nogil
cdef void search_loop(const SamplerC* smp, Tree* t, Solver* sv, const SearchParams* p, Rng* rng) noexcept nogil

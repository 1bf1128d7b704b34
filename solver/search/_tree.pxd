# cython: language_level=3
"""Declarations of the tree search (solver/search/_tree.pyx): its nodes, its tree and its parameters."""

from solver.core._core cimport MAX_SEATS, Rng, State
from solver.search._endgame cimport Solver
from solver.search._greedy cimport Playouts
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
    double prior         # the policy's probability of this move where it was first seen (with the
                         # policy as the prior), else 1 when the greedy heuristic plays it there

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
    double exploration
    Playouts policy
    int noise                # heuristic playouts: random moves in 64
    double prior_weight     # progressive bias towards the greedy move: weight / (visits + 1)
    double puct             # > 0 with the policy as the prior: PUCT selection with this constant
    int opponent_policy      # in 64 iterations, how many let other seats play the heuristic in the tree
    int resample             # 1: ISMCTS (a world per iteration); 0: one fixed world
    int exact_cards          # solve determinized endgames with at most this many cards in hands
    long exact_budget        # node budget of one such solve
    long exact_average       # the solves' nodes an iteration may take on average (0: no bound)
    int exact_modelled       # 1: solve them in iterations that model the others as greedy too
    const ValueNet* value    # a learned value for the leaves (NULL: play them out)
    int value_depth          # greedy plies played before the value is asked
    double value_mix         # the value's weight against a playout's result (1: no playout)
    const PolicyNet* policy_net  # a learned policy (NULL: none), used where `policy_uses` says:
    int policy_uses          # POLICY_OPPONENT | POLICY_PLAYOUTS | POLICY_PRIOR | POLICY_WORLD


cdef enum:
    POLICY_OPPONENT = 1   # the other seats' modelled moves in the tree are drawn from the policy
    POLICY_PLAYOUTS = 2   # playouts draw their moves from the policy
    POLICY_PRIOR = 4      # the tree's moves are expanded in the policy's order, biased by it
    POLICY_WORLD = 8      # with PUCT, the other seats' priors come from each iteration's world


cdef int tree_init(Tree* t, int cap) noexcept nogil
cdef int tree_add(Tree* t, int parent, int move, int mover) noexcept nogil
cdef void leaf_scores(State* st, const SearchParams* p, Rng* rng, double* scores, double* losses) noexcept nogil
cdef void search_loop(const SamplerC* smp, Tree* t, Solver* sv, const SearchParams* p, Rng* rng) noexcept nogil

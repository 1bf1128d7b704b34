# cython: language_level=3
"""Declarations of the learned evaluation: the features of a world and a small value network.

The tree search (solver/search/_tree.pyx) calls `net_value` at the leaves of its
tree, without the interpreter; everything here is plain C data.
"""

from solver.core._core cimport Rng, State

cdef enum:
    SLOTS = 26          # a card's slot: its rank (0 = 2 … 12 = ace), + 13 when a trump
    N_FEATURES = 94     # three slot blocks (own hand, the others' hands, undefended attacks) + 16
    TABLE_HEADER = 68   # any table's features: the seat's hand, the undefended attacks, 16 numbers
    PLACE = 35          # … then each other seat by its place after the seat: its hand and 9 numbers
    PLACES = 5          # … for the next seat, the one after, … up to 5 (a 6-seat table)
    N_TABLE_FEATURES = 243  # TABLE_HEADER + PLACES * PLACE
    MAX_FEATURES = 243  # the wider of the two feature sets
    MAX_HIDDEN = 64

cdef enum:
    SET_TWO_SEAT = 0    # `world_features`: a two-way fight, the other hands pooled
    SET_TABLE = 1       # `table_features`: any table, each other seat by its place

ctypedef struct ValueNet:
    # The net's standardization of the features is folded into the weights when it is loaded,
    # so the net reads raw features and skips the zero ones (most of the slot blocks).
    int feature_set                       # SET_TWO_SEAT or SET_TABLE
    int width                             # its features: N_FEATURES or N_TABLE_FEATURES
    int hidden                            # 0: logistic regression on the features alone
    double w1[MAX_FEATURES * MAX_HIDDEN]  # hidden layer (ReLU), by feature: features × hidden
    double b1[MAX_HIDDEN]
    double w2[MAX_HIDDEN]
    double skip[MAX_FEATURES]             # the linear part, straight from the features
    double b2

cdef inline int two_seats_in(const State* s, int* a, int* b) noexcept nogil:
    """Whether exactly two seats are still in `s`, and which (`a` < `b`)."""
    cdef int seat
    a[0] = -1
    b[0] = -1
    for seat in range(s.players):
        if (s.active >> seat) & 1:
            if a[0] < 0:
                a[0] = seat
            elif b[0] < 0:
                b[0] = seat
            else:
                return 0
    return b[0] >= 0


cdef void world_features(const State* s, int seat, double* out) noexcept nogil
cdef void table_features(const State* s, int seat, double* out) noexcept nogil
cdef double net_logit(const ValueNet* net, const double* x) noexcept nogil
cdef double net_value(const ValueNet* net, const State* s, int seat) noexcept nogil
cdef int table_scores(const ValueNet* net, const State* s, double* scores) noexcept nogil
cdef int net_scores(const ValueNet* net, const State* s, double* scores) noexcept nogil


cdef class ValueModel:
    cdef ValueNet net
    cdef readonly int hidden
    cdef readonly str feature_set


# -- the policy: a probability for each legal move, from what the mover sees ----------------

cdef enum:
    P_FEATURES = 333    # kind, card, target, same rank, hand sizes, table (see _model.pyx)
    P_ACTIVE = 6        # at most this many features are on for one move
    P_VIEW = 66         # the mover's view of the state, which a contextual policy weighs them by

ctypedef struct PolicyNet:
    double w[P_FEATURES]
    double temperature  # the softmax's: 1 as trained, lower sharper
    int context         # 1: each move feature's weight also depends on the mover's view (`u`)
    double u[P_FEATURES * P_VIEW]  # row f: move feature f's weights on the view (P_VIEW apart)

cdef void mover_view(const State* s, double* out) noexcept nogil

cdef int move_features(const State* s, int move, int* idx) noexcept nogil
cdef int policy_probabilities(const PolicyNet* net, const State* s, const int* moves, int n,
                              double* out) noexcept nogil
cdef int policy_sample(const PolicyNet* net, const State* s, Rng* rng) noexcept nogil


cdef class PolicyModel:
    cdef PolicyNet net

# cython: language_level=3
"""Declarations of the belief weighing (solver/search/_beliefs.pyx): a history's op rows and the
opponent models the other seats' decisions are weighed under."""

from libc.stdint cimport uint64_t

from solver.core._core cimport Rng, State
from solver.search._model cimport PolicyNet


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


cdef enum:
    MAX_TYPES = 8  # kinds of player a history is weighed under at once


cdef void decision_probabilities(const State* st, int observed, const double* models, int n_types,
                                 int stride, const PolicyNet* policy, unsigned int learned,
                                 double* out) noexcept nogil
cdef int seat_log_likelihood(State* states, const long long* ops, int n_ops, int seat, uint64_t hand,
                             const double* models, int n_types, int n_roles, const PolicyNet* policy,
                             unsigned int learned, Rng* rng, double* logp) noexcept nogil

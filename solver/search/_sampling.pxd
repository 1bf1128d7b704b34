# cython: language_level=3
"""Declarations of the sampler of the worlds a seat cannot tell apart (solver/search/_sampling.pyx)."""

from libc.stdint cimport uint8_t, uint64_t

from solver.core._core cimport MAX_SEATS, Rng, State


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


cdef void sample_world(const SamplerC* smp, State* out, Rng* rng) noexcept nogil
cdef void sample_particle(const SamplerC* smp, State* out, Rng* rng) noexcept nogil
cdef void sample_uniform(const SamplerC* smp, State* out, Rng* rng) noexcept nogil


cdef class Sampler:
    cdef SamplerC c
    cdef readonly int seat
    cdef readonly object rules

# cython: language_level=3
"""Sampling the worlds a seat cannot tell apart from the real one.

`Sampler` deals the cards a seat cannot see uniformly at random to the other
seats' unknown slots and the stock (OpenSpiel's ResampleFromInfostate), or,
with weighted beliefs (solver.search.beliefs), draws the other seats' hands
from weighted particles. `solver.search.sampling.prepare` builds it from a
position; the tree (solver/search/_tree.pyx) and the belief weighing
(solver/search/_beliefs.pyx) draw from it without the interpreter.
"""

from libc.stdint cimport uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from solver.core._core cimport MAX_SEATS, PHASE_SETUP, Rng, State, rng_below, rng_next, rng_seed, state_copy

from solver.core._core cimport CoreGame


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


# -- Python faces ------------------------------------------------------------------------

cdef class Sampler:
    """The hidden-card sampler of one position (built by `solver.search.sampling.prepare`)."""

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

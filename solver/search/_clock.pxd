# cython: language_level=3
"""The monotonic clock the search's deadlines read (the tree, the endgame solves), without the interpreter."""

from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec


cdef inline double now_ms() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec * 1000.0 + ts.tv_nsec / 1.0e6

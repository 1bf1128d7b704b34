# cython: language_level=3
"""Declarations shared by the search's C code: the playout policies."""

cdef enum Playouts:
    PLAYOUTS_RANDOM = 0   # uniformly random legal moves
    PLAYOUTS_GREEDY = 1   # the greedy policy, a random move `noise` times in 64

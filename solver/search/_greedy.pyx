# cython: language_level=3
"""The greedy policy's playouts and its Python faces; the policy itself is in _greedy.pxd.

- `greedy_playout` plays a world to its end by the greedy policy with noise (the
  tree's playouts).
- `greedy_code` is the policy's move for the `greedy` player (solver.players).
- `greedy_examples` are training examples from greedy games (solver.tools.train).
"""

from libc.stdint cimport uint64_t

from solver.core._core cimport (
    MAX_SEATS, PHASE_PLAY, Rng, State, apply_move, rng_next, rng_seed, state_scores,
    state_shuffle_deal,
)

from solver.core._core cimport CoreGame
from solver.search._model cimport (
    MAX_FEATURES, N_FEATURES, N_TABLE_FEATURES, table_features, two_seats_in, world_features,
)

import numpy as np


cdef int greedy_playout(State* s, Rng* rng, int noise) noexcept nogil:
    """Play to the end of the game by the greedy policy, a random move `noise` times in 64."""
    cdef int plies = 0
    while not s.over:
        apply_move(s, heuristic_move(s, rng, noise))
        plies += 1
    return plies


def greedy_examples(CoreGame template, int games, uint64_t seed, int noise=8, double share=0.25):
    """Training examples from `games` greedy games of `template`'s rules and seats (a uniformly
    random move `noise` times in 64): the features of a `share` of the two-way states of the
    play, from each seat still in, with the seat's final score. Returns (features, scores, game).

    A value learned from these predicts how greedy play ends — what a playout says, without a
    playout's noise; the same seed gives the same examples."""
    cdef State st
    cdef Rng rng
    cdef int g, seat, a, b, row, first, players = template.state.players
    cdef long n = 0, cap = 1024
    cdef double scores[MAX_SEATS]
    cdef uint64_t threshold = <uint64_t>(share * 18446744073709551615.0) if share < 1.0 else 0
    x = np.zeros((cap, N_FEATURES))
    y = np.zeros(cap)
    which = np.zeros(cap, dtype=np.int64)
    seat_of = np.zeros(cap, dtype=np.int32)
    cdef double[:, ::1] xv = x
    cdef double[::1] yv = y
    cdef long long[::1] wv = which
    cdef int[::1] sv = seat_of
    rng_seed(&rng, seed)
    for g in range(games):
        state_shuffle_deal(&st, &template.state.rules, players, &rng)
        first = n
        while not st.over:
            if st.phase == PHASE_PLAY and (threshold == 0 or rng_next(&rng) < threshold):
                if two_seats_in(&st, &a, &b):
                    if n + 2 > cap:
                        cap *= 2
                        x = np.resize(x, (cap, N_FEATURES))
                        y = np.resize(y, cap)
                        which = np.resize(which, cap)
                        seat_of = np.resize(seat_of, cap)
                        xv, yv, wv, sv = x, y, which, seat_of
                    world_features(&st, a, &xv[n, 0])
                    world_features(&st, b, &xv[n + 1, 0])
                    sv[n] = a
                    sv[n + 1] = b
                    n += 2
            apply_move(&st, heuristic_move(&st, &rng, noise))
        state_scores(&st, scores)
        for row in range(first, n):
            yv[row] = scores[sv[row]]
            wv[row] = g
    return x[:n].copy(), y[:n].copy(), which[:n].copy()


def greedy_table_examples(CoreGame template, int games, uint64_t seed, int noise=8, double share=0.1):
    """`greedy_examples` for a value of every seat (solver/tools/train_table.py): a `share` of the
    states of the play with two seats or more in, each seat in from its side by the table features
    (float32), with its final score. Returns (features, scores, state, game): each row's state and
    game, numbered from 0; the same seed gives the same examples."""
    cdef State st
    cdef Rng rng
    cdef int g, seat, row, first, players = template.state.players, k
    cdef long n = 0, cap = 4096, states = 0
    cdef double scores[MAX_SEATS]
    cdef double row_x[MAX_FEATURES]
    cdef uint64_t threshold = <uint64_t>(share * 18446744073709551615.0) if share < 1.0 else 0
    x = np.zeros((cap, N_TABLE_FEATURES), dtype=np.float32)
    y = np.zeros(cap)
    state_of = np.zeros(cap, dtype=np.int64)
    which = np.zeros(cap, dtype=np.int64)
    seat_of = np.zeros(cap, dtype=np.int32)
    cdef float[:, ::1] xv = x
    cdef double[::1] yv = y
    cdef long long[::1] tv = state_of
    cdef long long[::1] wv = which
    cdef int[::1] sv = seat_of
    rng_seed(&rng, seed)
    for g in range(games):
        state_shuffle_deal(&st, &template.state.rules, players, &rng)
        first = n
        while not st.over:
            if st.phase == PHASE_PLAY and (threshold == 0 or rng_next(&rng) < threshold):
                if n + players > cap:
                    cap *= 2
                    x = np.resize(x, (cap, N_TABLE_FEATURES))
                    y = np.resize(y, cap)
                    state_of = np.resize(state_of, cap)
                    which = np.resize(which, cap)
                    seat_of = np.resize(seat_of, cap)
                    xv, yv, tv, wv, sv = x, y, state_of, which, seat_of
                for seat in range(players):
                    if (st.active >> seat) & 1:
                        table_features(&st, seat, row_x)
                        for k in range(N_TABLE_FEATURES):
                            xv[n, k] = <float>row_x[k]
                        sv[n] = seat
                        tv[n] = states
                        n += 1
                states += 1
            apply_move(&st, heuristic_move(&st, &rng, noise))
        state_scores(&st, scores)
        for row in range(first, n):
            yv[row] = scores[sv[row]]
            wv[row] = g
    return x[:n].copy(), y[:n].copy(), state_of[:n].copy(), which[:n].copy()


def greedy_code(CoreGame game) -> int:
    """The greedy policy's move (a core move code) for the seat to move of `game`."""
    if game.state.over:
        raise ValueError("the game is over: no seat is to move")
    return greedy_move(&game.state)

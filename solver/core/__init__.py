"""The fast game core (Cython): a full-information state in 64-bit card sets, moves as ints.

`CoreGame` is the Python face used by tests, tools and the search's sampler;
the C functions behind it are declared in `_core.pxd` for the search.
"""

from solver.core._core import CoreGame, bench_playouts, decode_move, encode_move

__all__ = ["CoreGame", "bench_playouts", "decode_move", "encode_move"]

"""The random numbers of chance events inside a game (the redeal's shuffle, docs/rules.md §1.7).

The same generator as the Cython core's (xoroshiro128+ seeded through
splitmix64, a number below n by multiply-shift, a Fisher-Yates shuffle from
the last card), so the readable engine and the core shuffle alike and the
differential test can hold them to the same states.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

__all__ = ["ChanceRng"]

T = TypeVar("T")
_MASK = (1 << 64) - 1


def _splitmix64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & _MASK


class ChanceRng:
    """xoroshiro128+ on a 64-bit seed; `state` is the pair the core keeps in its `Rng`."""

    def __init__(self, seed: int) -> None:
        x, self.s0 = _splitmix64(seed & _MASK)
        x, self.s1 = _splitmix64(x)
        if self.s0 == 0 and self.s1 == 0:
            self.s1 = 1

    @property
    def state(self) -> tuple[int, int]:
        return (self.s0, self.s1)

    def next(self) -> int:
        s0, s1 = self.s0, self.s1
        result = (s0 + s1) & _MASK
        s1 ^= s0
        self.s0 = _rotl(s0, 24) ^ s1 ^ ((s1 << 16) & _MASK)
        self.s1 = _rotl(s1, 37)
        return result

    def below(self, n: int) -> int:
        """Uniform in 0…n-1 (n well under 2^16, so the multiply-shift bias is negligible)."""
        return ((self.next() >> 32) * n) >> 32

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates from the last item, as the core shuffles."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> ChanceRng:
        other = ChanceRng.__new__(ChanceRng)
        other.s0, other.s1 = self.s0, self.s1
        return other

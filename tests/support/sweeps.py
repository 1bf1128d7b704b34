"""Sweeps in two sizes: a seeded sample in `make test`, the whole sweep in `make test-long`.

A sweep is a test parametrized over many cases (every variant at every seat
count, say) where each case takes seconds. `sampled(cases, k, key)` keeps a
seeded sample of `k` cases in the default suite and marks every case that
`make test-long` runs: the sample `sampled`, the rest `long`. `make test`
deselects `long`; `make test-long` selects `long or sampled`, so it runs each
sweep whole. Nothing is asserted less: a case that leaves the default suite
still runs under `long`.

The sample is drawn with `random.Random(f"{key}-{seed}")`, where the seed is
`TAN_TEST_SAMPLE_SEED` (0 unless set): the same cases on every run and every
xdist worker, and another set when a run names another seed.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

__all__ = ["sample_seed", "sampled"]


def sample_seed() -> str:
    """The seed of every sweep's sample: `TAN_TEST_SAMPLE_SEED`, else 0."""
    return os.environ.get("TAN_TEST_SAMPLE_SEED", "0")


def sampled(cases: Iterable[Any], k: int, key: str) -> list[Any]:
    """`cases` (values or tuples of values, as `parametrize` takes them) as parameters: `k` of them,
    drawn with a seed from `key`, marked `sampled`; the others marked `long`."""
    values: Sequence[Any] = list(cases)
    chosen = set(random.Random(f"{key}-{sample_seed()}").sample(range(len(values)), min(k, len(values))))
    params = []
    for index, value in enumerate(values):
        args = value if isinstance(value, tuple) else (value,)
        mark = pytest.mark.sampled if index in chosen else pytest.mark.long
        params.append(pytest.param(*args, marks=mark))
    return params

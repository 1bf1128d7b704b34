"""The tests' PostgreSQL: a throwaway cluster (`service.cluster`) for the session, one per xdist
worker, with a fresh database per test.

Nothing is downloaded: `make test` installs Debian's `postgresql` when it is missing; without it
the tests that need a server are skipped, except under CI, where they fail.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from service.cluster import Cluster, binaries

__all__ = ["Cluster", "cluster_fixture"]


def cluster_fixture() -> Iterator[Cluster]:
    """A cluster for the session (one per xdist worker); skipped without PostgreSQL, except
    under CI (`CI` set), where that fails."""
    found = binaries()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL not found under CI: make test's postgresql step should have installed it")
        pytest.skip("PostgreSQL's server binaries are not installed (make test installs them)")
    with Cluster(found) as cluster:
        yield cluster

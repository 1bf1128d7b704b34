"""Fixtures for the service tests: an app on a fresh SQLite file, small search limits; a throwaway
PostgreSQL cluster, and `database`, a fresh store of each kind for the tests that run on both."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from service.settings import Settings
from tests.support.postgres import Cluster, cluster_fixture
from tests.support.service import TestClient, make_client, make_settings


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path / "games.db")


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with make_client(settings) as test_client:
        yield test_client


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """The fuzzing at length (test_fuzz_long.py) is collected only when long runs are selected:
    making its tests builds thousands of cases, seconds on every worker, deselected or not."""
    if collection_path.name != "test_fuzz_long.py":
        return None
    expression = config.getoption("markexpr") or ""
    return "long" not in expression.replace("not long", "")


postgres = pytest.fixture(scope="session")(cluster_fixture)
"""The session's PostgreSQL cluster (one per xdist worker)."""


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """A new, empty game store of each kind: a SQLite file's path, or a PostgreSQL database's URL."""
    if request.param == "sqlite":
        return tmp_path / "games.db"
    cluster: Cluster = request.getfixturevalue("postgres")
    return cluster.database()

"""Fixtures for the service tests: an app on a fresh SQLite file, small search limits."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from service.settings import Settings
from tests.support.service import TestClient, make_client, make_settings


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path / "games.db")


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with make_client(settings) as test_client:
        yield test_client

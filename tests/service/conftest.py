"""Fixtures for the service tests: an app on a fresh SQLite file, small search limits."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.main import create_app
from service.settings import Settings

with warnings.catch_warnings():
    # Starlette asks for `httpx2` under its test client; `httpx` still works.
    warnings.filterwarnings("ignore", message=".*httpx2")
    from fastapi.testclient import TestClient

FAST: dict[str, Any] = {
    "default_iterations": 300,
    "max_iterations": 5_000,
    "default_time_ms": 500,
    "max_time_ms": 2_000,
    "max_searches": 2,
    "engine_budget_ms": 5_000,
}


def make_settings(path: Path, **overrides: Any) -> Settings:
    """Settings for a test app: its own database file and small limits."""
    return Settings(database=path, **{**FAST, **overrides})


def make_client(settings: Settings) -> TestClient:
    return TestClient(create_app(settings))


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path / "games.db")


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with make_client(settings) as test_client:
        yield test_client


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}

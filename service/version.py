"""The installed package's version, shown by `/healthz` and the OpenAPI document."""

from __future__ import annotations

import importlib.metadata

__all__ = ["VERSION"]


def _version() -> str:
    try:
        return importlib.metadata.version("tan")
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"


VERSION = _version()

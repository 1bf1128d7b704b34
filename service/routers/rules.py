"""`GET /v1/rules`: the presets and every option with its meaning (docs/rules.md §1.6)."""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from typing import Any

from fastapi import APIRouter

from service.schemas import RulesResponse
from solver.game.rules import OPTION_DOCS, PRESETS, Rules
from solver.players import ENGINES

__all__ = ["router"]

router = APIRouter(prefix="/v1/rules", tags=["rules"])


def _option(field: dataclasses.Field[Any]) -> dict[str, Any]:
    """One option: its name, meaning, JSON type and, for a choice, the allowed values."""
    hint = typing.get_type_hints(Rules)[field.name]
    args = typing.get_args(hint) if isinstance(hint, types.UnionType) else ()
    option: dict[str, Any] = {"name": field.name, "description": OPTION_DOCS.get(field.name, "")}
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        option.update(type="choice", choices=[member.value for member in hint])
    elif hint is bool:
        option["type"] = "boolean"
    elif int in args and type(None) in args:
        option["type"] = "integer or null"
    else:
        option["type"] = "integer"
    return option


def _catalogue() -> dict[str, Any]:
    return {
        "presets": {name: rules.to_json() for name, rules in PRESETS.items()},
        "options": [_option(field) for field in dataclasses.fields(Rules) if field.name != "preset"],
        "engines": list(ENGINES),
    }


_CATALOGUE = _catalogue()


@router.get("", response_model=RulesResponse)
def rules() -> dict[str, Any]:
    """The rule presets (`tan`, `durak`, `perevodnoy`) with every option's value, and each
    option's meaning. A request's `rules` is a preset name or `{"preset": name, option: value, …}`."""
    return _CATALOGUE

"""`GET /v1/rules`: the presets, every option with its meaning (docs/rules.md §1.6), the engines,
the review labels' bounds and this server's limits — what a client's forms are built from (the web
page's are)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from service.deps import ServicesDep
from service.schemas import RulesResponse
from solver.game.bounds import MAX_MATCH_GAMES, MAX_SEATS
from solver.game.cards import deck
from solver.game.rules import PRESETS, RULE_OPTIONS
from solver.players import ENGINES
from solver.search.labels import LABELS
from solver.search.lines import PV

__all__ = ["router"]

router = APIRouter(prefix="/v1/rules", tags=["rules"])

DECK_SIZES = (36, 52)  # the values of the `deck` option (docs/rules.md §1.6)


@router.get("", response_model=RulesResponse)
def rules(services: ServicesDep) -> dict[str, Any]:
    """The rule presets (`tan`, `durak`, `perevodnoy`) with every option's value, each option's
    meaning, type and default, the cards of each deck, the engines a seat may be, and the most this
    server accepts. A request's `rules` is a preset name or `{"preset": name, option: value, …}`."""
    settings = services.settings
    return {
        "presets": {name: preset.to_json() for name, preset in PRESETS.items()},
        "options": [declared.to_json() for declared in RULE_OPTIONS.values()],
        "decks": {str(size): [str(card) for card in deck(size)] for size in DECK_SIZES},
        "engines": list(ENGINES),
        "engine_details": [engine.to_json() for engine in ENGINES.values()],
        # The review labels' bounds (solver/search/labels.py): a page words them, never keeps its own.
        "review_labels": [{"label": label.value, "below": below} for label, below in LABELS],
        "limits": {
            "seats": MAX_SEATS,
            "match_games": MAX_MATCH_GAMES,
            "time_ms": settings.max_time_ms,
            "iterations": settings.max_iterations,
            "pv": PV.maximum,
        },
    }

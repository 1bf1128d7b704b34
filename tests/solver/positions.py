"""Hand-made positions for the solver's tests."""

from __future__ import annotations

from typing import Any

from solver.game.cards import deck, parse_cards
from solver.game.rules import Rules


def endgame_position(rules: Rules, **fields: Any) -> dict[str, Any]:
    """A SPEC §2.2 position whose discard pile is every card not placed elsewhere."""
    placed = set(parse_cards(fields.get("hand", [])))
    for pair in fields.get("table", []):
        placed.add(parse_cards([pair["attack"]])[0])
        if pair.get("defense"):
            placed.add(parse_cards([pair["defense"]])[0])
    for cards in fields.get("known", {}).values():
        placed |= set(parse_cards(cards))
    hidden = fields.pop("hidden", [])
    placed |= set(parse_cards(hidden))
    discard = [str(card) for card in deck(rules.deck) if card not in placed]
    data: dict[str, Any] = {"rules": rules.preset, "stock": 0, "discard": discard, "defended_once": True}
    data.update(fields)
    return data

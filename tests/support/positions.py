"""Positions for the tests: from real games played with the reference rules, and hand-made endgames."""

from __future__ import annotations

import random
from typing import Any

from solver.game.cards import deck, parse_cards
from solver.game.position import Position
from solver.game.reference import Game
from solver.game.rules import Rules


def played(rules: str | dict[str, Any] = "durak", players: int = 2, seed: int = 1, plies: int = 10) -> Game:
    """A game after `plies` random legal moves (fewer if it ends first)."""
    game = Game.deal(Rules.from_json(rules), players, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.over:
            break
        game.play(rng.choice(game.legal_moves()))
    return game


def to_move_position(
    rules: str | dict[str, Any] = "durak", players: int = 2, seed: int = 1, plies: int = 10
) -> dict[str, Any]:
    """What the seat to move sees, mid-game."""
    game = played(rules, players, seed, plies)
    assert game.to_move is not None
    return Position.from_game(game, game.to_move).to_json()


def waiting_position(seed: int = 1) -> dict[str, Any]:
    """What a seat that is not to move sees."""
    game = played(seed=seed)
    assert game.to_move is not None
    return Position.from_game(game, (game.to_move + 1) % game.players).to_json()


def finished_position(seed: int = 3) -> dict[str, Any]:
    """A position of a finished game (to_move null)."""
    game = played(seed=seed, plies=10_000)
    assert game.over
    return Position.from_game(game, 0).to_json()


def open_endgame(cards_each: int, seed: int = 0) -> dict[str, Any]:
    """Two seats, empty stock: nothing is hidden (durak, seat 0 leads)."""
    cards = [str(card) for card in deck(36)]
    random.Random(seed).shuffle(cards)
    hand, discard = cards[:cards_each], cards[2 * cards_each :]
    return {
        "rules": "durak",
        "players": 2,
        "seat": 0,
        "hand": hand,
        "hand_counts": [cards_each, cards_each],
        "trump": cards[-1],
        "stock": 0,
        "discard": discard,
        "defended_once": True,
        "attacker": 0,
        "defender": 1,
        "to_move": 0,
    }


def endgame_position(rules: Rules, **fields: Any) -> dict[str, Any]:
    """A docs/api.md §2.2 position whose discard pile is every card not placed elsewhere."""
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

"""The game itself, in plain Python: cards, moves, rules, the readable engine, positions.

- `cards`, `moves`, `rules`: values with canonical text and JSON;
- `errors`: every refusal, with its stable code;
- `bout`: questions of a bout on public fields (whose turn, the attack limit);
- `reference`: `Game`, the readable rules engine (the oracle the core is held to);
- `position`: `Position`, what one seat sees, checked, and what it cannot see;
- `limits`: sizes shared with the Cython core.
"""

from solver.game.cards import Card, Rank, Suit, deck, parse_cards
from solver.game.errors import TanError
from solver.game.moves import Action, Move
from solver.game.position import Position
from solver.game.reference import Game
from solver.game.rules import PRESETS, Rules

__all__ = [
    "PRESETS",
    "Action",
    "Card",
    "Game",
    "Move",
    "Position",
    "Rank",
    "Rules",
    "Suit",
    "TanError",
    "deck",
    "parse_cards",
]

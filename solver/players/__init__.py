"""Players over one interface: `random`, `greedy` and the search engines `ismcts` and `pimc`."""

from solver.players.base import Player
from solver.players.searching import SearchPlayer
from solver.players.simple import GreedyPlayer, RandomPlayer
from solver.players.specs import ENGINES, SEARCH_ENGINES, make_player

__all__ = [
    "ENGINES",
    "SEARCH_ENGINES",
    "GreedyPlayer",
    "Player",
    "RandomPlayer",
    "SearchPlayer",
    "make_player",
]

"""Players over one interface: `random`, `greedy` and the search engines `ismcts` and `pimc`."""

from solver.players.base import Player
from solver.players.searching import SearchPlayer
from solver.players.simple import GreedyPlayer, RandomPlayer
from solver.players.specs import ENGINES, Engine, make_player, searches

__all__ = [
    "ENGINES",
    "Engine",
    "GreedyPlayer",
    "Player",
    "RandomPlayer",
    "SearchPlayer",
    "make_player",
    "searches",
]

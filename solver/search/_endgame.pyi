"""Type stub of the exact endgame solver (solver/search/_endgame.pyx)."""

from solver.core import CoreGame
from solver.search.results import ExactSolution

def solve_exact(
    game: CoreGame, hero: int, budget: int = 0, time_ms: float = 0.0, stop: bytearray | None = None
) -> ExactSolution: ...

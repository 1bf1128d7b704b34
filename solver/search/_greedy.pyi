"""Type stub of the greedy policy's Python faces (solver/search/_greedy.pyx)."""

import numpy as np

from solver.core import CoreGame

def greedy_examples(
    template: CoreGame, games: int, seed: int, noise: int = ..., share: float = ...
) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
def greedy_code(game: CoreGame) -> int: ...

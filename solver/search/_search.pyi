"""Type stub of the Cython search (solver/search/_search.pyx)."""

import numpy as np

from solver.core import CoreGame
from solver.game.rules import Rules
from solver.search._model import PolicyModel, ValueModel
from solver.search.results import ExactSolution, SearchResult

class Sampler:
    seat: int
    rules: Rules
    def __init__(
        self,
        template: CoreGame,
        seat: int,
        pool: list[int],
        slots: list[int],
        stock_size: int,
        stock_only: list[int] = ...,
        set_slots: int = 0,
    ) -> None: ...
    def sample(self, seed: int) -> CoreGame: ...
    def set_particles(self, hands: np.ndarray, weights: np.ndarray) -> None: ...
    @property
    def particles(self) -> int: ...

def run_search(
    sampler: Sampler,
    *,
    iterations: int,
    time_ms: float,
    seed: int,
    exploration: float = ...,
    policy: str = ...,
    noise: int = ...,
    prior: float = ...,
    opponent_policy: float = ...,
    resample: bool = ...,
    worlds: int = ...,
    exact_cards: int = ...,
    exact_budget: int = ...,
    exact_average: int = ...,
    stop: bytearray | None = ...,
    value: ValueModel | None = ...,
    value_depth: int = ...,
    value_mix: float = ...,
    policy_net: PolicyModel | None = ...,
    policy_uses: int = ...,
) -> SearchResult: ...
def greedy_examples(
    template: CoreGame, games: int, seed: int, noise: int = ..., share: float = ...
) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
def solve_exact(
    game: CoreGame, hero: int, budget: int = 0, time_ms: float = 0, stop: bytearray | None = None
) -> ExactSolution: ...
def weigh_worlds(
    sampler: Sampler,
    states: list[CoreGame],
    ops: np.ndarray,
    model: np.ndarray,
    seed: int,
    hands: np.ndarray,
    log_weights: np.ndarray,
    time_ms: float = 0,
    stop: bytearray | None = None,
) -> tuple[int, int]: ...
def greedy_code(game: CoreGame) -> int: ...

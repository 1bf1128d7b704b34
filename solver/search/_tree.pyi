"""Type stub of the tree search (solver/search/_tree.pyx)."""

from solver.search._model import PolicyModel, ValueModel
from solver.search._sampling import Sampler
from solver.search.results import SearchResult

POLICY_USES: tuple[int, int, int, int]

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
    puct: float = ...,
    opponent_policy: float = ...,
    resample: bool = ...,
    worlds: int = ...,
    exact_cards: int = ...,
    exact_budget: int = ...,
    exact_average: int = ...,
    exact_modelled: bool = ...,
    stop: bytearray | None = ...,
    value: ValueModel | None = ...,
    value_depth: int = ...,
    value_mix: float = ...,
    policy_net: PolicyModel | None = ...,
    policy_uses: int = ...,
    line_depth: int = ...,
    line_visits: int = ...,
    line_worlds: int = ...,
) -> SearchResult: ...

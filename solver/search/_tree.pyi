"""Type stub of the tree search (solver/search/_tree.pyx)."""

from solver.search._model import PolicyModel, ValueModel
from solver.search._sampling import Sampler
from solver.search.config import SearchConfig
from solver.search.results import SearchResult

def run_search(
    sampler: Sampler,
    config: SearchConfig,
    *,
    iterations: int,
    time_ms: float,
    seed: int,
    opponent_policy: float = ...,
    stop: bytearray | None = ...,
    value: ValueModel | None = ...,
    value_mix: float = ...,
    policy_net: PolicyModel | None = ...,
    line_depth: int = ...,
    line_visits: int = ...,
    line_worlds: int = ...,
) -> SearchResult: ...

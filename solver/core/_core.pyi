"""Type stub of the Cython game core (solver/core/_core.pyx)."""

from typing import Any

from typing_extensions import disjoint_base

from solver.game.moves import Move
from solver.game.rules import Rules

def encode_move(move: Move) -> int: ...
def decode_move(code: int) -> Move: ...
def bench_playouts(rules: Any, players: int, games: int, seed: int) -> dict[str, Any]: ...

@disjoint_base
class CoreGame:
    rules: Rules
    def __init__(self, rules: Rules) -> None: ...
    @staticmethod
    def deal(
        rules: Rules,
        players: int,
        deck: Any,
        first_attacker: int = -1,
        tribute: tuple[int, int] | None = None,
        chance_seed: int = 0,
    ) -> CoreGame: ...
    @staticmethod
    def from_fields(
        rules: Rules,
        players: int,
        hands: Any,
        stock: Any,
        trump: Any,
        table: Any = (),
        attacker: int = 0,
        defender: int = 1,
        to_move: int = 0,
        taking: bool = False,
        passed: Any = (),
        finished: Any = (),
        defended_once: bool = False,
        setup: Any = None,
        chance_seed: int = 0,
    ) -> CoreGame: ...
    def copy(self) -> CoreGame: ...
    @property
    def over(self) -> bool: ...
    @property
    def to_move(self) -> int: ...
    def legal_codes(self) -> list[int]: ...
    def legal_moves(self) -> list[Move]: ...
    def play(self, move: Move | int | str | dict[str, Any]) -> None: ...
    def playout(self, seed: int) -> int: ...
    def scores(self) -> list[float] | None: ...
    def snapshot(self) -> dict[str, Any]: ...

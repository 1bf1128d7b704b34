"""The features of a determinized world, in readable Python: the twin of `_model.world_features`.

The search evaluates its leaves with a value net over these features
(solver/search/_model.pyx, whose docstring lists them); training reads them
from the Cython function, and this copy exists so the list can be read and
checked: a test compares the two on random states of every preset.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.game.rules import Rules

__all__ = ["FEATURES", "TABLE_FEATURES", "table_features", "world_features"]

SLOTS = 26
FEATURES = 94


def _slot(card: int, trump_suit: int) -> int:
    """A card's slot: its rank (0 = 2 … 12 = ace), plus 13 when it is a trump."""
    return card % 13 + (13 if card // 13 == trump_suit else 0)


def _add(cards: list[int], trump_suit: int, out: list[float], offset: int) -> None:
    for card in cards:
        slot = _slot(card, trump_suit)
        out[offset + slot] += 1.0 if slot >= 13 else 1.0 / 3.0


def world_features(rules: Rules, snapshot: Mapping[str, Any], seat: int) -> list[float]:
    """The features of a world (`CoreGame.snapshot()`) seen from `seat`."""
    trump_suit = snapshot["trump"] // 13
    finished = set(snapshot["finished"])
    mine = list(snapshot["hands"][seat])
    others = [other for other in range(snapshot["players"]) if other != seat and other not in finished]
    theirs = [card for other in others for card in snapshot["hands"][other]]
    undefended = [attack for attack, defence in snapshot["table"] if defence < 0]
    stock = snapshot["stock"]  # top first: the trump card, while it lies there, is last
    out = [0.0] * FEATURES
    _add(mine, trump_suit, out, 0)
    _add(theirs, trump_suit, out, SLOTS)
    _add(undefended, trump_suit, out, 2 * SLOTS)

    def trumps(cards: list[int]) -> list[int]:
        return [card for card in cards if card // 13 == trump_suit]

    low_rank = 13 - rules.deck // 4
    out[78] = len(mine) / 12.0
    out[79] = len(theirs) / 12.0
    out[80] = len(stock) / 24.0
    out[81] = 1.0 if not stock else 0.0
    out[82] = 1.0 if snapshot["attacker"] == seat else 0.0
    out[83] = 1.0 if snapshot["defender"] == seat else 0.0
    out[84] = 1.0 if snapshot["to_move"] == seat else 0.0
    out[85] = 1.0 if snapshot["taking"] else 0.0
    out[86] = len(snapshot["table"]) / 12.0
    out[87] = (stock[-1] % 13) / 12.0 if stock else 0.0
    out[88] = len(trumps(mine)) / 6.0
    out[89] = len(trumps(theirs)) / 6.0
    my_high = max(trumps(mine), default=-1)
    their_high = max(trumps(theirs), default=-1)
    out[90] = 0.5 if my_high == their_high else (1.0 if my_high > their_high else 0.0)
    out[91] = float(max(len(others) - 1, 0))
    out[92] = sum(
        1 for card in mine if card // 13 != trump_suit and low_rank <= card % 13 < low_rank + 3
    ) / 6.0
    out[93] = (len(mine) - len(theirs)) / 12.0
    return out


# -- the features of any table (2 to 6 seats) ------------------------------------------------

TABLE_HEADER = 68
PLACE = 35
PLACES = 5
TABLE_FEATURES = TABLE_HEADER + PLACES * PLACE  # 243


def table_features(rules: Rules, snapshot: Mapping[str, Any], seat: int) -> list[float]:
    """The features of a world (`CoreGame.snapshot()`) seen from `seat`, at a table of any size:
    the twin of `_model.table_features` (whose docstring lists them). Each other seat has a block
    of its own by its place after `seat` in play order (next, after next, … up to five; the
    blocks of places the table does not have stay zero)."""
    trump_suit = snapshot["trump"] // 13
    players = snapshot["players"]
    finished = set(snapshot["finished"])
    passed = set(snapshot["passed"])
    hands = snapshot["hands"]
    active = [other for other in range(players) if other not in finished]
    mine = list(hands[seat])
    undefended = [attack for attack, defence in snapshot["table"] if defence < 0]
    stock = snapshot["stock"]  # top first: the trump card, while it lies there, is last
    out = [0.0] * TABLE_FEATURES

    def trumps(cards: list[int]) -> list[int]:
        return [card for card in cards if card // 13 == trump_suit]

    _add(mine, trump_suit, out, 0)
    _add(undefended, trump_suit, out, SLOTS)
    low_rank = 13 - rules.deck // 4
    others_in = [other for other in active if other != seat]
    sizes = [len(hands[other]) for other in others_in]
    my_high = max(trumps(mine), default=-1)
    their_high = max((card for other in others_in for card in trumps(list(hands[other]))), default=-1)
    out[52] = len(mine) / 12.0
    out[53] = 1.0 if snapshot["attacker"] == seat else 0.0
    out[54] = 1.0 if snapshot["defender"] == seat else 0.0
    out[55] = 1.0 if snapshot["to_move"] == seat else 0.0
    out[56] = len(trumps(mine)) / 6.0
    out[57] = sum(
        1 for card in mine if card // 13 != trump_suit and low_rank <= card % 13 < low_rank + 3
    ) / 6.0
    out[58] = 0.5 if my_high == their_high else (1.0 if my_high > their_high else 0.0)
    out[59] = len(stock) / 24.0
    out[60] = 1.0 if not stock else 0.0
    out[61] = 1.0 if snapshot["taking"] else 0.0
    out[62] = len(snapshot["table"]) / 12.0
    out[63] = (stock[-1] % 13) / 12.0 if stock else 0.0
    out[64] = len(others_in) / 5.0
    out[65] = (len(mine) - min(sizes, default=0)) / 12.0
    out[66] = (len(mine) - max(sizes, default=0)) / 12.0
    out[67] = 1.0 if seat in passed else 0.0
    for place in range(1, min(players, PLACES + 1)):
        other = (seat + place) % players
        base = TABLE_HEADER + (place - 1) * PLACE
        cards = list(hands[other])
        _add(cards, trump_suit, out, base)
        is_in = other not in finished
        attacks, defends = snapshot["attacker"] == other, snapshot["defender"] == other
        out[base + 26] = 1.0 if is_in else 0.0
        out[base + 27] = 0.0 if is_in else 1.0
        out[base + 28] = 1.0 if attacks else 0.0
        out[base + 29] = 1.0 if defends else 0.0
        out[base + 30] = 1.0 if is_in and not attacks and not defends else 0.0
        out[base + 31] = 1.0 if snapshot["to_move"] == other else 0.0
        out[base + 32] = len(cards) / 12.0
        out[base + 33] = len(trumps(cards)) / 6.0
        out[base + 34] = 1.0 if other in passed else 0.0
    return out

"""Moves: JSON and text notation, round trips and refusals (docs/api.md §2.1)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.game.cards import Card, deck
from solver.game.errors import CardError, MoveError, TanError
from solver.game.moves import Action, Move

cards = st.sampled_from(deck(52))
moves = st.one_of(
    cards.map(Move.attack),
    st.builds(Move.defend, cards, cards),
    st.just(Move.take()),
    st.just(Move.pass_()),
    cards.map(Move.transfer),
)


# -- the five actions --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "data", "text"),
    [
        (Move.attack("7c"), {"action": "attack", "card": "7c"}, "attack 7c"),
        (Move.defend("7c", "9c"), {"action": "defend", "card": "9c", "target": "7c"}, "defend 7c with 9c"),
        (Move.take(), {"action": "take"}, "take"),
        (Move.pass_(), {"action": "pass"}, "pass"),
        (Move.transfer("7h"), {"action": "transfer", "card": "7h"}, "transfer 7h"),
    ],
)
def test_spec_examples(move: Move, data: dict[str, str], text: str) -> None:
    assert move.to_json() == data
    assert move.notation == text
    assert str(move) == text
    assert Move.from_json(data) == move
    assert Move.from_text(text) == move
    assert Move.parse(data) == move
    assert Move.parse(text) == move
    assert Move.parse(move) is move


def test_defend_keeps_card_and_target_apart() -> None:
    move = Move.defend("7c", "9c")
    assert move.action is Action.DEFEND
    assert move.target == Card.parse("7c")
    assert move.card == Card.parse("9c")


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("ATTACK 10c", "attack Tc"),
        ("  attack   7♣ ", "attack 7c"),
        ("Defend 7C WITH 9♧", "defend 7c with 9c"),
        ("defend\t7c\twith\t9c", "defend 7c with 9c"),
        ("TAKE", "take"),
        (" pass ", "pass"),
        ("Transfer q♡", "transfer Qh"),
    ],
)
def test_loose_text_reads_to_canonical(text: str, canonical: str) -> None:
    assert Move.from_text(text).notation == canonical


def test_json_accepts_loose_cards() -> None:
    assert Move.from_json({"action": "defend", "card": "10♦", "target": "9d"}) == Move.defend("9d", "Td")


def test_json_allows_null_for_absent_fields() -> None:
    assert Move.from_json({"action": "take", "card": None, "target": None}) == Move.take()
    assert Move.from_json({"action": "attack", "card": "7c", "target": None}) == Move.attack("7c")


# -- round trips ------------------------------------------------------------------------------


@given(moves)
def test_json_round_trip(move: Move) -> None:
    assert Move.from_json(json.loads(json.dumps(move.to_json()))) == move


@given(moves)
def test_text_round_trip(move: Move) -> None:
    assert Move.from_text(move.notation) == move
    assert Move.parse(str(move)) == move


@given(moves)
def test_repr_round_trips(move: Move) -> None:
    assert eval(repr(move)) == move


@given(moves, moves)
def test_moves_are_values(a: Move, b: Move) -> None:
    assert (a == b) == (a.to_json() == b.to_json())
    if a == b:
        assert hash(a) == hash(b)
    assert (a < b) or (b < a) or (a == b)


# -- refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "attack",
        "attack 7c 8c",
        "defend 7c",
        "defend 7c 9c",
        "defend 7c by 9c",
        "defend 7c with",
        "take 7c",
        "pass now",
        "transfer",
        "beat 7c",
        "throw 7c",
    ],
)
def test_bad_text(text: str) -> None:
    with pytest.raises(MoveError) as caught:
        Move.from_text(text)
    assert caught.value.code == "invalid_move"
    assert isinstance(caught.value, ValueError)
    if text.strip() and text.split()[0] in {"beat", "throw"}:
        assert repr(text.split()[0]) in str(caught.value)
    elif text.strip():
        assert repr(text) in str(caught.value)


@pytest.mark.parametrize("text", ["attack 7z", "defend 7c with 1c", "transfer Xs"])
def test_bad_card_in_text_is_a_card_error(text: str) -> None:
    bad = text.split()[-1]
    with pytest.raises(CardError, match=repr(bad)):
        Move.from_text(text)


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({}, "action"),
        ({"action": "beat", "card": "7c"}, "unknown action 'beat'"),
        ({"action": None}, "unknown action"),
        ({"action": "attack"}, "attack needs a card"),
        ({"action": "attack", "card": None}, "attack needs a card"),
        ({"action": "transfer"}, "transfer needs a card"),
        ({"action": "defend", "card": "9c"}, "defend needs a target"),
        ({"action": "defend", "target": "7c"}, "defend needs a card"),
        ({"action": "take", "card": "7c"}, "take takes no card"),
        ({"action": "pass", "target": "7c"}, "pass takes no target"),
        ({"action": "attack", "card": "7c", "target": "6c"}, "attack takes no target"),
        ({"action": "transfer", "card": "7c", "target": "7h"}, "transfer takes no target"),
        ({"action": "attack", "card": "7c", "seat": 1}, "unknown field"),
    ],
)
def test_bad_json(data: dict[str, Any], fragment: str) -> None:
    with pytest.raises(MoveError, match=fragment):
        Move.from_json(data)


@pytest.mark.parametrize(
    "data",
    [
        {"action": "attack", "card": "7z"},
        {"action": "attack", "card": 7},
        {"action": "defend", "card": "9c", "target": "1c"},
    ],
)
def test_bad_card_in_json_is_a_card_error(data: dict[str, Any]) -> None:
    with pytest.raises(CardError, match="not a card"):
        Move.from_json(data)


@pytest.mark.parametrize("data", [None, 5, ["attack", "7c"], b"take"])
def test_parse_refuses_other_types(data: Any) -> None:
    with pytest.raises(MoveError, match="not a move"):
        Move.parse(data)


def test_from_json_refuses_a_non_object() -> None:
    with pytest.raises(MoveError, match="not a move"):
        Move.from_json(["attack", "7c"])  # type: ignore[arg-type]


def test_constructor_checks_the_fields() -> None:
    seven = Card.parse("7c")
    with pytest.raises(MoveError, match="attack needs card"):
        Move(Action.ATTACK)
    with pytest.raises(MoveError, match="take takes no card"):
        Move(Action.TAKE, seven)
    with pytest.raises(MoveError, match="defend needs target"):
        Move(Action.DEFEND, seven)
    with pytest.raises(MoveError, match="attack takes no target"):
        Move(Action.ATTACK, seven, seven)


def test_constructor_reads_loose_fields() -> None:
    assert Move("attack", "7♣") == Move.attack("7c")  # type: ignore[arg-type]
    assert Move(Action.DEFEND, "9c", "7c") == Move.defend("7c", "9c")  # type: ignore[arg-type]
    with pytest.raises(MoveError, match="unknown action 'hit'"):
        Move("hit")  # type: ignore[arg-type]


def test_move_errors_are_tan_errors() -> None:
    assert issubclass(MoveError, TanError)
    assert issubclass(MoveError, ValueError)


def test_moves_are_immutable() -> None:
    move = Move.take()
    with pytest.raises(AttributeError):
        move.action = Action.PASS  # type: ignore[misc]

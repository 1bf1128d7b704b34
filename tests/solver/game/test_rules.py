"""Rules: the presets of docs/rules.md §1.6, overrides, JSON and every refusal."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.game.errors import RulesError, TanError
from solver.game.rules import (
    OPTION_DOCS,
    PRESETS,
    RULE_OPTIONS,
    DefenderEmpty,
    FirstAttacker,
    RefillOrder,
    Rules,
)

# docs/rules.md §1.6, column by column, as JSON values.
PRESET_TABLE: dict[str, dict[str, Any]] = {
    "tan": {
        "deck": 52,
        "hand_size": 8,
        "min_players": 2,
        "max_players": 4,
        "max_attack": None,
        "first_bout_max_attack": None,
        "throw_in_after_take": False,
        "throwers": "all",
        "refill_order": "attacker_defender_others",
        "transfer": False,
        "defender_empty": "end_bout",
        "trump_ace_last_loses": False,
        "first_attacker": "seat0",
        "redeal_without_trump": False,
        "tribute": False,
        "tribute_inspect": None,
        "all_trumps_wins": False,
        "trump_swap": False,
        "trump_swap_cedes_lead": True,
        "take_when_beaten": False,
        "twos_last": False,
        "trump_repeat_limit": None,
    },
    "durak": {
        "deck": 36,
        "hand_size": 6,
        "min_players": 2,
        "max_players": 6,
        "max_attack": 6,
        "first_bout_max_attack": None,
        "throw_in_after_take": True,
        "throwers": "all",
        "refill_order": "attacker_others_defender",
        "transfer": False,
        "defender_empty": "end_bout",
        "trump_ace_last_loses": False,
        "first_attacker": "lowest_trump",
        "redeal_without_trump": False,
        "tribute": False,
        "tribute_inspect": None,
        "all_trumps_wins": False,
        "trump_swap": False,
        "trump_swap_cedes_lead": False,
        "take_when_beaten": False,
        "twos_last": False,
        "trump_repeat_limit": None,
    },
    "perevodnoy": {
        "deck": 36,
        "hand_size": 6,
        "min_players": 2,
        "max_players": 6,
        "max_attack": 6,
        "first_bout_max_attack": None,
        "throw_in_after_take": True,
        "throwers": "all",
        "refill_order": "attacker_others_defender",
        "transfer": True,
        "defender_empty": "end_bout",
        "trump_ace_last_loses": False,
        "first_attacker": "lowest_trump",
        "redeal_without_trump": False,
        "tribute": False,
        "tribute_inspect": None,
        "all_trumps_wins": False,
        "trump_swap": False,
        "trump_swap_cedes_lead": False,
        "take_when_beaten": False,
        "twos_last": False,
        "trump_repeat_limit": None,
    },
}


# -- presets ---------------------------------------------------------------------------------


def test_exactly_the_three_presets() -> None:
    assert set(PRESETS) == set(PRESET_TABLE)


@pytest.mark.parametrize("name", sorted(PRESET_TABLE))
def test_preset_values_match_the_spec_table(name: str) -> None:
    rules = Rules.preset_named(name)
    assert rules.to_json() == {"preset": name, **PRESET_TABLE[name]}
    assert rules.preset == name
    assert Rules.from_json(name) == rules
    assert Rules.from_json({"preset": name}) == rules


def test_default_rules_are_tan() -> None:
    assert Rules() == PRESETS["tan"]
    assert Rules.from_json({}) == PRESETS["tan"]


def test_enum_options_are_enums() -> None:
    durak = PRESETS["durak"]
    assert durak.refill_order is RefillOrder.ATTACKER_OTHERS_DEFENDER
    assert durak.defender_empty is DefenderEmpty.END_BOUT
    assert durak.first_attacker is FirstAttacker.LOWEST_TRUMP


def test_every_option_is_documented() -> None:
    fields = {field.name for field in dataclasses.fields(Rules)} - {"preset"}
    assert set(OPTION_DOCS) == fields
    assert all(text.strip() for text in OPTION_DOCS.values())


def test_the_option_registry_is_read_from_the_fields() -> None:
    """Every option's declared default is the tan preset's, its type says what values it takes,
    and the values a tick gives a side rule are ones the rules accept."""
    tan = PRESETS["tan"].to_json()
    for name, declared in RULE_OPTIONS.items():
        assert declared.default == tan[name], name
        if declared.type == "choice":
            assert declared.choices and declared.default in declared.choices
        if declared.toggle is not None:
            offered = declared.toggle if declared.type == "choice" else [declared.toggle]
            assert declared.type != "choice" or set(offered) <= set(declared.choices or ())
            for value in offered:
                changed = Rules.preset_named("tan", **{name: value, **declared.requires})
                assert getattr(changed, name) == value
    assert {name for name, declared in RULE_OPTIONS.items() if declared.type == "boolean"} == {
        name for name, value in tan.items() if isinstance(value, bool)
    }


def test_rules_are_frozen_and_hashable() -> None:
    rules = PRESETS["durak"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.deck = 52  # type: ignore[misc]
    assert len({rules, Rules.preset_named("durak"), PRESETS["tan"]}) == 2


# -- overrides -------------------------------------------------------------------------------


def test_overrides_replace_options() -> None:
    rules = Rules.preset_named("tan", max_attack=5, transfer=True, refill_order="attacker_others_defender")
    assert rules.max_attack == 5
    assert rules.transfer is True
    assert rules.refill_order is RefillOrder.ATTACKER_OTHERS_DEFENDER
    assert rules.preset == "tan"
    assert rules.deck == 52 and rules.hand_size == 8
    assert PRESETS["tan"].max_attack is None  # the preset itself is untouched


def test_from_json_with_overrides() -> None:
    rules = Rules.from_json(
        {
            "preset": "durak",
            "first_bout_max_attack": 5,
            "defender_empty": "refill",
            "trump_ace_last_loses": True,
        }
    )
    assert rules.first_bout_max_attack == 5
    assert rules.defender_empty is DefenderEmpty.REFILL
    assert rules.trump_ace_last_loses is True
    assert rules.deck == 36


def test_an_override_can_clear_the_cap() -> None:
    assert Rules.from_json({"preset": "durak", "max_attack": None}).max_attack is None


def test_with_options_without_changes_is_the_same_value() -> None:
    assert PRESETS["durak"].with_options() is PRESETS["durak"]


def test_attack_cap() -> None:
    durak = PRESETS["durak"]
    assert durak.attack_cap(defended_once=False) == 6
    assert durak.attack_cap(defended_once=True) == 6
    first = durak.with_options(first_bout_max_attack=5)
    assert first.attack_cap(defended_once=False) == 5
    assert first.attack_cap(defended_once=True) == 6
    assert PRESETS["tan"].attack_cap(defended_once=False) is None


# -- JSON ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PRESET_TABLE))
def test_json_round_trip_of_presets(name: str) -> None:
    rules = PRESETS[name]
    assert Rules.from_json(json.loads(json.dumps(rules.to_json()))) == rules


option_values: dict[str, st.SearchStrategy[Any]] = {
    "max_attack": st.none() | st.integers(1, 12),
    "first_bout_max_attack": st.none() | st.integers(1, 12),
    "throw_in_after_take": st.booleans(),
    "refill_order": st.sampled_from([order.value for order in RefillOrder]),
    "transfer": st.booleans(),
    "defender_empty": st.sampled_from([value.value for value in DefenderEmpty]),
    "trump_ace_last_loses": st.booleans(),
    "first_attacker": st.sampled_from([value.value for value in FirstAttacker]),
    "hand_size": st.integers(1, 6),
}


@given(
    st.sampled_from(sorted(PRESETS)),
    st.fixed_dictionaries({}, optional=option_values),
)
def test_json_round_trip_with_any_overrides(name: str, overrides: dict[str, Any]) -> None:
    rules = Rules.from_json({"preset": name, **overrides})
    text = json.dumps(rules.to_json())
    assert Rules.from_json(json.loads(text)) == rules
    for option, value in overrides.items():
        assert rules.to_json()[option] == value


def test_from_json_passes_rules_through() -> None:
    assert Rules.from_json(PRESETS["durak"]) is PRESETS["durak"]


# -- refusals ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["", "Tan", "DURAK", "poker", "perevodnoi"])
def test_unknown_preset(name: str) -> None:
    with pytest.raises(RulesError, match="unknown rules preset") as caught:
        Rules.from_json(name)
    assert repr(name) in str(caught.value)
    assert caught.value.code == "unknown_rules"


@pytest.mark.parametrize("data", [None, 5, ["tan"], True])
def test_rules_must_be_a_name_or_an_object(data: Any) -> None:
    with pytest.raises(RulesError, match="preset name or an object"):
        Rules.from_json(data)


def test_preset_field_must_name_a_preset() -> None:
    with pytest.raises(RulesError, match="unknown rules preset 'chess'"):
        Rules.from_json({"preset": "chess"})
    with pytest.raises(RulesError, match="unknown rules preset"):
        Rules.from_json({"preset": 3})


def test_unknown_option() -> None:
    with pytest.raises(RulesError, match="unknown rules option 'max_atack'"):
        Rules.from_json({"preset": "tan", "max_atack": 3})


def test_players_is_not_a_rules_option() -> None:
    with pytest.raises(RulesError, match="players"):
        Rules.from_json({"preset": "tan", "players": 3})


@pytest.mark.parametrize(
    ("option", "value", "fragment"),
    [
        ("deck", 40, "deck must be 36 or 52"),
        ("deck", "36", "deck must be 36 or 52"),
        ("deck", 36.0, "deck must be 36 or 52"),
        ("deck", True, "deck must be 36 or 52"),
        ("hand_size", 0, "hand_size"),
        ("hand_size", -1, "hand_size"),
        ("hand_size", 6.5, "hand_size"),
        ("hand_size", True, "hand_size"),
        ("hand_size", "6", "hand_size"),
        ("max_attack", 0, "max_attack"),
        ("max_attack", -3, "max_attack"),
        ("max_attack", "6", "max_attack"),
        ("max_attack", False, "max_attack"),
        ("first_bout_max_attack", 0, "first_bout_max_attack"),
        ("throw_in_after_take", 1, "throw_in_after_take"),
        ("throw_in_after_take", "yes", "throw_in_after_take"),
        ("transfer", None, "transfer"),
        ("trump_ace_last_loses", 0, "trump_ace_last_loses"),
        ("refill_order", "defender_first", "refill_order must be one of"),
        ("defender_empty", "draw", "defender_empty must be one of"),
        ("first_attacker", "random", "first_attacker must be one of"),
        ("first_attacker", None, "first_attacker must be one of"),
        ("throwers", "left", "throwers must be one of"),
        ("min_players", 1, "players"),
        ("max_players", 7, "players"),
    ],
)
def test_bad_option_values(option: str, value: Any, fragment: str) -> None:
    with pytest.raises(RulesError, match=fragment) as caught:
        Rules.from_json({"preset": "durak", option: value})
    assert isinstance(caught.value, TanError) and isinstance(caught.value, ValueError)


def test_min_players_above_max_players() -> None:
    with pytest.raises(RulesError, match="players"):
        Rules.preset_named("tan", min_players=4, max_players=3)


def test_hands_that_do_not_fit_the_deck() -> None:
    with pytest.raises(RulesError, match="do not fit a 36-card deck"):
        Rules.preset_named("durak", hand_size=19)
    with pytest.raises(RulesError, match="do not fit a 36-card deck"):
        Rules.preset_named("tan", deck=36, hand_size=20)
    # two hands of 18 fill a 36-card deck exactly: allowed (the last card dealt is trump)
    assert Rules.preset_named("durak", hand_size=18).hand_size == 18


# -- seat counts -----------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "low", "high"), [("tan", 2, 4), ("durak", 2, 6), ("perevodnoy", 2, 6)])
def test_seat_counts(name: str, low: int, high: int) -> None:
    rules = PRESETS[name]
    for players in range(low, high + 1):
        rules.check_players(players)
    for players in (0, 1, low - 1, high + 1, 7, 100):
        if low <= players <= high:
            continue
        with pytest.raises(RulesError, match=f"{low}-{high} players, not {players}"):
            rules.check_players(players)


@pytest.mark.parametrize("players", [True, 2.0, "2", None])
def test_seat_count_must_be_a_whole_number(players: Any) -> None:
    with pytest.raises(RulesError, match="players must be a whole number"):
        PRESETS["durak"].check_players(players)


def test_seat_count_too_large_for_the_deck() -> None:
    rules = Rules.preset_named("durak", hand_size=8)
    rules.check_players(4)  # 32 cards
    with pytest.raises(RulesError, match="5 hands of 8 cards do not fit a 36-card deck"):
        rules.check_players(5)

"""The one search config: its options declared once, checked when a config is made, shown in
docs/api.md's table as declared, and the engines' presets built from it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from solver.game.errors import ErrorCode, TanError
from solver.players import ENGINES, make_player
from solver.search import PRESETS, SearchConfig, Solver
from solver.search.config import OPTIONS, preset_named
from solver.search.config_docs import BEGIN, END, main, options_table, replace_table

API = Path(__file__).resolve().parents[3] / "docs" / "api.md"


def test_the_api_guide_holds_the_generated_table() -> None:
    text = API.read_text(encoding="utf-8")
    assert replace_table(text) == text, "run `python -m solver.search.config_docs --write docs/api.md`"


def test_every_option_has_a_row_with_its_meaning_and_the_figure_that_keeps_it() -> None:
    rows = options_table().splitlines()[2:]
    assert [row.split(" | ")[0] for row in rows] == [f"| `{name}`" for name in OPTIONS]
    for row, option in zip(rows, OPTIONS.values(), strict=True):
        assert option.meaning and option.meaning in row
        assert option.figure and option.figure in row
        assert all(len(cell.split()) <= 40 for cell in row.split(" | ")), row
    assert "| `puct` | `1.0` (`ismcts_playouts` `0.0`) | number ≥ 0 |" in options_table()


def test_write_rewrites_only_between_the_markers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "api.md"
    target.write_text(f"before\n{BEGIN}\n| stale |\n{END}\nafter\n", encoding="utf-8")
    assert main(["--write", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == f"before\n{BEGIN}\n{options_table()}{END}\nafter\n"
    assert main([]) == 0
    assert capsys.readouterr().out == options_table()


def test_the_defaults_live_in_the_config() -> None:
    """`Solver()` and a bare `ismcts` seat search with `SearchConfig()`; the other engines with their
    presets; the options an engine shows are its preset's."""
    assert Solver().config == SearchConfig() == preset_named("ismcts")
    assert Solver("pimc").config == SearchConfig(algorithm="pimc")
    for name, preset in PRESETS.items():
        player = make_player({"engine": name})
        assert player.solver.config == preset.config  # type: ignore[attr-defined]
        shown = ENGINES[name].options
        assert {option: shown[option] for option in OPTIONS} == preset.config.options()
    assert Solver("ismcts_playouts", puct=0.5).config.puct == 0.5


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"exploration": "high"}, "exploration must be a number ≥ 0"),
        ({"exploration": True}, "exploration must be a number"),
        ({"pimc_worlds": 2.5}, "pimc_worlds must be a whole number ≥ 1"),
        ({"opponent_policy": 1.5}, "opponent_policy must be a number ≥ 0 and ≤ 1 \\(or null\\)"),
        ({"value_mix": -0.1}, "value_mix must be a number"),
        ({"beliefs": 1}, "beliefs must be true or false"),
        ({"others": "expert"}, "others must be one of greedy, engine"),
        ({"value_model": 3}, "value_model must be a string"),
        ({"policy_model": "nothing"}, "policy_model 'nothing' is not a policy model"),
        ({"algorithm": "mcts"}, "unknown algorithm 'mcts'"),
        ({"noise": 1}, "unknown search option\\(s\\) noise"),
        ({"prior": 0.3}, "unknown search option\\(s\\) prior"),
    ],
)
def test_a_bad_option_is_refused_when_the_config_is_made(options: dict[str, Any], message: str) -> None:
    with pytest.raises(TanError, match=message) as refused:
        Solver(**options)
    assert refused.value.code is ErrorCode.BAD_ALGORITHM


def test_a_seat_spec_refuses_an_option_no_engine_has_and_names_the_known_ones() -> None:
    unknown = "engine ismcts_playouts has no option\\(s\\) value_depth \\(known: "
    with pytest.raises(TanError, match=unknown) as refused:
        make_player({"engine": "ismcts_playouts", "value_depth": 2})
    assert refused.value.code is ErrorCode.UNKNOWN_ENGINE
    with pytest.raises(TanError, match="engine pimc: exact_cards must be a whole number") as bad:
        make_player({"engine": "pimc", "exact_cards": "ten"})
    assert bad.value.code is ErrorCode.BAD_ALGORITHM


def test_test_hooks_are_no_seats_option() -> None:
    assert not any(name.startswith("_") for name in OPTIONS)
    assert Solver(_exact_root=False).config._exact_root is False
    with pytest.raises(TanError, match="has no option"):
        make_player({"engine": "ismcts", "_exact_root": False})

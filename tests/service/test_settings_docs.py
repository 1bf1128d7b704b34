"""The settings table of docs/deploy.md is the one `service.settings_docs` builds from the settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.settings import Settings
from service.settings_docs import BEGIN, END, main, replace_table, settings_table

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


def test_the_deploy_guide_holds_the_generated_table() -> None:
    text = DEPLOY.read_text(encoding="utf-8")
    assert replace_table(text) == text, "run `python -m service.settings_docs --write docs/deploy.md`"


def test_every_setting_has_a_row_with_its_default_and_meaning() -> None:
    rows = settings_table().splitlines()[2:]
    assert len(rows) == len(Settings.model_fields)
    for row, (name, field) in zip(rows, Settings.model_fields.items(), strict=True):
        assert row.startswith(f"| `TAN_{name.upper()}` | ")
        assert field.description and field.description in row
    assert "| `TAN_PORT` | 8000 | ≥ 0, ≤ 65535 |" in settings_table()
    assert "| `TAN_FINISHED_TTL_S` | 604800 (7 days) | > 0 |" in settings_table()


def test_write_rewrites_only_between_the_markers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "deploy.md"
    target.write_text(f"before\n{BEGIN}\n| stale |\n{END}\nafter\n", encoding="utf-8")
    assert main(["--write", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == f"before\n{BEGIN}\n{settings_table()}{END}\nafter\n"
    assert main([]) == 0
    assert capsys.readouterr().out == settings_table()

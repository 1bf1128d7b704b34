"""The settings table of docs/deploy.md, built from `service.settings.Settings`.

Each setting is declared once, in `Settings`, with its type, default, bounds
and meaning; the table is printed from that declaration, and
`tests/service/test_settings_docs.py` holds docs/deploy.md to it, so the
table cannot drift from the code:

    python -m service.settings_docs                        # print the table
    python -m service.settings_docs --write docs/deploy.md # replace it between its markers
"""

from __future__ import annotations

from typing import Any

from annotated_types import Ge, Gt, Le, Lt
from pydantic.fields import FieldInfo

from service.settings import Settings
from solver.search.config_docs import replace_between, table_command

__all__ = ["BEGIN", "END", "FACTORY_DEFAULTS", "main", "replace_table", "settings_table"]

BEGIN = "<!-- settings: generated from service/settings.py by `python -m service.settings_docs` -->"
END = "<!-- end of the generated settings -->"

# Defaults computed when the process starts: what they are, in words (the value differs by machine).
FACTORY_DEFAULTS: dict[str, str] = {
    "database": "`~/.local/share/tan/games.db`",
    "max_searches": "the cores",
    "cors_origins": "none",
}
_DAY = 86_400


def _number(value: Any) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _default(name: str, field: FieldInfo) -> str:
    if field.default_factory is not None:
        if name not in FACTORY_DEFAULTS:
            raise KeyError(f"setting {name!r} has a computed default: say what it is in FACTORY_DEFAULTS")
        return FACTORY_DEFAULTS[name]
    value: Any = field.default
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, int | float):
        text = _number(value)
        if name.endswith("_s") and value >= _DAY and value % _DAY == 0:
            text += f" ({int(value // _DAY)} days)"
        return text
    if value == "":
        return "none"
    return f"`{value}`"


def _bounds(field: FieldInfo) -> str:
    low = high = ""
    for bound in field.metadata:
        if isinstance(bound, Ge):
            low = f"≥ {_number(bound.ge)}"
        elif isinstance(bound, Gt):
            low = f"> {_number(bound.gt)}"
        elif isinstance(bound, Le):
            high = f"≤ {_number(bound.le)}"
        elif isinstance(bound, Lt):
            high = f"< {_number(bound.lt)}"
    return ", ".join(part for part in (low, high) if part)


def settings_table() -> str:
    """The Markdown table of every setting: variable, default, allowed values, meaning."""
    prefix = str(Settings.model_config.get("env_prefix", "")).upper()
    rows = ["| variable | default | allowed | what |", "|---|---|---|---|"]
    for name, field in Settings.model_fields.items():
        meaning = (field.description or "").replace("|", "\\|")
        rows.append(f"| `{prefix}{name.upper()}` | {_default(name, field)} | {_bounds(field)} | {meaning} |")
    return "\n".join(rows) + "\n"


def replace_table(text: str) -> str:
    """`text` with the table between its markers rebuilt from the settings."""
    return replace_between(text, BEGIN, END, settings_table())


def main(argv: list[str] | None = None) -> int:
    return table_command("python -m service.settings_docs", settings_table, BEGIN, END, argv)


if __name__ == "__main__":
    raise SystemExit(main())

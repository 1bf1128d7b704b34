"""The search options table of docs/api.md, built from `solver.search.config`.

Each option is declared once, as a field of `SearchConfig`, with its type, default, bounds,
meaning and the figure that keeps it; the table (and the engines' own defaults where a preset
changes one) is printed from that declaration, and `tests/solver/search/test_config.py` holds
docs/api.md to it, so the table cannot drift from the code:

    python -m solver.search.config_docs                      # print the table
    python -m solver.search.config_docs --write docs/api.md  # replace it between its markers
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from solver.search.config import OPTIONS, PRESETS, SearchOption

__all__ = ["BEGIN", "END", "main", "options_table", "replace_between", "replace_table", "table_command"]

BEGIN = ("<!-- search options: generated from solver/search/config.py by "
         "`python -m solver.search.config_docs` -->")
END = "<!-- end of the generated search options -->"


def _allowed(option: SearchOption) -> str:
    if option.choices is not None:
        allowed = " or ".join(f"`{choice}`" for choice in option.choices)
    else:
        allowed = option.type
        bounds = [f"≥ {option.minimum:g}" if option.minimum is not None else "",
                  f"≤ {option.maximum:g}" if option.maximum is not None else ""]
        if any(bounds):
            allowed += " " + ", ".join(bound for bound in bounds if bound)
    return allowed + (", null" if option.nullable else "")


def _default(option: SearchOption) -> str:
    default = f"`{json.dumps(option.default)}`"
    changed = [f"`{name}` `{json.dumps(getattr(preset.config, option.name))}`"
               for name, preset in PRESETS.items() if getattr(preset.config, option.name) != option.default]
    return default + (f" ({', '.join(changed)})" if changed else "")


def options_table() -> str:
    """The Markdown table of every search option: name, default (and an engine's own where its
    preset changes it), allowed values, what it does, and the figure that keeps it."""
    rows = ["| option | default | allowed | what | kept by |", "|---|---|---|---|---|"]
    for option in OPTIONS.values():
        cells = (f"`{option.name}`", _default(option), _allowed(option), option.meaning, option.figure)
        rows.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(rows) + "\n"


def replace_between(text: str, begin: str, end: str, table: str) -> str:
    """`text` with what stands between the markers `begin` and `end` replaced by `table`: a table
    of the docs generated from the code (this one, and the service's settings in docs/deploy.md)."""
    start, stop = text.index(begin) + len(begin), text.index(end)
    return text[:start] + "\n" + table + text[stop:]


def table_command(prog: str, make_table: Callable[[], str], begin: str, end: str,
                  argv: Sequence[str] | None = None) -> int:
    """A generated table's command: print it, or with `--write FILE` rewrite it between its markers."""
    parser = argparse.ArgumentParser(prog=prog, description=make_table.__doc__)
    parser.add_argument("--write", type=Path, metavar="FILE", help="rewrite the table between its markers")
    args = parser.parse_args(argv)
    if args.write is None:
        sys.stdout.write(make_table())
        return 0
    text = args.write.read_text(encoding="utf-8")
    args.write.write_text(replace_between(text, begin, end, make_table()), encoding="utf-8")
    return 0


def replace_table(text: str) -> str:
    """`text` with the table between its markers rebuilt from the config."""
    return replace_between(text, BEGIN, END, options_table())


def main(argv: list[str] | None = None) -> int:
    return table_command("python -m solver.search.config_docs", options_table, BEGIN, END, argv)


if __name__ == "__main__":
    raise SystemExit(main())

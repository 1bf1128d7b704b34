"""The docs stay readable: short table cells, a short dashboard, no dead links.

A newcomer reads README.md, BENCHMARKS.md and docs/; a table cell of hundreds
of words or a link to a file that moved makes them a lab notebook again
(issue 61). So every Markdown table cell in those files holds at most
`MAX_CELL_WORDS` words, BENCHMARKS.md (one line a bar, then one short section
a bar) holds at most `MAX_BENCHMARKS_LINES` lines, and every relative link
points at a file or folder that exists (and at one of its headings, for an
`#anchor`). Raw run files leave the tree, so a link into `benchmarks/results/`
must name a folder (which keeps a summary), written with a trailing slash, or a
file that is there.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAX_CELL_WORDS = 40
MAX_BENCHMARKS_LINES = 300
RESULTS = ROOT / "benchmarks" / "results"

# [text](target) and ![alt](target); the target ends at the first space or ")".
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")


def doc_files() -> list[Path]:
    """The pages a reader is sent to: README, BENCHMARKS, HISTORY and docs/."""
    files = [ROOT / "README.md", ROOT / "BENCHMARKS.md", ROOT / "benchmarks" / "HISTORY.md"]
    files += sorted((ROOT / "docs").rglob("*.md"))
    return [f for f in files if f.exists()]


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The lines outside fenced code blocks, numbered from 1."""
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, line))
    return lines


def split_cells(row: str) -> list[str]:
    """A table row's cells; a `|` inside inline code or escaped does not split."""
    body = row.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    cells, current, i = [], [], 0
    while i < len(body):
        code = _INLINE_CODE.match(body, i)
        if code:
            current.append(code.group(0))
            i = code.end()
            continue
        if body[i] == "\\" and i + 1 < len(body):
            current.append(body[i : i + 2])
            i += 2
            continue
        if body[i] == "|":
            cells.append("".join(current))
            current = []
        else:
            current.append(body[i])
        i += 1
    cells.append("".join(current))
    return cells


def long_cells(text: str, limit: int = MAX_CELL_WORDS) -> list[tuple[int, int, str]]:
    """(line, words, the cell's start) for each table cell over `limit` words."""
    found = []
    for number, line in prose_lines(text):
        if not line.lstrip().startswith("|"):
            continue
        for cell in split_cells(line):
            words = len(cell.split())
            if words > limit:
                found.append((number, words, cell.strip()[:60]))
    return found


def anchor(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to `-`."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """The anchors of a page's headings (a repeated heading gets `-1`, `-2`, … as on GitHub)."""
    seen: dict[str, int] = {}
    found = set()
    for _, line in prose_lines(text):
        heading = re.match(r"^#{1,6}\s+(.*?)\s*#*$", line)
        if heading:
            slug = anchor(heading.group(1))
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def broken_links(path: Path, text: str) -> list[tuple[int, str]]:
    """(line, target) for each relative link whose file is not in the tree, or whose `#anchor`
    names no heading of the Markdown page it points at."""
    found = []
    for number, line in prose_lines(text):
        for target in _LINK.findall(_INLINE_CODE.sub("", line)):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue  # another site, or mail
            relative, _, fragment = target.partition("#")
            resolved = (path.parent / relative).resolve() if relative else path
            if not resolved.exists():
                if not (relative.endswith("/") and resolved.is_relative_to(RESULTS)):
                    found.append((number, target))  # a results folder may stand for its raw runs
                continue
            if fragment and resolved.suffix == ".md":
                page = text if resolved == path else resolved.read_text(encoding="utf-8")
                if fragment not in anchors(page):
                    found.append((number, target))
    return found


@pytest.mark.parametrize("path", doc_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_table_cell_is_over_the_word_limit(path: Path) -> None:
    assert long_cells(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", doc_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_points_at_something(path: Path) -> None:
    assert broken_links(path, path.read_text(encoding="utf-8")) == []


def test_benchmarks_is_a_dashboard_of_at_most_300_lines() -> None:
    lines = (ROOT / "BENCHMARKS.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_BENCHMARKS_LINES


def test_the_checks_catch_what_they_look_for(tmp_path: Path) -> None:
    """The helpers above find a long cell and a dead link, and pass good ones."""
    wordy = "| a | " + "word " * 41 + "|\n| `x | y` | two words |\n"
    assert [(n, w) for n, w, _ in long_cells(wordy)] == [(1, 41)]
    assert long_cells("```\n| " + "word " * 50 + "|\n```\n") == []
    page = tmp_path / "page.md"
    (tmp_path / "there.md").write_text("# A `code` heading, here\n")
    text = (
        "[ok](there.md#a-code-heading-here) [gone](missing.md#part) [web](https://example.org)"
        " `[code](nowhere.md)` [no heading](there.md#elsewhere)\n"
    )
    assert broken_links(page, text) == [(1, "missing.md#part"), (1, "there.md#elsewhere")]

"""Manifests of raw run output: what a results folder's games were, and how to have them back.

    python -m benchmarks.manifest [FOLDER ...]   # default: every folder of benchmarks/results

Raw games and self-play (`tan arena --out FILE.jsonl`, `tan selfplay`) are too large to live in
the work tree: a fresh clone would carry hundreds of megabytes of them. They are ignored by git
from now on, and each folder that held some keeps two small files instead:

- `manifest.json`: for each raw file, its size, line count and SHA-256 (so a remade or restored
  file can be checked), the games it holds (rules, seats, engines and their scores with 95%
  intervals), the commands that made it (from the folder's `runs.log` and the docs), its seed,
  the commit that last wrote it, the date, the machine, and the `git show` that restores it;
- `README.md`: the same as a short table, for a reader.

A file already gone from the work tree keeps the entry an earlier run of this program wrote,
so the manifest can be made before the raw files leave and stays whole after.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from solver.tools.arena import read_results
from solver.tools.arena.statistics import summarize

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
# The docs whose code spans name the commands that wrote a results file.
DOCS = ("BENCHMARKS.md", "benchmarks/HISTORY.md", "docs/learning.md", "README.md")
# Every run here was made on the project's development machine; a record names its own when it can.
MACHINE = "the project's development machine: Linux, 2 cores, 24 GiB, Python 3.11"
MANIFEST = "manifest.json"


def raw_files(folder: Path) -> list[Path]:
    """The raw run files directly in `folder` (one game record a line)."""
    return sorted(path for path in folder.glob("*.jsonl") if path.is_file())


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _git(*args: str, cwd: Path) -> str | None:
    """A git command's output in `cwd`, or None outside a repository (a copy of the folder)."""
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    except FileNotFoundError:
        return None
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else None


def last_commit(path: Path) -> tuple[str | None, str | None]:
    """The commit that last wrote `path` and its date: `git show COMMIT:PATH` gives the file back."""
    line = _git("log", "-1", "--format=%H %cI", "--", path.name, cwd=path.parent)
    if line is None:
        return None, None
    commit, date = line.split(" ", 1)
    return commit, date


def _repo_path(path: Path) -> str:
    top = _git("rev-parse", "--show-toplevel", cwd=path.parent)
    base = Path(top) if top else ROOT
    try:
        return path.resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def commands(path: Path, log_lines: Sequence[str], doc_spans: Sequence[str]) -> list[str]:
    """The lines of the folder's `runs.log` and the docs' code spans that name `path`'s file."""
    name = path.name
    stem_words = re.compile(rf"(?<![\w-]){re.escape(path.stem)}(?![\w-])")
    found = [line for line in log_lines if name in line or stem_words.search(line)]
    folder = f"{path.parent.name}/{name}"
    found += [span for span in doc_spans if folder in span and span not in found]
    return found


def seed_of(path: Path, found: Sequence[str]) -> int | None:
    """The arena's seed: from the summary written beside the file, else from its command."""
    summary = path.with_suffix(".json")
    if summary.is_file():
        try:
            seed = json.loads(summary.read_text(encoding="utf-8")).get("seed")
        except (json.JSONDecodeError, AttributeError):
            seed = None
        if isinstance(seed, int):
            return seed
    for line in found:
        match = re.search(r"(?:--seed[ =]|seed=|\(seed )(\d+)", line)
        if match:
            return int(match.group(1))
    return None


def games_of(records: list[dict[str, Any]]) -> dict[str, Any]:
    """What the games were: the table, the seats as specified, and each engine's score."""
    seats: list[Any] = []
    for record in records:
        for spec in record.get("seats", []):
            if spec not in seats:
                seats.append(spec)
    summary = summarize(records).to_json() if records else None
    return {
        "records": len(records),
        "rules": [json.loads(text) for text in sorted({json.dumps(r["rules"], sort_keys=True)
                                                       for r in records})],
        "players": sorted({record["players"] for record in records}),
        "deals": len({record["deal"] for record in records}),
        "seats": seats,
        "summary": summary,
    }


def entry(path: Path, log_lines: Sequence[str], doc_spans: Sequence[str]) -> dict[str, Any]:
    """The manifest's entry for one raw file in the work tree."""
    text_lines = path.read_bytes().count(b"\n")
    found = commands(path, log_lines, doc_spans)
    commit, date = last_commit(path)
    repo_path = _repo_path(path)
    return {
        "file": path.name,
        "bytes": path.stat().st_size,
        "lines": text_lines,
        "sha256": sha256(path),
        "games": games_of(read_results(path)),
        "commands": found,
        "seed": seed_of(path, found),
        "commit": commit,
        "date": date,
        "machine": MACHINE,
        "restore": f"git show {commit}:{repo_path} > {repo_path}" if commit else None,
    }


def doc_code_spans(root: Path = ROOT) -> list[str]:
    """Every command of the docs that writes or reads a raw results file, one line each (a
    command continued over several lines of a code block is joined)."""
    spans: list[str] = []
    start = re.compile(r"(?:\.venv/bin/|\$ )?(?:tan |python3? -m )")
    for name in DOCS:
        doc = root / name
        if not doc.is_file():
            continue
        joined = re.sub(r"\\?\n[ \t]+(?=--)", " ", doc.read_text(encoding="utf-8"))
        for line in joined.splitlines():
            if ".jsonl" not in line:
                continue
            for piece in re.split(r"`", line):
                starts = [match.start() for match in start.finditer(piece)]
                if starts and ".jsonl" in piece[starts[0]:]:
                    command = " ".join(piece[starts[0]:].split())
                    if command not in spans:
                        spans.append(command)
    return spans


def manifest(folder: Path, doc_spans: Sequence[str] = ()) -> dict[str, Any]:
    """The folder's manifest: one entry a raw file, those already gone kept from the last manifest."""
    log = folder / "runs.log"
    log_lines = log.read_text(encoding="utf-8").splitlines() if log.is_file() else []
    entries = {path.name: entry(path, log_lines, doc_spans) for path in raw_files(folder)}
    earlier = folder / MANIFEST
    if earlier.is_file():
        for old in json.loads(earlier.read_text(encoding="utf-8")).get("files", []):
            entries.setdefault(old["file"], old)
    return {
        "folder": folder.name,
        "note": "Raw games are not kept in the work tree; each entry says how to restore or remake its file.",
        "files": [entries[name] for name in sorted(entries)],
    }


def _scores(item: dict[str, Any]) -> str:
    summary = item["games"]["summary"]
    if not summary:
        return "no whole game"
    parts = []
    for stats in summary["engines"]:
        low, high = stats["ci95"]
        parts.append(f"{stats['engine']} {stats['score']:.3f} ({low:.3f}–{high:.3f})")
    return "; ".join(parts)


def readme(data: dict[str, Any]) -> str:
    """The manifest for a reader: one line a file, then how to have a file back."""
    lines = [
        f"# {data['folder']}: raw run output",
        "",
        "Raw games are kept out of the work tree: git ignores them, and those committed before are",
        "being removed. `manifest.json` lists each file with its SHA-256, the commands that made it,",
        "its seed, and the commit that holds it: its `restore` line (`git show COMMIT:PATH > PATH`)",
        "brings it back, or rerun its command with `--out` and check the hash (an iteration-limited",
        "run remakes the same file on the same code).",
        "",
        "| file | games | scores (95% interval) | seed | commit |",
        "|---|---|---|---|---|",
    ]
    for item in data["files"]:
        commit = (item["commit"] or "")[:10]
        seed = "" if item["seed"] is None else str(item["seed"])
        games = item["games"]["summary"]["games"] if item["games"]["summary"] else 0
        lines.append(f"| {item['file']} | {games} | {_scores(item)} | {seed} | {commit} |")
    return "\n".join(lines) + "\n"


def write(folder: Path, doc_spans: Sequence[str]) -> dict[str, Any]:
    data = manifest(folder, doc_spans)
    (folder / MANIFEST).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (folder / "README.md").write_text(readme(data), encoding="utf-8")
    return data


def folders(root: Path = RESULTS) -> Iterable[Path]:
    """Every folder under `root` that holds raw files or a manifest of them."""
    held = {path.parent for path in root.rglob("*.jsonl")} | {path.parent for path in root.rglob(MANIFEST)}
    yield from sorted(held)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.manifest",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path, help="results folders (default: every one)")
    args = parser.parse_args(argv)
    spans = doc_code_spans()
    for folder in args.folders or list(folders()):
        data = write(folder, spans)
        print(f"{folder}: {len(data['files'])} raw files")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

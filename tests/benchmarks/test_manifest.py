"""A results folder's manifest says what its raw games were and brings a removed file back."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

from benchmarks import manifest
from solver.cli import main as tan


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=repo,
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


def _results(tmp_path: Path) -> tuple[Path, Path]:
    """A repository with one results folder: a small arena, its runs.log, committed."""
    repo = tmp_path / "repo"
    folder = repo / "benchmarks" / "results" / "probe"
    folder.mkdir(parents=True)
    _git(repo, "init", "-q")
    games = folder / "durak-greedy-random-3.jsonl"
    assert tan(["arena", "--rules", "durak", "--engines", "greedy,random", "--deals", "3", "--seed", "9",
                "--workers", "1", "--out", str(games), "--no-progress"]) == 0
    (folder / "runs.log").write_text(
        f"2026-12-07T10:00:00 start --rules durak --deals 3 --seed 9 --out {games.relative_to(repo)}\n"
        "2026-12-07T10:00:05 done rc=0\n", encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "probe")
    return repo, games


def test_the_manifest_names_the_games_the_command_and_the_commit(tmp_path: Path) -> None:
    repo, games = _results(tmp_path)
    data = manifest.write(games.parent, [])
    [item] = data["files"]
    assert item["file"] == games.name
    assert item["sha256"] == hashlib.sha256(games.read_bytes()).hexdigest()
    assert item["lines"] == 6 and item["games"]["deals"] == 3 and item["games"]["players"] == [2]
    scores = {stats["engine"]: stats for stats in item["games"]["summary"]["engines"]}
    assert set(scores) == {"greedy", "random"} and scores["greedy"]["games"] == 6
    assert scores["greedy"]["score"] + scores["random"]["score"] == 1.0
    assert item["seed"] == 9 and len(item["commands"]) == 1 and "--seed 9" in item["commands"][0]
    assert item["commit"] == _git(repo, "rev-parse", "HEAD")
    readme = (games.parent / "README.md").read_text(encoding="utf-8")
    assert games.name in readme and "greedy" in readme


def test_a_removed_file_keeps_its_entry_and_its_restore_line_brings_it_back(tmp_path: Path) -> None:
    repo, games = _results(tmp_path)
    first = manifest.write(games.parent, [])
    original = games.read_bytes()
    games.unlink()
    again = manifest.write(games.parent, [])
    assert again["files"] == first["files"]  # the entry outlives the raw file
    [item] = again["files"]
    subprocess.run(item["restore"], shell=True, cwd=repo, check=True)
    assert games.read_bytes() == original


def test_docs_commands_are_joined_over_their_lines(tmp_path: Path) -> None:
    (tmp_path / "benchmarks").mkdir()
    (tmp_path / "BENCHMARKS.md").write_text(
        "Run:\n\n    tan arena --rules durak --engines ismcts,greedy \\\n"
        "        --deals 5 --seed 4 --out benchmarks/results/x/a.jsonl --resume\n\n"
        "and `python -m benchmarks.paired benchmarks/results/x/a.jsonl ismcts b.jsonl greedy`.\n",
        encoding="utf-8")
    spans = manifest.doc_code_spans(tmp_path)
    assert spans[0] == ("tan arena --rules durak --engines ismcts,greedy --deals 5 --seed 4 "
                        "--out benchmarks/results/x/a.jsonl --resume")
    assert spans[1].startswith("python -m benchmarks.paired")

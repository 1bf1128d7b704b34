"""The arena on a Dask cluster: the same records as local processes, appended as they finish, resumable."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from solver.tools.arena import Sprt, build_tasks, read_results, run_arena, sprt_result


def _without_time(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{key: value for key, value in record.items() if key != "seconds"} for record in records]


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A local cluster of two worker processes; dask is imported here, by the worker that runs this
    file, not at collection (a second of imports on every worker)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


def test_a_cluster_plays_the_same_games_as_local_processes(scheduler: str, tmp_path: Path) -> None:
    tasks = build_tasks(["random", "greedy"], deals=3, rules="durak", players=2, seed=7)
    local = run_arena(tasks, workers=2)
    out = tmp_path / "cluster.jsonl"
    cluster = run_arena(tasks, out=out, scheduler=scheduler)
    assert _without_time(cluster) == _without_time(local)
    assert [(r["deal"], r["rotation"]) for r in cluster] == [(d, r) for d in range(3) for r in range(2)]
    written = sorted(read_results(out), key=lambda r: (r["deal"], r["rotation"]))
    assert _without_time(written) == _without_time(local)
    for record in cluster:
        assert {"deck", "scores", "loser", "plies"} <= record.keys()


def test_resume_on_a_cluster_plays_only_what_is_missing(scheduler: str, tmp_path: Path) -> None:
    tasks = build_tasks(["random", "greedy"], deals=2, rules="tan", seed=3)
    out = tmp_path / "results.jsonl"
    first = run_arena(tasks[:3], workers=1, out=out)
    records = run_arena(tasks, out=out, resume=True, scheduler=scheduler)
    assert _without_time(records[:3]) == _without_time(first)
    assert _without_time(records) == _without_time(run_arena(tasks, workers=1))
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 4  # the fourth game appended, the first three not played again


@pytest.mark.long
def test_sprt_on_a_cluster_decides_as_in_one_process(scheduler: str) -> None:
    tasks = build_tasks(["greedy", "random"], deals=12, rules="durak", seed=5)
    sprt = Sprt(0, 200)
    local = run_arena(tasks, workers=1, sprt=sprt)
    cluster = run_arena(tasks, scheduler=scheduler, sprt=sprt)
    assert _without_time(cluster) == _without_time(local)
    result = sprt_result(sprt, tasks, cluster)
    assert result == sprt_result(sprt, tasks, local)
    assert result.decision == "H1" and len(cluster) == result.games < len(tasks)

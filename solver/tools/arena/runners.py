"""Running an arena: games on local processes or a Dask cluster, results appended as they finish.

`run_arena` runs the tasks through an executor (local processes by default,
or a Dask cluster given its scheduler's address), appends one JSON line per
finished game to an output file and, with `resume=True`, skips the tasks whose
results are already there. With a `Sprt` it stops handing out games once the
sequential test over the first whole deals decides.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import json
import os
import sys
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from solver.tools.arena.statistics import Sprt, SprtWatch
from solver.tools.arena.tasks import TASK_FIELDS, ArenaError, GameTask, play_game, record_key

__all__ = ["read_results", "run_arena"]


def read_results(path: str | Path) -> list[dict[str, Any]]:
    """The records of a results file; a line that is not a whole record (a run cut short) is skipped."""
    records = []
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict) and "scores" in record and all(name in record for name in TASK_FIELDS):
            records.append(record)
    return records


def run_arena(
    tasks: Sequence[GameTask],
    workers: int | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    progress: bool | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    scheduler: str | None = None,
    sprt: Sprt | None = None,
) -> list[dict[str, Any]]:
    """Play `tasks` and return their records, sorted by deal and rotation.

    `workers`: processes (default: every core; 1 plays in this process).
    `scheduler`: the address of a Dask scheduler (`tcp://host:8786`) to play
    the games on its cluster instead; `workers` is then the cluster's business.
    `out`: a JSON-lines file each record is appended to as its game ends; it
    is started afresh unless `resume`, which keeps its records and plays only
    the tasks it lacks. `progress`: a progress bar on standard error (default:
    when standard error is a terminal). `sprt`: stop handing out games once the
    sequential test over the first whole deals decides (see `Sprt`); only the
    records of those deals are returned, though any game that finished after
    is still written to `out`.
    """
    if workers is None:
        workers = os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ArenaError(f"workers must be a positive whole number, not {workers!r}")
    watch = SprtWatch(sprt, tasks) if sprt is not None else None
    done: dict[str, dict[str, Any]] = {}
    wanted = {task.key for task in tasks}
    if out is not None and resume:
        kept = read_results(out)
        for record in kept:
            if record_key(record) in wanted:
                done[record_key(record)] = record
        # Rewrite only what is whole, so a line cut short by an interrupted run is not appended to.
        Path(out).write_text("".join(json.dumps(record) + "\n" for record in kept), encoding="utf-8")
    elif out is not None:
        Path(out).write_text("", encoding="utf-8")
    if watch is not None:
        for record in done.values():
            watch.add(record)
    todo = [task for task in tasks if task.key not in done]
    if watch is not None and watch.result().decided:
        todo = []
    sink = open(out, "a", encoding="utf-8") if out is not None else None  # noqa: SIM115
    show = sys.stderr.isatty() if progress is None else progress
    games = _play(todo, workers, scheduler, bounded=watch is not None)
    try:
        with _Progress(show, len(tasks), done.values()) as bar:
            for record in games:
                done[record_key(record)] = record
                if sink is not None:
                    sink.write(json.dumps(record) + "\n")
                    sink.flush()
                if on_result is not None:
                    on_result(record)
                bar.advance(record)
                if watch is not None and watch.add(record).decided:
                    break
    finally:
        games.close()
        if sink is not None:
            sink.close()
    records = sorted(
        (done[task.key] for task in tasks if task.key in done), key=lambda r: (r["deal"], r["rotation"])
    )
    if watch is not None and watch.result().decided:
        records = [record for record in records if record["deal"] < watch.result().deals]
    return records


def _play(
    tasks: Sequence[GameTask], workers: int, scheduler: str | None, bounded: bool
) -> Generator[dict[str, Any], None, None]:
    """Records as games finish: in this process for one worker, in a local process pool, or on a
    Dask cluster. `bounded`: hand out games in task order, two per worker slot at a time, so a
    caller that stops reading (SPRT) leaves the rest unplayed; else hand them all out at once."""
    if scheduler is not None:
        yield from _play_on_dask(tasks, scheduler, bounded)
    elif workers == 1 or len(tasks) <= 1:
        for task in tasks:
            yield play_game(task)
    else:
        pool = concurrent.futures.ProcessPoolExecutor(max_workers=min(workers, len(tasks)))
        try:
            yield from _as_finished(
                lambda task: pool.submit(play_game, task), tasks, 2 * workers if bounded else None,
                lambda pending: concurrent.futures.wait(
                    pending, return_when=concurrent.futures.FIRST_COMPLETED
                ),
            )
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def _play_on_dask(tasks: Sequence[GameTask], scheduler: str, bounded: bool) -> Iterator[dict[str, Any]]:
    """Games as tasks of the Dask cluster at `scheduler` (its workers need `tan` installed).

    Each game carries its own seeds, so a record does not depend on the worker that plays it;
    a game lost with its worker is run again by the scheduler.
    """
    try:
        import distributed
    except ImportError:
        raise ArenaError(
            "--scheduler needs dask.distributed: pip install 'dask[distributed]>=2024.1'"
        ) from None
    try:
        client = distributed.Client(scheduler)
    except (OSError, ValueError) as error:  # no scheduler there, or an address Dask cannot read
        raise ArenaError(f"no Dask scheduler at {scheduler}: {error}") from None
    with client:
        window = 2 * max(1, sum(client.nthreads().values())) if bounded else None
        yield from _as_finished(
            lambda task: client.submit(play_game, task, pure=False),
            tasks,
            window,
            lambda pending: distributed.wait(pending, return_when="FIRST_COMPLETED"),
        )


def _as_finished(
    submit: Callable[[GameTask], Any],
    tasks: Sequence[GameTask],
    window: int | None,
    first_done: Callable[[set[Any]], tuple[set[Any], set[Any]]],
) -> Iterator[dict[str, Any]]:
    """Results of futures as they finish, keeping at most `window` submitted and unread.

    `submit` makes a future of a task (concurrent.futures or Dask alike); `first_done` waits
    for one of a set of futures and answers (done, not done). Futures not yet read when the
    caller stops are cancelled.
    """
    queue = iter(tasks)
    pending: set[Any] = {submit(task) for task in itertools.islice(queue, window or len(tasks))}
    try:
        while pending:
            finished, pending = first_done(pending)
            pending = set(pending)
            for future in finished:
                record = future.result()
                following = next(queue, None)
                if following is not None:
                    pending.add(submit(following))
                yield record
    finally:
        for future in pending:
            future.cancel()


class _Progress:
    """A rich progress bar on standard error with the running mean score per engine, or nothing."""

    def __init__(self, show: bool, total: int, done: Iterable[Mapping[str, Any]]) -> None:
        self.show = show
        self.total = total
        self.completed = 0
        self.scores: dict[str, list[float]] = {}
        for record in done:
            self._count(record)
        self._bar: Any = None
        self._task: Any = None

    def _count(self, record: Mapping[str, Any]) -> None:
        self.completed += 1
        for engine, score in zip(record["engines"], record["scores"], strict=True):
            self.scores.setdefault(engine, []).append(score)

    def __enter__(self) -> _Progress:
        if self.show:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self._bar = Progress(
                TextColumn("arena"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                TextColumn("{task.description}"),
                console=Console(stderr=True),
                transient=False,
            )
            self._bar.start()
            self._task = self._bar.add_task("", total=self.total, completed=self.completed)
        return self

    def advance(self, record: Mapping[str, Any]) -> None:
        self._count(record)
        if self._bar is not None:
            means = "  ".join(f"{name} {sum(s) / len(s):.3f}" for name, s in self.scores.items())
            self._bar.update(self._task, advance=1, description=means)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()

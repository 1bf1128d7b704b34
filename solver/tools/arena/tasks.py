"""Engines against each other on paired deals (SPEC §4 `tan arena`, §5 strength).

Luck of the deal is the largest noise in a card game, so every deal is played
once per seat rotation: with `k` seats, rotation `r` puts engine
`lineup[(i + r) % k]` in seat `i`, and all rotations of a deal share the same
ordered deck. Each game is a `GameTask` — a frozen value holding everything
the game depends on, its seeds included — and `play_game(task)` is a pure
function of it, so games can run in any order, in any process, and a run can
be resumed from the results already written.

`run_arena` runs the tasks through an executor (local processes by default,
or a Dask cluster given its scheduler's address), appends one JSON line per
finished game to an output file and, with `resume=True`, skips the tasks whose
results are already there. With a `Sprt` it stops handing out games once the
sequential test over the first whole deals decides. `summarize`
turns the records into per-engine statistics: mean score with its Wilson 95%
interval (the score read as a proportion: a draw is half a win) and, for two
engines at a two-seat table, the Elo difference with its interval.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import itertools
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.players.specs import Player, make_player
from solver.game.errors import TanError
from solver.game.position import Position
from solver.game.reference import Game, random_deck
from solver.game.rules import PRESETS, Rules
from solver.search.solver import Limits

__all__ = [
    "ArenaSummary",
    "EngineStats",
    "GameTask",
    "Sprt",
    "SprtResult",
    "build_tasks",
    "checked_player",
    "elo_difference",
    "engine_label",
    "expected_score",
    "play_game",
    "read_results",
    "run_arena",
    "sprt_result",
    "summarize",
    "wilson_interval",
]

Z95 = 1.959963984540054
SEARCH_ENGINES = ("ismcts", "pimc")
# The fields of a result record that say which game it is (the rest is what happened).
TASK_FIELDS = ("rules", "players", "deal", "deal_seed", "rotation", "move_seed", "seats", "engines")


class ArenaError(TanError):
    """An arena that cannot be run as asked (engines, seats, workers, results file)."""

    code = "bad_arena"


# -- the games ----------------------------------------------------------------------------


@dataclass(frozen=True)
class GameTask:
    """One game of an arena: everything it depends on.

    `rules` is SPEC §1.6 JSON; `seats[i]` the seat spec of seat `i` (as
    `make_player` reads it) and `engines[i]` its engine's label in the
    statistics; `deal` and `rotation` place the game in the match; the deck is
    shuffled by `deal_seed`, and every move's seed is drawn from `move_seed`.
    """

    rules: Any
    players: int
    seats: tuple[Any, ...]
    engines: tuple[str, ...]
    deal: int
    deal_seed: int
    rotation: int
    move_seed: int

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "players": self.players,
            "deal": self.deal,
            "deal_seed": self.deal_seed,
            "rotation": self.rotation,
            "move_seed": self.move_seed,
            "seats": list(self.seats),
            "engines": list(self.engines),
        }

    @property
    def key(self) -> str:
        """Identifies the game among results, whatever else a record holds."""
        return _key(self.to_json())


def _key(record: Mapping[str, Any]) -> str:
    return json.dumps({name: record.get(name) for name in TASK_FIELDS}, sort_keys=True)


def play_game(task: GameTask) -> dict[str, Any]:
    """Play one game to its end and say what happened (a JSON-ready record).

    Each seat's player sees only that seat's position (SPEC §2.2). The record
    holds the task's fields, the deck (top first), who led first, the scores
    (SPEC §1.5), the loser, the number of moves and the wall time.
    """
    start = time.perf_counter()
    rules = Rules.from_json(task.rules)
    deck = random_deck(rules, task.deal_seed)
    game = Game.deal(rules, task.players, deck=deck)
    first_attacker = game.attacker
    players = [make_player(_player_spec(spec)) for spec in task.seats]
    seeds = random.Random(task.move_seed)
    plies = 0
    while not game.over:
        seat = game.to_move
        assert seat is not None
        move = players[seat].choose(Position.from_game(game, seat), seeds.getrandbits(63))
        game.play(move, seat)
        plies += 1
    return {
        **task.to_json(),
        "deck": [str(card) for card in deck],
        "first_attacker": first_attacker,
        "scores": game.scores,
        "loser": game.loser,
        "plies": plies,
        "seconds": round(time.perf_counter() - start, 4),
    }


def checked_player(spec: Any) -> Player:
    """`make_player`, with a search option the solver does not have refused as a `TanError`."""
    try:
        return make_player(spec)
    except TypeError as error:  # Solver(**options) with an unknown keyword
        raise TanError(f"engine spec {json.dumps(spec)}: {error}", "unknown_engine") from None


def _player_spec(spec: Any) -> Any:
    """A seat spec without the arena's own `name` field, as `make_player` reads it."""
    if isinstance(spec, dict) and "name" in spec:
        return {key: value for key, value in spec.items() if key != "name"}
    return spec


def _derive_seed(*parts: object) -> int:
    """A 63-bit seed fixed by its parts (stable across processes and Python versions)."""
    digest = hashlib.sha256(":".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def engine_label(spec: Any) -> str:
    """A short name for a seat spec: its `name`, else the engine's name."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, dict):
        return str(spec.get("name") or spec.get("engine"))
    return str(getattr(spec, "name", spec))


def _limits_text(spec: Any) -> str:
    limits = spec.get("limits") if isinstance(spec, dict) else None
    if not isinstance(limits, dict):
        return ""
    parts = []
    if limits.get("iterations") is not None:
        parts.append(f"{limits['iterations']}it")
    if limits.get("time_ms") is not None:
        parts.append(f"{limits['time_ms']:g}ms")
    return "@" + "/".join(parts) if parts else ""


def _labels(specs: Sequence[Any]) -> list[str]:
    """Distinct labels: the engine name, then its limits, then a number for what is still alike."""
    names = [engine_label(spec) for spec in specs]
    labels = [
        name + _limits_text(spec) if names.count(name) > 1 and not _named(spec) else name
        for name, spec in zip(names, specs, strict=True)
    ]
    seen: dict[str, int] = {}
    distinct = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        distinct.append(f"{label}#{seen[label]}" if labels.count(label) > 1 else label)
    return distinct


def _named(spec: Any) -> bool:
    return isinstance(spec, dict) and bool(spec.get("name"))


def with_limits(spec: Any, limits: Limits | None) -> Any:
    """A search engine given by name gets `limits` per move; other specs are kept as given."""
    if limits is not None and isinstance(spec, str) and spec in SEARCH_ENGINES:
        return {"engine": spec, "limits": {k: v for k, v in limits.to_json().items() if v is not None}}
    return spec


def build_tasks(
    engines: Sequence[Any],
    deals: int,
    rules: Any = "tan",
    players: int = 2,
    seed: int = 0,
    limits: Limits | None = None,
) -> list[GameTask]:
    """Every deal in every seat rotation: `deals × players` games.

    `engines` are seat specs (`"greedy"`, `{"engine": "ismcts", "limits": …}`,
    optionally with a `"name"`); fewer engines than seats are repeated in
    order around the table. `limits` go to search engines given by name.
    """
    rules_value = Rules.from_json(rules)
    rules_value.check_players(players)
    rules = _rules_json(rules_value) if isinstance(rules, Rules) else rules
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ArenaError(f"deals must be a positive whole number, not {deals!r}")
    specs = [with_limits(spec, limits) for spec in engines]
    if not specs:
        raise ArenaError("an arena needs at least one engine")
    if len(specs) > players:
        raise ArenaError(f"{len(specs)} engines do not fit a {players}-seat table")
    for spec in specs:
        checked_player(_player_spec(spec))  # refuse an unknown engine or option now, not in a worker
    labels = _labels(specs)
    lineup = [(specs[i % len(specs)], labels[i % len(specs)]) for i in range(players)]
    tasks = []
    for deal in range(deals):
        deal_seed = _derive_seed("deal", seed, deal)
        for rotation in range(players):
            seated = [lineup[(i + rotation) % players] for i in range(players)]
            tasks.append(
                GameTask(
                    rules=rules,
                    players=players,
                    seats=tuple(spec for spec, _ in seated),
                    engines=tuple(label for _, label in seated),
                    deal=deal,
                    deal_seed=deal_seed,
                    rotation=rotation,
                    move_seed=_derive_seed("moves", seed, deal, rotation),
                )
            )
    return tasks


def _rules_json(rules: Rules) -> Any:
    """SPEC §1.6 JSON of `rules`: the preset's name when nothing was changed."""
    return rules.preset if PRESETS.get(rules.preset) == rules else rules.to_json()


# -- running them -------------------------------------------------------------------------


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
    watch = _SprtWatch(sprt, tasks) if sprt is not None else None
    done: dict[str, dict[str, Any]] = {}
    wanted = {task.key for task in tasks}
    if out is not None and resume:
        kept = read_results(out)
        for record in kept:
            if _key(record) in wanted:
                done[_key(record)] = record
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
                done[_key(record)] = record
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


# -- statistics ---------------------------------------------------------------------------


def wilson_interval(mean: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion `mean` observed over `n` trials."""
    if n <= 0:
        return (0.0, 1.0)
    z2 = z * z
    centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(max(mean * (1 - mean), 0.0) / n + z2 / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo_difference(score: float) -> float:
    """The Elo difference that predicts an expected score `score` (±inf at 1 and 0)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: no -0 for an even score


def expected_score(elo: float) -> float:
    """The expected score of a player `elo` points stronger than its opponent (logistic Elo)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0 "the first engine is `elo0` stronger than the
    second" against H1 "it is `elo1` stronger", with error rates `alpha` (accepting H1 when H0
    holds) and `beta` (accepting H0 when H1 holds).

    The log-likelihood ratio is the generalized SPRT with the normal approximation on the mean
    score: for `n` game scores `x_i` (1 a win, 0.5 a draw, 0 a loss) with sum `S` and variance
    `var = Σx_i²/n - (S/n)²`, and `s0`, `s1` the expected scores of `elo0` and `elo1`,

        LLR = (s1 - s0) · (2·S - n·(s0 + s1)) / (2·var)

    which is n·((m - s0)² - (m - s1)²) / (2·var) with `m = S/n`: how much nearer the
    observed mean is to `s1` than to `s0`, in units of its variance. While every game scored
    alike the variance is 0 and nothing can be weighed, so it is then taken over the scores
    with one win and one loss added. The test accepts H1 once `LLR >= ln((1 - beta)/alpha)`,
    H0 once `LLR <= ln(beta/(1 - alpha))`, and goes on in between. The two games of a deal
    are counted as they are, not as a pair (no pentanomial model): paired deals make the
    variance estimate, and so the test, somewhat conservative.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not all(math.isfinite(x) for x in (self.elo0, self.elo1)) or self.elo0 >= self.elo1:
            raise ArenaError(f"SPRT needs elo0 < elo1, not {self.elo0:g}, {self.elo1:g}")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 0.5:
                raise ArenaError(f"SPRT {name} must be between 0 and 0.5, not {value:g}")

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper): the LLR at which H0, respectively H1, is accepted."""
        return (math.log(self.beta / (1.0 - self.alpha)), math.log((1.0 - self.beta) / self.alpha))

    def llr(self, scores: Sequence[float]) -> float:
        """The log-likelihood ratio of H1 against H0 after games scoring `scores`."""
        n = len(scores)
        if n == 0:
            return 0.0
        total = math.fsum(scores)
        var = _variance(scores)
        if var <= 0.0:
            var = _variance([*scores, 0.0, 1.0])
        s0, s1 = expected_score(self.elo0), expected_score(self.elo1)
        return (s1 - s0) * (2.0 * total - n * (s0 + s1)) / (2.0 * var)

    def decision(self, llr: float) -> str:
        """"H1", "H0" or "inconclusive" for a log-likelihood ratio `llr`."""
        lower, upper = self.bounds
        return "H1" if llr >= upper else "H0" if llr <= lower else "inconclusive"


def _variance(values: Sequence[float]) -> float:
    n = len(values)
    mean = math.fsum(values) / n
    return max(math.fsum(x * x for x in values) / n - mean * mean, 0.0)


@dataclass(frozen=True)
class SprtResult:
    """Where a `Sprt` stands after the first `deals` whole deals (`games` games)."""

    sprt: Sprt
    engine: str
    opponent: str
    llr: float
    decision: str
    deals: int
    games: int

    @property
    def decided(self) -> bool:
        return self.decision != "inconclusive"

    def to_json(self) -> dict[str, Any]:
        lower, upper = self.sprt.bounds
        return {
            "engine": self.engine,
            "opponent": self.opponent,
            "elo0": self.sprt.elo0,
            "elo1": self.sprt.elo1,
            "alpha": self.sprt.alpha,
            "beta": self.sprt.beta,
            "llr": round(self.llr, 4),
            "bounds": [round(lower, 4), round(upper, 4)],
            "decision": self.decision,
            "deals": self.deals,
            "games": self.games,
        }


class _SprtWatch:
    """Runs a `Sprt` over whole deals in deal order, whatever order the games finish in.

    A deal counts once all its seat rotations are in; the test looks at deals 0, 1, 2, …
    and stops at the first that decides it, so its decision, and the deals it used, are
    the same on one core, many cores or a cluster.
    """

    def __init__(self, sprt: Sprt, tasks: Sequence[GameTask]) -> None:
        labels = list(dict.fromkeys(label for task in tasks for label in task.engines))
        if len(labels) != 2 or any(task.players != 2 for task in tasks):
            raise ArenaError("SPRT needs two engines at a two-seat table")
        self.sprt = sprt
        self.engine, self.opponent = tasks[0].engines[0], tasks[0].engines[1]
        self.by_deal: dict[int, list[Mapping[str, Any]]] = {}
        self.scores: list[float] = []
        self.deals = 0
        self.llr = 0.0
        self._decision = "inconclusive"

    def add(self, record: Mapping[str, Any]) -> SprtResult:
        """Count a finished game; answer where the test stands."""
        if self._decision != "inconclusive":
            return self.result()
        self.by_deal.setdefault(record["deal"], []).append(record)
        while len(self.by_deal.get(self.deals, ())) == 2:
            for game in self.by_deal.pop(self.deals):
                self.scores.append(float(game["scores"][game["engines"].index(self.engine)]))
            self.deals += 1
            self.llr = self.sprt.llr(self.scores)
            self._decision = self.sprt.decision(self.llr)
            if self._decision != "inconclusive":
                break
        return self.result()

    def result(self) -> SprtResult:
        return SprtResult(self.sprt, self.engine, self.opponent, self.llr, self._decision,
                          self.deals, len(self.scores))


def sprt_result(sprt: Sprt, tasks: Sequence[GameTask], records: Iterable[Mapping[str, Any]]) -> SprtResult:
    """Where `sprt` stands over the records of an arena of `tasks` (as `run_arena` decides)."""
    watch = _SprtWatch(sprt, tasks)
    for record in sorted(records, key=lambda r: (r["deal"], r["rotation"])):
        watch.add(record)
    return watch.result()


@dataclass(frozen=True)
class EngineStats:
    """One engine's results over every seat it held: a win scores 1, a draw 0.5 (SPEC §1.5)."""

    engine: str
    games: int
    score: float
    wins: int
    draws: int
    losses: int
    ci95: tuple[float, float]

    def to_json(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "games": self.games,
            "score": round(self.score, 6),
            "ci95": [round(x, 6) for x in self.ci95],
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
        }


@dataclass(frozen=True)
class ArenaSummary:
    """Per-engine statistics of a match; `elo` is (difference, low, high) of the first engine
    against the second, for two engines at a two-seat table, else None."""

    games: int
    engines: list[EngineStats]
    elo: tuple[float, float, float] | None
    plies_per_game: float
    seconds: float

    def to_json(self) -> dict[str, Any]:
        def finite(x: float) -> float | None:
            return round(x, 1) if math.isfinite(x) else None

        return {
            "games": self.games,
            "engines": [stats.to_json() for stats in self.engines],
            "elo": None
            if self.elo is None
            else {
                "engine": self.engines[0].engine,
                "opponent": self.engines[1].engine,
                "difference": finite(self.elo[0]),
                "ci95": [finite(self.elo[1]), finite(self.elo[2])],
            },
            "plies_per_game": round(self.plies_per_game, 2),
            "seconds": round(self.seconds, 3),
        }


def summarize(records: Iterable[Mapping[str, Any]], order: Sequence[str] | None = None) -> ArenaSummary:
    """Statistics per engine over `records` (listed in `order`, else as first seen)."""
    records = list(records)
    scores: dict[str, list[float]] = {name: [] for name in order or ()}
    for record in records:
        for engine, score in zip(record["engines"], record["scores"], strict=True):
            scores.setdefault(engine, []).append(float(score))
    stats = []
    for engine, values in scores.items():
        n = len(values)
        mean = sum(values) / n if n else 0.0
        stats.append(
            EngineStats(
                engine=engine,
                games=n,
                score=mean,
                wins=sum(1 for v in values if v == 1.0),
                draws=sum(1 for v in values if v == 0.5),
                losses=sum(1 for v in values if v == 0.0),
                ci95=wilson_interval(mean, n),
            )
        )
    elo = None
    two_seats = bool(records) and all(record["players"] == 2 for record in records)
    if len(stats) == 2 and two_seats and stats[0].games:
        low, high = stats[0].ci95
        elo = (elo_difference(stats[0].score), elo_difference(low), elo_difference(high))
    plies = sum(record["plies"] for record in records)
    return ArenaSummary(
        games=len(records),
        engines=stats,
        elo=elo,
        plies_per_game=plies / len(records) if records else 0.0,
        seconds=sum(record["seconds"] for record in records),
    )

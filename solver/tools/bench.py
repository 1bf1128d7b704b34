"""Playout and search speed (docs/api.md §4 `tan bench`, §5).

A playout deals a shuffled deck and plays uniformly random legal moves until
the game ends. An *engine* is anything that can run many playouts and report
the totals:

- `core`: the Cython core's `bench_playouts`, one nogil loop;
- `reference`: the plain Python rules (`solver.game.reference`), game by game;
- `c`: a hand-written C loop (`solver/tools/c/durak_playout.c`, 2-seat `durak`
  only) built with gcc, the physical speed reference the core is held to.

An engine whose module is missing raises `EngineUnavailable`; callers skip it
with a note. Figures are single-core: `pin_to_one_core` pins the process (and
the programs it starts) before timing.

Search speed (`search_speed`, `report_search`) is ISMCTS iterations per second
from the opening of a dealt game: the median of a few timed hints, each thread
count on as many cores (`pin_to_cores`).
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TextIO

from solver.game.position import Position
from solver.game.reference import Game, play_random_game
from solver.game.rules import Rules
from solver.search import Limits, Solver

C_SOURCE = Path(__file__).resolve().parent / "c" / "durak_playout.c"
C_FLAGS = ["-O3", "-march=native", "-std=gnu11"]

__all__ = [
    "DEFAULT_CONFIGS",
    "ENGINES",
    "CEngine",
    "CoreEngine",
    "EngineUnavailable",
    "PlayoutEngine",
    "PlayoutTotals",
    "ReferenceEngine",
    "Skipped",
    "default_engines",
    "engines_named",
    "game_count",
    "pin_to_cores",
    "pin_to_one_core",
    "report_playouts",
    "report_search",
    "run_playouts",
    "search_speed",
]

# The rules and seat counts `tan bench` measures by default (BENCHMARKS.md, quality bars names the first two).
DEFAULT_CONFIGS: tuple[tuple[str, int], ...] = (("durak", 2), ("tan", 2), ("tan", 4))


class EngineUnavailable(RuntimeError):
    """This engine cannot run here (not built, not installed, or not for these rules)."""


@dataclass(frozen=True)
class PlayoutTotals:
    """What one engine did in one timed run of `playouts` games."""

    engine: str
    rules: str
    players: int
    playouts: int
    seconds: float
    plies: int
    losses: tuple[int, ...]
    draws: int

    @classmethod
    def from_counts(cls, engine: str, rules: str, players: int, out: dict[str, Any]) -> PlayoutTotals:
        """Totals from an engine's raw counts: playouts, seconds, plies, losses, draws."""
        return cls(
            engine=engine,
            rules=rules,
            players=players,
            playouts=int(out["playouts"]),
            seconds=float(out["seconds"]),
            plies=int(out["plies"]),
            losses=tuple(int(n) for n in out["losses"]),
            draws=int(out["draws"]),
        )

    @property
    def playouts_per_s(self) -> float:
        return self.playouts / self.seconds if self.seconds > 0 else float("inf")

    @property
    def plies_per_game(self) -> float:
        return self.plies / self.playouts

    @property
    def loss_rate_by_seat(self) -> list[float]:
        return [losses / self.playouts for losses in self.losses]

    @property
    def draw_rate(self) -> float:
        return self.draws / self.playouts

    def to_json(self) -> dict[str, Any]:
        """docs/api.md §4's `{"bench": "playouts", …}` line, with the raw totals after it."""
        return {
            "bench": "playouts",
            "rules": self.rules,
            "players": self.players,
            "engine": self.engine,
            "playouts_per_s": round(self.playouts_per_s, 1),
            "plies_per_game": round(self.plies_per_game, 3),
            "loss_rate_by_seat": [round(rate, 5) for rate in self.loss_rate_by_seat],
            "draw_rate": round(self.draw_rate, 5),
            "playouts": self.playouts,
            "seconds": round(self.seconds, 4),
        }

    def describe(self) -> str:
        """One line for people: speed, game length and who loses."""
        losses = " ".join(f"{rate:.3f}" for rate in self.loss_rate_by_seat)
        return (
            f"{self.rules:<6} {self.players} seats  {self.engine:<9} "
            f"{self.playouts_per_s:>13,.0f} playouts/s  {self.plies_per_game:7.1f} plies/game  "
            f"loss by seat [{losses}]  draws {self.draw_rate:.4f}  "
            f"({self.playouts:,} games, {self.seconds:.2f} s)"
        )


class PlayoutEngine(Protocol):
    """Something that plays random games: the plug-in face of `run_playouts`."""

    name: str
    games: int  # playouts in a full run
    short_games: int  # playouts in a `--short` run

    def supports(self, rules: str, players: int) -> bool: ...

    def run(self, rules: str, players: int, games: int, seed: int) -> PlayoutTotals: ...


@dataclass
class CoreEngine:
    """The Cython core: `solver.core._core.bench_playouts`, deal and play in one nogil loop."""

    name: str = "core"
    games: int = 1_000_000
    short_games: int = 50_000

    def supports(self, rules: str, players: int) -> bool:
        return True

    def run(self, rules: str, players: int, games: int, seed: int) -> PlayoutTotals:
        try:
            _core = importlib.import_module("solver.core._core")
        except ImportError as error:
            raise EngineUnavailable(f"solver.core._core is not built ({error}); run `make build`") from None
        bench = getattr(_core, "bench_playouts", None)
        if bench is None:
            raise EngineUnavailable("solver.core._core has no bench_playouts()")
        out = bench(Rules.from_json(rules).to_json(), players, games, seed)
        return PlayoutTotals.from_counts(self.name, rules, players, out)


@dataclass
class ReferenceEngine:
    """The plain Python rules: game `i` is `play_random_game` with seed `seed + i`."""

    name: str = "reference"
    games: int = 1_000
    short_games: int = 50

    def supports(self, rules: str, players: int) -> bool:
        return True

    def run(self, rules: str, players: int, games: int, seed: int) -> PlayoutTotals:
        parsed = Rules.from_json(rules)
        parsed.check_players(players)
        plies = draws = 0
        losses = [0] * players
        start = time.perf_counter()
        for number in range(games):
            game = play_random_game(parsed, players, seed + number)
            plies += game.plies
            if game.loser is None:
                draws += 1
            else:
                losses[game.loser] += 1
        seconds = time.perf_counter() - start
        return PlayoutTotals(self.name, rules, players, games, seconds, plies, tuple(losses), draws)


@dataclass
class CEngine:
    """`solver/tools/c/durak_playout.c`, the hand-written C loop: the physical speed reference.

    Written for `durak` with two seats only, with the whole state in registers;
    built with `gcc -O3 -march=native` in a temporary folder at each run.
    """

    name: str = "c"
    games: int = 2_000_000
    short_games: int = 200_000
    compiler: str = "gcc"

    def supports(self, rules: str, players: int) -> bool:
        return rules == "durak" and players == 2

    def run(self, rules: str, players: int, games: int, seed: int) -> PlayoutTotals:
        if not self.supports(rules, players):
            raise EngineUnavailable(f"the C loop plays only durak with 2 seats, not {rules} with {players}")
        compiler = shutil.which(self.compiler)
        if compiler is None:
            raise EngineUnavailable(f"{self.compiler} is not installed")
        with tempfile.TemporaryDirectory(prefix="tan-c-") as folder:
            binary = Path(folder) / "durak_playout"
            build = subprocess.run(
                [compiler, *C_FLAGS, "-o", str(binary), str(C_SOURCE)], capture_output=True, text=True
            )
            if build.returncode != 0:
                raise EngineUnavailable(f"{self.compiler} failed: {build.stderr.strip()}")
            command = [str(binary), str(games), str(seed)]
            run = subprocess.run(command, capture_output=True, text=True, check=True)
        return PlayoutTotals.from_counts(self.name, rules, players, json.loads(run.stdout))


ENGINES: dict[str, type[Any]] = {"core": CoreEngine, "reference": ReferenceEngine, "c": CEngine}


def engines_named(names: str) -> list[PlayoutEngine]:
    """Engines from a comma-separated list such as `c,core,reference` (ValueError for others)."""
    chosen = [name.strip() for name in names.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in ENGINES]
    if unknown or not chosen:
        given = ", ".join(unknown) or "none given"
        raise ValueError(f"unknown engine(s): {given} (known: {', '.join(ENGINES)})")
    return [ENGINES[name]() for name in chosen]


def default_engines() -> list[PlayoutEngine]:
    """The engines inside the `solver` package, fastest first."""
    return [CoreEngine(), ReferenceEngine()]


@dataclass
class Skipped:
    """An engine that could not run one configuration, and why."""

    engine: str
    rules: str
    players: int
    reason: str


def run_playouts(
    engines: Iterable[PlayoutEngine],
    configs: Sequence[tuple[str, int]] = DEFAULT_CONFIGS,
    *,
    short: bool = False,
    games: int | None = None,
    seed: int = 1,
    on_skip: Callable[[Skipped], None] | None = None,
) -> Iterator[PlayoutTotals]:
    """Time every engine on every configuration it supports, yielding totals as they come.

    `games` overrides each engine's own count (`short_games` with `short`). An
    engine that is unavailable is reported once to `on_skip` and left out.
    """
    engines = list(engines)
    dead: set[str] = set()
    for rules, players in configs:
        for engine in engines:
            if engine.name in dead or not engine.supports(rules, players):
                continue
            count = game_count(engine, short=short, games=games)
            try:
                yield engine.run(rules, players, count, seed)
            except EngineUnavailable as error:
                dead.add(engine.name)
                if on_skip is not None:
                    on_skip(Skipped(engine.name, rules, players, str(error)))


def game_count(engine: PlayoutEngine, *, short: bool = False, games: int | None = None) -> int:
    """Games to time `engine` on: `games` if given, else its own count (`short_games` with `short`)."""
    if games is not None:
        return games
    return engine.short_games if short else engine.games


def pin_to_one_core() -> int | None:
    """Pin this process (and the programs it starts) to one CPU; returns it, or None if unsupported.

    The last CPU the process may use is taken: CPU 0 tends to serve interrupts.
    """
    cpus = pin_to_cores(1)
    return None if cpus is None else max(cpus)


def pin_to_cores(count: int, among: Iterable[int] | None = None) -> set[int] | None:
    """Let this process use the last `count` CPUs of `among` (default: those it may use now).

    Returns the CPUs, or None where affinity is unsupported or `among` has fewer than `count`.
    """
    if not hasattr(os, "sched_setaffinity"):
        return None
    try:
        cpus = sorted(os.sched_getaffinity(0) if among is None else among)
        if len(cpus) < count:
            return None
        chosen = set(cpus[-count:])
        os.sched_setaffinity(0, chosen)
    except OSError:
        return None
    return chosen


def report_playouts(
    engines: Iterable[PlayoutEngine],
    configs: Sequence[tuple[str, int]] = DEFAULT_CONFIGS,
    *,
    short: bool = False,
    games: int | None = None,
    seed: int = 1,
    as_json: bool = False,
    out: TextIO | None = None,
    notes: TextIO | None = None,
) -> list[PlayoutTotals]:
    """Run `run_playouts` and print each result as it comes: docs/api.md §4 JSON lines or a line for people.

    Skipped engines get a note on `notes` (standard error by default).
    """
    out = sys.stdout if out is None else out
    notes = sys.stderr if notes is None else notes

    def skip(skipped: Skipped) -> None:
        print(f"tan bench: skipping engine {skipped.engine!r}: {skipped.reason}", file=notes, flush=True)

    results = []
    for totals in run_playouts(engines, configs, short=short, games=games, seed=seed, on_skip=skip):
        results.append(totals)
        print(json.dumps(totals.to_json()) if as_json else totals.describe(), file=out, flush=True)
    return results


# -- search speed ------------------------------------------------------------------------


@dataclass(frozen=True)
class SearchSpeed:
    """ISMCTS iterations per second from the opening of a dealt game."""

    rules: str
    players: int
    threads: int
    iterations: int
    seconds: float  # the median of `runs`
    engine: str  # the search engine (`solver.search.config.PRESETS`)
    runs: tuple[float, ...] = ()  # seconds of each timed hint

    @property
    def iterations_per_s(self) -> float:
        return self.iterations / self.seconds if self.seconds > 0 else float("inf")

    def to_json(self) -> dict[str, Any]:
        """docs/api.md §4's `{"bench": "ismcts", …}` line, with the raw totals after it."""
        runs = self.runs or (self.seconds,)
        return {
            "bench": "ismcts",
            "rules": self.rules,
            "players": self.players,
            "threads": self.threads,
            "iterations_per_s": round(self.iterations_per_s, 1),
            "iterations": self.iterations,
            "seconds": round(self.seconds, 4),
            "engine": self.engine,
            "runs": len(runs),
            "iterations_per_s_range": [
                round(self.iterations / max(runs), 1), round(self.iterations / min(runs), 1)
            ],
        }

    def describe(self) -> str:
        runs = self.runs or (self.seconds,)
        spread = (
            f", {self.iterations / max(runs):,.0f}-{self.iterations / min(runs):,.0f} over {len(runs)} runs"
            if len(runs) > 1 else ""
        )
        return (
            f"{self.rules:<6} {self.players} seats  {self.engine} x{self.threads} "
            f"{self.iterations_per_s:>11,.0f} iterations/s  "
            f"({self.iterations:,} in {self.seconds:.2f} s{spread})"
        )


def search_speed(
    rules: str,
    players: int,
    threads: int,
    iterations: int,
    seed: int = 1,
    engine: str = "ismcts",
    repeats: int = 1,
) -> SearchSpeed:
    """Time `repeats` hints of `iterations` iterations of the search engine `engine` (a preset of
    `solver.search.config`) from the opening of deal `seed`.

    The median run is the figure: the first hint of a process can run on a cold,
    slowly clocking core, and one run alone reads low.
    """
    game = Game.deal(Rules.from_json(rules), players, seed=seed)
    solver = Solver(engine, threads=threads)
    position = Position.from_game(game, game.to_move or 0).to_json()
    solver.hint(position, Limits(iterations=min(iterations, 2000)), seed=seed)  # warm up
    runs = []
    for _ in range(max(repeats, 1)):
        start = time.perf_counter()
        hint = solver.hint(position, Limits(iterations=iterations), seed=seed)
        runs.append(time.perf_counter() - start)
    median = sorted(runs)[len(runs) // 2]
    return SearchSpeed(rules, players, threads, hint.stats.iterations, median, engine, tuple(runs))


def report_search(
    configs: Sequence[tuple[str, int]],
    threads: Sequence[int],
    iterations: int,
    *,
    repeats: int = 3,
    engine: str = "ismcts",
    pin: bool = True,
    cpus: Iterable[int] | None = None,
    seed: int = 1,
    as_json: bool = False,
    out: TextIO | None = None,
    notes: TextIO | None = None,
) -> list[SearchSpeed]:
    """ISMCTS speed per rule set and thread count, printed as it comes (docs/api.md §4 JSON lines or text).

    `engine` is the search engine timed (a preset of `solver.search.config`).

    With `pin`, a search of t threads runs on t of `cpus` (default: the cores the
    process may use now), so one thread is a one-core figure; afterwards the
    process may use all of `cpus`.
    """
    out = sys.stdout if out is None else out
    notes = sys.stderr if notes is None else notes
    if cpus is not None:
        start_cpus: list[int] | None = sorted(cpus)
    else:
        start_cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    results = []
    try:
        for rules, players in configs:
            for count in threads:
                if pin and start_cpus is not None and pin_to_cores(count, start_cpus) is None:
                    print(f"search speed: {count} threads on {len(start_cpus)} cores share cores",
                          file=notes, flush=True)
                    pin_to_cores(len(start_cpus), start_cpus)
                speed = search_speed(rules, players, count, iterations, seed=seed, engine=engine,
                                     repeats=repeats)
                results.append(speed)
                print(json.dumps(speed.to_json()) if as_json else speed.describe(), file=out, flush=True)
    finally:
        if pin and start_cpus is not None:
            pin_to_cores(len(start_cpus), start_cpus)
    return results

"""The `tan` command's solver subcommands (docs/api.md §4).

    tan bench [--short] [--json] [--rules R --players N] [--engines core,reference,c]
              [--threads 1,2] [--search-iterations N] [--no-search]
    tan hint | evaluate | moves FILE|- [--json]   answers about a docs/api.md §2.2 position
    tan analyze RECORD|- [--json]   a post-game review of a docs/api.md §2.3 game record
    tan record convert IN|- [OUT|-] [--to text|json]   a game record between JSON and text
    tan play [--rules R --players N --seat S --engine E]   a game in the terminal
    tan arena --engines ismcts,greedy [--deals N --workers W --out F --resume]
              [--scheduler tcp://host:8786] [--sprt ELO0,ELO1 --sprt-alpha A --sprt-beta B]

`tan serve` (the HTTP API and web page) is added by `service.cli`, the
installed script's entry point, so nothing here imports the service (the
one-way flow: service → solver). Without the service, `python -m solver.cli`
runs every other subcommand.

Bad input (a position, a move, an option) is one line on standard error
naming the field or card at fault, and exit status 2 — never a traceback.
"""

from __future__ import annotations

import argparse
import functools
import importlib.metadata
import json
import os
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from solver.game.errors import ErrorCode, RulesError, TanError
from solver.game.notation import record_from_text, record_to_text
from solver.game.position import Position
from solver.game.record import Record
from solver.game.rules import PRESETS, RULE_OPTIONS, Rules
from solver.players import ENGINES
from solver.search import PRESETS as ENGINE_PRESETS
from solver.search import Evaluation, Hint, Limits, Solver
from solver.search.beliefs import KINDS, History, read_record
from solver.search.lines import PV, check_pv
from solver.search.review import review
from solver.tools.arena import (
    ArenaSummary,
    Sprt,
    SprtResult,
    build_tasks,
    run_arena,
    sprt_result,
    summarize,
    with_limits,
)
from solver.tools.bench import (
    DEFAULT_CONFIGS,
    engines_named,
    pin_to_one_core,
    report_playouts,
    report_search,
)
from solver.tools.console import (
    TerminalGame,
    format_evaluation,
    format_hint,
    format_moves,
    format_position,
    format_review,
)

__all__ = ["main", "version"]

BAD_INPUT = 2  # exit status of bad input (a position, a move, an option), as argparse's usage errors


def version() -> str:
    """The installed package's version (`0+unknown` when run from a bare checkout)."""
    try:
        return importlib.metadata.version("tan")
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"


# -- subcommands ----------------------------------------------------------------------------


def _bench(args: argparse.Namespace) -> int:
    """Time random playouts per engine, then ISMCTS per thread count (docs/api.md §4 `tan bench`)."""
    if args.games is not None and args.games < 1:
        return _usage("tan bench: --games must be at least 1")
    if args.rules is None:
        configs = [config for config in DEFAULT_CONFIGS if args.players in (None, config[1])]
    else:
        players = args.players if args.players is not None else PRESETS[args.rules].min_players
        configs = [(args.rules, players)]
    for rules, players in configs:
        try:
            Rules.from_json(rules).check_players(players)
        except RulesError as error:
            return _usage(f"tan bench: {error}")
    if not configs:
        return _usage(f"tan bench: no default configuration has {args.players} players; give --rules")
    try:
        engines = engines_named(args.engines)
    except ValueError as error:
        return _usage(f"tan bench: {error}")
    try:
        threads = [int(count) for count in args.threads.split(",") if count.strip()]
    except ValueError:
        threads = []
    if args.search and (not threads or min(threads) < 1):
        return _usage(f"tan bench: --threads must be positive whole numbers, not {args.threads!r}")
    iterations = args.search_iterations
    if iterations is None:
        iterations = 20_000 if args.short else 300_000
    if iterations < 1:
        return _usage("tan bench: --search-iterations must be at least 1")
    cpus = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    if args.pin and pin_to_one_core() is None:
        print("tan bench: could not pin to one core; figures may mix cores", file=sys.stderr)
    results = report_playouts(
        engines, configs, short=args.short, games=args.games, seed=args.seed, as_json=args.json
    )
    if args.search:
        report_search(configs, threads, iterations, repeats=1 if args.short else 3, pin=args.pin,
                      cpus=cpus, seed=args.seed, as_json=args.json)
    return 0 if results else 1


def _usage(message: str) -> int:
    print(message, file=sys.stderr)
    return BAD_INPUT


def _refusing_bad_input(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Turn any refusal of the input (`TanError`, an unreadable file) into one line and status 2."""

    @functools.wraps(run)
    def wrapper(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except TanError as error:
            return _usage(f"tan {args.command}: {error.message} ({error.code})")
        except _InputError as error:
            return _usage(f"tan {args.command}: {error}")
        except BrokenPipeError:
            # The reader went away (`tan play … | head`): stop quietly, as a filter should.
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - Python flushes stdout at exit
            return 1

    return wrapper


class _InputError(Exception):
    """Input that could not be read at all (no such file, not JSON)."""


def _label(name: str) -> str:
    return "standard input" if name == "-" else name


def _read_text(name: str) -> str:
    """A file's text, or standard input's for `-`."""
    try:
        return sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise _InputError(f"cannot read {_label(name)}: {reason}") from None


def _read_json(name: str, text: str | None = None) -> Any:
    """JSON from a file, or from standard input for `-` (`text`: already read from it)."""
    try:
        return json.loads(_read_text(name) if text is None else text)
    except json.JSONDecodeError as error:
        raise _InputError(
            f"{_label(name)} is not JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None


def _is_json(text: str) -> bool:
    """Whether a record's file holds its JSON (an object) rather than its text (docs/notation.md)."""
    return text.lstrip().startswith("{")


def _read_record(name: str) -> Record:
    """A game record from a file or standard input: its JSON (docs/api.md §2.3) or its text
    (docs/notation.md), whichever the file holds."""
    text = _read_text(name)
    return Record.from_json(_read_json(name, text)) if _is_json(text) else record_from_text(text)


def _read_position(name: str, record: bool = False) -> tuple[Position, History | None]:
    """A position from the file, or the position its game record replays to and the history it
    shows (`--record`)."""
    if record:
        return read_record(_read_record(name))
    return Position.from_json(_read_json(name)), None


def _limits(args: argparse.Namespace, default: Limits) -> Limits:
    """`--iterations`/`--time-ms` as limits; `default` when neither is given."""
    if args.iterations is None and args.time_ms is None:
        return default
    return Limits(iterations=args.iterations, time_ms=args.time_ms)


def _print_json(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False))


def _answer(args: argparse.Namespace, position: Position, answer: Hint | Evaluation, table: str) -> int:
    """The answer as JSON (`--json`), else the position's head line and `table`."""
    if args.json:
        _print_json(answer.to_json())
    else:
        print(format_position(position))
        print()
        print(table)
    return 0


@_refusing_bad_input
def _hint(args: argparse.Namespace) -> int:
    """Ranked moves of a position (docs/api.md §3 hint answer)."""
    if args.multipv is not None and args.multipv < 1:
        raise TanError(f"multipv must be at least 1, not {args.multipv}", ErrorCode.BAD_LIMITS)
    position, history = _read_position(args.file, args.record)
    solver = Solver(args.algorithm, threads=args.threads, beliefs=args.beliefs, others=args.others)
    limits = _limits(args, Limits())
    hint = solver.hint(position, limits, seed=args.seed, multipv=args.multipv, history=history,
                       pv=check_pv(args.pv))
    return _answer(args, position, hint, format_hint(hint))


@_refusing_bad_input
def _evaluate(args: argparse.Namespace) -> int:
    """How good a position is for its seat (docs/api.md §3 evaluate answer)."""
    position, history = _read_position(args.file, args.record)
    solver = Solver(args.algorithm, threads=args.threads, beliefs=args.beliefs, others=args.others)
    evaluation = solver.evaluate(position, _limits(args, Limits()), seed=args.seed, history=history)
    return _answer(args, position, evaluation, format_evaluation(evaluation))


@_refusing_bad_input
def _moves(args: argparse.Namespace) -> int:
    """The legal moves of the seat to move, which must be the position's seat (docs/api.md §3 moves)."""
    position, _history = _read_position(args.file)
    moves = position.legal_moves()
    if args.json:
        _print_json({"to_move": position.to_move, "moves": [move.to_json() for move in moves]})
    else:
        print(format_position(position))
        print(format_moves(position, moves))
    return 0


@_refusing_bad_input
def _analyze(args: argparse.Namespace) -> int:
    """A post-game review of a record's seat: each decision against the engine's best (docs/api.md §3)."""
    record = _read_record(args.file)
    solver = Solver(args.algorithm, threads=args.threads)
    answer = review(record, _limits(args, Limits()), seed=args.seed, solver=solver)
    if args.json:
        _print_json(answer.to_json())
    else:
        print(format_review(answer, record.rules, record.players))
    return 0


def _rules_option(text: str) -> Any:
    """`--rules`: a preset name or docs/rules.md §1.6 JSON (`{"preset": "durak", "transfer": true}`)."""
    if text.lstrip().startswith("{"):
        try:
            return json.loads(text)
        except json.JSONDecodeError as error:
            raise argparse.ArgumentTypeError(f"not JSON: {error.msg}") from None
    if text not in PRESETS:
        raise argparse.ArgumentTypeError(f"unknown preset {text!r} (expected one of {', '.join(PRESETS)})")
    return text


def _engine_specs(text: str) -> list[Any]:
    """`--engines`/`--engine`: names separated by commas, or a JSON list (or object) of seat specs."""
    stripped = text.strip()
    if stripped.startswith(("[", "{")):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as error:
            raise TanError(f"engines: not JSON: {error.msg}", ErrorCode.UNKNOWN_ENGINE) from None
        specs = data if isinstance(data, list) else [data]
    else:
        specs = [name.strip() for name in stripped.split(",") if name.strip()]
    if not specs:
        raise TanError("engines: none given", ErrorCode.UNKNOWN_ENGINE)
    return specs


@_refusing_bad_input
def _convert(args: argparse.Namespace) -> int:
    """A game record from JSON to text or back (docs/notation.md): `--to`, else the other form."""
    text = _read_text(args.input)
    given = "json" if _is_json(text) else "text"
    record = Record.from_json(_read_json(args.input, text)) if given == "json" else record_from_text(text)
    to = args.to or ("text" if given == "json" else "json")
    if to == "text":
        out = record_to_text(record)
    else:
        out = json.dumps(record.to_json(), indent=2, ensure_ascii=False) + "\n"
    if args.output == "-":
        sys.stdout.write(out)
        return 0
    try:
        Path(args.output).write_text(out, encoding="utf-8")
    except OSError as error:
        raise _InputError(f"cannot write {args.output}: {error.strerror or error}") from None
    return 0


@_refusing_bad_input
def _play(args: argparse.Namespace) -> int:
    """A game in the terminal against engines (docs/api.md §4 `tan play`), moves read from stdin."""
    rules = Rules.from_json(args.rules)
    limits = _limits(args, Limits(iterations=None, time_ms=200))
    engines = [with_limits(spec, limits) for spec in _engine_specs(args.engine)]
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    game = TerminalGame(
        rules=rules,
        players=args.players,
        human=args.seat,
        engines=engines,
        seed=seed,
        hint_limits=limits,
        stdin=sys.stdin,
        stdout=sys.stdout,
        algorithm=args.algorithm,
        games=args.match,
    )
    try:
        return game.run()
    except KeyboardInterrupt:
        print("\ntan play: interrupted", file=sys.stderr)
        return 130


@_refusing_bad_input
def _arena(args: argparse.Namespace) -> int:
    """Engines against each other on paired deals (docs/api.md §4 `tan arena`)."""
    specs = _engine_specs(args.engines)
    limits = None if args.iterations is None and args.time_ms is None else _limits(args, Limits())
    tasks = build_tasks(specs, args.deals, rules=args.rules, players=args.players, seed=args.seed,
                        limits=limits, match=args.match)
    if args.resume and args.out is None:
        raise TanError("--resume needs --out, the results file to resume", ErrorCode.BAD_ARENA)
    sprt = _sprt_option(args)
    finished: list[dict[str, Any]] = []
    try:
        records = run_arena(tasks, workers=args.workers, out=args.out, resume=args.resume,
                            progress=args.progress, on_result=finished.append, scheduler=args.scheduler,
                            sprt=sprt)
    except KeyboardInterrupt:
        kept = f"; they are in {args.out}, and --resume plays the rest" if args.out else ""
        print(f"tan arena: interrupted after {len(finished)} new games{kept}", file=sys.stderr)
        return 130
    summary = summarize(records, order=list(dict.fromkeys(tasks[0].engines[i] for i in range(len(specs)))))
    test = sprt_result(sprt, tasks, records) if sprt is not None else None
    if args.json:
        _print_json({"rules": args.rules, "players": args.players, "deals": args.deals, "seed": args.seed,
                     **summary.to_json(), **({"sprt": test.to_json()} if test is not None else {})})
    else:
        print(format_arena(summary, deals=args.deals if test is None else test.deals, players=args.players))
        if test is not None:
            print(format_sprt(test))
    return 0


def _sprt_option(args: argparse.Namespace) -> Sprt | None:
    """`--sprt ELO0,ELO1` with `--sprt-alpha` and `--sprt-beta` as a `Sprt`, or None."""
    if args.sprt is None:
        return None
    parts = args.sprt.split(",")
    try:
        elo0, elo1 = (float(part) for part in parts)
    except ValueError:
        raise TanError(f"--sprt wants two Elo bounds ELO0,ELO1 such as 0,50, not {args.sprt!r}",
                       ErrorCode.BAD_ARENA) from None
    return Sprt(elo0, elo1, alpha=args.sprt_alpha, beta=args.sprt_beta)


def format_sprt(test: SprtResult) -> str:
    """One line: the test, its LLR against the bounds, and what it decided after how many games."""
    lower, upper = test.sprt.bounds
    verdict = {
        "H1": f"H1 accepted ({test.engine} {test.sprt.elo1:+g} Elo rather than {test.sprt.elo0:+g})",
        "H0": f"H0 accepted ({test.engine} {test.sprt.elo0:+g} Elo rather than {test.sprt.elo1:+g})",
        "inconclusive": "inconclusive: the deals ran out first",
    }[test.decision]
    return (
        f"SPRT {test.engine} - {test.opponent}, elo0 {test.sprt.elo0:g}, elo1 {test.sprt.elo1:g} "
        f"(alpha {test.sprt.alpha:g}, beta {test.sprt.beta:g}): LLR {test.llr:.3f} "
        f"in [{lower:.3f}, {upper:.3f}] after {test.games} games ({test.deals} deals), {verdict}"
    )


def format_arena(summary: ArenaSummary, deals: int, players: int) -> str:
    """The per-engine table: games, mean score with its Wilson interval, wins/draws/losses, Elo."""
    rows = [
        [
            stats.engine,
            str(stats.games),
            f"{stats.score:.3f}",
            f"{stats.ci95[0]:.3f}-{stats.ci95[1]:.3f}",
            str(stats.wins),
            str(stats.draws),
            str(stats.losses),
        ]
        for stats in summary.engines
    ]
    header = ["engine", "games", "score", "95% (Wilson)", "wins", "draws", "losses"]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [
        f"{summary.games} games: {deals} deals × {players} seat rotations, "
        f"{summary.plies_per_game:.1f} moves a game, {summary.seconds:.1f} s of play"
    ]
    for row in [header, *rows]:
        lines.append("  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                               for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip())
    if summary.elo is not None:
        diff, low, high = summary.elo

        def elo(x: float) -> str:
            return f"{x:+.0f}" if abs(x) != float("inf") else ("+inf" if x > 0 else "-inf")

        lines.append(
            f"Elo {summary.engines[0].engine} - {summary.engines[1].engine}: {elo(diff)} "
            f"(95% {elo(low)} to {elo(high)})"
        )
    return "\n".join(lines)


# -- the parser -----------------------------------------------------------------------------


def _add_search_options(
    parser: argparse.ArgumentParser, json_help: str = "answer in JSON (docs/api.md §3)"
) -> None:
    """The options docs/api.md §4 mirrors from the API's `limits`, `seed` and `algorithm`."""
    parser.add_argument("--iterations", type=int, help="search iterations (whichever limit comes first)")
    parser.add_argument("--time-ms", type=float, help="search time in milliseconds")
    parser.add_argument("--json", action="store_true", help=json_help)


def _add_solver_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=0, help="search seed (default 0)")
    parser.add_argument("--algorithm", default="ismcts", choices=ENGINE_PRESETS,
                        help="the search engine (solver/search/config.py's presets; default ismcts)")
    parser.add_argument("--threads", type=int, default=1, help="root-parallel search threads (default 1)")
    parser.add_argument(
        "--no-beliefs",
        dest="beliefs",
        action="store_false",
        help="deal the hidden cards uniformly, without weighing them by the others' moves in a --record",
    )


def _add_game_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules", default="tan", type=_rules_option,
        help=f"a preset ({', '.join(PRESETS)}) or docs/rules.md §1.6 JSON such as "
        '\'{"preset": "durak", "transfer": true}\' with the options below (default tan)',
    )
    parser.add_argument("--players", type=int, default=2, help="seats (default 2)")


def _registry_help() -> str:
    """The engines and the rules options, from their registries (`ENGINES`, `RULE_OPTIONS`)."""
    lines = ["engines:"]
    lines += [f"  {engine.name:<22}{engine.meaning}" for engine in ENGINES.values()]
    lines += ["", "rules options (docs/rules.md §1.6; the default is the tan preset's):"]
    for declared in RULE_OPTIONS.values():
        kind = f"one of {'|'.join(declared.choices)}" if declared.choices is not None else declared.type
        default = json.dumps(declared.default)
        lines.append(f"  {declared.name:<22}{declared.meaning} [{kind}; default {default}]")
    return "\n".join(lines)


def _engine_names() -> str:
    return ", ".join(ENGINES)


Commands = argparse._SubParsersAction  # what `add_commands` hooks add their subcommands to


def build_parser(add_commands: Callable[[Commands], None] | None = None) -> argparse.ArgumentParser:
    """The `tan` parser; `add_commands` adds subcommands from outside the solver (`tan serve`)."""
    parser = argparse.ArgumentParser(
        prog="tan",
        description="Tấn: solver and hint service for bài Tấn / Durak.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    if add_commands is not None:
        add_commands(commands)

    for name, text, run in (
        ("hint", "rank the moves of a position", _hint),
        ("evaluate", "how good a position is", _evaluate),
        ("moves", "the legal moves of a position", _moves),
    ):
        sub = commands.add_parser(name, help=text, description=f"{text} (docs/api.md §2.2 position JSON)")
        sub.add_argument("file", metavar="FILE|-", help="a docs/api.md §2.2 position as JSON; - reads stdin")
        if name == "moves":
            sub.add_argument("--json", action="store_true", help='answer {"to_move": s, "moves": [...]}')
        else:
            _add_search_options(sub)
            _add_solver_options(sub)
            sub.add_argument(
                "--record",
                action="store_true",
                help="FILE is a game record (docs/api.md §2.3): what the seat saw from the deal on",
            )
            sub.add_argument(
                "--others", choices=[kind.name for kind in KINDS],
                help="the kind of player every other seat is known to be (default: read from their moves)",
            )
        if name == "hint":
            sub.add_argument("--multipv", type=int, help="how many ranked moves to show")
            sub.add_argument(
                f"--{PV.name}", type=int, nargs="?", const=PV.asked, default=PV.default, metavar="PLIES",
                help=f"{PV.meaning}; --{PV.name} alone: {PV.asked} plies, at most {PV.maximum}",
            )
        sub.set_defaults(run=run)

    analyze = commands.add_parser(
        "analyze",
        help="review a game: each decision of the record's seat against the engine's best",
        description="review a game: each decision of the record's seat against the engine's best move, "
        "with the loss in expected score and a label (docs/api.md §3)",
    )
    analyze.add_argument(
        "file", metavar="RECORD|-",
        help="a game record, its JSON (docs/api.md §2.3) or text (docs/notation.md); - reads stdin",
    )
    _add_search_options(analyze, json_help="answer in JSON (docs/api.md §3, POST /v1/analyze)")
    _add_solver_options(analyze)
    analyze.set_defaults(run=_analyze)

    record = commands.add_parser(
        "record", help="game records: convert between JSON and text",
        description="game records (docs/api.md §2.3) and their text (docs/notation.md)",
    )
    actions = record.add_subparsers(dest="action", metavar="ACTION", required=True)
    convert = actions.add_parser(
        "convert", help="a record from JSON to text, or from text to JSON",
        description="read a game record as JSON or as text and write it in the other form (or --to)",
    )
    convert.add_argument("input", metavar="IN|-", help="the record, JSON or text; - reads stdin")
    convert.add_argument("output", metavar="OUT|-", nargs="?", default="-",
                         help="where to write it (default -, standard output)")
    convert.add_argument("--to", choices=("text", "json"),
                         help="the form to write (default: the other one than IN's)")
    convert.set_defaults(run=_convert)

    play = commands.add_parser(
        "play", help="play a game in the terminal against engines", epilog=_registry_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_game_options(play)
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument("--match", type=int, default=1, metavar="N",
                      help="play a match of N games in a row (docs/rules.md §1.9; default 1)")
    play.add_argument(
        "--engine", default="ismcts",
        help=f"the other seats' engine(s): names separated by commas ({_engine_names()}), or JSON seat "
        "specs (default ismcts)",
    )
    play.add_argument("--iterations", type=int, help="engine and hint iterations per move")
    play.add_argument("--time-ms", type=float, help="engine and hint time per move (default 200 ms)")
    play.add_argument("--seed", type=int, help="seed of the deal and the engines' moves (default: random)")
    play.add_argument("--algorithm", default="ismcts", choices=ENGINE_PRESETS,
                      help="the search behind `hint`")
    play.set_defaults(run=_play)

    arena = commands.add_parser(
        "arena", help="engines against each other on paired deals", epilog=_registry_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_game_options(arena)
    arena.add_argument(
        "--engines", default="ismcts,greedy",
        help=f"engines: names separated by commas ({_engine_names()}), or a JSON list of "
        'seat specs such as \'["greedy", {"engine": "ismcts", "limits": {"iterations": 500}}]\'',
    )
    arena.add_argument("--deals", type=int, default=10, help="deals, each played in every seat rotation")
    arena.add_argument("--match", type=int, metavar="N",
                       help="each deal starts a match of N games (docs/rules.md §1.9) instead of one game")
    _add_search_options(arena, json_help="print the summary as JSON")
    arena.add_argument("--seed", type=int, default=0, help="seed of the deals and moves (default 0)")
    arena.add_argument("--workers", type=int, help="processes (default: every core; 1 plays in-process)")
    arena.add_argument("--out", help="append each game's record to this JSON-lines file")
    arena.add_argument("--resume", action="store_true", help="keep --out's records, play only the rest")
    arena.add_argument(
        "--scheduler", metavar="ADDRESS",
        help="play the games on the Dask cluster of this scheduler (tcp://host:8786; its workers need tan "
        "installed) instead of local processes; needs dask[distributed]",
    )
    arena.add_argument(
        "--sprt", metavar="ELO0,ELO1",
        help="sequential test of 'the first engine is ELO0 stronger' against 'ELO1 stronger' (e.g. 0,50): "
        "stop once it decides; --deals is then the most to play",
    )
    arena.add_argument("--sprt-alpha", type=float, default=0.05, help="SPRT false-H1 rate (default 0.05)")
    arena.add_argument("--sprt-beta", type=float, default=0.05, help="SPRT false-H0 rate (default 0.05)")
    arena.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None,
        help="a progress bar on stderr (default: when stderr is a terminal)",
    )
    arena.set_defaults(run=_arena)

    bench = commands.add_parser("bench", help="speed: random playouts per second, per engine")
    bench.add_argument("--short", action="store_true", help="a quick run with few games per engine")
    bench.add_argument("--json", action="store_true", help="one docs/api.md §4 JSON object a line")
    bench.add_argument("--rules", choices=sorted(PRESETS), help="only these rules (default: durak and tan)")
    bench.add_argument("--players", type=int, help="only this many seats")
    bench.add_argument("--games", type=int, help="games per engine (default: per engine, fewer with --short)")
    bench.add_argument("--seed", type=int, default=1, help="seed of the deals and moves (default 1)")
    bench.add_argument(
        "--engines",
        default="core,reference",
        help="comma-separated engines: core, reference, c (c needs gcc)",
    )
    bench.add_argument(
        "--no-pin", dest="pin", action="store_false",
        help="do not pin the process to one CPU core (nor a search of t threads to t cores)",
    )
    bench.add_argument(
        "--search", action=argparse.BooleanOptionalAction, default=True,
        help="after the playouts, ISMCTS iterations/s from the opening (default: on)",
    )
    bench.add_argument("--threads", default="1,2", help="search threads, comma-separated (default 1,2)")
    bench.add_argument(
        "--search-iterations", type=int,
        help="iterations of each timed hint (default 300,000; 20,000 with --short)",
    )
    bench.set_defaults(run=_bench)
    return parser


def main(argv: Sequence[str] | None = None, add_commands: Callable[[Commands], None] | None = None) -> int:
    """Parse `argv` and run its subcommand; returns the exit status."""
    args = build_parser(add_commands).parse_args(argv)
    status: int = args.run(args)
    return status


if __name__ == "__main__":
    sys.exit(main())

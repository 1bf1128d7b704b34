"""The `tan` command (SPEC §4).

    tan serve [--host 127.0.0.1] [--port 8000]    the HTTP API and web page
    tan bench [--short] [--json] [--rules R --players N] [--engines core,reference,c]
    tan hint | evaluate | moves FILE|-            (coming)
    tan play | arena                              (coming)

Subcommands that are not built yet say so on standard error and exit with
status 2, so scripts can tell them from a real answer.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from solver.bench import (
    DEFAULT_CONFIGS,
    CoreEngine,
    PlayoutEngine,
    ReferenceEngine,
    pin_to_one_core,
    report_playouts,
)
from solver.errors import RulesError
from solver.rules import PRESETS, Rules

__all__ = ["main", "version"]

NOT_YET = 2  # exit status of a subcommand that is not available yet, and of usage errors


def version() -> str:
    """The installed package's version (`0+unknown` when run from a bare checkout)."""
    try:
        return importlib.metadata.version("tan")
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"


# -- subcommands ----------------------------------------------------------------------------


def _serve(args: argparse.Namespace) -> int:
    """Run the HTTP service with uvicorn (SPEC §3)."""
    import uvicorn

    uvicorn.run("service.main:app", host=args.host, port=args.port, log_level=args.log_level)
    return 0


def _engine(name: str) -> PlayoutEngine | None:
    if name == "core":
        return CoreEngine()
    if name == "reference":
        return ReferenceEngine()
    if name == "c":
        speed = _benchmarks_speed()
        if speed is None:
            print("tan bench: skipping engine 'c': it needs a source checkout (benchmarks/)", file=sys.stderr)
            return None
        engine: PlayoutEngine = speed.CEngine()
        return engine
    raise ValueError(name)


def _benchmarks_speed() -> ModuleType | None:
    """`benchmarks/speed.py` of the checkout this package runs from, where the C loop is built.

    The `tan` script does not have the checkout on `sys.path`, so the file is
    loaded by its path next to the `solver` folder.
    """
    if "benchmarks.speed" in sys.modules:
        return sys.modules["benchmarks.speed"]
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "speed.py"
    spec = importlib.util.spec_from_file_location("_tan_benchmarks_speed", path)
    if not path.is_file() or spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


def _bench(args: argparse.Namespace) -> int:
    """Time random playouts per engine (SPEC §4 `tan bench`)."""
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
    names = [name.strip() for name in args.engines.split(",") if name.strip()]
    unknown = [name for name in names if name not in ("core", "reference", "c")]
    if unknown or not names:
        return _usage(f"tan bench: unknown engine(s) {', '.join(unknown)}; known: core, reference, c")
    engines = [engine for engine in map(_engine, names) if engine is not None]
    if args.pin and pin_to_one_core() is None:
        print("tan bench: could not pin to one core; figures may mix cores", file=sys.stderr)
    results = report_playouts(
        engines, configs, short=args.short, games=args.games, seed=args.seed, as_json=args.json
    )
    return 0 if results else 1


def _usage(message: str) -> int:
    print(message, file=sys.stderr)
    return NOT_YET


def _not_yet(args: argparse.Namespace) -> int:
    print(
        f"tan {args.command}: not yet available in Tấn {version()}; "
        "for now there are `tan serve` and `tan bench`",
        file=sys.stderr,
    )
    return NOT_YET


# -- the parser -----------------------------------------------------------------------------


def _add_search_options(parser: argparse.ArgumentParser) -> None:
    """The options SPEC §4 mirrors from the API's `limits`, `seed` and `multipv`."""
    parser.add_argument("--iterations", type=int, help="search iterations (whichever limit comes first)")
    parser.add_argument("--time-ms", type=int, help="search time in milliseconds")
    parser.add_argument("--seed", type=int, help="seed for a reproducible iteration-limited search")
    parser.add_argument("--json", action="store_true", help="answer in JSON (SPEC §3)")


def _add_game_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default="tan", choices=sorted(PRESETS), help="rules preset (default tan)")
    parser.add_argument("--players", type=int, default=2, help="seats (default 2)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tan",
        description="Tấn: solver and hint service for bài Tấn / Durak.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    serve = commands.add_parser("serve", help="run the HTTP API and web page")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument(
        "--log-level", default="info", choices=["critical", "error", "warning", "info", "debug", "trace"]
    )
    serve.set_defaults(run=_serve)

    for name, text in (
        ("hint", "rank the moves of a position (coming)"),
        ("evaluate", "how good a position is (coming)"),
        ("moves", "the legal moves of a position (coming)"),
    ):
        sub = commands.add_parser(name, help=text)
        sub.add_argument("file", metavar="FILE|-", help="a SPEC §2.2 position as JSON; - reads stdin")
        _add_search_options(sub)
        if name == "hint":
            sub.add_argument("--multipv", type=int, help="how many ranked moves to show")
        sub.set_defaults(run=_not_yet)

    play = commands.add_parser("play", help="play a game in the terminal against engines (coming)")
    _add_game_options(play)
    _add_search_options(play)
    play.set_defaults(run=_not_yet)

    arena = commands.add_parser("arena", help="engines against each other on paired deals (coming)")
    _add_game_options(arena)
    _add_search_options(arena)
    arena.set_defaults(run=_not_yet)

    bench = commands.add_parser("bench", help="speed: random playouts per second, per engine")
    bench.add_argument("--short", action="store_true", help="a quick run with few games per engine")
    bench.add_argument("--json", action="store_true", help="one SPEC §4 JSON object a line")
    bench.add_argument("--rules", choices=sorted(PRESETS), help="only these rules (default: durak and tan)")
    bench.add_argument("--players", type=int, help="only this many seats")
    bench.add_argument("--games", type=int, help="games per engine (default: per engine, fewer with --short)")
    bench.add_argument("--seed", type=int, default=1, help="seed of the deals and moves (default 1)")
    bench.add_argument(
        "--engines",
        default="core,reference",
        help="comma-separated engines: core, reference, c (c needs a source checkout and gcc)",
    )
    bench.add_argument(
        "--no-pin", dest="pin", action="store_false", help="do not pin the process to one CPU core"
    )
    bench.set_defaults(run=_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `tan` script; returns the exit status."""
    args = build_parser().parse_args(argv)
    status: int = args.run(args)
    return status


if __name__ == "__main__":
    sys.exit(main())

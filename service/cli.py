"""The installed `tan` script (docs/api.md §4): the solver's subcommands plus `tan serve` and
`tan worker`.

`tan serve` lives here, beside the app it runs, so that the solver never
imports the service; every other subcommand is `solver.cli`'s.
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Sequence

from service.protocol import timed_protocol
from service.settings import get_settings
from solver import cli as solver_cli

__all__ = ["main"]

LOG_LEVELS = ["critical", "error", "warning", "info", "debug", "trace"]


def add_serve(commands: solver_cli.Commands) -> None:
    """`tan serve [--host H] [--port P] [--log-level L]`."""
    serve = commands.add_parser("serve", help="run the HTTP API and web page")
    serve.add_argument("--host", help="address to listen on (default $TAN_HOST or 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default $TAN_PORT or 8000)")
    serve.add_argument("--log-level", default="info", choices=LOG_LEVELS)
    serve.set_defaults(run=serve_app)
    worker = commands.add_parser(
        "worker", help="work on review jobs from the database (TAN_DATABASE) until Ctrl-C or SIGTERM"
    )
    worker.add_argument(
        "--workers", type=int, default=1, help="jobs worked on at once, each in a search slot of its own"
    )
    worker.set_defaults(run=run_workers)


def run_workers(args: argparse.Namespace) -> int:
    """`tan worker`: `--workers` job workers on the database of `TAN_DATABASE`, in a search pool of
    as many slots; Ctrl-C or SIGTERM stops them (a job being worked on is left to the next worker
    once its lease runs out, less the decision being searched)."""
    import asyncio
    import logging
    import signal

    from service.deps import Services
    from service.metrics import Metrics

    if args.workers < 1:
        print("tan worker: --workers must be at least 1", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    settings = get_settings().model_copy(update={"max_searches": args.workers, "queue_size": args.workers})
    services = Services.start(settings, Metrics())

    async def work() -> None:
        workers = services.workers(args.workers)
        loop = asyncio.get_running_loop()

        def stop() -> None:
            for worker in workers:
                worker.stopping.set()

        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop)
        await asyncio.gather(*(worker.run() for worker in workers))

    try:
        asyncio.run(work())
    finally:
        services.stop()
    return 0


def freeze_the_startup() -> None:
    """Import the app, then leave everything made so far out of the garbage collector's full
    passes (`gc.freeze`): the modules, the rules' and the solver's tables are never garbage, yet a
    full pass walked them all (250 ms on a busy 2-core machine), holding the event loop, each time
    reading long records piled up enough new objects to start one (issue 64, `/healthz` under the
    parse load, docs/deploy.md)."""
    import service.main  # noqa: F401 (the app uvicorn then runs: made now, so that it is frozen)

    gc.collect()
    gc.freeze()


def serve_app(args: argparse.Namespace) -> int:
    """Run the HTTP service with uvicorn; `--host`/`--port` win over `TAN_HOST`/`TAN_PORT`."""
    import uvicorn

    settings = get_settings()
    host = args.host if args.host is not None else settings.host
    port = args.port if args.port is not None else settings.port
    freeze_the_startup()
    uvicorn.run(
        "service.main:app",
        host=host,
        port=port,
        log_level=args.log_level,
        server_header=False,  # the answer need not say what runs it (docs/api.md §3, "Headers")
        http=timed_protocol(settings.header_timeout_s),  # slow headers: 408, closed
        timeout_keep_alive=settings.keep_alive_s,
        limit_concurrency=settings.limit_concurrency,
        # X-Forwarded-For is believed only from the proxies named (none by default): anyone else
        # could pick its own client address, past every per-client cap (docs/deploy.md).
        proxy_headers=bool(settings.forwarded_allow_ips.strip()),
        forwarded_allow_ips=settings.forwarded_allow_ips.strip() or None,
        timeout_graceful_shutdown=settings.shutdown_grace_s,
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `tan` script; returns the exit status."""
    return solver_cli.main(argv, add_commands=add_serve)


if __name__ == "__main__":
    sys.exit(main())

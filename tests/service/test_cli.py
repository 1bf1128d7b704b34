"""The installed `tan` script: `tan serve` from the service, every other subcommand from the solver."""

from __future__ import annotations

import subprocess
import sys

import pytest
from uvicorn.protocols.http.h11_impl import H11Protocol

from service import cli


def test_serve_runs_uvicorn_with_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    calls: list[tuple[str, dict[str, object]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: calls.append((app, kwargs)))
    monkeypatch.delenv("TAN_HOST", raising=False)
    monkeypatch.delenv("TAN_PORT", raising=False)
    assert cli.main(["serve"]) == 0
    assert cli.main(["serve", "--host", "0.0.0.0", "--port", "9000"]) == 0
    app, options = calls[0]
    assert app == "service.main:app"
    assert (options["host"], options["port"], options["log_level"]) == ("127.0.0.1", 8000, "info")
    assert options["server_header"] is False
    assert (options["limit_concurrency"], options["timeout_keep_alive"]) == (1000, 5)
    assert options["timeout_graceful_shutdown"] == 5
    # No proxy is trusted by default: a client's X-Forwarded-For says nothing (docs/deploy.md).
    assert options["proxy_headers"] is False and options["forwarded_allow_ips"] is None
    assert issubclass(options["http"], H11Protocol)  # with the header deadline
    assert calls[1][1]["host"] == "0.0.0.0" and calls[1][1]["port"] == 9000


def test_the_script_has_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        cli.main(["--help"])
    assert caught.value.code == 0
    listed = capsys.readouterr().out
    for command in ("serve", "hint", "evaluate", "moves", "play", "arena", "bench"):
        assert command in listed


def test_the_solver_never_imports_the_service() -> None:
    """STYLE's one-way flow: loading the solver's command line (and so the whole solver) loads
    nothing of the service."""
    code = (
        "import sys, solver.cli, solver.search, solver.players.specs, solver.tools.arena.tasks; "
        "print(sorted(m for m in sys.modules if m == 'service' or m.startswith('service.')))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"


def test_serve_believes_forwarded_addresses_only_from_named_proxies(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    from service.settings import get_settings

    calls: list[dict[str, object]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: calls.append(kwargs))
    monkeypatch.setenv("TAN_FORWARDED_ALLOW_IPS", "127.0.0.1")
    get_settings.cache_clear()
    try:
        assert cli.main(["serve"]) == 0
    finally:
        get_settings.cache_clear()
    assert calls[0]["proxy_headers"] is True and calls[0]["forwarded_allow_ips"] == "127.0.0.1"

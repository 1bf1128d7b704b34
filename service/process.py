"""`tan serve` in a child process: started, waited for until it answers, stopped as Ctrl-C does.

For whatever must talk to a real server over HTTP: the load benchmark and the
end-to-end tests. Settings go to the child as `TAN_*` environment variables.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

__all__ = ["ServiceProcess", "free_port"]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ServiceProcess:
    """`python -m service.cli serve` (that is, `tan serve`) on 127.0.0.1 with `TAN_*` settings.

    `stop()` sends SIGINT, as Ctrl-C does, and returns the exit status. `wrapper` is a command the
    server runs under (`wrapper + [python, -m, service.cli, …]`): a mount namespace that makes a
    disk read-only, say; it must `exec` the server, so that the signal reaches it.
    """

    def __init__(self, database: Path | str, *, wrapper: Sequence[str] = (), **settings: object) -> None:
        self.wrapper = list(wrapper)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "TAN_DATABASE": str(database)}
        self.env.update({f"TAN_{name.upper()}": str(value) for name, value in settings.items()})
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30.0) -> None:
        """Start the server and wait until `/healthz` answers (RuntimeError if it never does)."""
        command = [
            *self.wrapper, sys.executable, "-m", "service.cli", "serve",
            "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "warning",
        ]  # fmt: skip
        self.process = subprocess.Popen(command, env=self.env, stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                stderr = self.process.stderr.read().decode() if self.process.stderr else ""
                raise RuntimeError(f"the server exited with status {self.process.returncode}: {stderr}")
            if self._healthy():
                return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("the server did not answer /healthz in time")

    def _healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/healthz", timeout=1.0) as answer:
                return int(answer.status) == 200
        except (urllib.error.URLError, OSError):
            return False

    def stop(self, timeout: float = 15.0) -> int:
        """Ctrl-C (SIGINT), then wait; kills the process only if it hangs."""
        if self.process is None:
            return 0
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stderr is not None:
            self.process.stderr.close()
        return int(self.process.returncode)

    def __enter__(self) -> ServiceProcess:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.stop()

"""A throwaway PostgreSQL cluster: Debian's server binaries, `initdb` in a temporary folder, `pg_ctl`
on a free loopback port, fresh databases on demand — for the tests (tests/support/postgres.py)
and the load benchmark (`benchmarks.load --store postgresql`), as `service.process` runs
`tan serve` for them.

PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` user Debian's
package creates. The cluster trusts every local connection and syncs nothing to disk: it is for
measurements and tests, never for games anyone keeps.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType

from service.process import free_port

__all__ = ["BIN", "Cluster", "binaries"]

BIN = Path("/usr/lib/postgresql")
"""Where Debian keeps each installed PostgreSQL version's server binaries (`15/bin`, ...)."""


def binaries() -> Path | None:
    """Where PostgreSQL's server binaries are (Debian's newest version, whichever the release
    ships, else on the PATH), or None."""
    versions = [path.parent for path in BIN.glob("*/bin/initdb") if path.parts[-3].isdigit()]
    if versions:
        return max(versions, key=lambda folder: int(folder.parts[-2]))
    found = shutil.which("pg_ctl")
    return Path(found).resolve().parent if found else None


class Cluster:
    """One PostgreSQL server on 127.0.0.1:`port`, its data in a temporary folder; `database()`
    makes a new empty database and answers its URL."""

    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="tan-pg-"))
        self.data = self.folder / "data"
        self.user: pwd.struct_passwd | None = pwd.getpwnam("postgres") if os.geteuid() == 0 else None
        self._names = itertools.count()
        if self.user is not None:
            os.chown(self.folder, self.user.pw_uid, self.user.pw_gid)

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if self.user is not None else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, cwd=self.folder)

    def start(self) -> None:
        """initdb, then pg_ctl start; the folder is removed again if either fails."""
        try:
            self._start()
        except BaseException:
            self.stop()
            raise

    def _start(self) -> None:
        self._run(str(self.binaries / "initdb"), "-D", str(self.data), "-U", "tan", "--auth=trust",
                  "--encoding=UTF8", "--no-sync")
        self.resume()

    def pause(self) -> None:
        """Stop the server as an outage does (its connections cut, its data kept): `resume()` brings
        it back on the same port."""
        self._run(str(self.binaries / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Start the server on its data folder (again, after `pause()`)."""
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder} -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run(str(self.binaries / "pg_ctl"), "-D", str(self.data), "-o", options, "-w", "-t", "60",
                  "-l", str(self.folder / "log"), "start")

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run(str(self.binaries / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, name: str = "postgres") -> str:
        return f"postgresql://tan@127.0.0.1:{self.port}/{name}"

    def database(self) -> str:
        """A new empty database's URL."""
        import psycopg

        name = f"test_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def admin(self, sql: str) -> None:
        """Run `sql` as the cluster's superuser, outside any database of the tests."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(sql)

    def __enter__(self) -> Cluster:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.stop()

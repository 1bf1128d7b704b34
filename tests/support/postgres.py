"""A throwaway PostgreSQL cluster for the tests: Debian's server binaries, `initdb` in a temporary
folder, `pg_ctl` on a free loopback port, one fresh database per test.

Nothing is downloaded: `make test` installs Debian's `postgresql` when it is missing; without it
the tests that need a server are skipped, except under CI, where they fail. PostgreSQL refuses to
run as root, so as root the cluster runs as the `postgres` user Debian's package creates.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.process import free_port

__all__ = ["Cluster", "cluster_fixture"]

BIN = Path("/usr/lib/postgresql/15/bin")


def _binaries() -> Path | None:
    if (BIN / "initdb").exists():
        return BIN
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
        self._run(str(self.binaries / "initdb"), "-D", str(self.data), "-U", "tan", "--auth=trust",
                  "--encoding=UTF8", "--no-sync")
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
            admin.execute(sql)  # type: ignore[arg-type]


def cluster_fixture() -> Iterator[Cluster]:
    """A cluster for the session (one per xdist worker); skipped without PostgreSQL, except
    under CI (`CI` set), where that fails."""
    binaries = _binaries()
    if binaries is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL not found under CI: make test's postgresql step should have installed it")
        pytest.skip("PostgreSQL's server binaries are not installed (make test installs them)")
    cluster = Cluster(binaries)
    try:
        cluster.start()
    except BaseException:
        cluster.stop()
        raise
    try:
        yield cluster
    finally:
        cluster.stop()

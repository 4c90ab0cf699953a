"""A throwaway PostgreSQL server on a free loopback port, for the tests.

Made with ``initdb`` and run with ``pg_ctl`` (Debian's ``postgresql`` package,
installed by ``.ci/run``: the programs are on the PATH, or under
``/usr/lib/postgresql/<version>/bin``) in a temporary directory, with trust
authentication on 127.0.0.1 only and fsync off (its data is thrown away).
PostgreSQL refuses to run as root: as root, it runs as the ``postgres`` user
(or ``nobody``) through ``setpriv``.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.support.processes import free_port

USER = "craits"
"""The database superuser the tests connect as."""


def find_bin() -> Path | None:
    """The directory of ``initdb`` and ``pg_ctl``, or None where there is none."""
    found = shutil.which("pg_ctl")
    candidates = [Path(found).resolve().parent] if found else []
    candidates += [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)]
    for directory in candidates:
        if (directory / "initdb").exists() and (directory / "pg_ctl").exists():
            return directory
    return None


def why_not() -> str | None:
    """Why no PostgreSQL can be started here, or None when one can."""
    if find_bin() is None:
        return "PostgreSQL (initdb, pg_ctl) is not installed: apt-get install postgresql"
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        return "running as root without setpriv to start PostgreSQL as another user"
    return None


class PostgresServer:
    """One PostgreSQL server: :meth:`start`, then :meth:`dsn` per database, :meth:`stop`."""

    def __init__(self) -> None:
        bin_dir = find_bin()
        assert bin_dir is not None
        self.bin = bin_dir
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="craits-pg-"))
        self.data = self.dir / "data"
        self._prefix: list[str] = []
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                user = pwd.getpwnam("nobody")
            os.chown(self.dir, user.pw_uid, user.pw_gid)
            setpriv = shutil.which("setpriv")
            assert setpriv is not None
            self._prefix = [
                setpriv,
                f"--reuid={user.pw_uid}",
                f"--regid={user.pw_gid}",
                "--clear-groups",
                "--",
            ]

    def _run(self, *args: str) -> None:
        done = subprocess.run(
            [*self._prefix, *args], capture_output=True, text=True, timeout=120, check=False
        )
        if done.returncode != 0:
            log = self.dir / "log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise OSError(f"{args[0]} failed: {done.stdout}{done.stderr}{tail}")

    def start(self) -> None:
        """initdb, then start and wait until it accepts connections.

        Raises:
            OSError: either failed (its output in the message).
        """
        self._run(
            str(self.bin / "initdb"), "-D", str(self.data), "-U", USER, "--auth=trust",
            "-E", "UTF8", "--no-sync", "--locale=C",
        )  # fmt: skip
        options = (
            f"-h 127.0.0.1 -p {self.port} -k {self.dir} -c fsync=off"
            " -c full_page_writes=off -c synchronous_commit=off -c max_connections=200"
        )
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.dir / "log"),
            "-w", "-t", "60", "-o", options, "start",
        )  # fmt: skip

    def dsn(self, database: str = "postgres") -> str:
        """The connection string of ``database`` on this server."""
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        """Stop it at once and remove its files."""
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

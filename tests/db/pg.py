"""A throwaway PostgreSQL cluster for the tests and benchmarks, from Debian's binaries.

initdb + pg_ctl in a temporary folder of its own on a free localhost port (another port is tried
when a parallel test process took it first), so each pytest-xdist worker has its own cluster; as
root the folder belongs to the ``postgres`` user and the binaries run through
``runuser -u postgres --``.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

SKIP_REASON = (
    "PostgreSQL tests skipped: no PostgreSQL binaries in /usr/lib/postgresql/*/bin "
    "(install the postgresql package)"
)


def pg_bin() -> Path | None:
    """The newest installed PostgreSQL bin folder with initdb and pg_ctl, if any."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit()
        else 0,
    )
    if not found:
        return None
    folder = Path(found[-1]).parent
    return folder if (folder / "pg_ctl").exists() else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgCluster:
    """``with PgCluster() as pg: url = pg.create_database("t1")``."""

    def __init__(self, *, fsync: bool = False, max_connections: int = 60) -> None:
        folder = pg_bin()
        if folder is None:
            raise RuntimeError(SKIP_REASON)
        self.bin = folder
        self.fsync = fsync
        self.max_connections = max_connections
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="dealer-assist-pg-"))
        self.data = self.root / "data"
        self.as_root = os.geteuid() == 0
        self._count = 0

    def _run(self, *cmd: str) -> subprocess.CompletedProcess[str]:
        full = ["runuser", "-u", "postgres", "--", *cmd] if self.as_root else list(cmd)
        return subprocess.run(full, capture_output=True, text=True, timeout=60, check=False)

    def start(self, *, init: bool = True) -> PgCluster:
        """Create the cluster (``init``) and start the server."""
        if init:
            if self.as_root:
                shutil.chown(self.root, "postgres", "postgres")
                os.chmod(self.root, 0o755)
            r = self._run(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust",
                          "-U", "postgres", "-E", "UTF8", "--no-sync", "--locale=C")
            if r.returncode != 0:
                raise RuntimeError(f"initdb failed: {r.stderr or r.stdout}")
        for attempt in range(3):
            opts = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
                    f"-c fsync={'on' if self.fsync else 'off'} "
                    f"-c max_connections={self.max_connections} "
                    "-c shared_buffers=32MB")
            log_path = self.root / "log"
            seen = log_path.stat().st_size if log_path.exists() else 0
            r = self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", opts,
                          "-l", str(log_path), "-w", "-t", "30", "start")
            if r.returncode == 0:
                return self
            log = log_path.read_text(errors="replace")[seen:] if log_path.exists() else ""
            # the free port was taken between free_port() and the server's bind (another test
            # process starting its own cluster): try again on another port
            if "could not bind" in log and attempt < 2:
                self.port = free_port()
                continue
            raise RuntimeError(f"pg_ctl start failed: {r.stderr or r.stdout}\n{log}")
        raise AssertionError("unreachable")

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{dbname}"

    def create_database(self, name: str | None = None, *, template: str | None = None) -> str:
        import psycopg

        self._count += 1
        name = name or f"t{self._count}"
        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True
        ) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            like = f' TEMPLATE "{template}"' if template else ""
            conn.execute(f'CREATE DATABASE "{name}"{like}')
        return self.url(name)

    def halt(self) -> None:
        """Stop the server at once (as a crash or a network cut would), keeping its data."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w",
                  "stop")

    def stop(self) -> None:
        self.halt()
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> PgCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

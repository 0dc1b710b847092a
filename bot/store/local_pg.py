"""A throwaway PostgreSQL server, for the bench (`railyard bench --store postgres` without a
--database-url) and the tests: initdb in a temporary directory, listening on loopback only,
on a free port, with its unix socket in that directory too, tuned for speed over durability
(fsync off). Never for data anyone wants to keep.

initdb and postgres refuse to run as root, so as root they run as an unprivileged user
(`postgres` if it exists, else `nobody`) that owns the temporary directory. A folder left by
a run that died without stopping its server names its owner process; the next start stops
such orphans.

    server = PostgresServer(find_bindir())   # find_bindir() is None without the programs
    server.start()
    url = server.dsn()                       # postgresql://railyard_test@127.0.0.1:<port>/postgres
    server.stop()
"""
from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

PG_MAJOR = 15
INSTALL_HINT = (
    f"PostgreSQL {PG_MAJOR}'s server programs (initdb, pg_ctl, postgres) were not found: install them"
    f" with `apt install postgresql-{PG_MAJOR}` (Debian/Ubuntu) or `brew install postgresql@{PG_MAJOR}`"
    " (macOS), or name their folder in RAILYARD_PG_BINDIR"
)
SUPERUSER = "railyard_test"
OWNER_FILE = "owner.pid"
_PROGRAMS = ("initdb", "pg_ctl", "postgres")


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server programs on this machine."""


def _has_programs(folder: Path) -> bool:
    return all((folder / name).is_file() and os.access(folder / name, os.X_OK) for name in _PROGRAMS)


def find_bindir() -> Path | None:
    """Where initdb, pg_ctl and postgres live: RAILYARD_PG_BINDIR if set (then nowhere
    else), else `pg_config --bindir`, the Debian/Ubuntu and Homebrew folders of version 15,
    or PATH."""
    if os.environ.get("RAILYARD_PG_BINDIR"):
        named = Path(os.environ["RAILYARD_PG_BINDIR"])
        return named if _has_programs(named) else None
    candidates: list[Path] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        try:
            out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, timeout=10)
            if out.returncode == 0 and out.stdout.strip():
                candidates.append(Path(out.stdout.strip()))
        except (OSError, subprocess.SubprocessError):
            pass
    candidates += [Path(f"/usr/lib/postgresql/{PG_MAJOR}/bin"),
                   Path(f"/opt/homebrew/opt/postgresql@{PG_MAJOR}/bin"),
                   Path(f"/usr/local/opt/postgresql@{PG_MAJOR}/bin")]
    initdb = shutil.which("initdb")
    if initdb:
        candidates.append(Path(initdb).resolve().parent)
    return next((c for c in candidates if _has_programs(c)), None)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _unprivileged_user() -> pwd.struct_passwd:
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise RuntimeError("running as root, and neither a 'postgres' nor a 'nobody' user exists"
                       " to run PostgreSQL as (it refuses to run as root)")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _stop_orphans(bindir: Path, parent: Path) -> None:
    """Stop the servers of earlier test runs that died without stopping theirs (SIGKILL,
    power cut): each folder names the test process that owned it."""
    for folder in parent.glob("railyard-pg-*"):
        try:
            owner = int((folder / OWNER_FILE).read_text())
        except (OSError, ValueError):
            continue
        if _alive(owner):
            continue
        if (folder / "data" / "postmaster.pid").exists():
            stale = PostgresServer(bindir, folder)
            stale.running = True
            stale.stop()
        else:
            shutil.rmtree(folder, ignore_errors=True)


class PostgresServer:
    """One postgres process on 127.0.0.1:<port>, its data and socket in a temporary folder."""

    def __init__(self, bindir: Path, root: Path | None = None) -> None:
        self.bindir = bindir
        self.port = 0
        self._prefix: list[str] = []
        self._user: pwd.struct_passwd | None = None
        if os.geteuid() == 0:
            self._user = _unprivileged_user()
            if shutil.which("setpriv"):  # execs the program itself: pg_ctl's signals reach it
                self._prefix = ["setpriv", f"--reuid={self._user.pw_uid}", f"--regid={self._user.pw_gid}",
                                "--clear-groups", "--"]
            elif shutil.which("runuser"):
                self._prefix = ["runuser", "-u", self._user.pw_name, "--"]
            else:
                raise RuntimeError("running as root without setpriv or runuser to drop privileges")
        # /tmp rather than $TMPDIR as root: the unprivileged user must be able to reach it
        self.root = root or Path(tempfile.mkdtemp(prefix="railyard-pg-", dir="/tmp" if self._user else None))
        self.data = self.root / "data"
        self.sockets = self.root / "sockets"
        self.log = self.root / "server.log"
        self.running = False

    def _run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
        env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
        if self._user is not None:
            env["HOME"] = str(self.root)
        return subprocess.run([*self._prefix, *args], capture_output=True, text=True, timeout=timeout,
                              env=env, cwd=self.root)

    def start(self) -> None:
        _stop_orphans(self.bindir, self.root.parent)
        (self.root / OWNER_FILE).write_text(str(os.getpid()))
        self.sockets.mkdir()
        if self._user is not None:
            for path in (self.root, self.sockets):
                os.chown(path, self._user.pw_uid, self._user.pw_gid)
        done = self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", SUPERUSER,
                         "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions")
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed:\n{done.stdout}\n{done.stderr}")
        last_error = ""
        for _ in range(3):  # a port found free may be taken before the server binds it
            self.port = _free_port()
            options = " ".join([
                "-c listen_addresses=127.0.0.1", f"-p {self.port}", f"-k {self.sockets}",
                # a throwaway database: speed over durability
                "-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off",
                "-c max_connections=300", "-c shared_buffers=64MB",
            ])
            done = self._run(str(self.bindir / "pg_ctl"), "start", "-w", "-t", "60", "-D", str(self.data),
                             "-l", str(self.log), "-o", options)
            if done.returncode == 0:
                self.running = True
                return
            last_error = f"{done.stdout}\n{done.stderr}\n{self._log_tail()}"
        raise RuntimeError(f"the PostgreSQL test server did not start:\n{last_error}")

    def _log_tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    def stop(self) -> None:
        if self.running:
            # immediate: nothing here is worth a clean shutdown checkpoint
            self._run(str(self.bindir / "pg_ctl"), "stop", "-D", str(self.data), "-m", "immediate", "-w",
                      timeout=60)
            self.running = False
        shutil.rmtree(self.root, ignore_errors=True)

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

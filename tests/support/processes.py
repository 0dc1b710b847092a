"""Real bot processes (``python -m tools.loopback.bot_process``) against a FakeDiscord that
lives in the test process, for the multi-process tests.

    async with BotProcesses(fake, "sqlite:///" + str(db), tmp_path) as procs:
        first = procs.start(shard_ids="0", shard_count=2, sync_commands=True)
        second = procs.start(shard_ids="1", shard_count=2)
        await procs.wait_ready()            # every started process said "ready <pid> ..."
        ...                                  # drive them through the fake
        second.kill()                        # SIGKILL
    # leaving the block stops the rest with SIGTERM (SIGKILL if one does not stop)

A process's stdout is read line by line in a thread (``lines``); its stderr (the logs) goes
to a file in the temp dir, so a chatty process can never block on a full pipe, and
``procs.report()`` puts every process's exit code and the end of its log into failure
messages.
"""
from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

from tests.support.log_guard import check_process_log

REPO = Path(__file__).resolve().parents[2]


class BotProcess:
    def __init__(self, args: list[str], log_path: Path, name: str) -> None:
        self.name = name
        self.args = args
        self.log_path = log_path
        self.lines: list[str] = []
        self._log = open(log_path, "wb")
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "tools.loopback.bot_process", *args],
            cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self._log,
        )
        self._reader = threading.Thread(target=self._read, name=f"{name}-stdout", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.popen.stdout is not None
        for raw in self.popen.stdout:
            self.lines.append(raw.decode("utf-8", "replace").rstrip("\n"))

    @property
    def pid(self) -> int:
        return self.popen.pid

    @property
    def returncode(self) -> int | None:
        return self.popen.poll()

    @property
    def ready_line(self) -> str | None:
        return next((line for line in self.lines if line.startswith("ready ")), None)

    @property
    def shards(self) -> tuple[int, ...]:
        """The shards the process said it serves (from its ready line)."""
        line = self.ready_line
        if line is None:
            return ()
        ids = line.split("shards=", 1)[1].strip()
        return tuple(int(x) for x in ids.split(",") if x)

    def interactions(self) -> set[int]:
        """Ids of the interactions this process received (its "interaction <id> ..." lines)."""
        return {int(line.split()[1]) for line in list(self.lines) if line.startswith("interaction ")}

    def log(self, tail: int = 4000) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")[-tail:]
        except OSError:
            return ""

    async def wait_for(self, test: Callable[[str], bool], timeout: float, what: str) -> str:
        """The first stdout line `test` accepts; fails with the log if the process exits or
        `timeout` passes first."""
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            lines = list(self.lines)
            for line in lines[seen:]:
                if test(line):
                    return line
            seen = len(lines)
            if self.returncode is not None:
                self._reader.join(timeout=1)
                if len(self.lines) > seen:
                    continue
                raise AssertionError(f"{self.name} exited ({self.returncode}) before {what}\n{self.log()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: no {what} within {timeout} s\n{self.log()}")
            await asyncio.sleep(0.02)

    def terminate(self, timeout: float = 15.0) -> int:
        """SIGTERM and wait (a clean close); SIGKILL if it does not stop in `timeout`."""
        if self.returncode is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()
        self._close()
        return self.popen.returncode

    async def stop(self, timeout: float = 15.0) -> int:
        """`terminate` without blocking the event loop the fake (in this process) runs on:
        a closing bot still talks to it."""
        return await asyncio.to_thread(self.terminate, timeout)

    def kill(self) -> int:
        """SIGKILL: the process gets no chance to clean up."""
        if self.returncode is None:
            self.popen.kill()
        self.popen.wait()
        self._close()
        return self.popen.returncode

    def _close(self) -> None:
        self._reader.join(timeout=2)
        if self.popen.stdout is not None:
            self.popen.stdout.close()
        if not self._log.closed:
            self._log.close()
            check_process_log(self.log(tail=10_000_000), self.name)  # its ERROR lines fail the test


class BotProcesses:
    """Start bot processes against `fake` on one database; stop them all on exit."""

    def __init__(self, fake: Any, database_url: str, tmp_dir: Path, *, seed: int = 2026,
                 log_level: str = "INFO") -> None:
        self.fake = fake
        self.database_url = database_url
        self.tmp_dir = Path(tmp_dir)
        self.seed = seed
        self.log_level = log_level
        self.procs: list[BotProcess] = []

    def start(self, *, shard_ids: str | None = None, shard_count: int | None = None,
              sync_commands: bool = False, extra: list[str] | None = None) -> BotProcess:
        index = len(self.procs)
        args = ["--api-base", self.fake.api_base, "--gateway", self.fake.gateway_url, "--token", self.fake.token,
                "--database", self.database_url, "--log-level", self.log_level,
                # far-apart seeds: two processes never deal the same game
                "--seed", str(self.seed + 100_000 * index)]
        if shard_ids is not None:
            args += ["--shard-ids", shard_ids]
        if shard_count is not None:
            args += ["--shard-count", str(shard_count)]
        if sync_commands:
            args.append("--sync-commands")
        args += extra or []
        proc = BotProcess(args, self.tmp_dir / f"bot-process-{index}.log", f"bot process {index} (shards {shard_ids})")
        self.procs.append(proc)
        return proc

    async def wait_ready(self, *procs: BotProcess, timeout: float = 60.0) -> None:
        """Until each process (all by default) printed its ready line."""
        await asyncio.gather(*(p.wait_for(lambda line: line.startswith("ready "), timeout, "ready line")
                               for p in (procs or self.procs)))

    def by_pid(self, pid: int) -> BotProcess | None:
        """The process with this pid (e.g. the one an owner id "host:pid:random" names)."""
        return next((p for p in self.procs if p.pid == pid), None)

    def who_got(self, interaction_id: int) -> list[BotProcess]:
        return [p for p in self.procs if interaction_id in p.interactions()]

    def report(self) -> str:
        """Every process's exit code and the end of its log, for a failure message."""
        return "\n".join(f"--- {p.name}, pid {p.pid}, exit {p.returncode}\n{p.log()}" for p in self.procs)

    def stop_all(self) -> list[int]:
        return [p.terminate() for p in self.procs]

    async def __aenter__(self) -> "BotProcesses":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        # the fake answers the processes' requests while they close: keep its loop running
        await asyncio.to_thread(self.stop_all)

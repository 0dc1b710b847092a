#!/usr/bin/env python3
"""Railyard's one entry point for a fresh checkout: needs only Python 3.11+ and git.

    python3 dev.py demo [args]   play a full offline game with bots (see `railyard demo --help`)
    python3 dev.py test [args]   run the whole test suite (what CI runs)
    python3 dev.py test --fast   leave out the slow tier (whole games, processes, PostgreSQL, benches),
                                 on every core
    python3 dev.py <anything>    run `railyard <anything>` inside the project's environment

It creates `.venv/` beside this file on first use and reinstalls the project whenever
pyproject.toml changes, so nothing has to be installed by hand.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".railyard-installed"


def ensure_env() -> None:
    if sys.version_info < (3, 11):
        sys.exit(f"Railyard needs Python 3.11 or newer; this is {sys.version.split()[0]}.")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if PYTHON.exists() and STAMP.exists() and STAMP.read_text() == wanted:
        return
    if not PYTHON.exists():
        print("Creating .venv (first run only)…", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("Installing Railyard and its dependencies into .venv…", flush=True)
    subprocess.check_call([str(PYTHON), "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    subprocess.check_call([str(PYTHON), "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[test]"])
    STAMP.write_text(wanted)


def main(argv: list[str]) -> int:
    ensure_env()
    command = argv[0] if argv else "demo"
    rest = argv[1:]
    if command == "test":
        if "--fast" in rest:
            # The fast tier on every core: its tests share no server, port or file.
            rest = [arg for arg in rest if arg != "--fast"] + ["-m", "not slow", "-n", "auto"]
        args = [str(PYTHON), "-m", "pytest", *rest]
    else:
        args = [str(PYTHON), "-m", "railyard", command, *rest]
    return subprocess.call(args, cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

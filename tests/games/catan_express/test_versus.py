"""`python -m tools.games.catan_express.versus` without catanatron: it says how to make the throwaway
venv catanatron runs in, and stops (catanatron is never a dependency of Railyard)."""
from __future__ import annotations

import importlib.util
import sys

from tools.games.catan_express import versus


def test_an_interpreter_without_catanatron_gets_the_venv_recipe(capsys):
    assert importlib.util.find_spec("catanatron") is None  # this venv must not have it
    assert versus.main(["--python", sys.executable, "--games", "1", "--rounds", "1"]) == 2
    out = capsys.readouterr()
    assert out.out == ""  # nothing timed
    assert f"{sys.executable} cannot import catanatron" in out.err
    assert "python3 -m venv /tmp/catanatron-venv" in out.err
    assert "/tmp/catanatron-venv/bin/pip install catanatron==3.2.1" in out.err
    assert "--python /tmp/catanatron-venv/bin/python" in out.err


def test_an_interpreter_that_is_not_there_gets_the_same_recipe(tmp_path, capsys):
    missing = str(tmp_path / "no-python")
    assert versus.main(["--python", missing]) == 2
    assert f"{missing} cannot import catanatron" in capsys.readouterr().err

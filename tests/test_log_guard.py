"""The log guard (tests/support/log_guard.py): an ERROR logged in any phase of a test fails
it, an expected one does not, and an expected one that never comes fails too."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]
pytestmark = pytest.mark.slow  # each test starts a pytest process of its own

HEADER = '''
import logging
import pytest
log = logging.getLogger("railyard.sample")
'''


ROOT = Path(__file__).resolve().parents[1]


def run(pytester: pytest.Pytester, body: str) -> pytest.RunResult:
    """Run `body` as a test file in a pytest of its own (a process apart: the guard of this
    very test must not see what the sample tests log)."""
    pytester.makepyfile(HEADER + body)
    pytester._monkeypatch.setenv("PYTHONPATH", str(ROOT))
    return pytester.runpytest_subprocess("-p", "tests.support.log_guard", "-q", "-p", "no:cacheprovider")


def test_error_in_the_test_fails_it(pytester: pytest.Pytester) -> None:
    result = run(pytester, '''
def test_it():
    log.error("the post could not be drawn")
''')
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["ERROR logged during the test*", "  ERROR railyard.sample: the post could not be drawn"])


def test_warning_is_not_an_error(pytester: pytest.Pytester) -> None:
    result = run(pytester, '''
def test_it():
    log.warning("slow")
''')
    result.assert_outcomes(passed=1)


def test_error_in_setup_and_teardown_fail_the_test(pytester: pytest.Pytester) -> None:
    result = run(pytester, '''
@pytest.fixture
def noisy_setup():
    log.error("in setup")
    yield

@pytest.fixture
def noisy_teardown():
    yield
    log.critical("in teardown")

def test_setup(noisy_setup):
    pass

def test_teardown(noisy_teardown):
    pass
''')
    result.assert_outcomes(passed=1, errors=2)
    result.stdout.fnmatch_lines(["ERROR logged during setup*", "  ERROR railyard.sample: in setup",
                                 "ERROR logged during teardown*", "  CRITICAL railyard.sample: in teardown"])


def test_exception_logged_from_a_task_fails_the_test(pytester: pytest.Pytester) -> None:
    result = run(pytester, '''
def test_it():
    try:
        raise KeyError("gone")
    except KeyError:
        logging.getLogger("railyard.discord.errors").exception("interaction failed")
''')
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*interaction failed*KeyError*"])


def test_expected_error_passes_and_a_missing_one_fails(pytester: pytest.Pytester) -> None:
    result = run(pytester, '''
def test_expected(expect_error):
    expect_error("railyard", r"is corrupt")
    log.error("game 3 is corrupt: no snapshot")

def test_never_came(expect_error):
    expect_error("railyard", r"is corrupt")

def test_other_error_still_fails(expect_error):
    expect_error("railyard", r"is corrupt")
    log.error("game 3 is corrupt")
    log.error("something else")
''')
    result.assert_outcomes(passed=2, errors=1, failed=1)
    result.stdout.fnmatch_lines(["*an expected ERROR was never logged*", "*something else*"])


def test_a_bot_process_log_counts(pytester: pytest.Pytester) -> None:
    result = run(pytester, '''
from tests.support.log_guard import check_process_log

def test_it():
    check_process_log("2026-01-01 10:00:00,000 INFO railyard.discord: ready\\n"
                      "2026-01-01 10:00:01,000 ERROR railyard.discord.outbox: delivery crashed\\n", "bot process 0")
''')
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*(bot process 0) delivery crashed*"])

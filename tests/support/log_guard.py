"""An ERROR logged during a test fails it.

The bot reports what went wrong on its side by logging at ERROR (a game that cannot be
loaded, a post that cannot be delivered, an exception in an interaction): a test whose
players saw a friendly answer can still have hidden one. This plugin collects every record
of level ERROR or above that reaches the root logger from the start of a test's setup to
the end of its teardown, and fails the test (in the phase where it was logged: setup, call
or teardown) unless the test declared it expected.

A test that provokes an error on purpose says so with the `expect_error` fixture:

    def test_corrupt_game_is_reported(expect_error):
        expect_error("railyard.sessions", r"is corrupt")
        ...

An expected error that never comes fails the test too, so the declaration cannot rot.
Bot processes started by a test (tests/support/processes.py) log to files; their ERROR
lines are checked the same way when the processes stop (`check_process_log`).
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass

import pytest


@dataclass
class Expected:
    logger: str
    pattern: re.Pattern[str]
    seen: int = 0

    def matches(self, logger: str, message: str) -> bool:
        named = logger == self.logger or logger.startswith(self.logger + ".")
        return named and self.pattern.search(message) is not None


class Guard(logging.Handler):
    """Collects ERROR records for the running test."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.expected: list[Expected] = []
        self.unexpected: list[str] = []

    def expect(self, logger: str, pattern: str) -> None:
        self.expected.append(Expected(logger, re.compile(pattern)))

    def note(self, logger: str, level: str, message: str) -> None:
        for want in self.expected:
            if want.matches(logger, message):
                want.seen += 1
                return
        self.unexpected.append(f"{level} {logger}: {message}")

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
        except Exception as exc:  # noqa: BLE001 - a record that cannot format is itself a fault
            message = f"<unformattable log record {record.msg!r}: {exc!r}>"
        if record.exc_info and record.exc_info[1] is not None:
            message += f" [{type(record.exc_info[1]).__name__}: {record.exc_info[1]}]"
        self.note(record.name, record.levelname, message)

    def take(self) -> list[str]:
        found, self.unexpected = self.unexpected, []
        return found


_LINE = re.compile(r"^\S+ \S+ (ERROR|CRITICAL) (\S+?): (.*)$")


def check_process_log(text: str, name: str) -> None:
    """Feed a bot process's log (the format of tools/loopback/bot_process.py) to the running
    test's guard: its ERROR lines count as if the test had logged them."""
    guard = _current
    if guard is None:
        return
    for line in text.splitlines():
        match = _LINE.match(line)
        if match:
            level, logger, message = match.groups()
            guard.note(logger, level, f"({name}) {message}")


_current: Guard | None = None


def _fail_if_logged(phase: str) -> None:
    assert _current is not None
    found = _current.take()
    if found:
        shown = "\n  ".join(line[:2000] for line in found[:20])
        more = f"\n  … and {len(found) - 20} more" if len(found) > 20 else ""
        pytest.fail(f"ERROR logged during {phase} (declare it with expect_error if the test provokes it):\n  "
                    f"{shown}{more}", pytrace=False)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item):
    global _current
    _current = Guard()
    logging.getLogger().addHandler(_current)
    result = yield
    _fail_if_logged("setup")
    return result


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_call(item: pytest.Item):
    result = yield
    _fail_if_logged("the test")
    return result


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    global _current
    try:
        result = yield
    finally:
        guard = _current
    try:
        if guard is not None:
            _fail_if_logged("teardown")
            missing = [f"{e.logger}: /{e.pattern.pattern}/" for e in guard.expected if not e.seen]
            if missing:
                pytest.fail("an expected ERROR was never logged: " + "; ".join(missing), pytrace=False)
    finally:
        if guard is not None:
            logging.getLogger().removeHandler(guard)
        _current = None
    return result


@pytest.fixture
def expect_error():
    """Declare an ERROR the test provokes: `expect_error(logger_name, regex)`."""
    assert _current is not None

    def expect(logger: str, pattern: str) -> None:
        _current.expect(logger, pattern)  # type: ignore[union-attr]

    return expect

"""Railyard's settings, read from a `.env` file and the environment.

    DISCORD_TOKEN            the bot token (required by `railyard run` and `railyard sync`)
    RAILYARD_DATABASE        the SQLite file games are kept in (default railyard.sqlite3)
    RAILYARD_DEV_GUILD_ID    a development server: `run` syncs the commands there (instantly),
                             `sync --dev` only there; empty in production
    RAILYARD_LOG_LEVEL       DEBUG, INFO (default), WARNING or ERROR

The `.env` format is the usual one: `KEY=value` lines, `#` comments, optional `export `,
optional single or double quotes. A variable set in the real environment wins over the
file, so a deployment can keep the token out of files altogether.

The token is never part of `repr()` or any log line: `Settings` keeps it in a `Secret`.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
DEFAULT_DATABASE = "railyard.sqlite3"


class ConfigError(Exception):
    """A setting is missing or malformed. The message is one line meant for the operator."""


class Secret:
    """A string that does not show itself in repr(), str() or f-strings."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def get(self) -> str:
        return self._value

    def __bool__(self) -> bool:
        return bool(self._value)

    def __repr__(self) -> str:
        return "Secret('**********')" if self._value else "Secret('')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


@dataclass(frozen=True)
class Settings:
    token: Secret = field(default_factory=lambda: Secret(""))
    database: Path = Path(DEFAULT_DATABASE)
    dev_guild_id: int | None = None
    log_level: str = "INFO"

    def require_token(self) -> str:
        """The token, or ConfigError with a clear message when there is none."""
        token = self.token.get().strip()
        if not token:
            raise ConfigError(
                "DISCORD_TOKEN is not set: put the bot token from the Discord developer portal "
                "(Bot → Reset Token) in .env (see .env.example)."
            )
        if any(ch.isspace() for ch in token):
            raise ConfigError("DISCORD_TOKEN contains spaces or line breaks: paste the token alone.")
        return token


def parse_env_file(text: str) -> dict[str, str]:
    """`KEY=value` lines into a dict (comments, blank lines, `export`, quotes handled)."""
    values: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export "):].lstrip()
        key, sep, value = line.partition("=")
        key = key.strip()
        if not sep or not key or not key.replace("_", "").isalnum():
            raise ConfigError(f"line {number} of the settings file is not KEY=value")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        elif " #" in value:  # an inline comment after an unquoted value
            value = value.split(" #", 1)[0].rstrip()
        values[key] = value
    return values


def load_settings(env_file: Path | str | None = Path(".env"),
                  environ: Mapping[str, str] | None = None) -> Settings:
    """Settings from `env_file` (if it exists) overridden by the environment."""
    values: dict[str, str] = {}
    if env_file is not None:
        path = Path(env_file)
        if path.is_file():
            try:
                text = path.read_text(encoding="utf-8")
            except OSError as exc:
                raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
            try:
                values.update(parse_env_file(text))
            except ConfigError as exc:
                raise ConfigError(f"{path}: {exc}") from None
    env = os.environ if environ is None else environ
    for key in ("DISCORD_TOKEN", "RAILYARD_DATABASE", "RAILYARD_DEV_GUILD_ID", "RAILYARD_LOG_LEVEL"):
        if env.get(key):
            values[key] = env[key]

    guild_raw = values.get("RAILYARD_DEV_GUILD_ID", "").strip()
    dev_guild: int | None = None
    if guild_raw:
        if not guild_raw.isdigit():
            raise ConfigError(f"RAILYARD_DEV_GUILD_ID must be a server id (digits), not {guild_raw!r}")
        dev_guild = int(guild_raw)
    level = (values.get("RAILYARD_LOG_LEVEL") or "INFO").strip().upper()
    if level not in LOG_LEVELS:
        raise ConfigError(f"RAILYARD_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
    database = (values.get("RAILYARD_DATABASE") or DEFAULT_DATABASE).strip()
    return Settings(
        token=Secret(values.get("DISCORD_TOKEN", "").strip()),
        database=Path(database),
        dev_guild_id=dev_guild,
        log_level=level,
    )

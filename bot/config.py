"""Railyard's settings: a typed pydantic-settings model read from a `.env` file and the environment.

Every setting, its default and what it is for is documented in `.env.example` (grouped:
Discord, database, processes and shards, rendering, retention); `Settings` below lists the
same names. `load_settings()` is the one entry point that reads them: a variable set in the
environment wins over the file, and an empty value counts as not set, so a deployment can keep
the token and the database password out of files altogether.

Secrets stay secret: the token is a `SecretStr` and the database URL a `DatabaseUrl` whose
repr, str and JSON show `postgresql://user:***@host/db`. No error message repeats either
value, and a bad setting becomes one `ConfigError` with one line per problem, each naming
the variable, instead of pydantic's multi-line dump.
"""
from __future__ import annotations

import difflib
import io
import os
from pathlib import Path
from typing import Any, ClassVar, Mapping
from urllib.parse import urlsplit

from dotenv.parser import parse_stream
import pydantic
from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from bot.store.pg import mask_url

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
DEFAULT_DATABASE = "railyard.sqlite3"
DEFAULT_DATABASE_URL = f"sqlite:///{DEFAULT_DATABASE}"
SQLITE_PREFIX = "sqlite:///"
POSTGRES_SCHEMES = ("postgresql", "postgres")
# RAILYARD_DATABASE names a SQLite file; it predates DATABASE_URL and is read only in its place.
LEGACY_DATABASE = "RAILYARD_DATABASE"


class ConfigError(Exception):
    """A setting is missing or malformed. One line per problem, meant for the operator."""


def _bad(message: str) -> PydanticCustomError:
    return PydanticCustomError("railyard_setting", message)


class DatabaseUrl(pydantic.Secret[str]):
    """DATABASE_URL: shown with its password masked, used in full through get_secret_value()."""

    def _display(self) -> str:
        return mask_url(self.get_secret_value())

    @property
    def scheme(self) -> str:
        return self.get_secret_value().partition("://")[0].lower()

    @property
    def is_sqlite(self) -> bool:
        return self.scheme == "sqlite"

    @property
    def is_postgres(self) -> bool:
        return self.scheme in POSTGRES_SCHEMES

    @property
    def sqlite_path(self) -> Path | None:
        """The SQLite file (relative to the working directory unless it starts with /)."""
        if not self.is_sqlite:
            return None
        return Path(self.get_secret_value()[len(SQLITE_PREFIX):])


def parse_database_url(raw: str) -> DatabaseUrl:
    """Check DATABASE_URL's shape; every message shows the URL masked, if at all."""
    url = raw.strip()
    scheme = url.partition("://")[0].lower() if "://" in url else ""
    if scheme == "sqlite":
        if not url.lower().startswith(SQLITE_PREFIX) or not url[len(SQLITE_PREFIX):].strip():
            raise _bad("DATABASE_URL for SQLite is sqlite:///relative/file.sqlite3 or "
                       "sqlite:////absolute/file.sqlite3 (three slashes, then the path)")
        return DatabaseUrl(SQLITE_PREFIX + url[len(SQLITE_PREFIX):])
    if scheme in POSTGRES_SCHEMES:
        shown = mask_url(url)
        if any(ch.isspace() for ch in url):
            raise _bad(f"DATABASE_URL contains spaces or line breaks: {shown} "
                       "(percent-encode them in the password, e.g. %20)")
        try:
            parts = urlsplit(url)
            parts.port  # noqa: B018 - urlsplit checks the port only when it is read
        except ValueError:
            raise _bad(f"DATABASE_URL has a port that is not a number from 1 to 65535: {shown}") from None
        if parts.path.count("/") > 1:
            raise _bad(f"DATABASE_URL names one database after the host (…/dbname), not a path: {shown}")
        return DatabaseUrl(url)
    # Nothing of the value is repeated: without a scheme there is no telling which part is a password.
    raise _bad("DATABASE_URL must start with sqlite:/// or postgresql:// (see .env.example)")


def parse_shard_ids(raw: str) -> tuple[int, ...]:
    """`0,1` or `0-3` or `0-3,8` into sorted shard ids; a ValueError says what is wrong."""
    ids: set[int] = set()
    for part in raw.split(","):
        part = part.strip()
        if not part:
            raise ValueError("has an empty entry between commas")
        low, dash, high = (p.strip() for p in part.partition("-"))
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ValueError(f"has {part!r}, which is not a number")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise ValueError(f"has the range {part!r}, which runs backwards")
        overlap = ids.intersection(range(first, last + 1))
        if overlap:
            raise ValueError(f"lists shard {min(overlap)} twice")
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))


def default_render_workers() -> int:
    """Leave one core to the bot's event loop, use at most two for rendering."""
    try:
        cores = len(os.sched_getaffinity(0))  # what this process may use (containers, taskset)
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(0, min(2, cores - 1))


def _env(name: str, **kwargs: Any) -> Any:
    return Field(validation_alias=name, **kwargs)


class Settings(BaseSettings):
    """Railyard's settings. Build it with `load_settings()`; built directly (tests, benches),
    it takes only the values it is given and the defaults."""

    model_config = SettingsConfigDict(
        case_sensitive=True,
        env_ignore_empty=True,      # `RAILYARD_SHARD_COUNT=` means "not set", as it always did
        extra="ignore",             # a .env may hold other tools' variables (docker compose, ...)
        frozen=True,
        validate_by_name=True,      # Settings(token=..., dev_guild_id=...) in code
        validate_by_alias=True,
        hide_input_in_errors=True,  # belt and braces: errors are rewritten anyway
        env_file=None,
    )

    # Discord
    token: SecretStr = _env("DISCORD_TOKEN", default=SecretStr(""))
    dev_guild_id: int | None = _env("RAILYARD_DEV_GUILD_ID", default=None)
    log_level: str = _env("RAILYARD_LOG_LEVEL", default="INFO")
    # database
    database_url: DatabaseUrl = _env("DATABASE_URL", default=DatabaseUrl(DEFAULT_DATABASE_URL))
    db_pool_min: int = _env("RAILYARD_DB_POOL_MIN", default=1)
    db_pool_max: int = _env("RAILYARD_DB_POOL_MAX", default=10)
    # processes and shards
    shard_count: int | None = _env("RAILYARD_SHARD_COUNT", default=None)
    shard_ids: tuple[int, ...] | None = _env("RAILYARD_SHARD_IDS", default=None)
    lease_seconds: float = _env("RAILYARD_LEASE_SECONDS", default=60.0)
    # rendering
    # looked up when called, so that tests can stand in for the machine's cores
    render_workers: int = _env("RAILYARD_RENDER_WORKERS", default_factory=lambda: default_render_workers())
    # retention
    lobby_expiry_days: int = _env("RAILYARD_LOBBY_EXPIRY_DAYS", default=7)
    outbox_keep_hours: int = _env("RAILYARD_OUTBOX_KEEP_HOURS", default=24)
    # the web table (bot/web): off unless RAILYARD_WEB_URL is set
    web_url: str | None = _env("RAILYARD_WEB_URL", default=None)
    web_host: str = _env("RAILYARD_WEB_HOST", default="127.0.0.1")
    web_port: int = _env("RAILYARD_WEB_PORT", default=8080)
    web_secret: SecretStr | None = _env("RAILYARD_WEB_SECRET", default=None)
    web_link_hours: int = _env("RAILYARD_WEB_LINK_HOURS", default=12)

    # The whole-number settings: the least value allowed, the unit, and what the least means.
    _COUNTS: ClassVar[dict[str, tuple[int, str, str]]] = {
        "db_pool_min": (0, "connections", ""),
        "db_pool_max": (1, "connections", ""),
        "shard_count": (1, "shards", "; empty for one process without shards"),
        "render_workers": (0, "processes", "; 0 renders in a thread of the bot process"),
        "lobby_expiry_days": (1, "days", ""),
        "outbox_keep_hours": (0, "hours", ""),
        "web_port": (0, "", "; 0 picks a free port"),
        "web_link_hours": (1, "hours", ""),
    }

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # The environment arrives as keyword arguments from load_settings(), which reads
        # os.environ or the mapping a test gives it; reading os.environ here as well would
        # let a developer's shell leak into Settings built by tests.
        return init_settings, dotenv_settings

    # ------------------------------------------------------------------ one value at a time
    @field_validator("token", mode="before")
    @classmethod
    def _strip_token(cls, value: Any) -> Any:
        return value.strip() if isinstance(value, str) else value

    @field_validator("dev_guild_id", mode="before")
    @classmethod
    def _guild(cls, value: Any) -> Any:
        if isinstance(value, str):
            text = value.strip()
            if not text:
                return None
            if not text.isdigit():
                raise _bad(f"RAILYARD_DEV_GUILD_ID must be a server id (digits), not {text!r}")
            return int(text)
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _level(cls, value: Any) -> Any:
        level = (str(value).strip() or "INFO").upper()
        if level not in LOG_LEVELS:
            raise _bad(f"RAILYARD_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
        return level

    @field_validator("database_url", mode="before")
    @classmethod
    def _database(cls, value: Any) -> Any:
        if isinstance(value, DatabaseUrl):
            value = value.get_secret_value()
        if isinstance(value, SecretStr):
            value = value.get_secret_value()
        if isinstance(value, str):
            return parse_database_url(value) if value.strip() else DatabaseUrl(DEFAULT_DATABASE_URL)
        return value

    @field_validator("db_pool_min", "db_pool_max", "shard_count", "render_workers",
                     "lobby_expiry_days", "outbox_keep_hours", "web_port", "web_link_hours", mode="before")
    @classmethod
    def _count(cls, value: Any, info: ValidationInfo) -> Any:
        name = info.field_name or ""
        least, unit, note = cls._COUNTS[name]
        var = _alias(name)
        wanted = f"{var} must be a whole number{' of ' + unit if unit else ''} ({least} or more{note})"
        if isinstance(value, str):
            text = value.strip()
            if not text:
                if name == "shard_count":
                    return None
                return cls.model_fields[name].get_default(call_default_factory=True)
            if not text.isdigit():
                raise _bad(f"{wanted}, not {text!r}")
            value = int(text)
        if isinstance(value, int) and not isinstance(value, bool) and value < least:
            raise _bad(f"{wanted}, not {value}")
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shards(cls, value: Any) -> Any:
        if isinstance(value, str):
            text = value.strip()
            if not text:
                return None
            try:
                return parse_shard_ids(text)
            except ValueError as exc:
                raise _bad(f"RAILYARD_SHARD_IDS {exc}: write ids like 0,1 or a range like 0-3") from None
        return value

    @field_validator("web_url", mode="before")
    @classmethod
    def _web_url(cls, value: Any) -> Any:
        if value is None:
            return None
        text = str(value).strip().rstrip("/")
        if not text:
            return None
        parts = urlsplit(text)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
            raise _bad("RAILYARD_WEB_URL must be the table's public address, like https://railyard.example.org "
                       "(http or https, a host, perhaps a path; no query)")
        return text

    @field_validator("web_secret", mode="before")
    @classmethod
    def _web_secret(cls, value: Any) -> Any:
        text = value.get_secret_value() if isinstance(value, SecretStr) else value
        if text is None or not str(text).strip():
            return None
        if len(str(text).strip()) < 32:
            raise _bad("RAILYARD_WEB_SECRET must be at least 32 characters (e.g. `openssl rand -hex 32`)")
        return SecretStr(str(text).strip())

    @field_validator("lease_seconds", mode="before")
    @classmethod
    def _lease(cls, value: Any) -> Any:
        text = str(value).strip()
        if isinstance(value, str) and not text:
            return 60.0
        try:
            seconds = float(text)
        except ValueError:
            raise _bad(f"RAILYARD_LEASE_SECONDS must be a number of seconds, not {text!r}") from None
        if not seconds > 0 or seconds == float("inf"):
            raise _bad(f"RAILYARD_LEASE_SECONDS must be a positive number of seconds, not {text!r}")
        return seconds

    # ------------------------------------------------------------------ values together
    @model_validator(mode="before")
    @classmethod
    def _legacy_database(cls, data: Any) -> Any:
        """RAILYARD_DATABASE (environment or file) and `database=` (code) name a SQLite file."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        path = ""
        for key in (LEGACY_DATABASE, "database"):
            value = data.pop(key, None)
            if value is not None and str(value).strip():
                path = str(value).strip()
        if not path:
            return data
        url = data.get("DATABASE_URL", data.get("database_url"))
        if isinstance(url, (pydantic.Secret, SecretStr)):
            url = url.get_secret_value()
        if url is None or not str(url).strip():
            data["DATABASE_URL"] = SQLITE_PREFIX + path
            return data
        given = str(url).strip()
        if given.lower().startswith(SQLITE_PREFIX) and Path(given[len(SQLITE_PREFIX):]) == Path(path):
            return data
        raise _bad(f"DATABASE_URL and {LEGACY_DATABASE} (its older name) are both set and name different "
                   f"databases: remove {LEGACY_DATABASE} (to keep using the file {path}, "
                   f"set DATABASE_URL=sqlite:///{path} instead)")

    @model_validator(mode="after")
    def _together(self) -> "Settings":
        problems: list[str] = []
        if self.shard_ids is not None:
            if self.shard_count is None:
                problems.append("RAILYARD_SHARD_IDS needs RAILYARD_SHARD_COUNT (the total number of shards "
                                "across every process)")
            elif self.shard_ids and self.shard_ids[-1] >= self.shard_count:
                problems.append(f"RAILYARD_SHARD_IDS has shard {self.shard_ids[-1]}, but with "
                                f"RAILYARD_SHARD_COUNT={self.shard_count} the ids run from 0 to "
                                f"{self.shard_count - 1}")
        if self.web_port > 65535:
            problems.append(f"RAILYARD_WEB_PORT must be a port number up to 65535, not {self.web_port}")
        if self.db_pool_min > self.db_pool_max:
            problems.append(f"RAILYARD_DB_POOL_MIN ({self.db_pool_min}) is more than RAILYARD_DB_POOL_MAX "
                            f"({self.db_pool_max})")
        if problems:
            raise _bad("\n".join(problems))
        return self

    # ------------------------------------------------------------------ for callers
    @property
    def database(self) -> Path:
        """The SQLite file games are kept in; only for a sqlite:/// DATABASE_URL."""
        path = self.database_url.sqlite_path
        if path is None:
            raise ConfigError(f"DATABASE_URL is {self.database_url}, not a SQLite file")
        return path

    @property
    def sqlite_path(self) -> Path | None:
        return self.database_url.sqlite_path

    def require_token(self) -> str:
        """The token, or ConfigError with a clear message when there is none."""
        token = self.token.get_secret_value().strip()
        if not token:
            raise ConfigError(
                "DISCORD_TOKEN is not set: put the bot token from the Discord developer portal "
                "(Bot → Reset Token) in .env (see .env.example)."
            )
        if any(ch.isspace() for ch in token):
            raise ConfigError("DISCORD_TOKEN contains spaces or line breaks: paste the token alone.")
        return token


# The name callers used before pydantic-settings; a token is a SecretStr now.
Secret = SecretStr


def _alias(field_name: str) -> str:
    alias = Settings.model_fields[field_name].validation_alias
    return alias if isinstance(alias, str) else field_name


def setting_names() -> tuple[str, ...]:
    """Every variable Railyard reads (the older RAILYARD_DATABASE included)."""
    return tuple(_alias(name) for name in Settings.model_fields) + (LEGACY_DATABASE,)


def _problems(error: ValidationError) -> list[str]:
    """One line per problem, naming the variable; never the rejected input."""
    lines: list[str] = []
    names = {name: _alias(name) for name in Settings.model_fields}
    for item in error.errors(include_input=False, include_url=False):
        loc = str(item["loc"][0]) if item["loc"] else ""
        var = names.get(loc, loc)
        if item["type"] == "railyard_setting":
            lines.extend(item["msg"].splitlines())
        else:  # a value of the wrong type given in code: pydantic's one-line message is clear enough
            lines.append(f"{var or 'settings'}: {item['msg']}")
    return lines


def _check_env_file(path: Path) -> None:
    """Lines python-dotenv would skip silently, and misspelt RAILYARD_ names, are errors here."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{path} is not UTF-8 text") from None
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
    known = setting_names()
    problems: list[str] = []
    for binding in parse_stream(io.StringIO(text)):
        line = binding.original.line
        if binding.error or (binding.key is not None and binding.value is None):
            problems.append(f"{path}: line {line} is not KEY=value")
        elif binding.key and binding.key.startswith("RAILYARD_") and binding.key not in known:
            close = difflib.get_close_matches(binding.key, known, n=1, cutoff=0.85)
            hint = f" (did you mean {close[0]}?)" if close else " (see .env.example)"
            problems.append(f"{path}: line {line} sets {binding.key}, which is not a Railyard setting{hint}")
    if problems:
        raise ConfigError("\n".join(problems))



def load_settings(env_file: Path | str | None = Path(".env"),
                  environ: Mapping[str, str] | None = None) -> Settings:
    """Settings from `env_file` (if it exists) overridden by `environ` (default os.environ)."""
    path = Path(env_file) if env_file is not None else None
    if path is not None and path.is_file():
        _check_env_file(path)
    else:
        path = None
    env = os.environ if environ is None else environ
    given = {name: env[name] for name in setting_names() if env.get(name, "").strip()}
    try:
        return Settings(_env_file=path, **given)
    except ValidationError as exc:
        raise ConfigError("\n".join(_problems(exc))) from None

"""Settings (bot/config.py): every variable parsed, the defaults, the environment over the file,
one clear line per bad value, and the secrets (token, database password) never shown."""
from __future__ import annotations

import logging
import os
import re
import traceback
from pathlib import Path

import pytest

from bot import config
from bot.config import ConfigError, DatabaseUrl, Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTIz.secret-token.xyz"
PASSWORD = "hunter2-Pw"


def write_env(tmp_path: Path, text: str) -> Path:
    env = tmp_path / ".env"
    env.write_text(text, encoding="utf-8")
    return env


def problems(env: dict[str, str], env_file: Path | None = None) -> list[str]:
    with pytest.raises(ConfigError) as err:
        load_settings(env_file, environ=env)
    return str(err.value).splitlines()


# ---------------------------------------------------------------------------- values

def test_every_setting_is_read_from_the_file(tmp_path: Path) -> None:
    env = write_env(tmp_path, f"""
DISCORD_TOKEN={TOKEN}
RAILYARD_DEV_GUILD_ID=123456789012345678
RAILYARD_LOG_LEVEL=warning
DATABASE_URL=postgresql://railyard:{PASSWORD}@db.internal:6543/games
RAILYARD_DB_POOL_MIN=2
RAILYARD_DB_POOL_MAX=20
RAILYARD_SHARD_COUNT=8
RAILYARD_SHARD_IDS=4-6, 0
RAILYARD_LEASE_SECONDS=2.5
RAILYARD_RENDER_WORKERS=3
RAILYARD_LOBBY_EXPIRY_DAYS=14
RAILYARD_OUTBOX_KEEP_HOURS=0
""")
    s = load_settings(env, environ={})
    assert s.require_token() == TOKEN
    assert s.dev_guild_id == 123456789012345678 and s.log_level == "WARNING"
    assert s.database_url.get_secret_value() == f"postgresql://railyard:{PASSWORD}@db.internal:6543/games"
    assert s.database_url.is_postgres and not s.database_url.is_sqlite and s.sqlite_path is None
    assert (s.db_pool_min, s.db_pool_max) == (2, 20)
    assert s.shard_count == 8 and s.shard_ids == (0, 4, 5, 6)
    assert s.lease_seconds == 2.5 and s.render_workers == 3
    assert (s.lobby_expiry_days, s.outbox_keep_hours) == (14, 0)


def test_defaults_without_file_or_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(config, "default_render_workers", lambda: 2)
    s = load_settings(None, environ={})
    assert s.token.get_secret_value() == "" and s.dev_guild_id is None and s.log_level == "INFO"
    assert s.database_url.get_secret_value() == "sqlite:///railyard.sqlite3"
    assert s.database == Path("railyard.sqlite3") and s.sqlite_path == Path("railyard.sqlite3")
    assert (s.db_pool_min, s.db_pool_max) == (1, 10)
    assert s.shard_count is None and s.shard_ids is None
    assert s.lease_seconds == 60 and s.render_workers == 2
    assert (s.lobby_expiry_days, s.outbox_keep_hours) == (7, 24)
    with pytest.raises(ConfigError, match="DISCORD_TOKEN is not set"):
        s.require_token()


@pytest.mark.parametrize(("cores", "workers"), [(1, 0), (2, 1), (3, 2), (16, 2)])
def test_render_workers_leave_a_core_to_the_bot(monkeypatch: pytest.MonkeyPatch, cores: int, workers: int) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cores)), raising=False)
    assert config.default_render_workers() == workers
    assert load_settings(None, environ={}).render_workers == workers
    # an empty value is the default too, and 0 is a choice of its own (render in a thread)
    assert load_settings(None, environ={"RAILYARD_RENDER_WORKERS": " "}).render_workers == workers
    assert load_settings(None, environ={"RAILYARD_RENDER_WORKERS": "0"}).render_workers == 0


def test_sqlite_urls_relative_and_absolute(tmp_path: Path) -> None:
    rel = load_settings(None, environ={"DATABASE_URL": "sqlite:///data/ry.sqlite3"})
    assert rel.database == Path("data/ry.sqlite3") and not rel.database.is_absolute()
    absolute = load_settings(None, environ={"DATABASE_URL": f"sqlite:///{tmp_path}/ry.sqlite3"})
    assert absolute.database == tmp_path / "ry.sqlite3" and absolute.database.is_absolute()
    assert absolute.database_url.is_sqlite


def test_shard_ids_forms() -> None:
    def ids(text: str) -> tuple[int, ...] | None:
        return load_settings(None, environ={"RAILYARD_SHARD_COUNT": "16", "RAILYARD_SHARD_IDS": text}).shard_ids

    assert ids("0,1") == (0, 1)
    assert ids("0-3") == (0, 1, 2, 3)
    assert ids(" 12 - 13 , 2 ") == (2, 12, 13)
    assert ids("15") == (15,)
    assert load_settings(None, environ={"RAILYARD_SHARD_COUNT": "4"}).shard_ids is None  # every shard


def test_the_environment_wins_over_the_file_and_empty_means_unset(tmp_path: Path) -> None:
    env = write_env(tmp_path, "DISCORD_TOKEN=from-file\nRAILYARD_SHARD_COUNT=4\nRAILYARD_LOBBY_EXPIRY_DAYS=3\n"
                              "RAILYARD_LOG_LEVEL=\n")
    s = load_settings(env, environ={"DISCORD_TOKEN": "from-env", "RAILYARD_SHARD_COUNT": "",
                                    "RAILYARD_LOBBY_EXPIRY_DAYS": "30", "UNRELATED": "x"})
    assert s.require_token() == "from-env"
    assert s.shard_count == 4  # an empty environment variable does not blank the file's value
    assert s.lobby_expiry_days == 30
    assert s.log_level == "INFO"


def test_os_environ_is_read_by_load_settings_only(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("RAILYARD_SHARD_COUNT", "6")
    monkeypatch.setenv("RAILYARD_OUTBOX_KEEP_HOURS", "48")
    assert load_settings(tmp_path / "missing.env").shard_count == 6
    assert load_settings(tmp_path / "missing.env").outbox_keep_hours == 48
    # Settings built in code (tests, benches) take what they are given, not the developer's shell
    built = Settings(token="t", database=tmp_path / "x.sqlite3", dev_guild_id=7)
    assert built.shard_count is None and built.outbox_keep_hours == 24
    assert built.database == tmp_path / "x.sqlite3" and built.dev_guild_id == 7


def test_settings_are_frozen() -> None:
    s = load_settings(None, environ={})
    with pytest.raises(Exception):
        s.shard_count = 3  # type: ignore[misc]
    assert s.shard_count is None


# ---------------------------------------------------------------------------- the older RAILYARD_DATABASE

def test_railyard_database_still_names_the_sqlite_file(tmp_path: Path) -> None:
    env = write_env(tmp_path, "RAILYARD_DATABASE=games/old.sqlite3\n")
    s = load_settings(env, environ={})
    assert s.database == Path("games/old.sqlite3")
    assert s.database_url.get_secret_value() == "sqlite:///games/old.sqlite3"
    # from the environment, an absolute path
    s = load_settings(None, environ={"RAILYARD_DATABASE": "/data/ry.sqlite3"})
    assert s.database == Path("/data/ry.sqlite3") and s.database_url.get_secret_value() == "sqlite:////data/ry.sqlite3"
    # both naming the same file is fine (an upgraded .env beside an old environment)
    same = load_settings(env, environ={"DATABASE_URL": "sqlite:///games/old.sqlite3"})
    assert same.database == Path("games/old.sqlite3")


def test_railyard_database_and_a_different_database_url_is_an_error(tmp_path: Path) -> None:
    # a copied .env.example (DATABASE_URL default) must not silently start an empty database
    env = write_env(tmp_path, "DATABASE_URL=sqlite:///railyard.sqlite3\n")
    lines = problems({"RAILYARD_DATABASE": "/data/ry.sqlite3"}, env)
    assert len(lines) == 1 and "DATABASE_URL" in lines[0] and "RAILYARD_DATABASE" in lines[0]
    assert "DATABASE_URL=sqlite:////data/ry.sqlite3" in lines[0]
    lines = problems({"RAILYARD_DATABASE": "railyard.sqlite3",
                      "DATABASE_URL": f"postgresql://u:{PASSWORD}@h/db"})
    assert len(lines) == 1 and "remove RAILYARD_DATABASE" in lines[0] and PASSWORD not in lines[0]


# ---------------------------------------------------------------------------- bad values

BAD = [
    ("RAILYARD_DEV_GUILD_ID", "my-server", "must be a server id (digits), not 'my-server'"),
    ("RAILYARD_LOG_LEVEL", "loud", "must be one of DEBUG, INFO, WARNING, ERROR, not 'LOUD'"),
    ("DATABASE_URL", "mysql://u@h/db", "must start with sqlite:/// or postgresql://"),
    ("DATABASE_URL", "sqlite://relative.db", "three slashes"),
    ("DATABASE_URL", "postgresql://u@h:port/db", "port that is not a number"),
    ("DATABASE_URL", "postgresql://u@h/db/extra", "names one database"),
    ("RAILYARD_DB_POOL_MIN", "-1", "whole number of connections (0 or more), not '-1'"),
    ("RAILYARD_DB_POOL_MAX", "0", "whole number of connections (1 or more), not 0"),
    ("RAILYARD_DB_POOL_MAX", "ten", "not 'ten'"),
    ("RAILYARD_SHARD_COUNT", "0", "whole number of shards (1 or more; empty for one process without shards)"),
    ("RAILYARD_SHARD_COUNT", "2.5", "not '2.5'"),
    ("RAILYARD_SHARD_IDS", "0,,1", "empty entry between commas"),
    ("RAILYARD_SHARD_IDS", "3-1", "runs backwards"),
    ("RAILYARD_SHARD_IDS", "0-2,2", "lists shard 2 twice"),
    ("RAILYARD_SHARD_IDS", "one", "has 'one', which is not a number"),
    ("RAILYARD_LEASE_SECONDS", "soon", "must be a number of seconds, not 'soon'"),
    ("RAILYARD_LEASE_SECONDS", "0", "must be a positive number of seconds"),
    ("RAILYARD_LEASE_SECONDS", "nan", "must be a positive number of seconds"),
    ("RAILYARD_RENDER_WORKERS", "-2", "0 renders in a thread of the bot process"),
    ("RAILYARD_LOBBY_EXPIRY_DAYS", "0", "whole number of days (1 or more), not 0"),
    ("RAILYARD_OUTBOX_KEEP_HOURS", "1.5", "whole number of hours (0 or more), not '1.5'"),
]


@pytest.mark.parametrize(("name", "value", "says"), BAD)
def test_each_bad_value_is_one_line_naming_the_variable(name: str, value: str, says: str) -> None:
    env = {name: value}
    if name == "RAILYARD_SHARD_IDS":
        env["RAILYARD_SHARD_COUNT"] = "8"
    lines = problems(env)
    assert len(lines) == 1, lines
    assert lines[0].startswith(name) and says in lines[0]
    assert "validation error" not in lines[0] and "pydantic" not in lines[0]


def test_values_that_only_fail_together() -> None:
    assert problems({"RAILYARD_SHARD_IDS": "0,1"}) == [
        "RAILYARD_SHARD_IDS needs RAILYARD_SHARD_COUNT (the total number of shards across every process)"]
    (line,) = problems({"RAILYARD_SHARD_COUNT": "2", "RAILYARD_SHARD_IDS": "1-2"})
    assert line.startswith("RAILYARD_SHARD_IDS has shard 2") and "from 0 to 1" in line
    (line,) = problems({"RAILYARD_DB_POOL_MIN": "11"})  # against the default maximum of 10
    assert line == "RAILYARD_DB_POOL_MIN (11) is more than RAILYARD_DB_POOL_MAX (10)"


def test_several_problems_give_one_line_each() -> None:
    lines = problems({"RAILYARD_LOG_LEVEL": "x", "RAILYARD_SHARD_COUNT": "many", "RAILYARD_LEASE_SECONDS": "-1",
                      "RAILYARD_DEV_GUILD_ID": "abc"})
    named = sorted(line.split(" ", 1)[0] for line in lines)
    assert named == ["RAILYARD_DEV_GUILD_ID", "RAILYARD_LEASE_SECONDS", "RAILYARD_LOG_LEVEL", "RAILYARD_SHARD_COUNT"]


def test_env_file_lines_and_misspelt_names(tmp_path: Path) -> None:
    env = write_env(tmp_path, "# comment\nexport DISCORD_TOKEN='a.b'\nthis is not a setting\n"
                              "RAILYARD_SHARD_COUT=4\nRAILYARD_LOG_LEVEL\nCOMPOSE_PROJECT_NAME=ry\n")
    lines = problems({}, env)
    assert lines == [
        f"{env}: line 3 is not KEY=value",
        f"{env}: line 4 sets RAILYARD_SHARD_COUT, which is not a Railyard setting (did you mean RAILYARD_SHARD_COUNT?)",
        f"{env}: line 5 is not KEY=value",
    ]
    # other tools' variables are allowed; comments after unquoted values are dropped
    env = write_env(tmp_path, "COMPOSE_PROJECT_NAME=ry\nRAILYARD_SHARD_COUNT=4  # two machines\n")
    assert load_settings(env, environ={}).shard_count == 4


def test_an_unreadable_env_file_is_one_line(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_bytes(b"DISCORD_TOKEN=\xff\xfe\n")
    assert problems({}, env) == [f"{env} is not UTF-8 text"]


# ---------------------------------------------------------------------------- secrets

PG_URL = f"postgresql://railyard:{PASSWORD}@db.internal:5432/games?sslmode=require&password={PASSWORD}x"


def test_secrets_never_in_repr_str_json_or_logs(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    env = write_env(tmp_path, f"DISCORD_TOKEN={TOKEN}\nDATABASE_URL={PG_URL}\n")
    s = load_settings(env, environ={})
    shown = [repr(s), str(s), s.model_dump_json(), f"{s}", repr(s.token), str(s.database_url),
             repr(s.database_url), f"{s.database_url}", str(s.model_dump())]
    with caplog.at_level(logging.INFO):
        logging.getLogger("railyard.test").info("settings %s %r", s, s.database_url)
    shown.append(caplog.text)
    for text in shown:
        assert TOKEN not in text and PASSWORD not in text, text
    assert "postgresql://railyard:***@db.internal:5432/games?sslmode=require&password=***" in str(s.database_url)
    assert "DatabaseUrl('postgresql://railyard:***@db.internal:5432/games" in repr(s)
    # and the real values are still there for the code that connects
    assert s.token.get_secret_value() == TOKEN and s.database_url.get_secret_value() == PG_URL


def test_the_database_property_refuses_postgres_without_showing_the_password() -> None:
    s = load_settings(None, environ={"DATABASE_URL": PG_URL})
    with pytest.raises(ConfigError) as err:
        s.database
    assert "not a SQLite file" in str(err.value) and PASSWORD not in str(err.value)


@pytest.mark.parametrize("url", [
    f"postgresql://railyard:{PASSWORD}@db:99999/games",     # bad port
    f"postgresql://railyard:{PASSWORD} x@db/games",         # a space in the password
    f"railyard:{PASSWORD}@db/games",                        # no scheme at all
    f"postgresql://railyard:{PASSWORD}@db/games/more",      # a path, not a database
])
def test_a_bad_database_url_never_shows_its_password(tmp_path: Path, url: str) -> None:
    # the token sits next to the bad value in the same file
    env = write_env(tmp_path, f"DISCORD_TOKEN={TOKEN}\nDATABASE_URL={url}\nRAILYARD_SHARD_COUNT=zero\n")
    with pytest.raises(ConfigError) as err:
        load_settings(env, environ={})
    message = str(err.value)
    assert any(line.startswith("DATABASE_URL") for line in message.splitlines())
    assert any(line.startswith("RAILYARD_SHARD_COUNT") for line in message.splitlines())
    # not in the message, nor anywhere in the traceback an operator might paste
    full = "".join(traceback.format_exception(err.value))
    for text in (message, full, repr(err.value)):
        assert PASSWORD not in text and TOKEN not in text


def test_a_bad_value_next_to_the_token_does_not_show_the_token(tmp_path: Path) -> None:
    env = write_env(tmp_path, f"DISCORD_TOKEN={TOKEN}\nRAILYARD_LOG_LEVEL={TOKEN}x\n")
    lines = problems({}, env)
    # the log level's own value is shown (it is not a secret), the token's line is not touched
    assert lines == [f"RAILYARD_LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, not '{TOKEN.upper()}X'"]
    with pytest.raises(ConfigError) as err:
        load_settings(env, environ={"DISCORD_TOKEN": TOKEN, "RAILYARD_LEASE_SECONDS": "x"})
    assert TOKEN not in "".join(traceback.format_exception(err.value))


def test_database_url_masks_every_password_form() -> None:
    assert str(DatabaseUrl("postgres://u:p%40ss@h/db")) == "postgres://u:***@h/db"
    assert str(DatabaseUrl("postgresql://u@h/db")) == "postgresql://u@h/db"
    assert str(DatabaseUrl("postgresql://u:a@b@h:1/db")) == "postgresql://u:***@h:1/db"
    assert str(DatabaseUrl("postgresql:///db?password=zz&host=/run/pg")) == \
        "postgresql:///db?password=***&host=%2Frun%2Fpg"
    assert str(DatabaseUrl("sqlite:///railyard.sqlite3")) == "sqlite:///railyard.sqlite3"


# ---------------------------------------------------------------------------- documentation

def test_env_example_documents_every_setting_and_loads_to_the_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    example = ROOT / ".env.example"
    text = example.read_text(encoding="utf-8")
    assigned = set(re.findall(r"^([A-Z_]+)=", text, flags=re.M))
    fields = set(config.setting_names()) - {config.LEGACY_DATABASE}
    assert assigned == fields
    assert config.LEGACY_DATABASE in text  # the older name is explained, not assigned
    for heading in ("Discord", "database", "processes and shards", "rendering", "retention"):
        assert re.search(rf"^# -+ {heading}$", text, flags=re.M), heading
    monkeypatch.setattr(config, "default_render_workers", lambda: 1)
    assert load_settings(example, environ={}) == load_settings(None, environ={})
    assert ".env.example" in (config.__doc__ or "")

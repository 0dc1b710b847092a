"""The command sync payload (validated by the fake like Discord would), `railyard sync`, and
`railyard run` with a missing or wrong token."""
from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import pytest

from railyard import cli
from bot.config import ConfigError, Secret, load_settings
from bot.discord import launcher
from tests.discord.conftest import GUILD, Harness
from tests.fake_discord import limits

GAME_SUBCOMMANDS = {"new", "status", "hand", "log", "undo", "settings", "abandon", "kick", "rules", "mine", "export",
                   "follow", "unfollow"}


def walk(options):
    for option in options or []:
        yield option
        yield from walk(option.get("options"))


async def test_command_sync_payload_is_valid(harness: Harness, fake) -> None:
    # `run` with a development guild syncs there only; never globally
    assert [scope for scope, _ in fake.command_syncs] == [GUILD]
    assert None not in fake.commands
    commands = {c["name"]: c for c in fake.commands[GUILD]}
    assert set(commands) == {"game", "move", "orders", "me", "away", "league", "stats"}
    game = commands["game"]
    assert {o["name"] for o in game["options"]} == GAME_SUBCOMMANDS
    assert all(o["type"] == 1 for o in game["options"])
    new = next(o for o in game["options"] if o["name"] == "new")
    assert [(o["name"], o.get("required", False), o.get("autocomplete", False)) for o in new["options"]][:2] == \
        [("game", True, True), ("players", False, True)]
    (move,) = commands["move"]["options"]
    assert (move["name"], move["required"], move["autocomplete"]) == ("move", True, True)
    (order,) = commands["orders"]["options"]
    assert (order["name"], order.get("required", False), order["autocomplete"]) == ("order", False, True)
    # /game new offers the games by their localized titles
    choices = await harness.autocomplete(11, "game new", focused="game", value="tick")
    assert choices == [{"name": "Ticket to Ride — USA", "value": "ticket_to_ride"}]
    choices = await harness.autocomplete(15, "game new", focused="game", value="", locale="ja")
    assert {"name": "チケット・トゥ・ライド アメリカ", "value": "ticket_to_ride"} in choices  # every game is listed
    for command in fake.commands[GUILD]:
        assert limits.check_commands([command]) == []
        for item in [command, *walk(command.get("options"))]:
            assert limits.is_valid_command_name(item["name"])
            for name in (item.get("name_localizations") or {}).values():
                assert limits.is_valid_command_name(name), name
            assert 1 <= len(item["description"]) <= 100
            assert set(item.get("name_localizations") or {}) <= {"ja"}
    fake.assert_clean()


def write_env(tmp_path: Path, **values: str) -> Path:
    path = tmp_path / ".env"
    path.write_text("# test settings\n" + "".join(f"{k}={v}\n" for k, v in values.items()), encoding="utf-8")
    return path


async def test_railyard_sync_global_and_dev(fake, tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(launcher, "setup_logging", lambda level: None)
    env = write_env(tmp_path, DISCORD_TOKEN=fake.token, RAILYARD_DATABASE=str(tmp_path / "db.sqlite3"),
                    RAILYARD_DEV_GUILD_ID=str(GUILD))
    with fake.patched():
        code = await asyncio.to_thread(launcher.main_sync, argparse.Namespace(env=env, dev=False))
        assert code == 0
        assert {c["name"] for c in fake.commands[None]} == {"game", "move", "orders", "me", "away", "league", "stats"}
        assert "Synced 7 command(s) globally" in capsys.readouterr().out
        code = await asyncio.to_thread(launcher.main_sync, argparse.Namespace(env=env, dev=True))
    assert code == 0 and {c["name"] for c in fake.commands[GUILD]} == {"game", "move", "orders", "me", "away", "league", "stats"}
    assert not (tmp_path / "db.sqlite3").exists()  # sync needs no database
    no_dev = write_env(tmp_path, DISCORD_TOKEN=fake.token)
    assert launcher.main_sync(argparse.Namespace(env=no_dev, dev=True)) == 2
    assert "RAILYARD_DEV_GUILD_ID" in capsys.readouterr().err
    fake.assert_clean()


async def test_railyard_run_with_a_wrong_token_says_so(fake, tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(launcher, "setup_logging", lambda level: None)
    env = write_env(tmp_path, DISCORD_TOKEN="not.the.right-token", RAILYARD_DATABASE=str(tmp_path / "db.sqlite3"))
    with fake.patched():
        code = await asyncio.to_thread(launcher.main_run, argparse.Namespace(env=env))
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("railyard: Discord refused the token (401 Unauthorized)") and err.count("\n") == 1
    assert "Traceback" not in err and "not.the.right-token" not in err
    assert fake.requests_to("GET", "/users/@me")[-1].status == 401
    fake.assert_clean()


def test_railyard_run_without_a_token_says_so(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    env = write_env(tmp_path, DISCORD_TOKEN="", RAILYARD_LOG_LEVEL="INFO")
    assert cli.main(["run", "--env", str(env)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("railyard: DISCORD_TOKEN is not set") and "Traceback" not in err
    assert cli.main(["sync", "--env", str(tmp_path / "missing.env")]) == 2
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err


def test_settings_from_env_file_and_environment(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text('export DISCORD_TOKEN="abc.def"\nRAILYARD_DEV_GUILD_ID=123 # my server\n'
                   "RAILYARD_LOG_LEVEL=debug\n", encoding="utf-8")
    settings = load_settings(env, environ={"RAILYARD_DATABASE": "/data/ry.sqlite3"})
    assert settings.token == Secret("abc.def") and settings.require_token() == "abc.def"
    assert settings.dev_guild_id == 123 and settings.log_level == "DEBUG"
    assert str(settings.database) == "/data/ry.sqlite3"
    assert "abc.def" not in repr(settings) and "abc.def" not in str(settings)
    assert load_settings(env, environ={"DISCORD_TOKEN": "from-env"}).require_token() == "from-env"
    env.write_text("RAILYARD_DEV_GUILD_ID=my-server\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="RAILYARD_DEV_GUILD_ID"):
        load_settings(env, environ={})
    env.write_text("this is not a setting\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="line 1"):
        load_settings(env, environ={})

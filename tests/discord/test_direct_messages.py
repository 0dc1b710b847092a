"""Railyard's commands need a server channel: used in a direct message with the bot, every one
of them says so (in the user's language) and changes nothing."""
from __future__ import annotations

from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, KEN, Harness
from tests.support import dump_db


def placeholder(option: dict):
    """A value Discord would accept for a required option."""
    if option.get("choices"):
        return option["choices"][0]["value"]
    return {3: "ticket_to_ride", 4: max(1, option.get("min_value") or 1), 5: False, 6: BOB,
            10: float(max(1, option.get("min_value") or 1))}[option["type"]]


def leaf_commands(commands: list[dict]):
    """(command path, required options) of every command a user can run."""
    for command in commands:
        subs = [o for o in command.get("options") or [] if o["type"] == 1]
        if not subs:
            yield command["name"], [o for o in command.get("options") or [] if o.get("required")]
        for sub in subs:
            yield f"{command['name']} {sub['name']}", [o for o in sub.get("options") or [] if o.get("required")]


async def in_dm(h: Harness, user: int, command: str, options: dict | None = None, *, locale: str = "en-US"):
    result = await h.fake.slash(None, None, user, command, options, locale=locale)
    await h.idle()
    return result


async def test_commands_in_a_direct_message_say_they_need_a_server(harness: Harness, fake) -> None:
    h = harness
    await h.bot.sync_commands()  # global commands: the ones a DM could reach
    guild_only = "⚠️ " + translate("en", "discord.error.guild_only")
    before = dump_db(h.db_path)

    new = await in_dm(h, ALICE, "game new", {"game": "ticket_to_ride", "players": 2})
    assert new.ephemeral and new.content == guild_only
    assert (await in_dm(h, ALICE, "game status")).content == guild_only
    assert (await in_dm(h, ALICE, "move", {"move": "draw deck"})).content == guild_only
    ja = await in_dm(h, KEN, "game status", locale="ja")
    assert ja.content == "⚠️ " + translate("ja", "discord.error.guild_only")

    commands = list(leaf_commands(fake.commands[None]))
    assert len(commands) >= 11  # every /game subcommand and /move
    for path, required in commands:
        result = await in_dm(h, ALICE, path, {o["name"]: placeholder(o) for o in required})
        if path == "me":  # a person's own settings, for all their games: a DM is a fine place
            assert result.ephemeral and translate("en", "discord.me.no_zone") in result.content
            continue
        if path == "away":  # so is being away from all of them
            assert result.ephemeral and result.content == translate("en", "discord.away.not_away")
            continue
        assert result.ephemeral and result.content == guild_only, (path, result.content)
    # what /move would suggest there: nothing
    assert await fake.autocomplete(None, None, ALICE, "move", focused="move", value="") == []

    assert dump_db(h.db_path) == before
    assert [m for m in fake.dm_messages(ALICE) if m.interaction_id is None] == []  # no lobby posted there
    fake.assert_clean()

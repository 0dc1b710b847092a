"""The DM with the bot: only a person's own commands (/me, /away) are registered for it; a game
needs a server channel, a thread or a group DM, and a server's records a server. Offered there
anyway (a registration from an older release), each command says where it works, in the
user's language, and changes nothing."""
from __future__ import annotations

import pytest

from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, KEN, Harness
from tests.fake_discord import CommandUnavailable
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


async def test_only_a_persons_own_commands_reach_a_direct_message(harness: Harness, fake) -> None:
    """Registered for where they work (bot/discord/where.py), the game's and the server's
    commands are not offered in the DM with the bot: Discord (the loopback) never sends them."""
    h = harness
    await h.bot.sync_commands()  # global commands: the ones a DM could reach
    before = dump_db(h.db_path)
    reached = []
    for path, required in leaf_commands(fake.commands[None]):
        try:
            result = await in_dm(h, ALICE, path, {o["name"]: placeholder(o) for o in required})
        except CommandUnavailable:
            continue
        reached.append(path)
        if path == "me":  # a person's own settings, for all their games: a DM is a fine place
            assert result.ephemeral and translate("en", "discord.me.no_zone") in result.content
        elif path == "away":  # so is being away from all of them
            assert result.ephemeral and result.content == translate("en", "discord.away.not_away")
    assert sorted(reached) == ["away", "me"]
    refused = {command for _, _, _, command, _ in fake.refused_commands}
    assert {"game new", "game status", "move", "orders", "league ratings", "stats board"} <= refused
    with pytest.raises(CommandUnavailable):
        await fake.autocomplete(None, None, ALICE, "move", focused="move", value="")
    assert dump_db(h.db_path) == before
    assert [m for m in fake.dm_messages(ALICE) if m.interaction_id is None] == []  # no lobby posted there
    fake.assert_clean()


def registered_everywhere(fake) -> None:
    """What an older release registered: commands with no places of their own, which Discord
    offers in the DM with the bot too."""
    for command in fake.commands[None]:
        command.pop("contexts", None)
        command.pop("integration_types", None)
        command["dm_permission"] = True


async def test_a_command_registered_by_an_older_release_says_where_it_works(harness: Harness, fake) -> None:
    """A registration older than the running release lets Discord offer every command in the
    DM with the bot: the bot itself refuses the ones that do not work there, in the user's
    language, and changes nothing."""
    h = harness
    await h.bot.sync_commands()
    registered_everywhere(fake)
    guild_only = "⚠️ " + translate("en", "discord.error.guild_only")
    game_place = "⚠️ " + translate("en", "discord.error.game_place")
    before = dump_db(h.db_path)

    new = await in_dm(h, ALICE, "game new", {"game": "ticket_to_ride", "players": 2})
    assert new.ephemeral and new.content == game_place
    assert (await in_dm(h, ALICE, "move", {"move": "draw deck"})).content == game_place
    assert (await in_dm(h, ALICE, "league ratings", {"on": True})).content == guild_only
    ja = await in_dm(h, KEN, "game status", locale="ja")
    assert ja.ephemeral and ja.content == "⚠️ " + translate("ja", "discord.error.game_place")
    ja = await in_dm(h, KEN, "stats board", {"game": "ticket_to_ride"}, locale="ja")
    assert ja.content == "⚠️ " + translate("ja", "discord.error.guild_only")
    for path, required in leaf_commands(fake.commands[None]):
        result = await in_dm(h, ALICE, path, {o["name"]: placeholder(o) for o in required})
        if path in ("me", "away"):
            continue
        assert result.ephemeral and result.content in (guild_only, game_place), (path, result.content)
    # what /move would suggest there: nothing
    assert await fake.autocomplete(None, None, ALICE, "move", focused="move", value="") == []

    assert dump_db(h.db_path) == before
    assert [m for m in fake.dm_messages(ALICE) if m.interaction_id is None] == []
    fake.assert_clean()

"""/me through the real client and the loopback Discord: a person's own time zone and quiet
hours, shown to them alone in their language; a game's turn post never pings them in their
night, their reminder comes at their morning, and /game status shows their local time."""
from __future__ import annotations

import re
from datetime import datetime, timezone

from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CHANNEL, GUILD, Harness
from tests.discord.test_timers import reminders_in, tick


def en(key: str, **params) -> str:
    return translate("en", key, params)


def ja(key: str, **params) -> str:
    return translate("ja", key, params)


async def test_me_sets_shows_and_refuses_in_the_persons_language(harness: Harness, fake) -> None:
    h = harness
    commands = {c["name"]: c for c in fake.commands[GUILD]}
    assert commands["me"]["name_localizations"] == {"ja": "自分の設定"}
    assert {o["name"] for o in commands["me"]["options"]} == {"timezone", "quiet_hours", "dm_reminders", "digest"}

    shown = await h.slash(BOB, "me")
    assert shown.ephemeral and en("discord.me.no_zone") in shown.content and en("discord.me.no_quiet") in shown.content

    refused = await h.slash(BOB, "me", {"quiet_hours": "23-7"})
    assert refused.ephemeral and refused.content == "⚠️ " + en("error.quiet_hours_need_zone")
    refused = await h.slash(BOB, "me", {"timezone": "Mars/Olympus"}, locale="ja")
    assert refused.content == "⚠️ " + ja("error.bad_timezone", value="Mars/Olympus")
    refused = await h.slash(BOB, "me", {"timezone": "Asia/Tokyo", "quiet_hours": "lunch"})
    assert refused.content == "⚠️ " + en("error.bad_quiet_hours", value="lunch")
    assert (await h.bot.service.user_prefs(str(BOB))).tz is None  # a refused change changes nothing

    choices = await h.autocomplete(BOB, "me", {}, focused="timezone", value="tokyo")
    assert [c["value"] for c in choices] == ["Asia/Tokyo"]
    assert len(await h.autocomplete(BOB, "me", {}, focused="timezone", value="america")) == 25

    saved = await h.slash(BOB, "me", {"timezone": "asia/tokyo", "quiet_hours": "23-7"}, locale="ja")
    assert saved.ephemeral and saved.content.startswith("✅ " + ja("discord.settings.saved"))
    assert ja("discord.me.quiet", start="23:00", end="07:00") in saved.content
    assert "Asia/Tokyo" in saved.content
    fake.assert_clean()


async def test_a_sleeper_is_not_pinged_and_hears_at_their_morning(harness: Harness, fake, clock) -> None:
    h = harness
    await h.slash(BOB, "me", {"timezone": "Asia/Tokyo", "quiet_hours": "23-7"})
    clock.now = datetime(2026, 3, 10, 17, 14, tzinfo=timezone.utc).timestamp()  # 02:14 in Tokyo
    await h.new_game(ALICE, [BOB])
    post = h.last_post(CHANNEL)
    assert {u.id for u in post.mentions} == {ALICE}  # both are waited on; only Alice is awake
    # the board post says why Bob was not pinged, as of the post, as /game status does
    asleep_line = translate("en", "discord.status.asleep", {"seat": 1, "time": "02:14"}, ["Alice", "Bob"])
    assert asleep_line in post.content
    assert "local time" not in post.content.replace(asleep_line, "")  # Alice set no time zone

    status = await h.slash(ALICE, "game status")
    assert asleep_line in status.content

    clock.now = datetime(2026, 3, 10, 22, 0, tzinfo=timezone.utc).timestamp()  # 07:00 in Tokyo
    await tick(h)
    (reminder,) = reminders_in(h)
    assert set(re.findall(r"<@(\d+)>", reminder.content)) == {str(BOB)}
    assert {u.id for u in reminder.mentions} == {BOB}
    fake.assert_clean()

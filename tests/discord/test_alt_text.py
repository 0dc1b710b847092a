"""Alt text and languages on the loopback Discord: every image the bot sends carries a
description (Discord's alt text, at most 1024 characters) in the language of the post it is
in; public posts speak the game's language (the server's, unless the host picked one), private
replies each player's own; the final post carries the game's timelapse."""
from __future__ import annotations

import io
import random
import re
import types

import discord
import pytest
from PIL import Image

from bot.discord.outbox import Courier, without_animations
from bot.discord.replies import DESCRIPTION_MAX, Reply, clip_description
from games import registry
from games.core.i18n import translate
from render.kit.animate import animate
from render.timelapse import turn_ends
from tests.discord.conftest import ALICE, CHANNEL, GUILD, Harness, find_id

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
KANA = re.compile(r"[\u3040-\u30ff]")


def _descriptions(record) -> dict[str, str | None]:
    """File name -> description of the attachments a message payload uploaded."""
    specs = {str(a.get("id")): a for a in record.payload.get("attachments") or []}
    out = {}
    for index, upload in enumerate(record.files):
        spec = specs.get(str(index), {})
        out[spec.get("filename") or upload.filename] = spec.get("description")
    return out


async def _play_out(h: Harness, user: int, *, locale: str = "en-US") -> list:
    """Play the channel's game to its end, `user` moving with the game's first bot through
    /move (bots play the other seats). Returns the private replies the user got."""
    bot = h.bot
    replies = []
    for _ in range(400):
        status = await bot.service.status(str(CHANNEL))
        if status.info.status != "active":
            return replies
        game = registry.get(status.info.game)
        seat = status.waiting[0]
        assert status.info.seats[seat].user_id == str(user), "only the user and bots play"
        state = await bot.service.current_state(status.info.game_id)
        planner = next(iter(game.bots().values()))
        notation = game.format_action(planner.choose(game, state, seat, random.Random(len(replies))))
        replies.append(await h.slash(user, "move", {"move": notation}, locale=locale))
    raise AssertionError("the game did not finish")


@pytest.mark.slow  # a whole game
async def test_a_whole_game_every_image_described_public_in_the_servers_language(harness: Harness, fake) -> None:
    h = harness
    fake.guilds[GUILD].locale = "ja"  # the server prefers Japanese; Alice's own client is English
    opened = await h.slash(ALICE, "game new", {"game": "ginga", "options": "start_player=1"})
    assert opened.ephemeral and not KANA.search(opened.content)  # Alice's reply: her language
    lobby = h.lobby()
    assert JAPANESE.search(lobby.embeds[0]["title"])  # the lobby is public: the server's language
    await h.click(lobby, None, ALICE, label=translate("ja", "discord.lobby.add_bot"))
    await h.click(lobby, None, ALICE, label=translate("ja", "discord.lobby.start"))
    game_id = await h.game_id()
    start = h.last_post()
    info = await h.bot.service.lobby(str(CHANNEL))
    first = info.seats[0].name  # start_player=1
    assert translate("ja", "session.first_player", {"seat": 0}, info.names) in start.content
    assert first in start.content

    hand = await h.click(start, find_id(start, r"ry:\d+:\d+:hand"), ALICE)
    replies = [hand, *await _play_out(h, ALICE)]
    assert (await h.bot.service.status(str(CHANNEL))).info.status == "finished"

    # --- private replies: Alice's language; her hand image described in English
    for reply in replies:
        assert reply.ephemeral and not KANA.search(reply.content or ""), reply.content
    private = [r for r in fake.ephemeral_payloads() if r.files]
    assert private
    for record in private:
        for name, description in _descriptions(record).items():
            assert description and not KANA.search(description), (name, description)

    # --- every public image: described, in Japanese, within Discord's limit
    public = [r for r in fake.public_payloads() if r.files]
    assert len(public) >= 2  # the boards posted along the way and the final post
    for record in public:
        for name, description in _descriptions(record).items():
            assert description and JAPANESE.search(description), (name, description)
            assert len(description) <= DESCRIPTION_MAX
    for message in h.game_posts():
        assert message.content and JAPANESE.search(message.content)

    # --- the final post: final board, the game's final image and the timelapse
    final = h.last_post()
    assert {a.filename for a in final.attachments} == {"board.png", "final.png", "timelapse.webp"}
    record = await h.bot.service.record(game_id)
    animation = next(a for a in final.attachments if a.filename == "timelapse.webp")
    with Image.open(io.BytesIO(animation.data)) as image:
        assert image.is_animated and image.n_frames == len(turn_ends(record.moves)) + 1
    assert all(a.description for a in final.attachments)
    fake.assert_clean()


async def test_the_game_language_picked_at_creation_wins_over_the_servers(harness: Harness, fake) -> None:
    h = harness
    fake.guilds[GUILD].locale = "ja"
    await h.slash(ALICE, "game new", {"game": "ticket_to_ride", "language": "en"}, locale="ja")
    lobby = h.lobby()
    assert not KANA.search(lobby.embeds[0]["title"])
    assert (await h.bot.service.lobby(str(CHANNEL))).locale == "en"


async def test_long_alt_text_is_clipped_to_discords_limit(harness: Harness, fake, monkeypatch) -> None:
    from render.registry import GameRenderer

    sentence = "The route from Los Angeles to El Paso was claimed by somebody. "
    monkeypatch.setattr(GameRenderer, "describe", lambda self, kind, view, names, lang="en": sentence * 40)
    await harness.new_game(ALICE, [], bots=1)
    sent = [d for r in fake.message_payloads for d in _descriptions(r).values()]
    assert sent and all(d is not None and 0 < len(d) <= DESCRIPTION_MAX for d in sent)
    assert all(d.endswith("…") for d in sent)
    fake.assert_clean()  # Discord would have refused a longer one


async def test_a_describer_that_fails_costs_the_words_not_the_picture(harness: Harness, fake, monkeypatch, expect_error) -> None:
    expect_error('railyard.render.pool', 'describing the board of a \\w+ game failed')
    from render.registry import GameRenderer

    def broken(self, kind, view, names, lang="en"):
        raise RuntimeError("describe bug")

    monkeypatch.setattr(GameRenderer, "describe", broken)
    await harness.new_game(ALICE, [], bots=1)
    post = harness.last_post()
    assert [a.filename for a in post.attachments] == ["board.png"]
    assert post.attachments[0].description is None


async def test_loopback_refuses_a_description_over_1024_characters(harness: Harness, fake) -> None:
    channel = harness.bot.get_partial_messageable(CHANNEL)
    png = io.BytesIO()
    Image.new("RGB", (4, 4)).save(png, "PNG")
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(file=discord.File(io.BytesIO(png.getvalue()), "a.png", description="x" * 1025))
    assert refused.value.status == 400
    assert [v.rule for v in fake.violations] == ["attachment_description"]
    fake.violations.clear()
    sent = await channel.send(file=discord.File(io.BytesIO(png.getvalue()), "a.png", description="x" * 1024))
    assert fake.message(sent.id).attachments[0].description == "x" * 1024


def test_clipping_keeps_whole_sentences_and_words():
    english = "One short sentence. " * 80
    clipped = clip_description(english)
    assert len(clipped) <= DESCRIPTION_MAX and clipped.endswith("sentence.…")
    japanese = "盤面の説明です。" * 200
    clipped = clip_description(japanese)
    assert len(clipped) <= DESCRIPTION_MAX and clipped.endswith("。…")
    assert clip_description("  ") is None and clip_description("short") == "short"


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (64, 48), (10, 120, 200)).save(out, "PNG")
    return out.getvalue()


async def test_a_post_too_large_for_discord_loses_its_timelapse_first() -> None:
    animation = animate(3, lambda i: Image.new("RGB", (64, 48), (i * 80, 40, 40))).data
    reply = Reply(content="final")
    reply.attach("board.png", _png(), "the board")
    reply.attach("timelapse.webp", animation, "the timelapse")
    assert [n for n, _ in without_animations(reply).files] == ["board.png"]
    assert without_animations(reply).descriptions == {"board.png": "the board"}
    assert without_animations(without_animations(reply)) is None

    sent: list[list[str]] = []

    class Where:
        async def send(self, **kwargs):
            files = [f.filename for f in kwargs.get("files", [])]
            sent.append(files)
            if "timelapse.webp" in files:  # Discord: 413 Payload Too Large
                raise discord.HTTPException(types.SimpleNamespace(status=413, reason="Payload Too Large"),
                                            {"code": 40005, "message": "Request entity too large"})
            return types.SimpleNamespace(id=99)

    host = types.SimpleNamespace(get_partial_messageable=lambda channel_id: Where(), clock=lambda: 0.0)
    row = types.SimpleNamespace(id=7, attempts=0, takeovers=0, created_at=0.0)
    courier = Courier(host, row, {})  # type: ignore[arg-type]
    await courier.post("post", "501", reply)
    assert sent == [["board.png", "timelapse.webp"], ["board.png"]]  # no shrinking needed after that
    assert courier.message_id("post") == "99"

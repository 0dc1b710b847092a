"""The delivery half of the outbox on its own: how failures are classified and bounded,
nonces, and the lesser forms a post is re-sent in (smaller images, no images)."""
from __future__ import annotations

import io
import types

import aiohttp
import discord
from PIL import Image

from bot.discord.outbox import LOOK_BACK, LOOK_SLACK, Courier, RetryPolicy, classify, shrink_images, without_files
from bot.discord.outbox import Channel as ChannelTarget
from bot.discord.replies import Reply
from bot.store import OutboxRow


class _Response:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "test"


def http_error(cls: type[discord.HTTPException], status: int, code: int = 0, message: str = "x") -> discord.HTTPException:
    return cls(_Response(status), {"code": code, "message": message})


def test_failures_are_classified_by_what_can_fix_them() -> None:
    assert classify(http_error(discord.Forbidden, 403, 50013, "Missing Permissions")).problem == "forbidden"
    assert classify(http_error(discord.NotFound, 404, 10003, "Unknown Channel")).problem == "deleted"
    assert classify(http_error(discord.NotFound, 404, 10008, "Unknown Message")).problem == "gone"
    assert classify(http_error(discord.Forbidden, 403, 50001, "Missing Access")).problem == "forbidden"
    assert classify(http_error(discord.HTTPException, 400, 50083, "Thread is archived")).problem == "refused"
    assert classify(http_error(discord.DiscordServerError, 503)).problem == "transient"
    assert classify(http_error(discord.HTTPException, 400, 50035, "Invalid Form Body")).problem == "refused"
    limited = classify(http_error(discord.HTTPException, 429))
    assert (limited.problem, limited.retry_after) == ("transient", 30.0)
    assert classify(aiohttp.ClientConnectionError("reset")).problem == "transient"
    assert classify(TimeoutError()).problem == "transient"
    broken = classify(KeyError("view"))
    assert broken.problem == "broken" and broken.error == "error: KeyError('view')"


def test_every_problem_has_a_bound() -> None:
    policy = RetryPolicy()
    for problem in ("transient", "forbidden", "gone", "deleted", "refused", "broken", "something new"):
        failure = classify(RuntimeError()) if problem == "broken" else types.SimpleNamespace(problem=problem)
        bound = next(n for n in range(1, 1000) if policy.gives_up(failure, n))
        assert bound <= 100, problem
    # what cannot fix itself is given up quickly; Discord being down is waited out
    assert policy.gives_up(types.SimpleNamespace(problem="gone"), 1)
    assert not policy.gives_up(types.SimpleNamespace(problem="transient"), 50)


def test_nonces_are_stable_per_row_and_part_and_fit_discord() -> None:
    def courier(row_id: int) -> Courier:
        row = OutboxRow(id=row_id, game_id=1, created_at=0, kind="reminder", payload_json="{}", attempts=0,
                        next_attempt_at=0, delivered_at=None, last_error=None, dead=False)
        return Courier(types.SimpleNamespace(clock=lambda: 0.0), row, {})

    big = courier(10**12)
    parts = ["post", "channel", f"dm:{2**63 - 1}", "dm:12", "notice"]
    nonces = [big.nonce(p) for p in parts]
    assert all(len(n) <= 25 for n in nonces)  # Discord's limit for a nonce
    assert len(set(nonces)) == len(parts)
    assert nonces == [courier(10**12).nonce(p) for p in parts]  # a new process: the same
    assert big.nonce("post") != courier(10**12 + 1).nonce("post")


def _png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(out, format="PNG")
    return out.getvalue()


def test_lesser_forms_of_a_post() -> None:
    embed = discord.Embed(title="board").set_image(url="attachment://board.png")
    embed.set_thumbnail(url="https://example.com/x.png")
    reply = Reply(content="hello", embeds=[embed], files=[("board.png", _png(400, 200)), ("notes.txt", b"text")])

    smaller = shrink_images(reply)
    assert Image.open(io.BytesIO(smaller.files[0][1])).size == (200, 100)
    assert smaller.files[1] == ("notes.txt", b"text")  # not an image: as it was
    assert smaller.content == "hello" and smaller.embeds == reply.embeds

    bare = without_files(reply)
    assert bare.files == [] and bare.content == "hello"
    assert bare.embeds[0].image.url is None  # it showed an attachment that is not there
    assert bare.embeds[0].thumbnail.url == "https://example.com/x.png"  # not an attachment
    assert reply.embeds[0].image.url == "attachment://board.png"  # the original is untouched


async def test_a_message_is_found_again_by_the_bot_and_its_words_only() -> None:
    """A tried row's message is looked for among the channel's messages since the row was
    written: the bot's own (not someone quoting it, not an interaction's answer), saying what
    the part says (its text and first embed: files do not count, a lighter form has fewer),
    once per part; a row never tried is not looked for at all."""
    me = types.SimpleNamespace(id=1)

    def embed(footer: str) -> discord.Embed:
        return discord.Embed(title="Galactic Railway", description="final").set_footer(text=footer)

    def message(id: int, author: int, content: str, footer: str, webhook: int | None = None):
        return types.SimpleNamespace(id=id, author=types.SimpleNamespace(id=author), content=content,
                                     embeds=[embed(footer)], webhook_id=webhook)

    history = [
        message(10, 2, "🏁 the results", "Game #7"),  # a person pasting it
        message(11, 1, "🏁 the results", "Game #7", webhook=5),  # an interaction's answer
        message(12, 1, "🏁 the results", "Game #8"),  # another game's
        message(13, 1, "🏁 the results", "Game #7"),  # the one
    ]
    asked: list[dict] = []

    class Channel:
        def history(self, **kwargs):
            asked.append(kwargs)

            async def walk():
                for m in history:
                    yield m
            return walk()

    host = types.SimpleNamespace(get_partial_messageable=lambda channel_id: Channel(), clock=lambda: 0.0, user=me)
    reply = Reply(content="🏁 the results", embeds=[embed("Game #7"), discord.Embed(title="board")],
                  files=[("board.png", _png(4, 4))])

    def courier(attempts: int) -> Courier:
        row = OutboxRow(id=3, game_id=7, created_at=1_700_000_000.0, kind="move", payload_json="{}",
                        attempts=attempts, next_attempt_at=0, delivered_at=None, last_error=None, dead=False)
        return Courier(host, row, {})  # type: ignore[arg-type]

    fresh = courier(0)
    assert await fresh.find("post", ChannelTarget("5"), reply) is None and asked == []
    tried = courier(1)
    found = await tried.find("post", ChannelTarget("5"), reply)
    assert found is history[3] and tried.message_id("post") == "13"
    (kwargs,) = asked
    assert kwargs["oldest_first"] and kwargs["limit"] == LOOK_BACK
    assert kwargs["after"].timestamp() == 1_700_000_000.0 - LOOK_SLACK  # since the row was written
    assert await courier(1).find("post", ChannelTarget("5"), Reply(content="🏁 other results",
                                                                    embeds=[embed("Game #7")])) is None

"""The bot with two render workers, end to end through the loopback Discord: its posts carry
real boards drawn in the workers (never in the bot's own process), each game's pictures come
from one worker, a worker killed mid-game is replaced without losing a post, and closing the
bot stops the workers.

The only test of the adapter that starts worker processes: the rest run with the default
`render_workers=0` (threads), which keeps the suite fast."""
from __future__ import annotations

import io
import os
import random
import signal

import pytest
from PIL import Image

from bot.discord import posts
from bot.discord.bot import RailyardBot
from games import registry as games
from games.core.i18n import translate
from render import timelapse
from render.kit import palette as kit_palette
from render.ticket_to_ride import style
from render.ticket_to_ride.layout import BOARD_H, BOARD_W
from tests.discord.conftest import ALICE, BOB, CAROL, CHANNEL, OTHER, SEED, Harness

pytestmark = pytest.mark.slow  # render worker processes


class PoolHarness(Harness):
    async def start(self) -> RailyardBot:
        seeds = iter(range(SEED, SEED + 1000))
        bot = RailyardBot(self.settings(), clock=self.clock, new_seed=lambda: next(seeds),
                          guild_ready_timeout=0.05, render_workers=2)
        self._running = self.fake.running(bot)
        await self._running.__aenter__()
        self.bot = bot
        self.bots_started += 1
        return bot


def boards(h: Harness, channel: int) -> list[Image.Image]:
    found = []
    for message in h.game_posts(channel):
        for attachment in message.attachments:
            if attachment.filename == "board.png":
                found.append(Image.open(io.BytesIO(attachment.data)))
    return found


def assert_real_board(img: Image.Image, seats: int) -> None:
    assert img.format == "PNG" and img.mode == "P" and img.size == (BOARD_W, BOARD_H)
    rgb = img.convert("RGB")
    colours = {c for _, c in rgb.getcolors(1 << 16)}
    # the parchment map, and each seat's own colour exactly (its chips in the strips)
    assert style.MAP_BG in colours
    assert all(kit_palette.PLAYER_COLORS[seat] in colours for seat in range(seats))


async def test_boards_are_drawn_in_the_render_workers(fake, tmp_path, clock, monkeypatch) -> None:
    def not_here(*args, **kwargs):
        raise AssertionError("a picture was drawn in the bot's own process")

    monkeypatch.setattr(posts, "_draw", not_here)
    h = PoolHarness(fake, tmp_path / "railyard.sqlite3", clock)
    await h.start()
    try:
        pool = h.bot.render_pool
        pids = await pool.ready()
        assert len(set(pids)) == 2 and os.getpid() not in pids

        await h.new_game(ALICE, (BOB,))
        await h.new_game(CAROL, (BOB,), channel=OTHER)
        games = [await h.game_id(CHANNEL), await h.game_id(OTHER)]
        assert pool.lane(games[0]) != pool.lane(games[1])  # so both workers have work
        for user in (ALICE, BOB):
            await h.keep_tickets(user)
        for user in (CAROL, BOB):
            await h.keep_tickets(user, channel=OTHER)

        drawn = boards(h, CHANNEL) + boards(h, OTHER)
        assert len(drawn) >= 2
        for img in drawn:
            assert_real_board(img, seats=2)
        assert set(pool.served) == set(pids)  # every picture came from a worker, both worked
        assert sum(pool.served.values()) >= len(drawn)

        # a worker dies (killed, out of memory): it is replaced, and the next picture of its
        # game (the board of a status reply) is drawn by the new worker
        victim = pids[pool.lane(games[0])]
        os.kill(victim, signal.SIGKILL)
        status = await h.slash(ALICE, "game status")
        files = [a for a in status.original.attachments if a.filename == "board.png"]
        assert len(files) == 1
        assert_real_board(Image.open(io.BytesIO(files[0].data)), seats=2)
        assert pool.replaced == 1 and pool.in_thread == 0
        new_pids = set(pool.served) - set(pids)
        assert len(new_pids) == 1
        workers = (set(pids) - {victim}) | new_pids
    finally:
        await h.stop()
    for pid in workers:  # the bot closed its workers
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


async def test_the_final_posts_timelapse_is_drawn_in_the_games_worker(fake, tmp_path, clock, monkeypatch) -> None:
    """The timelapse replays and draws the whole game (seconds of work): with workers it must
    not be drawn in the bot's own process, where it would hold the interpreter while clicks
    wait to be acknowledged."""
    def not_here(*args, **kwargs):
        raise AssertionError("a timelapse was drawn in the bot's own process")

    monkeypatch.setattr(timelapse, "timelapse", not_here)  # the workers are fresh interpreters
    h = PoolHarness(fake, tmp_path / "railyard.sqlite3", clock)
    await h.start()
    try:
        pool = h.bot.render_pool
        await pool.ready()
        opened = await h.slash(ALICE, "game new", {"game": "ginga", "options": "start_player=1"})
        assert opened.ephemeral, opened.content
        lobby = h.lobby()
        await h.click(lobby, None, ALICE, label=translate("en", "discord.lobby.add_bot"))
        await h.click(lobby, None, ALICE, label=translate("en", "discord.lobby.start"))
        for turn in range(400):
            status = await h.bot.service.status(str(CHANNEL))
            if status.info.status != "active":
                break
            game = games.get(status.info.game)
            seat = status.waiting[0]
            state = await h.bot.service.current_state(status.info.game_id)
            planner = next(iter(game.bots().values()))
            move = game.format_action(planner.choose(game, state, seat, random.Random(turn)))
            result = await h.slash(ALICE, "move", {"move": move})
            assert result.content.startswith("✅"), result.content
        assert status.info.status == "finished"
        await h.idle()
        final = h.last_post()
        assert {a.filename for a in final.attachments} == {"board.png", "final.png", "timelapse.webp"}
        animation = next(a for a in final.attachments if a.filename == "timelapse.webp")
        assert Image.open(io.BytesIO(animation.data)).n_frames > 2
        assert pool.in_thread == 0
    finally:
        await h.stop()

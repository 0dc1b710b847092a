"""`railyard bench [game]`: speed figures printed, never asserted (the machines are shared and
noisy; compare figures within one run).

1. One move end to end through the sessions service in the late game: load the game from
   SQLite, validate and apply the move, commit action + snapshot + outbox in one
   transaction, render the board and encode the PNG. p50 / p95 over the second half of
   several games (every seat is a "person", so each move takes the act() path).
2. Render + encode alone for the last late-game board.
3. Random full games per second (rules only, random bots, 4 players or the most allowed).
4. Whatever the game adds: a game may define `benchmarks() -> list[str]` (e.g. its hardest
   scoring positions) and those lines are printed too.
5. The final post's timelapse: drawing and encoding time and bytes for the longest of a few
   full games at the most players (`--timelapse-games`).

`railyard bench --stored-games N` measures something else: how long a player waits for the
acknowledgement of a move when the database already holds N games. It fills the database
first (a few games really played through the sessions service, then copied in bulk with
distinct ids: most finished, some still going, with their action logs, timers and
delivered outbox rows), then starts the real bot against the loopback Discord
(`bot.loopback`), with its outbox dispatcher rendering and delivering every post, and plays
moves with `/move` (`--moves` of them). The figure is the time from the interaction's
dispatch to the moment the player sees the committed "✅" answer (the answer itself, or the
edit after a defer), printed as

    ack with <N> stored games: p50 <x> ms, p99 <y> ms

Before that it prints the fill, the time the dispatcher's due-outbox query takes on its own
(with all the history, then after pruning it as a running bot does) and the pruning time.
"""
from __future__ import annotations

import asyncio
import os
import random
import resource
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

from games import registry
from games.core.stats import percentile


async def run_bench(game_name: str = "ticket_to_ride", games: int = 200, moves: int = 200,
                    timelapse_games: int = 3) -> int:
    from bot.sessions import Actor, SessionService
    from bot.store import Store
    from render import registry as renderers

    game = registry.get(game_name)
    renderer = renderers.get(game_name)
    smart = game.bots()[next(iter(game.bots()))]
    players = min(4, game.max_players)
    print(f"Railyard bench — {game_name}, {players} players")

    # 1. end-to-end moves in the late game ------------------------------------------
    samples: list[float] = []
    apply_only: list[float] = []
    seed = 1
    late_view = None
    with tempfile.TemporaryDirectory() as tmp:
        async with Store(Path(tmp) / "bench.sqlite3") as store:
            while len(samples) < moves:
                service = SessionService(store, new_seed=lambda s=seed: s)
                channel = f"bench-{seed}"
                people = [Actor(user_id=f"u{i}", name=f"P{i}") for i in range(players)]
                await service.create(game_name, channel, None, people[0], options={})
                for p in people[1:]:
                    await service.join(channel, p)
                outcome = await service.start(channel, people[0])
                rng = random.Random(seed)
                by_user = {p.user_id: p for p in people}
                state = await service.rebuild(outcome.game_id)
                times: list[float] = []
                views = []
                while outcome.status == "active":
                    seat = min(outcome.waiting)
                    actor = by_user[outcome.seat_user_ids[seat]]
                    action = smart.choose(game, state, seat, rng)
                    text = game.format_action(action)
                    t0 = time.perf_counter()
                    outcome = await service.act(channel, actor, text)
                    renderer.board(outcome.view, outcome.names, "en")
                    times.append(time.perf_counter() - t0)
                    views.append(outcome.view)
                    t1 = time.perf_counter()
                    state = game.apply(state, seat, action).state  # follow along for the bot
                    apply_only.append(time.perf_counter() - t1)
                half = len(times) // 2
                samples.extend(times[half:])
                late_view = views[-2] if len(views) > 1 else views[-1]
                seed += 1
    print(f"  move end to end (load, validate, apply, commit, render, encode), late game, n={len(samples)}:")
    print(f"      p50 {percentile(samples, 0.5) * 1000:6.1f} ms   p95 {percentile(samples, 0.95) * 1000:6.1f} ms"
          f"   max {max(samples) * 1000:6.1f} ms   (target p95 ≤ 60 ms)")
    print(f"  rules apply alone: p50 {percentile(apply_only, 0.5) * 1e6:6.0f} µs")

    # 2. render + encode alone -------------------------------------------------------
    names = [f"P{i}" for i in range(players)]
    renderer.board(late_view, names, "en")  # static layer cached, as in a running bot
    times = []
    for _ in range(30):
        t0 = time.perf_counter()
        png = renderer.board(late_view, names, "en")
        times.append(time.perf_counter() - t0)
    print(f"  render + encode late-game board: p50 {percentile(times, 0.5) * 1000:6.1f} ms"
          f"   p95 {percentile(times, 0.95) * 1000:6.1f} ms   PNG {len(png) / 1024:.0f} KiB")

    # 3. random full games per second ------------------------------------------------
    bot = game.bots()["random"]
    t0 = time.perf_counter()
    actions = 0
    for g in range(games):
        rng = random.Random(g)
        state = game.setup(players, None, g)
        while game.result(state) is None:
            seat = min(game.active_players(state))
            state = game.apply(state, seat, bot.choose(game, state, seat, rng)).state
            actions += 1
    elapsed = time.perf_counter() - t0
    print(f"  random {players}-player games: {games / elapsed:6.1f} games/s   ({actions / elapsed:,.0f} actions/s,"
          f" {actions / games:.0f} actions a game; target ≥ 50 games/s)")

    # 4. the game's own figures ------------------------------------------------------
    extra = getattr(game, "benchmarks", None)
    if callable(extra):
        for line in extra():
            print(f"  {line}")

    # 5. the timelapse of the final post, for the longest of a few full games ----------
    if timelapse_games > 0:
        print(timelapse_line(game_name, timelapse_games))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  peak memory (RSS): {peak:.0f} MiB")
    return 0


def timelapse_line(game_name: str, games: int) -> str:
    """Time and size of the timelapse (render/timelapse.py) of the longest of `games` full
    games at the most players, played by the game's strongest bot."""
    from games.core.replay import GameRecord
    from render.timelapse import timelapse, turn_ends

    game = registry.get(game_name)
    smart = game.bots()[next(iter(game.bots()))]
    players = game.max_players
    longest: GameRecord | None = None
    for seed in range(1, games + 1):
        rng = random.Random(seed)
        state = game.setup(players, None, seed)
        moves: list[tuple[int, str]] = []
        while game.result(state) is None:
            seat = min(game.active_players(state))
            action = smart.choose(game, state, seat, rng)
            moves.append((seat, game.format_action(action)))
            state = game.apply(state, seat, action).state
        record = GameRecord(game=game_name, players=players, seed=seed, moves=moves)
        if longest is None or len(turn_ends(moves)) > len(turn_ends(longest.moves)):
            longest = record
    assert longest is not None
    made = timelapse(longest, [f"P{i}" for i in range(players)], "en")
    return (f"  timelapse of the longest of {games} {players}-player games ({len(longest.moves)} moves):"
            f" {made.frames} frames, {len(made.data) / 1e6:.2f} MB in {made.seconds:.1f} s (budget 8 MB)")


# ==================================================================================
# acknowledgements with many stored games
# ==================================================================================
STORED_TEMPLATES = 3  # games really played, then copied
STORED_FINISHED_SHARE = 0.8  # the rest are still going (cut at a random move)
STORED_MAX_AGE_DAYS = 180.0
STORED_GUILD = "600000000000000000"
DAY = 86400.0
_BENCH_GUILD = 7000
_BENCH_USER = 7200
_BENCH_CHANNEL = 7300


async def fill_stored_games(db: Path, game_name: str, count: int, players: int, *, seed: int = 1,
                            templates: int = STORED_TEMPLATES) -> dict[str, int]:
    """Put `count` games into the database at `db`: STORED_TEMPLATES played for real through
    the sessions service (so every row is what the code writes), the rest copied from them
    in bulk with new ids, channels, players and timestamps spread over the last months."""
    from bot.sessions import Actor, SessionService
    from bot.store import Store

    game = registry.get(game_name)
    smart = game.bots()[next(iter(game.bots()))]
    played: list[tuple[int, list[tuple[int, str, int, int]]]] = []
    async with Store(db) as store:
        for t in range(min(templates, count)):
            service = SessionService(store, new_seed=lambda t=t: 1000 + t)
            channel = f"stored-template-{t}"
            people = [Actor(user_id=str(10**17 + 100 * t + i), name=f"Player {i + 1}") for i in range(players)]
            by_user = {p.user_id: p for p in people}
            await service.create(game_name, channel, STORED_GUILD, people[0], options={})
            for person in people[1:]:
                await service.join(channel, person)
            outcome = await service.start(channel, people[0])
            state = await service.current_state(outcome.game_id)
            rng = random.Random(seed * 100 + t)
            cuts: list[tuple[int, str, int, int]] = []  # version, snapshot, last seq, last outbox id
            while outcome.status == "active":
                seat = min(outcome.waiting)
                action = smart.choose(game, state, seat, rng)
                outcome = await service.act(channel, by_user[outcome.seat_user_ids[seat]],
                                            game.format_action(action))
                state = game.apply(state, seat, action).state
                if outcome.status == "active":
                    row = await store.get_game(outcome.game_id)
                    assert row is not None and row.snapshot is not None
                    cuts.append((row.version, row.snapshot, outcome.seq or 0, outcome.outbox_id or 0))
            played.append((outcome.game_id, cuts))
    return await asyncio.to_thread(_copy_games, db, played, count - len(played), seed)


def _copy_games(db: Path, templates: list[tuple[int, list[tuple[int, str, int, int]]]], copies: int,
                seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    now = time.time()
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("PRAGMA synchronous = OFF")  # a throwaway database: speed over safety
        conn.execute("BEGIN")
        # the templates were played without a bot: their posts count as delivered
        conn.execute("UPDATE outbox SET delivered_at = created_at + 1.0 WHERE delivered_at IS NULL")
        # The templates' rows are read once and written many times (the outbox has no index
        # on delivered rows' game, so a per-copy SELECT would scan it again each time).
        source: dict[int, dict[str, Any]] = {}
        for gid, _ in templates:
            source[gid] = {
                "game": conn.execute(
                    "SELECT game, guild_id, status, host_user_id, locale, options, settings, seed, version,"
                    " snapshot, created_at, updated_at, last_move_at FROM games WHERE id = ?", (gid,)).fetchone(),
                "seats": conn.execute("SELECT seat, user_id, bot, display_name, joined FROM seats"
                                      " WHERE game_id = ? ORDER BY seat", (gid,)).fetchall(),
                "actions": conn.execute(
                    "SELECT seq, seat, kind, notation, events, undoable, actor_user_id, auto, undoes_seq,"
                    " created_at FROM actions WHERE game_id = ? ORDER BY seq", (gid,)).fetchall(),
                "outbox": conn.execute("SELECT id, created_at, kind, payload FROM outbox WHERE game_id = ?"
                                       " ORDER BY id", (gid,)).fetchall(),
            }
        next_id = conn.execute("SELECT MAX(id) FROM games").fetchone()[0] + 1
        ongoing = 0
        for i in range(copies):
            template, cuts = templates[i % len(templates)]
            src = source[template]
            (name, guild, status, host, locale, options, settings, game_seed, version, snapshot,
             created, updated, last_move) = src["game"]
            new_id = next_id + i
            shift = now - rng.uniform(1.0, STORED_MAX_AGE_DAYS) * DAY - created
            users = 1000 * (i % 997)  # other people play the copies (a few games each)
            last_seq = last_outbox = 1 << 62
            if cuts and rng.random() >= STORED_FINISHED_SHARE:
                version, snapshot, last_seq, last_outbox = cuts[rng.randrange(len(cuts))]
                status = "active"
                ongoing += 1

            def person(user_id: str | None) -> str | None:
                return None if user_id is None else str(int(user_id) + users)

            conn.execute(
                "INSERT INTO games (id, game, guild_id, channel_id, status, host_user_id, locale, options,"
                " settings, seed, version, snapshot, created_at, updated_at, last_move_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (new_id, name, guild, f"stored-{new_id}", status, person(host), locale, options, settings,
                 game_seed + i, version, snapshot, created + shift, updated + shift,
                 None if last_move is None else last_move + shift))
            conn.executemany(
                "INSERT INTO seats (game_id, seat, user_id, bot, display_name, joined) VALUES (?, ?, ?, ?, ?, ?)",
                [(new_id, seat, person(uid), bot, shown, joined) for seat, uid, bot, shown, joined in src["seats"]])
            conn.executemany(
                "INSERT INTO actions (game_id, seq, seat, kind, notation, events, undoable, actor_user_id,"
                " auto, undoes_seq, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(new_id, *a[:9], a[9] + shift) for a in src["actions"] if a[0] <= last_seq])
            conn.executemany(
                "INSERT INTO outbox (game_id, created_at, kind, payload, attempts, next_attempt_at,"
                " delivered_at, last_error, dead) VALUES (?, ?, ?, ?, 0, ?, ?, NULL, 0)",
                [(new_id, at + shift, kind, payload, at + shift, at + shift + 1.0)
                 for row_id, at, kind, payload in src["outbox"] if row_id <= last_outbox])
            if status == "active":
                conn.execute("INSERT INTO timers (game_id, kind, due_at, attempt, payload)"
                             " VALUES (?, 'reminder', ?, 0, '{}')", (new_id, now + rng.uniform(1.0, 24.0) * 3600))
            if i % 500 == 499:
                conn.execute("COMMIT")
                conn.execute("BEGIN")
        conn.execute("COMMIT")
        counts = {table: conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                  for table in ("games", "actions", "outbox")}
        counts["ongoing"] = ongoing
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return counts
    finally:
        conn.close()


def _db_size(db: Path) -> int:
    return sum(os.path.getsize(p) for p in (db, Path(f"{db}-wal")) if os.path.exists(p))


async def run_stored_bench(game_name: str = "ticket_to_ride", stored_games: int = 1000, moves: int = 200) -> int:
    from bot.config import Secret, Settings
    from bot.discord.bot import RailyardBot
    from bot.loopback import FakeDiscord
    from bot.store import Store

    game = registry.get(game_name)
    smart = game.bots()[next(iter(game.bots()))]
    players = min(4, game.max_players)
    print(f"Railyard bench — move acknowledgements with {stored_games:,} stored games"
          f" ({game_name}, {players} players)")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        t0 = time.perf_counter()
        counts = await fill_stored_games(db, game_name, stored_games, players)
        print(f"  filled in {time.perf_counter() - t0:.1f} s: {counts['games']:,} games"
              f" ({counts['ongoing']:,} still going), {counts['actions']:,} actions,"
              f" {counts['outbox']:,} outbox rows; database {_db_size(db) / 2**20:,.0f} MiB")
        # The filled database holds every post ever delivered, as an old Railyard's did. A
        # running bot prunes finished rows in the background (OutboxDispatcher.prune); bring
        # the database to that state first, so the timed moves see what a long-running
        # bot's store holds. The time printed is what the first start after an upgrade
        # does in the background, a batch at a time.
        async with await Store.open(db) as store:
            await _time_due_query(store, "with every delivered row still stored")
            t0 = time.perf_counter()
            pruned = 0
            while removed := await store.prune_outbox():
                pruned += removed
            async with store.read() as tx:
                left = (await tx.fetchall("SELECT COUNT(*) AS n FROM outbox"))[0]["n"]
            print(f"  pruned {pruned:,} delivered outbox rows in {time.perf_counter() - t0:.1f} s; {left:,} left")
            await _time_due_query(store, "after pruning")

        users = [_BENCH_USER + i for i in range(players)]
        channels = [_BENCH_CHANNEL + k for k in range(1, 2 + moves // 20)]
        acks: list[float] = []
        refused: list[str] = []
        async with FakeDiscord(quiet_period=0.02) as fake:
            for i, user in enumerate(users):
                fake.add_user(user, f"player{i + 1}", global_name=f"Player {i + 1}")
            fake.add_guild(_BENCH_GUILD, "Bench", members=users,
                           channels=[{"id": c, "name": f"bench-{c}"} for c in channels])
            settings = Settings(token=Secret(fake.token), database=db, dev_guild_id=_BENCH_GUILD)
            bot = RailyardBot(settings, guild_ready_timeout=0.05)
            async with fake.running(bot):
                await _settle_startup(bot)
                rng = random.Random(7)
                for channel in channels:
                    if len(acks) >= moves:
                        break
                    await _play_timed(bot, fake, game, smart, channel, users, rng, moves, acks, refused)
                await bot.idle()
                posts = sum(len(fake.messages(c, ephemeral=False)) for c in channels)
        print(f"  {len(acks)} moves through /move; the dispatcher delivered {posts} posts meanwhile;"
              f" {len(refused)} moves refused{': ' + refused[0][:80] if refused else ''}")
    print(f"ack with {stored_games} stored games: p50 {percentile(acks, 0.5) * 1000:.1f} ms,"
          f" p99 {percentile(acks, 0.99) * 1000:.1f} ms")
    return 0


async def _time_due_query(store: Any, when: str, runs: int = 50) -> None:
    """The dispatcher's due-outbox query on its own (it runs under the store's lock, so a
    move's acknowledgement can wait for it)."""
    await store.due_outbox()  # warm the page cache, as a running bot's would be
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        await store.due_outbox()
        times.append(time.perf_counter() - t0)
    print(f"  due-outbox query {when}: p50 {percentile(times, 0.5) * 1000:.2f} ms, max {max(times) * 1000:.2f} ms")


async def _settle_startup(bot: Any) -> None:
    """Let the start-up work (the timer loop's first sweep, which looks at every active game
    for bots to run) finish before timing, so the figures are the steady state."""
    timers = bot.get_cog("Timers")
    for _ in range(6000):
        if timers is None or getattr(timers, "_recovered", True):
            break
        await asyncio.sleep(0.01)
    await bot.idle()


async def _play_timed(bot: Any, fake: Any, game: Any, smart: Any, channel: int, users: list[int],
                      rng: random.Random, moves: int, acks: list[float], refused: list[str]) -> None:
    from bot.sessions import Actor

    people = [Actor(user_id=str(u), name=f"Player {i + 1}") for i, u in enumerate(users)]
    await bot.service.create(game.name, str(channel), str(_BENCH_GUILD), people[0], options={})
    for person in people[1:]:
        await bot.service.join(str(channel), person)
    outcome = await bot.service.start(str(channel), people[0])
    bot.after_commit(outcome)
    while len(acks) < moves:
        status = await bot.service.status(str(channel))
        if status.info.status != "active" or not status.waiting_user_ids:
            return
        user = status.waiting_user_ids[0]
        seat = next(s.seat for s in status.info.seats if s.user_id == user)
        state = await bot.service.current_state(status.info.game_id)
        notation = game.format_action(smart.choose(game, state, seat, rng))
        result = await fake.slash(_BENCH_GUILD, channel, int(user), "move", {"move": notation}, wait=False)
        for _ in range(60_000):
            if result.answered_mono is not None or result.rejected_callbacks:
                break
            await asyncio.sleep(0.001)
        if result.answer_latency is None:
            raise RuntimeError(f"/move {notation!r} got no answer")
        acks.append(result.answer_latency)
        if not (result.content or "").startswith("✅"):
            refused.append(result.content or "")

"""`railyard bench [game]`: speed figures printed, never asserted (the machines are shared and
noisy; compare figures within one run).

1. One move end to end through the sessions service in the late game: load the game from
   SQLite, validate and apply the move, commit action + snapshot + outbox in one
   transaction, render the board and encode the PNG. p50 / p95 over the second half of
   several games (every seat is a "person", so each move takes the act() path), then the
   same moves split: the sessions service's act() (load, validate, apply, commit), drawing
   the board, and encoding it (its 256 colours, then the PNG); then the same in CPU time
   (the process's, its database thread included), which a machine others load does not
   inflate as it does wall time.
2. Render + encode alone for the last late-game board, split the same way.
3. Random full games per second (rules only, random bots, 4 players or the most allowed).
4. Whatever the game adds: its own lines from tools/games (tools.games.BENCH_LINES: Steam's
   delivery search, Catan Express's menus, Galactic Railway's hardest loop scoring).
5. The final post's timelapse: drawing and encoding time and bytes for the longest of a few
   full games at the most players (`--timelapse-games`).

`railyard bench --stored-games N [--store sqlite|postgres] [--database-url URL]` measures
something else: how long a player waits for the acknowledgement of a move when the database
already holds N games. It fills the database first (a few games really played through the
sessions service, then copied in bulk with distinct ids: most finished, some still going,
with their action logs (packed, as the housekeeping sweep leaves a game closed over a day ago),
timers and delivered outbox rows - every post for the first
STORED_FULL_OUTBOX copies, none for the rest, whose posts a running bot would have pruned a
day after delivering them). On PostgreSQL the SQLite fill is then copied over with COPY
(asyncpg's copy_records_to_table) into the database `--database-url` names, which must be
empty, or else into a throwaway server started for the run (bot/store/local_pg.py); the fill
line gives both times. Then it starts the real bot against the loopback Discord
(`tools.loopback`), with its outbox dispatcher rendering and delivering every post.

The figure is the time from the interaction's dispatch to the moment the player sees the
committed "✅" answer (the answer itself, or the edit after a defer). Before it come the
fill, the time the dispatcher's due-outbox query takes on its own (with all the history,
then after pruning it as a running bot does) and the pruning time; then, with `--moves M`
(M > 0), M moves one at a time, each waiting for the last (a quiet bot), with the boards drawn
as `railyard run` draws them on this machine (RAILYARD_RENDER_WORKERS or its default):

    sequential acks with <N> stored games: p50 <x> ms, p99 <y> ms

Then a burst, for each render worker count of `--render-workers` (0,2 unless told
otherwise): 50 games are opened (one per channel, new channels for each count) and played a
few moves in, then 50 `/move`s, one in each game, arrive at once while the dispatcher draws
and delivers the boards they cause:

    burst of 50 moves on 50 games, <w> render workers: ack p50 <x> ms, p99 <y> ms; <n> boards drawn
        and delivered after <z> s, bot process CPU <c> s

With 0 the boards are drawn in threads of the bot's process and compete with the
acknowledgements for the GIL; with workers they are drawn in other processes (render/pool.py).
The last count's burst is the figure of issue 13, printed last in the one-line form:

    ack with <N> stored games: p50 <x> ms, p99 <y> ms

`railyard bench --sizes GAMES [--store ...]`: GAMES full games played through the sessions
service (the strongest bot in every seat, 4 players), every post counted as delivered, then
the bytes the database grew by per finished game, by table, as played and after retention
(delivered outbox rows past their keep time deleted, as OutboxDispatcher.prune does a day
later; closed games' live boards dropped and action logs packed, as the housekeeping sweep
does), each measured after compacting (SQLite VACUUM then dbstat; PostgreSQL VACUUM FULL
then pg_total_relation_size, indexes and TOAST included), less the empty schema's size:

    bytes per finished game, <store>, after retention: <bytes> (<kb> KB; <table> <kb> KB, ...)

Use a dozen games or more: a table's first pages are shared by few games otherwise.

`railyard bench --processes 1,2,4 [--store postgres] [--players P] [--seconds S]`: moves per
second through the sessions service (load, validate, apply, commit; no Discord, no rendering,
random bot moves so choosing costs little) with each count of processes started by
multiprocessing spawn on one database. The same P players (default THROUGHPUT_PLAYERS) play in
every case, shared out over the processes, each a game of its own, making its next move as soon
as the last is answered: a process has work whenever one of its players is not waiting on the
database, so a second process does not gain just by filling the first one's waits. Timed in
the steady state, S seconds (default THROUGHPUT_SECONDS) after THROUGHPUT_WARMUP seconds of
play (start-up, opening the games and the first moves are not counted). One line per count:

    throughput, <store>, <k> processes, <P> players: <r> moves/s (<ratio>x 1 process); CPU per
        move: bot processes <b> ms, database server <d> ms (<m> moves/s per busy core); <n> moves in <t> s

The CPU times are the user + system time of the bot processes and of every process of the
PostgreSQL server (postmaster, connections, writers; read from /proc, so only for a server on
this machine) over the timed seconds, divided by the moves made then. Their sum is the CPU a
move costs wherever it runs: a machine with C free cores cannot do more than about
C x <m> moves/s, and the rate here stops growing with processes once this machine's cores are
busy (ratio below the process count), not because the store serialises.
On SQLite the processes share one file, whose writes take turns: expect no gain there.
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

from bot.store import ActionRow
from bot.store.sql import pack_actions
from games import registry
from games.core.stats import percentile
from tools.games import bench_lines


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
    split: dict[str, list[float]] = {part: [] for part in MOVE_PARTS}
    cpu_samples: list[float] = []
    cpu_split: dict[str, list[float]] = {part: [] for part in MOVE_PARTS}
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
                parts: list[dict[str, float]] = []
                cpu_times: list[float] = []
                cpu_parts: list[dict[str, float]] = []
                views = []
                while outcome.status == "active":
                    seat = min(outcome.waiting)
                    actor = by_user[outcome.seat_user_ids[seat]]
                    action = smart.choose(game, state, seat, rng)
                    text = game.format_action(action)
                    t0, c0 = time.perf_counter(), time.process_time()
                    outcome = await service.act(channel, actor, text)
                    t_act, c_act = time.perf_counter(), time.process_time()
                    img = renderer.board_image(outcome.view, outcome.names, "en")
                    t_draw, c_draw = time.perf_counter(), time.process_time()
                    encoded: dict[str, float] = {}
                    renderer.encode(img, encoded)
                    times.append(time.perf_counter() - t0)
                    cpu_times.append(time.process_time() - c0)
                    parts.append({"act": t_act - t0, "draw": t_draw - t_act,
                                  **{k: v for k, v in encoded.items() if not k.endswith(" cpu")}})
                    cpu_parts.append({"act": c_act - c0, "draw": c_draw - c_act,
                                      **{k[:-4]: v for k, v in encoded.items() if k.endswith(" cpu")}})
                    views.append(outcome.view)
                    t1 = time.perf_counter()
                    state = game.apply(state, seat, action).state  # follow along for the bot
                    apply_only.append(time.perf_counter() - t1)
                half = len(times) // 2
                samples.extend(times[half:])
                cpu_samples.extend(cpu_times[half:])
                for move in parts[half:]:
                    for part in MOVE_PARTS:
                        split[part].append(move.get(part, 0.0))
                for move in cpu_parts[half:]:
                    for part in MOVE_PARTS:
                        cpu_split[part].append(move.get(part, 0.0))
                late_view = views[-2] if len(views) > 1 else views[-1]
                seed += 1
    print(f"  move end to end (load, validate, apply, commit, render, encode), late game, n={len(samples)}:")
    print(f"      p50 {percentile(samples, 0.5) * 1000:6.1f} ms   p95 {percentile(samples, 0.95) * 1000:6.1f} ms"
          f"   max {max(samples) * 1000:6.1f} ms   (target p95 ≤ 30 ms)")
    print(f"      split, p50 / p95 ms: {_split_line(split)}")
    # CPU time (this process's, the database thread's included) does not count the time a loaded
    # machine's other work holds the cores: the figures to compare between runs on a shared machine
    print(f"      CPU: p50 {percentile(cpu_samples, 0.5) * 1000:6.1f} ms   p95 {percentile(cpu_samples, 0.95) * 1000:6.1f} ms"
          f"   max {max(cpu_samples) * 1000:6.1f} ms")
    print(f"      CPU split, p50 / p95 ms: {_split_line(cpu_split)}")
    print(f"  rules apply alone: p50 {percentile(apply_only, 0.5) * 1e6:6.0f} µs")

    # 2. render + encode alone -------------------------------------------------------
    names = [f"P{i}" for i in range(players)]
    renderer.board(late_view, names, "en")  # static layer cached, as in a running bot
    times = []
    alone: dict[str, list[float]] = {part: [] for part in MOVE_PARTS if part != "act"}
    for _ in range(30):
        t0 = time.perf_counter()
        img = renderer.board_image(late_view, names, "en")
        t1 = time.perf_counter()
        encoded = {}
        png = renderer.encode(img, encoded)
        times.append(time.perf_counter() - t0)
        for part, seconds in {"draw": t1 - t0, **encoded}.items():
            if part in alone:
                alone[part].append(seconds)
    print(f"  render + encode late-game board: p50 {percentile(times, 0.5) * 1000:6.1f} ms"
          f"   p95 {percentile(times, 0.95) * 1000:6.1f} ms   PNG {len(png) / 1024:.0f} KiB")
    print(f"      split, p50 / p95 ms: {_split_line(alone)}")

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
    extra = bench_lines(game_name)
    if extra is not None:
        for line in extra(game):
            print(f"  {line}")

    # 5. the timelapse of the final post, for the longest of a few full games ----------
    if timelapse_games > 0:
        print(timelapse_line(game_name, timelapse_games))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  peak memory (RSS): {peak:.0f} MiB")
    return 0


# a move's parts, as the bench splits it: the sessions service's act() (load, validate, apply,
# commit), drawing the board, mapping it onto 256 colours, writing the PNG
MOVE_PARTS = ("act", "draw", "colours", "png")
_PART_NAMES = {"act": "load+validate+apply+commit", "draw": "draw", "colours": "colours", "png": "PNG"}


def _split_line(split: dict[str, list[float]]) -> str:
    return "   ".join(f"{_PART_NAMES[part]} {percentile(values, 0.5) * 1000:.1f} / {percentile(values, 0.95) * 1000:.1f}"
                      for part, values in split.items() if values)


def timelapse_line(game_name: str, games: int) -> str:
    """Time and size of the timelapse (render/timelapse.py) of the longest of `games` full
    games at the most players, played by the game's strongest bot."""
    from games.replay import GameRecord
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
# Copies past this many store no outbox rows: all their posts went out days ago, and a running
# bot deletes delivered rows after a day (OUTBOX_KEEP_DELIVERED), so that is what its store
# holds; the first ones keep every post, as a store that was never pruned would, for the
# pruning figure. (A finished Ticket to Ride game's posts are about 1 MB: 100,000 games with
# every post would not fit on this machine's disk.)
STORED_FULL_OUTBOX = 2_000
DAY = 86400.0
_BENCH_GUILD = 7000
_BENCH_USER = 7200
_BENCH_CHANNEL = 7300
BURST = 50
BURST_WARM_MOVES = 6  # moves into each game before the burst: past the opening choices
_BURST_CHANNEL = 7600


async def fill_stored_games(db: Path, game_name: str, count: int, players: int, *, seed: int = 1,
                            templates: int = STORED_TEMPLATES,
                            full_outbox: int = STORED_FULL_OUTBOX) -> dict[str, int]:
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
    return await asyncio.to_thread(_copy_games, db, played, count - len(played), seed, full_outbox)


def _copy_games(db: Path, templates: list[tuple[int, list[tuple[int, str, int, int]]]], copies: int,
                seed: int, full_outbox: int = STORED_FULL_OUTBOX) -> dict[str, int]:
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
        # A long-running bot packs a closed game's log a day after it closed (the housekeeping
        # sweep): the finished copies older than that hold their template's log packed, as
        # written once per template (its times are the template's; nothing here reads them).
        packed = {gid: pack_actions([ActionRow(game_id=gid, seq=a[0], seat=a[1], kind=a[2], notation=a[3],
                                               events_json=a[4], undoable=a[5], actor_user_id=a[6], auto=a[7],
                                               undoes_seq=a[8], created_at=a[9]) for a in src["actions"]])
                  for gid, src in source.items()}
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

            pack = status == "finished" and updated + shift < now - DAY
            conn.execute(
                "INSERT INTO games (id, game, guild_id, channel_id, status, host_user_id, locale, options,"
                " settings, seed, version, snapshot, created_at, updated_at, last_move_at, log_packed)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (new_id, name, guild, f"stored-{new_id}", status, person(host), locale, options, settings,
                 game_seed + i, version, snapshot, created + shift, updated + shift,
                 None if last_move is None else last_move + shift, int(pack)))
            conn.executemany(
                "INSERT INTO seats (game_id, seat, user_id, bot, display_name, joined) VALUES (?, ?, ?, ?, ?, ?)",
                [(new_id, seat, person(uid), bot, shown, joined) for seat, uid, bot, shown, joined in src["seats"]])
            if pack:
                conn.execute("INSERT INTO action_archives (game_id, actions, archived_at) VALUES (?, ?, ?)",
                             (new_id, packed[template], updated + shift + DAY))
            else:
                conn.executemany(
                    "INSERT INTO actions (game_id, seq, seat, kind, notation, events, undoable, actor_user_id,"
                    " auto, undoes_seq, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(new_id, *a[:9], a[9] + shift) for a in src["actions"] if a[0] <= last_seq])
            if i >= full_outbox:
                last_outbox = -1
            conn.executemany(
                "INSERT INTO outbox (game_id, created_at, kind, payload, attempts, next_attempt_at,"
                " delivered_at, last_error, dead) VALUES (?, ?, ?, ?, 0, ?, ?, NULL, 0)",
                [(new_id, at + shift, kind, payload, at + shift, at + shift + 1.0)
                 for row_id, at, kind, payload in src["outbox"] if row_id <= last_outbox])
            if status == "active":
                conn.execute("INSERT INTO timers (game_id, kind, due_at, attempt, payload)"
                             " VALUES (?, 'reminder', ?, 0, '{}')", (new_id, now + rng.uniform(1.0, 24.0) * 3600))
            if i % 2000 == 1999:
                conn.execute("COMMIT")
                conn.execute("BEGIN")
        conn.execute("COMMIT")
        counts = {table: conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                  for table in ("games", "actions", "action_archives", "outbox")}
        counts["ongoing"] = ongoing
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return counts
    finally:
        conn.close()


def _db_size(db: Path) -> int:
    return sum(os.path.getsize(p) for p in (db, Path(f"{db}-wal")) if os.path.exists(p))


# The tables a filled database holds rows in, copied to PostgreSQL in this order (references first).
_COPIED_TABLES = ("games", "seats", "actions", "action_archives", "timers", "outbox")
_COPY_CHUNK = 20_000


async def copy_sqlite_to_postgres(db: Path, url: str) -> dict[str, int]:
    """Copy the rows of a filled SQLite database into the (migrated, empty) PostgreSQL
    database at `url` with COPY (asyncpg's copy_records_to_table), a chunk of rows at a
    time, then move the id sequences past the copied ids. Rows per table."""
    import asyncpg

    from bot.store import open_store

    store = await open_store(url)  # migrates it
    await store.close()
    src = sqlite3.connect(db)
    conn = await asyncpg.connect(url)
    copied: dict[str, int] = {}
    try:
        for table in _COPIED_TABLES:
            wanted = [r["column_name"] for r in await conn.fetch(
                "SELECT column_name FROM information_schema.columns WHERE table_name = $1"
                " AND table_schema = current_schema() ORDER BY ordinal_position", table)]
            have = {r[1] for r in src.execute(f"PRAGMA table_info({table})")}
            columns = [c for c in wanted if c in have]
            cursor = src.execute(f"SELECT {', '.join(columns)} FROM {table}")
            copied[table] = 0
            while rows := cursor.fetchmany(_COPY_CHUNK):
                await conn.copy_records_to_table(table, records=rows, columns=columns)
                copied[table] += len(rows)
        for table in ("games", "outbox"):
            await conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                               f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)")
        await conn.execute("ANALYZE")
    finally:
        await conn.close()
        src.close()
    return copied


async def _vacuum(url: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute("VACUUM ANALYZE")
    finally:
        await conn.close()


async def _pg_size(url: str) -> int:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval("SELECT pg_database_size(current_database())"))
    finally:
        await conn.close()


class _Database:
    """Where a bench run's database lives: a SQLite file in a temporary folder, or a
    PostgreSQL database - the one `--database-url` names (which must be empty: the bench
    fills it), or a throwaway local server (bot/store/local_pg.py) for the run."""

    def __init__(self, store: str, tmp: Path, database_url: str | None = None) -> None:
        if store not in ("sqlite", "postgres"):
            raise ValueError(f"store must be sqlite or postgres, not {store!r}")
        self.kind = store
        self.sqlite = tmp / "bench.sqlite3"
        self._given = database_url
        self._server: Any = None
        self.url = f"sqlite:///{self.sqlite}" if store == "sqlite" else (database_url or "")

    def __enter__(self) -> "_Database":
        if self.kind == "postgres" and not self._given:
            from bot.store.local_pg import INSTALL_HINT, PostgresServer, find_bindir

            bindir = find_bindir()
            if bindir is None:
                raise SystemExit(f"--store postgres without --database-url needs a local server: {INSTALL_HINT}")
            self._server = PostgresServer(bindir)
            try:
                self._server.start()
            except BaseException:
                self._server.stop()
                raise
            self.url = self._server.dsn()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._server is not None:
            self._server.stop()

    async def size(self) -> int:
        return _db_size(self.sqlite) if self.kind == "sqlite" else await _pg_size(self.url)


async def run_stored_bench(game_name: str = "ticket_to_ride", stored_games: int = 1000, moves: int = 0,
                           render_workers: tuple[int, ...] = (2,), burst: int = BURST, store: str = "sqlite",
                           database_url: str | None = None, templates: int = STORED_TEMPLATES) -> int:
    from bot.discord.bot import RailyardBot
    from tools.loopback import FakeDiscord
    from bot.store import open_store

    game = registry.get(game_name)
    smart = game.bots()[next(iter(game.bots()))]
    players = min(4, game.max_players)
    print(f"Railyard bench — move acknowledgements with {stored_games:,} stored games"
          f" ({game_name}, {players} players, {store})")
    with tempfile.TemporaryDirectory() as tmp, _Database(store, Path(tmp), database_url) as database:
        t0 = time.perf_counter()
        counts = await fill_stored_games(database.sqlite, game_name, stored_games, players, templates=templates)
        filled = time.perf_counter() - t0
        how = "SQLite"
        if database.kind == "postgres":
            t1 = time.perf_counter()
            await copy_sqlite_to_postgres(database.sqlite, database.url)
            how = f"SQLite {filled:.1f} s, then COPY into PostgreSQL {time.perf_counter() - t1:.1f} s"
            filled = time.perf_counter() - t0
            database.sqlite.unlink()
        print(f"  filled in {filled:.1f} s ({how}): {counts['games']:,} games"
              f" ({counts['ongoing']:,} still going), {counts['actions']:,} actions"
              f" (and {counts['action_archives']:,} closed games' logs packed),"
              f" {counts['outbox']:,} outbox rows; database {await database.size() / 2**20:,.0f} MiB")
        # The filled database holds every post ever delivered, as an old Railyard's did. A
        # running bot prunes finished rows in the background (OutboxDispatcher.prune); bring
        # the database to that state first, so the timed moves see what a long-running
        # bot's store holds. The time printed is what the first start after an upgrade
        # does in the background, a batch at a time.
        opened = await open_store(database.url)
        try:
            await _time_due_query(opened, "with every delivered row still stored")
            t0 = time.perf_counter()
            pruned = 0
            while removed := await opened.prune_outbox():
                pruned += removed
            async with opened.read() as tx:
                left = (await tx.fetchall("SELECT COUNT(*) AS n FROM outbox"))[0]["n"]
            print(f"  pruned {pruned:,} delivered outbox rows in {time.perf_counter() - t0:.1f} s; {left:,} left")
            if database.kind == "postgres":
                # A long-running server's autovacuum has long since cleaned up after its prunes; here
                # it would start on the rows just deleted and take a core from the timed moves.
                t0 = time.perf_counter()
                await _vacuum(database.url)
                print(f"  vacuumed after the bulk load and the prune in {time.perf_counter() - t0:.1f} s")
            await _time_due_query(opened, "after pruning")
        finally:
            await opened.close()

        if moves > 0:  # one /move at a time, each waiting for the last: a quiet bot
            users = [_BENCH_USER + i for i in range(players)]
            channels = [_BENCH_CHANNEL + k for k in range(1, 2 + moves // 20)]
            acks: list[float] = []
            refused: list[str] = []
            async with FakeDiscord(quiet_period=0.02) as fake:
                for i, user in enumerate(users):
                    fake.add_user(user, f"player{i + 1}", global_name=f"Player {i + 1}")
                fake.add_guild(_BENCH_GUILD, "Bench", members=users,
                               channels=[{"id": c, "name": f"bench-{c}"} for c in channels])
                # rendering as `railyard run` sets it up on this machine (RAILYARD_RENDER_WORKERS,
                # by default one process per core beyond the first, at most two)
                settings = _settings(fake, database.url)
                bot = RailyardBot(settings, guild_ready_timeout=0.05, render_workers=settings.render_workers)
                async with fake.running(bot):
                    await bot.render_pool.ready()
                    await _settle_startup(bot)
                    rng = random.Random(7)
                    for channel in channels:
                        if len(acks) >= moves:
                            break
                        await _play_timed(bot, fake, game, smart, channel, users, rng, moves, acks, refused)
                    await bot.idle()
                    posts = sum(len(fake.messages(c, ephemeral=False)) for c in channels)
            print(f"  {len(acks)} moves through /move one at a time; the dispatcher delivered {posts} posts"
                  f" meanwhile ({settings.render_workers} render workers); {len(refused)} moves refused"
                  f"{': ' + refused[0][:80] if refused else ''}")
            print(f"  sequential acks with {stored_games} stored games: p50 {percentile(acks, 0.5) * 1000:.1f} ms,"
                  f" p99 {percentile(acks, 0.99) * 1000:.1f} ms")
        last: list[float] = []
        for run, workers in enumerate(render_workers):
            # each run opens its own channels: the earlier runs' games are a few more stored ones
            line, last = await _burst_line(game_name, database.url, workers, burst, channel_base=_BURST_CHANNEL + 1000 * run)
            print(line)
        if last:
            print(f"ack with {stored_games} stored games: p50 {percentile(last, 0.5) * 1000:.1f} ms,"
                  f" p99 {percentile(last, 0.99) * 1000:.1f} ms")
    return 0


def _settings(fake: Any, url: str) -> Any:
    from bot.config import Settings

    return Settings(token=fake.token, database_url=url, dev_guild_id=_BENCH_GUILD)


# ==================================================================================
# a burst of moves while the dispatcher draws and delivers
# ==================================================================================


async def _burst_line(game_name: str, url: str, workers: int, count: int,
                      channel_base: int = _BURST_CHANNEL) -> tuple[str, list[float]]:
    """`count` games opened and played a few moves in, their posts delivered; then one /move in
    each at once. The acknowledgements' p50/p99 while the dispatcher draws and delivers the
    boards those moves cause, and how long until every post is out."""
    from bot.discord.bot import RailyardBot
    from tools.loopback import FakeDiscord
    from bot.sessions import Actor

    game = registry.get(game_name)
    smart = game.bots()[next(iter(game.bots()))]
    players = min(4, game.max_players)
    users = [_BENCH_USER + i for i in range(players)]
    channels = [channel_base + k for k in range(count)]
    rng = random.Random(11)
    async with FakeDiscord(quiet_period=0.02) as fake:
        for i, user in enumerate(users):
            fake.add_user(user, f"player{i + 1}", global_name=f"Player {i + 1}")
        fake.add_guild(_BENCH_GUILD, "Bench", members=users,
                       channels=[{"id": c, "name": f"burst-{c}"} for c in channels])
        bot = RailyardBot(_settings(fake, url), guild_ready_timeout=0.05, render_workers=workers)
        async with fake.running(bot):
            await bot.render_pool.ready()
            await _settle_startup(bot)
            people = [Actor(user_id=str(u), name=f"Player {i + 1}") for i, u in enumerate(users)]
            for channel in channels:  # untimed: open the games and play into them
                await bot.service.create(game.name, str(channel), str(_BENCH_GUILD), people[0], options={})
                for person in people[1:]:
                    await bot.service.join(str(channel), person)
                bot.after_commit(await bot.service.start(str(channel), people[0]))
                for _ in range(BURST_WARM_MOVES):
                    planned = await _next_move(bot, game, smart, channel, rng)
                    if planned is None:
                        break
                    user, notation = planned
                    bot.after_commit(await bot.service.act(str(channel), Actor(user, "x"), notation))
            await bot.idle()
            planned_moves = [(channel, await _next_move(bot, game, smart, channel, rng)) for channel in channels]
            results = []
            uploads = len(fake.requests)
            t0, cpu0 = time.perf_counter(), time.process_time()
            for channel, planned in planned_moves:  # all dispatched before any is answered
                if planned is not None:
                    user, notation = planned
                    results.append(await fake.slash(_BENCH_GUILD, channel, int(user), "move",
                                                    {"move": notation}, wait=False))
            for _ in range(120_000):
                if all(r.answered_mono is not None or r.rejected_callbacks for r in results):
                    break
                await asyncio.sleep(0.001)
            await bot.idle()
            delivered, cpu = time.perf_counter() - t0, time.process_time() - cpu0
            boards = sum(f.filename == "board.png" for r in fake.requests[uploads:] for f in r.files)
    acks = [r.answer_latency for r in results if r.answer_latency is not None]
    if not acks:
        return f"burst of {count} moves on {count} games, {workers} render workers: no move was answered", []
    missing = len(results) - len(acks)
    return (f"burst of {len(results)} moves on {count} games, {workers} render workers:"
            f" ack p50 {percentile(acks, 0.5) * 1000:.1f} ms, p99 {percentile(acks, 0.99) * 1000:.1f} ms;"
            f" {boards} boards drawn and delivered after {delivered:.1f} s, bot process CPU {cpu:.1f} s"
            + (f"; {missing} unanswered" if missing else "")), acks


async def _next_move(bot: Any, game: Any, smart: Any, channel: int, rng: random.Random) -> tuple[str, str] | None:
    """(user id, notation) of a move the game's bot would make for the first person waited on."""
    status = await bot.service.status(str(channel))
    if status.info.status != "active" or not status.waiting_user_ids:
        return None
    user = status.waiting_user_ids[0]
    seat = next(s.seat for s in status.info.seats if s.user_id == user)
    state = await bot.service.current_state(status.info.game_id)
    return user, game.format_action(smart.choose(game, state, seat, rng))


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


# ==================================================================================
# database size per finished game
# ==================================================================================
SIZE_PLAYERS = 4


async def _play_full_game(service: Any, game: Any, smart: Any, channel: str, players: int, rng: random.Random) -> int:
    """One game played to its end through the sessions service, every seat a person moved by
    the game's strongest bot. Its number of moves."""
    from bot.sessions import Actor

    people = [Actor(user_id=str(10**17 + i), name=f"Player {i + 1}")
              for i in range(players)]
    by_user = {p.user_id: p for p in people}
    await service.create(game.name, channel, STORED_GUILD, people[0], options={})
    for person in people[1:]:
        await service.join(channel, person)
    outcome = await service.start(channel, people[0])
    state = await service.current_state(outcome.game_id)
    moves = 0
    while outcome.status == "active":
        seat = min(outcome.waiting)
        action = smart.choose(game, state, seat, rng)
        outcome = await service.act(channel, by_user[outcome.seat_user_ids[seat]], game.format_action(action))
        state = game.apply(state, seat, action).state
        moves += 1
    return moves


async def _table_sizes(database: _Database) -> dict[str, int]:
    """Bytes on disk per table, its indexes included, after compacting the database as an
    operator would (SQLite: VACUUM, then dbstat; PostgreSQL: VACUUM FULL, then
    pg_total_relation_size, which counts TOAST and indexes)."""
    if database.kind == "sqlite":
        conn = sqlite3.connect(database.sqlite, isolation_level=None)
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            conn.execute("VACUUM")
            rows = conn.execute("SELECT m.tbl_name, SUM(d.pgsize) FROM dbstat d JOIN sqlite_master m"
                                " ON d.name = m.name GROUP BY m.tbl_name").fetchall()
        finally:
            conn.close()
        return {name: int(size) for name, size in rows}
    import asyncpg

    conn = await asyncpg.connect(database.url)
    try:
        await conn.execute("VACUUM FULL")
        rows = await conn.fetch("SELECT c.relname, pg_total_relation_size(c.oid) AS size FROM pg_class c"
                                " JOIN pg_namespace n ON n.oid = c.relnamespace"
                                " WHERE c.relkind = 'r' AND n.nspname = current_schema()")
    finally:
        await conn.close()
    return {r["relname"]: int(r["size"]) for r in rows}


def _per_game(sizes: dict[str, int], empty: dict[str, int], games: int) -> tuple[float, str]:
    grown = {t: max(0, sizes.get(t, 0) - empty.get(t, 0)) / games for t in sizes}
    shown = ", ".join(f"{t} {b / 1024:.1f} KB" for t, b in sorted(grown.items(), key=lambda kv: -kv[1]) if b >= 51.2)
    return sum(grown.values()), shown


async def run_size_bench(game_name: str = "ticket_to_ride", games: int = 5, store: str = "sqlite",
                         database_url: str | None = None) -> int:
    """Play `games` full games through the sessions service and print the bytes the database
    grows by per finished game, by table, as played (every post still stored) and after
    retention (delivered posts older than their keep time deleted, closed games' live boards
    dropped and their action logs packed, as the housekeeping sweep does), plus the stored text
    per game by what it is."""
    from bot.sessions import SessionService
    from bot.store import OUTBOX_KEEP_DELIVERED, open_store

    game = registry.get(game_name)
    smart = game.bots()[next(iter(game.bots()))]
    players = min(SIZE_PLAYERS, game.max_players)
    print(f"Railyard bench — database size per finished game ({game_name}, {players} players, {store})")
    with tempfile.TemporaryDirectory() as tmp, _Database(store, Path(tmp), database_url) as database:
        opened = await open_store(database.url)
        await opened.close()
        empty = await _table_sizes(database)
        opened = await open_store(database.url)
        try:
            rng = random.Random(3)
            moves = 0
            for g in range(games):
                service = SessionService(opened, new_seed=lambda g=g: 5000 + g)
                moves += await _play_full_game(service, game, smart, f"size-{g}", players, rng)
            async with opened.write() as tx:  # no Discord here: count every post as delivered now
                await tx.execute("UPDATE outbox SET delivered_at = created_at + 1.0 WHERE delivered_at IS NULL")
            async with opened.read() as tx:
                text = (await tx.fetchall(
                    "SELECT (SELECT SUM(LENGTH(snapshot)) FROM games) AS snapshot,"
                    " (SELECT SUM(LENGTH(events)) FROM actions) AS events,"
                    " (SELECT SUM(LENGTH(notation)) FROM actions) AS notation,"
                    " (SELECT SUM(LENGTH(payload)) FROM outbox) AS payload,"
                    " (SELECT COUNT(*) FROM games WHERE status = 'finished') AS finished"))[0]
        finally:
            await opened.close()
        finished = int(text["finished"])
        if finished != games:
            print(f"  only {finished} of {games} games finished")
            return 1
        total, shown = _per_game(await _table_sizes(database), empty, games)
        print(f"  {games} games played to the end, {moves / games:.0f} moves a game")
        print(f"  stored text per game: snapshot {int(text['snapshot']) / games / 1024:.1f} KB,"
              f" action events {int(text['events']) / games / 1024:.1f} KB,"
              f" notations {int(text['notation']) / games / 1024:.1f} KB,"
              f" outbox payloads {int(text['payload']) / games / 1024:.1f} KB")
        print(f"  as played, every post still stored: {total / 1024:.1f} KB per finished game ({shown})")
        opened = await open_store(database.url)
        try:
            # retention as a running bot does it, a day later: delivered posts pruned
            # (OutboxDispatcher.prune), then the housekeeping sweep's live boards and packed logs
            later = time.time() + OUTBOX_KEEP_DELIVERED + 60.0
            while await opened.prune_outbox(later):
                pass
            closed_before = later - OUTBOX_KEEP_DELIVERED
            while True:
                async with opened.write() as tx:
                    if not await tx.forget_live_boards(closed_before):
                        break
            while True:
                async with opened.write() as tx:
                    if not await tx.archive_actions(closed_before, later):
                        break
        finally:
            await opened.close()
        total, shown = _per_game(await _table_sizes(database), empty, games)
        print(f"bytes per finished game, {store}, after retention: {total:,.0f} ({total / 1024:.1f} KB; {shown})")
    return 0


# ==================================================================================
# moves per second with several processes on one database
# ==================================================================================
THROUGHPUT_PLAYERS = 16  # players moving at once, shared out over the processes
THROUGHPUT_WARMUP = 3.0  # seconds of play before the timing starts
THROUGHPUT_SECONDS = 10.0  # seconds timed


def run_throughput_bench(game_name: str = "ticket_to_ride", processes: tuple[int, ...] = (1, 2, 4),
                         players: int = THROUGHPUT_PLAYERS, seconds: float = THROUGHPUT_SECONDS,
                         store: str = "postgres", database_url: str | None = None,
                         warmup: float = THROUGHPUT_WARMUP) -> int:
    """Moves per second through the sessions service (load, validate, apply, commit action +
    snapshot + outbox + timers) with each count of processes, started with multiprocessing's
    spawn on one shared database. The same `players` play in every case, shared out over the
    processes: each plays a game of its own, one move after the other, as fast as the service
    answers, so a process is kept busy whenever it is not waiting on the database. Timed in the
    steady state: `warmup` seconds after every process has opened its games, for `seconds`.
    Beside the rate, the CPU time per move of the bot processes and of the database server
    (every PostgreSQL process of it, read from /proc), from which the rate of a machine with
    more cores can be projected. No Discord and no rendering: this is the store and the rules."""
    import multiprocessing

    if any(count < 1 or count > players for count in processes):
        raise SystemExit(f"--processes counts must be between 1 and --players ({players})")
    print(f"Railyard bench — moves per second by processes on one database ({game_name}, {store},"
          f" {players} players in every case, {warmup:.0f} s warm-up then {seconds:.0f} s timed,"
          f" {os.cpu_count()} CPUs)")
    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as tmp, _Database(store, Path(tmp), database_url) as database:
        asyncio.run(_migrate(database.url))
        server = asyncio.run(_postmaster(database.url)) if store == "postgres" else None
        first: float | None = None
        for run, count in enumerate(processes):
            shares = [players // count + (k < players % count) for k in range(count)]
            start, stop = context.Event(), context.Event()
            made = context.Value("q", 0)
            queue = context.Queue()
            workers = [context.Process(target=_throughput_worker,
                                       args=(database.url, game_name, f"tp{run}-{k}", share, 100 * run + k,
                                             start, stop, made, queue))
                       for k, share in enumerate(shares)]
            for worker in workers:
                worker.start()
            try:
                for _ in workers:  # every process has opened the store and its games
                    message = queue.get(timeout=300)
                    if message[0] != "ready":
                        raise RuntimeError(f"a bench process failed: {message[1]}")
                start.set()
                time.sleep(warmup)
                moves0, t0 = made.value, time.perf_counter()
                bots0, db0 = sum(_cpu_seconds(w.pid) for w in workers), _server_cpu(server)
                time.sleep(seconds)
                moves1, t1 = made.value, time.perf_counter()
                bots1, db1 = sum(_cpu_seconds(w.pid) for w in workers), _server_cpu(server)
                stop.set()
                done = [queue.get(timeout=300) for _ in workers]
            finally:
                stop.set()
                for worker in workers:
                    worker.join(timeout=60)
            failed = [m[1] for m in done if m[0] != "done"]
            if failed:
                raise RuntimeError(f"a bench process failed: {failed[0]}")
            played, elapsed = moves1 - moves0, t1 - t0
            rate = played / elapsed
            first = rate if first is None else first
            per_move = 1000.0 / max(played, 1)
            bots_ms = (bots1 - bots0) * per_move
            if db0 is None or db1 is None:
                db = "database in the bot processes" if store == "sqlite" else "database server not on this machine"
                total_ms = bots_ms
            else:
                db_ms = (db1 - db0) * per_move
                db, total_ms = f"database server {db_ms:.2f} ms", bots_ms + db_ms
            print(f"throughput, {store}, {count} process{'es' if count > 1 else ''}, {players} players:"
                  f" {rate:.1f} moves/s ({rate / first:.2f}x 1 process); CPU per move: bot processes"
                  f" {bots_ms:.2f} ms, {db} ({1000.0 / total_ms if total_ms else 0:.0f} moves/s per busy core);"
                  f" {played} moves in {elapsed:.1f} s")
    return 0


_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (None: no such process here)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def _cpu_seconds(pid: int | None, children: bool = False) -> float:
    """User + system CPU seconds of a process (with `children`: also of its children that ended
    and were waited for)."""
    fields = _stat(pid) if pid is not None else None
    if fields is None:
        return 0.0
    # after the name: state ppid ... utime (11) stime (12) cutime (13) cstime (14), from 0
    ticks = int(fields[11]) + int(fields[12]) + ((int(fields[13]) + int(fields[14])) if children else 0)
    return ticks / _TICK


def _server_cpu(postmaster: int | None) -> float | None:
    """CPU seconds of a PostgreSQL server so far: its postmaster with the connections and helpers
    that ended (their time is added to it when it waits for them) and every one still running."""
    if postmaster is None or _stat(postmaster) is None:
        return None
    total = _cpu_seconds(postmaster, children=True)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and int(fields[1]) == postmaster:
                total += (int(fields[11]) + int(fields[12])) / _TICK
    return total


async def _postmaster(url: str) -> int | None:
    """The process id of the PostgreSQL server at `url` if it runs on this machine (the parent
    of the backend serving a connection), else None."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        backend = int(await conn.fetchval("SELECT pg_backend_pid()"))
        fields = _stat(backend)  # while the connection holds it: its backend ends with it
    finally:
        await conn.close()
    return int(fields[1]) if fields is not None else None


async def _migrate(url: str) -> None:
    from bot.store import open_store

    opened = await open_store(url)
    await opened.close()


def _throughput_worker(url: str, game_name: str, tag: str, players: int, seed: int, start: Any, stop: Any,
                       made: Any, queue: Any) -> None:
    try:
        asyncio.run(_throughput_play(url, game_name, tag, players, seed, start, stop, made, queue))
        queue.put(("done", tag))
    except BaseException as exc:  # reported to the parent, which would otherwise wait for ever
        queue.put(("failed", f"{type(exc).__name__}: {exc}"))


async def _throughput_play(url: str, game_name: str, tag: str, players: int, seed: int, start: Any, stop: Any,
                           made: Any, queue: Any) -> None:
    """`players` games played side by side, each by one player moving as soon as the last move
    is answered (a new game when one ends), from `start` until `stop`; `made` counts the moves."""
    from bot.sessions import Actor, SessionService
    from bot.store import open_store

    game = registry.get(game_name)
    mover = game.bots()["random"]  # cheap to choose: the figure is the service's and the store's
    seats = min(4, game.max_players)
    rng = random.Random(seed)
    opened = await open_store(url, max_size=players) if url.startswith("postgres") else await open_store(url)
    try:
        service = SessionService(opened, new_seed=lambda: rng.randrange(1 << 31))
        people = [Actor(user_id=str(10**17 + 1000 * seed + i), name=f"Player {i + 1}") for i in range(seats)]
        by_user = {p.user_id: p for p in people}
        opened_games = 0

        async def open_game() -> tuple[str, Any, Any]:
            nonlocal opened_games
            channel = f"{tag}-{opened_games}"
            opened_games += 1
            await service.create(game.name, channel, STORED_GUILD, people[0], options={})
            for person in people[1:]:
                await service.join(channel, person)
            outcome = await service.start(channel, people[0])
            return channel, outcome, await service.current_state(outcome.game_id)

        async def play(table: tuple[str, Any, Any]) -> None:
            channel, outcome, state = table
            while not stop.is_set():
                if outcome.status != "active":
                    channel, outcome, state = await open_game()
                    continue
                seat = min(outcome.waiting)
                action = mover.choose(game, state, seat, rng)
                outcome = await service.act(channel, by_user[outcome.seat_user_ids[seat]], game.format_action(action))
                state = game.apply(state, seat, action).state
                with made.get_lock():
                    made.value += 1

        tables = [await open_game() for _ in range(players)]
        queue.put(("ready", tag))
        await asyncio.to_thread(start.wait)
        await asyncio.gather(*(play(table) for table in tables))
    finally:
        await opened.close()


def main_bench(args: Any) -> int:
    """`railyard bench` with its parsed arguments (railyard/cli.py declares them)."""
    if args.sizes is not None:
        return asyncio.run(run_size_bench(args.game, games=args.sizes, store=args.store,
                                          database_url=args.database_url))
    if args.processes is not None:
        counts = tuple(int(c) for c in args.processes.split(",") if c.strip())
        return run_throughput_bench(args.game, processes=counts, players=args.players, seconds=args.seconds,
                                    store=args.store, database_url=args.database_url)
    if args.stored_games is not None:
        workers = tuple(int(w) for w in args.render_workers.split(",") if w.strip())
        return asyncio.run(run_stored_bench(args.game, stored_games=args.stored_games, moves=args.moves,
                                            render_workers=workers, store=args.store,
                                            database_url=args.database_url))
    return asyncio.run(run_bench(args.game, games=args.games, moves=args.moves,
                                 timelapse_games=args.timelapse_games))

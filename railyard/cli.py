"""The `railyard` command line.

    railyard demo [game] [--players N] [--seed S] [--out DIR] [--lang en|ja] [--option NAME=VALUE]
                  [--no-timelapse]
        Play a whole game offline through the sessions service on a SQLite file: two
        "people" (driven by the game's best bot, but moving through the same path a Discord user
        takes) and bots in the other seats. Writes the board after every move, the players'
        hands, the final chart and the game's timelapse (timelapse.webp) to DIR, and prints
        the log, the final breakdown and the timelapse's size and time.
    railyard replay FILE            re-run a recorded game (JSON) and print its result
    railyard bench [game]           speed figures (see tools/bench.py, not part of the bot)
    railyard run [--shard-ids IDS --shard-count N]
                                    start the Discord bot (settings from .env)
    railyard sync [--dev]           register the slash commands with Discord (an explicit step)
    railyard doctor [--offline]     check the settings, the database and the bot's permissions
"""
from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bot.sessions.errors import SessionError
from bot.sessions.options import describe_options, parse_options
from bot.runtime import tune_gc
from bot.tally import DeliveryTally
from games import registry
from games.core.i18n import translate

DEMO_PEOPLE = ["Alice", "山田太郎"]
DEMO_BOT_NAMES = ["🚂 Planner", "Zoë (bot)", "ボット花子"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="railyard", description="Railyard: rail board games on Discord.")
    sub = parser.add_subparsers(dest="command", required=True)

    demo = sub.add_parser(
        "demo", help="play a full offline game with bots and write the images",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=_options_help(),
    )
    demo.add_argument("game", nargs="?", default="ticket_to_ride", choices=registry.names())
    demo.add_argument("--players", type=int, default=4)
    demo.add_argument("--seed", type=int, default=2026)
    demo.add_argument("--out", type=Path, default=Path("out/demo"))
    demo.add_argument("--lang", choices=["en", "ja"], default="en")
    demo.add_argument("--quiet", action="store_true", help="progress only, not every move")
    demo.add_argument("--record", type=Path, help="also write the game as a replayable JSON record")
    demo.add_argument("--no-timelapse", action="store_true",
                      help="skip the timelapse.webp of the final post (about 5-10 s of drawing)")
    demo.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                      help="a game option, as in /game new options: (repeat for several; listed below)")

    replay = sub.add_parser("replay", help="re-run a recorded game JSON and print its result")
    replay.add_argument("file", type=Path)
    replay.add_argument("--lang", choices=["en", "ja"], default="en")

    bench = sub.add_parser("bench", help="print speed figures")
    bench.add_argument("game", nargs="?", default="ticket_to_ride", choices=registry.names())
    bench.add_argument("--games", type=int, default=200, help="random games for the games/s figure")
    bench.add_argument("--moves", type=int, default=200,
                       help="late-game moves timed end to end; with --stored-games, /moves one at a time"
                            " before the burst (0: none)")
    bench.add_argument("--timelapse-games", type=int, default=3, metavar="N",
                       help="time the timelapse of the longest of N full games at the most players (0: skip)")
    bench.add_argument("--stored-games", type=int, default=None, metavar="N",
                       help="instead: fill the database with N games, then time move acknowledgements"
                            " while the outbox delivers to a loopback Discord")
    bench.add_argument("--render-workers", default="0,2", metavar="COUNTS",
                       help="with --stored-games: time a burst of 50 moves with each of these render worker"
                            " counts, in the same run (default 0,2); the last one's is the `ack with` line")
    bench.add_argument("--store", choices=["sqlite", "postgres"], default="sqlite",
                       help="with --stored-games, --sizes or --processes: the database to measure"
                            " (postgres: --database-url, or else a throwaway local server for the run)")
    bench.add_argument("--database-url", default=None, metavar="URL",
                       help="with --store postgres: an empty PostgreSQL database to fill (postgresql://...)")
    bench.add_argument("--sizes", type=int, default=None, metavar="GAMES",
                       help="instead: play GAMES full games, run retention, print bytes per finished game by table")
    bench.add_argument("--processes", default=None, metavar="COUNTS",
                       help="instead: moves per second through the sessions service with each of these process"
                            " counts on one database, e.g. 1,2,4. The same --players in every case, timed for"
                            " --seconds after a 3 s warm-up; each line also gives the CPU time per move of the"
                            " bot processes and of the database server (PostgreSQL on this machine) and the moves"
                            " per second one busy core gives, to project the rate on a machine with more cores")
    bench.add_argument("--players", type=int, default=16, metavar="P",
                       help="with --processes: players moving at once in every case, each in a game of its own,"
                            " shared out over the processes (default 16)")
    bench.add_argument("--seconds", type=float, default=10.0, metavar="S",
                       help="with --processes: seconds timed in the steady state (default 10)")

    run = sub.add_parser("run", help="start the Discord bot (token and settings from .env)")
    run.add_argument("--env", type=Path, default=Path(".env"), help="settings file (default .env)")
    run.add_argument("--shard-ids", metavar="IDS", default=None,
                     help="the shards this process serves, like 0,1 or 0-3 (overrides RAILYARD_SHARD_IDS; "
                          "needs a shard count)")
    run.add_argument("--shard-count", metavar="N", default=None,
                     help="the total number of shards across every process (overrides RAILYARD_SHARD_COUNT)")
    sync = sub.add_parser("sync", help="register the slash commands with Discord")
    sync.add_argument("--env", type=Path, default=Path(".env"), help="settings file (default .env)")
    sync.add_argument("--dev", action="store_true", help="only in RAILYARD_DEV_GUILD_ID (instant)")

    doctor = sub.add_parser("doctor", help="check the settings, the database and the bot's permissions; print what to fix")
    doctor.add_argument("--env", type=Path, default=Path(".env"), help="settings file (default .env)")
    doctor.add_argument("--channels", type=int, default=50,
                        help="how many channels with open games to check, most recently moved first (default 50)")
    doctor.add_argument("--offline", action="store_true", help="skip the checks that ask Discord")

    args = parser.parse_args(argv)
    tune_gc()
    try:
        if args.command == "demo":
            return asyncio.run(run_demo(args))
        if args.command == "replay":
            return run_replay(args)
        if args.command == "bench":
            # The benches live in tools/, beside the product: only this command loads them, so
            # the bot `railyard run` starts never imports the loopback Discord or the benches.
            bench = importlib.import_module("tools.bench")
            return bench.main_bench(args)
        if args.command == "doctor":
            from bot.discord.doctor import main_doctor

            return main_doctor(args)
        if args.command in ("run", "sync"):
            from bot.discord import launcher  # the only part of Railyard that imports discord

            return launcher.main_run(args) if args.command == "run" else launcher.main_sync(args)
    except KeyboardInterrupt:
        return 130
    return 2


# ---------------------------------------------------------------------------- demo
def _options_help() -> str:
    lines = ["game options (--option NAME=VALUE):"]
    for name in registry.names():
        described = describe_options(registry.get(name).options_model)
        lines.append(f"  {name}: {', '.join(described) if described else 'none'}")
    return "\n".join(lines)


async def run_demo(args: argparse.Namespace) -> int:
    from bot.sessions import Actor, SessionService
    from bot.store import Store
    from render import registry as renderers
    from render.timelapse import timelapse

    game = registry.get(args.game)
    if not game.min_players <= args.players <= game.max_players:
        print(f"{args.game} takes {game.min_players}–{game.max_players} players.", file=sys.stderr)
        return 2
    try:
        options = parse_options(args.option)
        game.options_model.model_validate(options)
    except (SessionError, ValidationError) as exc:
        if isinstance(exc, ValidationError):
            err = exc.errors()[0]
            what = f"{'.'.join(map(str, err['loc']))}={err.get('input')!r}: {err['msg']}"
        else:
            what = f"{exc.params.get('option')!r} is not NAME=VALUE"
        takes = ", ".join(describe_options(game.options_model)) or "no options"
        print(f"Bad --option for {args.game} ({what}). {args.game} takes: {takes}.", file=sys.stderr)
        return 2
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    for pattern in ("*.png", "timelapse.*"):
        for old in out.glob(pattern):
            old.unlink()
    db_path = out / "demo.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db_path}{suffix}").unlink(missing_ok=True)
    renderer = renderers.get(args.game)
    bot_name = next(iter(game.bots()))  # a game lists its strongest bot first
    planner = game.bots()[bot_name]
    lang = args.lang
    people = [Actor(user_id=f"u{i + 1}", name=name, locale=lang) for i, name in enumerate(DEMO_PEOPLE)]
    people = people[: min(len(people), args.players)]
    moves: list[tuple[int, str]] = []
    started = time.perf_counter()

    async with Store(db_path) as store:
        service = SessionService(store, new_seed=lambda: args.seed)
        channel = "demo-channel"
        await service.create(args.game, channel, "demo-guild", people[0], options=options, locale=lang)
        for person in people[1:]:
            await service.join(channel, person)
        for _ in range(args.players - len(people)):
            await service.add_bot(channel, people[0], bot_name)
        outcome = await service.start(channel, people[0])

        async def pictures(post: Any, final: bool) -> int:
            """Bytes of the pictures of a new message: the board it shows (written below for
            every version), and the final chart on the last one."""
            board = out / f"board-{post.version:04d}.png"
            size = board.stat().st_size if board.exists() else 0
            if final:
                size += len(renderer.final(game.view_model.model_validate(post.view), post.names, lang))
            return size

        tally = DeliveryTally(store, pictures)
        tally.lobby(changes=len(people) - 1 + args.players - len(people) + 1)
        names = outcome.names
        print(f"{translate(lang, f'{args.game}.title')} — seed {args.seed}, {len(names)} players: "
              f"{', '.join(names)}")
        print(f"Writing images to {out}/ and the game to {db_path}")
        seat_of = {uid: seat for seat, uid in enumerate(outcome.seat_user_ids) if uid}
        rng = random.Random(args.seed)
        count = 0
        wrote_mid_hands = False

        def show(o: Any) -> None:
            nonlocal count
            count += 1
            (out / f"board-{o.version:04d}.png").write_bytes(renderer.board(o.view, o.names, lang))
            if o.notation is not None and o.seat is not None:
                moves.append((o.seat, o.notation))
            if args.quiet:
                if count % 25 == 0:
                    print(f"  … {count} moves, turn {getattr(o.view, 'turn', '?')}", flush=True)
                return
            for event in o.public_events:
                print(f"[v{o.version:>3}] {translate(lang, event.key, event.params, o.names)}")

        show(outcome)
        waited_on_people = 0  # moves the game waited on a person for (the others made themselves)
        while outcome.status == "active":
            # Bots move on their own; the "people" move through act(), like a Discord user.
            for bot_outcome in await service.run_bots(outcome.game_id):
                show(bot_outcome)
                outcome = bot_outcome
            # the Discord adapter delivers a move's posts once the bots after it have moved
            await tally.deliver(outcome.game_id)
            if outcome.status != "active":
                break
            status = await service.status(channel)
            if not status.waiting:
                break
            seat = status.waiting[0]
            user_id = status.info.seats[seat].user_id
            person = next(p for p in people if p.user_id == user_id)
            state = await service.current_state(outcome.game_id)  # the snapshot, not a replay
            action = planner.choose(game, state, seat_of[user_id], rng)
            outcome = await service.act(channel, person, game.format_action(action))
            waited_on_people += 1
            show(outcome)
            if count >= 60 and not wrote_mid_hands:  # a mid-game look at the private hands
                await _write_hands(service, renderer, channel, people, out, lang, "mid")
                wrote_mid_hands = True

        await tally.deliver(outcome.game_id)
        await _write_hands(service, renderer, channel, people, out, lang, "end")
        status = await service.status(channel)
        if status.result is None:
            print("The game did not finish.", file=sys.stderr)
            return 1
        (out / "final.png").write_bytes(renderer.final(status.view, status.names, lang))
        elapsed = time.perf_counter() - started
        made = None if args.no_timelapse else timelapse(await service.record(outcome.game_id), status.names, lang)
        if made is not None:
            (out / made.filename).write_bytes(made.data)
        print()
        print_breakdown(status.result, status.names, lang)
        print(f"\n{count} boards in {elapsed:.1f} s; images in {out}/ (board-*.png, hand-*.png, final.png"
              f"{', ' + made.filename if made else ''})")
        if made is not None:
            print(f"Timelapse: {made.frames} frames ({made.turns} turns), {len(made.data) / 1e6:.2f} MB"
                  f" in {made.seconds:.1f} s")
        if args.record:
            record = {"game": args.game, "players": len(names), "options": options, "seed": args.seed,
                      "moves": moves}
            args.record.write_text(json.dumps(record, ensure_ascii=False, indent=1), encoding="utf-8")
            print(f"Recorded the game to {args.record}")
        moves_made = sum(1 for e in await service.history(channel) if e.kind == "move" and not e.undone)
        print(f"moves: {moves_made}, {waited_on_people} of them waited on a person")
        # what the Discord adapter sends for this game (one live board; see bot/tally.py)
        print(tally.line())
    return 0


async def _write_hands(service, renderer, channel, people, out: Path, lang: str, tag: str) -> None:
    for person in people:
        private = await service.private_view(channel, person.user_id)
        png = renderer.hand(private.view, private.names, lang)
        (out / f"hand-{tag}-seat{private.seat}.png").write_bytes(png)


def print_breakdown(result: Any, names: list[str], lang: str) -> None:
    print(translate(lang, "cli.final_scores"))
    for player in result.players:
        cats = player.by_category()
        parts = [{"key": "cli.category_points",  # a list: joined the reader's way
                  "params": {"category": {"key": f"{result.label_prefix}.category.{c}"},
                             "points": f"{cats.get(c, 0):+d}"}}
                 for c in result.categories]
        print(f"  {player.rank}. {_pad(names[player.seat], 18)} {player.total:>4}   "
              + translate(lang, "cli.categories", {"parts": parts}))
        for line in player.lines:
            if line.key:
                print(f"        {line.points:+4d}  {translate(lang, line.key, line.params, names)}")


def _pad(text: str, width: int) -> str:
    """Pad for a terminal, where Japanese characters take two columns."""
    import unicodedata

    cols = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    return text + " " * max(0, width - cols)


# ---------------------------------------------------------------------------- replay
def run_replay(args: argparse.Namespace) -> int:
    from games.replay import GameRecord, ReplayError, replay, scores

    try:
        record = GameRecord.model_validate_json(args.file.read_text(encoding="utf-8"))
    except OSError as exc:
        print(f"Cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"{args.file} is not a game record: {exc}", file=sys.stderr)
        return 2
    try:
        state, result = replay(record)
    except ReplayError as exc:
        print(f"{args.file}: {exc}", file=sys.stderr)
        return 1
    except registry.UnknownGame:
        print(f"{args.file}: unknown game {record.game!r} (known: {', '.join(registry.names())})", file=sys.stderr)
        return 2
    names = record.names if record.names and len(record.names) == record.players else [
        f"Seat {i + 1}" for i in range(record.players)]
    print(f"{record.game}: {len(record.moves)} moves replayed from seed {record.seed}.")
    if result is None:
        print("The record stops before the end of the game.")
        return 0
    print_breakdown(result, names, args.lang)
    if record.result is not None:
        if scores(result) == record.result:
            print("The result matches the one recorded.")
        else:
            print("The result DIFFERS from the one recorded.", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

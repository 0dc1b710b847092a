"""The statements of the store, written once for both backends.

Every statement here is plain SQL that SQLite (3.35 or newer: RETURNING) and PostgreSQL
both accept, with `?` placeholders; the PostgreSQL transaction rewrites them to `$1, $2 ...`
(bot/store/pg.py). What differs between the two is behind a few small hooks a backend's
transaction class provides:

- `_fetch` / `_fetchone` / `_exec`: run a statement (rows, one row, changed-row count);
- `_index(name)`: SQLite's `INDEXED BY` hint for the outbox queries whose plan matters
  (PostgreSQL has no hints; its planner picks the same partial indexes, see the tests);
- `_lock`: appended to a read of one game or outbox row inside a write transaction.
  SQLite's BEGIN IMMEDIATE already makes a write transaction the only writer of the whole
  file, so it is empty there. PostgreSQL writes run at READ COMMITTED, so there it is
  `FOR NO KEY UPDATE`: the second of two writers of one game waits at its first read of
  the game until the first commits, then reads the game as the first left it - the same
  serial order SQLite gives, which the read-then-write methods below (next action seq,
  next join order, the outbox back-off) rely on. The version guard in `update_game` stays
  the check that a change was decided on the state it was applied to.
- `_guarded()`: a block whose failure must not end the transaction (a savepoint on
  PostgreSQL, where any error aborts the rest of a transaction; nothing on SQLite).
- `_skip_locked(alias)`: appended to the inner SELECT of a claim (outbox rows, timers).
  PostgreSQL: `FOR NO KEY UPDATE OF <alias> SKIP LOCKED`, so two processes claiming at the
  same moment each lock what they take and pass over what the other is taking, instead of
  waiting for it or taking it too (a row the other claimed and committed meanwhile is
  re-checked against the claim's WHERE, and its fresh lease excludes it). SQLite: empty,
  the write transaction already holds the whole file.

Claims: several processes may share one database, and exactly one of them delivers an outbox
row or fires a timer. `claim_outbox` / `claim_timers` mark what they return as held by the
caller's owner id (`claimed_by`) until `now + lease` (`claimed_until`); a process renews
its outbox leases while a delivery runs (`renew_claims`); finishing a row (`mark_delivered`,
`mark_failed`, `give_up`) or rescheduling a timer (`set_timer`) clears the claim. Given
`owner`, the finishing methods refuse (ClaimLost, nothing written) a row another process
holds: the caller's lease ran out and the row was taken over. Times are the callers' clocks
(Unix seconds), so the processes' clocks must agree to well within a lease.
"""
from __future__ import annotations

import asyncio
import json
import os
import zlib
from contextlib import AbstractAsyncContextManager, nullcontext
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterable, Mapping, Self, Sequence, TypeVar

from bot.store.base import (
    ARCHIVE_BATCH,
    CLAIM_LEASE,
    NOTICE_EVERY,
    OUTBOX_KEEP_DEAD,
    OUTBOX_KEEP_DELIVERED,
    OUTBOX_PRUNE_BATCH,
    PAUSE_ENV,
    PAUSE_MARKER_ENV,
    StoreTx,
    dumps,
    retry_delay,
)
from bot.store.errors import ChannelBusy, ClaimLost, StaleVersion, StoreError
from bot.store.retry import retry_conflicts
from bot.store.models import (
    ActionRow,
    DeliveryContact,
    GameRow,
    LeagueRow,
    LeagueTable,
    OutboxPart,
    OutboxRow,
    RatingRow,
    RatingRules,
    ResultRow,
    SeatRow,
    TimerRow,
    UserPrefs,
)

T = TypeVar("T")
Row = Mapping[str, Any]  # sqlite3.Row or asyncpg.Record: both index by name and position

GAME_COLUMNS = (
    "id, game, guild_id, channel_id, status, host_user_id, locale, options AS options_json,"
    " settings AS settings_json, seed, version, snapshot, created_at, updated_at, last_move_at"
)
ACTION_COLUMNS = (
    "game_id, seq, seat, kind, notation, events AS events_json, undoable, actor_user_id, auto,"
    " undoes_seq, created_at"
)
OUTBOX_COLUMNS = (
    "id, game_id, created_at, kind, payload AS payload_json, attempts, next_attempt_at,"
    " delivered_at, last_error, dead, claimed_by, claimed_until, takeovers"
)
PREFS_COLUMNS = ("user_id, dm_reminders, locale, tz, quiet_start, quiet_end, away_from, away_until, away_told,"
                 " digest_hour, digest_next_at")
RESULT_COLUMNS = ("game_id, seat, user_id, bot, guild_id, game, place, total, stats AS stats_json, players,"
                  " finished_at, forfeited")
LEAGUE_COLUMNS = ("id, guild_id, channel_id, name, game, options AS options_json, table_size, rounds, round,"
                  " deadline_hours, status, locale, created_by, created_at, card_message_id")
RATING_COLUMNS = "guild_id, game, user_id, mu, sigma, games, wins"
# the columns of a person's pace (away, digest) that `set_pace` and `claim_pace` write
PACE_COLUMNS = ("away_from", "away_until", "away_told", "digest_hour", "digest_next_at")
TIMER_COLUMNS = ("game_id, kind, due_at, attempt, payload AS payload_json, claimed_by, claimed_until,"
                 " takeovers")
# update_game(**fields) name -> column
UPDATABLE = {
    "status": "status",
    "host_user_id": "host_user_id",
    "locale": "locale",
    "options_json": "options",
    "settings_json": "settings",
    "snapshot": "snapshot",
    "last_move_at": "last_move_at",
}
# the one-open-game-per-channel index (0001 in both migration folders)
CHANNEL_INDEX = "games_one_open_per_channel"


# An outbox row `o` due at `?`: still to deliver, its back-off over, and no older row of its
# game pending (one game's posts go out in order). Shared by the due query and the claim.
_DUE = (
    "o.delivered_at IS NULL AND o.dead = 0 AND o.next_attempt_at <= ?"
    " AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.game_id = o.game_id"
    "   AND p.delivered_at IS NULL AND p.dead = 0 AND p.id < o.id)"
)


def _marks(n: int) -> str:
    return ", ".join("?" for _ in range(n))


_PACKED_FIELDS = ("seq", "seat", "kind", "notation", "events_json", "undoable", "actor_user_id", "auto",
                  "undoes_seq", "created_at")


def pack_actions(rows: list[ActionRow]) -> bytes:
    """A game's action rows as zlib-compressed JSON (the game id is the archive row's key)."""
    data = [[getattr(r, f) for f in _PACKED_FIELDS] for r in rows]
    return zlib.compress(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), 9)


def unpack_actions(game_id: int, packed: bytes) -> list[ActionRow]:
    try:
        data = json.loads(zlib.decompress(bytes(packed)).decode("utf-8"))
        return [ActionRow(game_id=game_id, **dict(zip(_PACKED_FIELDS, values))) for values in data]
    except (zlib.error, UnicodeDecodeError, ValueError, TypeError) as exc:
        raise StoreError(f"game {game_id}: its packed action log cannot be read ({exc})") from None


class SqlTx:
    """Statements inside one transaction. Only valid inside a store's `read()` / `write()`."""

    writable: bool
    _lock: str = ""

    # --- the backend's part ------------------------------------------------------------
    async def _fetch(self, sql: str, params: Sequence[Any]) -> list[Row]:
        raise NotImplementedError

    async def _fetchone(self, sql: str, params: Sequence[Any]) -> Row | None:
        raise NotImplementedError

    async def _exec(self, sql: str, params: Sequence[Any]) -> int:
        raise NotImplementedError

    def _index(self, name: str) -> str:
        return ""

    def _guarded(self) -> AbstractAsyncContextManager[Any]:
        return nullcontext()

    def _skip_locked(self, alias: str) -> str:
        return ""

    def _is_channel_busy(self, exc: BaseException) -> bool:
        """Is `exc` the one-open-game-per-channel index refusing an insert?"""
        raise NotImplementedError

    # --- plumbing ----------------------------------------------------------------------
    async def _all(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        return await self._fetch(sql, tuple(params))

    async def _one(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        return await self._fetchone(sql, tuple(params))

    def _require_writable(self) -> None:
        if not self.writable:
            raise StoreError("write attempted inside a read transaction")

    async def _run(self, sql: str, params: Iterable[Any] = ()) -> int:
        self._require_writable()
        return await self._exec(sql, tuple(params))

    async def _returning(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        """A write statement with a RETURNING clause: its (first) row."""
        self._require_writable()
        return await self._fetchone(sql, tuple(params))

    # --- games -------------------------------------------------------------------------
    async def insert_game(self, *, game: str, guild_id: str | None, channel_id: str, host_user_id: str,
                          locale: str, options: Any, settings: Any, seed: int, now: float) -> int:
        self._require_writable()
        try:
            async with self._guarded():
                row = await self._returning(
                    "INSERT INTO games (game, guild_id, channel_id, status, host_user_id, locale,"
                    " options, settings, seed, version, snapshot, created_at, updated_at)"
                    " VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, 0, NULL, ?, ?) RETURNING id",
                    (game, guild_id, channel_id, host_user_id, locale, dumps(options),
                     dumps(settings), seed, now, now),
                )
        except Exception as exc:
            if self._is_channel_busy(exc):
                raise ChannelBusy(channel_id) from exc
            raise
        assert row is not None
        return int(row[0])

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?{self._lock}", (game_id,))
        return GameRow(**dict(row)) if row else None

    async def open_game(self, channel_id: str) -> GameRow | None:
        """The lobby or active game of a channel, if any."""
        row = await self._one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ?"
            f" AND status IN ('lobby', 'active'){self._lock}",
            (channel_id,),
        )
        return GameRow(**dict(row)) if row else None

    async def latest_game(self, channel_id: str) -> GameRow | None:
        """The most recently created game of a channel, whatever its status."""
        row = await self._one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1{self._lock}",
            (channel_id,),
        )
        return GameRow(**dict(row)) if row else None

    async def games_of_user(self, user_id: str, guild_id: str | None = None,
                            statuses: tuple[str, ...] = ("active",)) -> list[GameRow]:
        # from the person's seats (seats_by_user), not through every game
        sql = (
            f"SELECT {', '.join('g.' + c.strip() for c in GAME_COLUMNS.split(','))}"
            " FROM seats s JOIN games g ON g.id = s.game_id"
            f" WHERE s.user_id = ? AND g.status IN ({_marks(len(statuses))})"
        )
        params: list[Any] = [user_id, *statuses]
        if guild_id is not None:
            sql += " AND g.guild_id = ?"
            params.append(guild_id)
        sql += " ORDER BY g.id"
        return [GameRow(**dict(r)) for r in await self._all(sql, params)]

    async def game_ids(self, statuses: tuple[str, ...] = ("active",)) -> list[int]:
        """The ids of every game in one of these statuses, oldest first."""
        rows = await self._all(
            f"SELECT id FROM games WHERE status IN ({_marks(len(statuses))}) ORDER BY id", statuses)
        return [int(r[0]) for r in rows]

    async def game_versions(self, game_ids: Sequence[int]) -> dict[int, int]:
        """The version of each of these games that exists (the web table's live updates ask
        this of every game someone is watching, once a second): primary-key look-ups only."""
        ids = sorted({int(g) for g in game_ids})
        if not ids:
            return {}
        rows = await self._all(f"SELECT id, version FROM games WHERE id IN ({_marks(len(ids))})", ids)
        return {int(r[0]): int(r[1]) for r in rows}

    async def update_game(self, game_id: int, expected_version: int, now: float, **fields: Any) -> int:
        """Change a game and bump its version, only if it is still at `expected_version`.

        Raises StaleVersion otherwise (the caller's transaction must then be rolled back,
        which the store's `write()` does when the exception leaves it). Returns the new
        version."""
        sets = ["version = version + 1", "updated_at = ?"]
        params: list[Any] = [now]
        for name, value in fields.items():
            column = UPDATABLE.get(name)
            if column is None:
                raise StoreError(f"games.{name} cannot be updated")
            sets.append(f"{column} = ?")
            params.append(dumps(value) if column in ("options", "settings") else value)
        params += [game_id, expected_version]
        changed = await self._run(f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?", params)
        if changed != 1:
            row = await self._one("SELECT version FROM games WHERE id = ?", (game_id,))
            raise StaleVersion(game_id, expected_version, int(row[0]) if row else None)
        return expected_version + 1

    async def require_version(self, game_id: int, expected_version: int) -> None:
        """Raise StaleVersion unless the game is still at `expected_version`, without bumping
        it: for a write that depends on the game as it was read but changes nothing others
        see (a player's standing orders)."""
        row = await self._one(f"SELECT version FROM games WHERE id = ?{self._lock}", (game_id,))
        current = int(row[0]) if row else None
        if current != expected_version:
            raise StaleVersion(game_id, expected_version, current)

    # --- seats -------------------------------------------------------------------------
    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._all(
            "SELECT game_id, seat, user_id, bot, display_name, joined FROM seats"
            " WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        return [SeatRow(**dict(r)) for r in rows]

    async def _insert_seat(self, game_id: int, seat: SeatRow) -> None:
        await self._run(
            "INSERT INTO seats (game_id, seat, user_id, bot, display_name, joined) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, seat.seat, seat.user_id, seat.bot, seat.display_name, seat.joined),
        )

    async def add_seat(self, game_id: int, seat: int, *, user_id: str | None, bot: str | None,
                       display_name: str) -> SeatRow:
        row = await self._one("SELECT COALESCE(MAX(joined), 0) FROM seats WHERE game_id = ?", (game_id,))
        new = SeatRow(game_id=game_id, seat=seat, user_id=user_id, bot=bot, display_name=display_name,
                      joined=int(row[0]) + 1 if row else 1)
        await self._insert_seat(game_id, new)
        return new

    async def replace_seats(self, game_id: int, seats: list[SeatRow]) -> None:
        """Rewrite all seats of a game (renumbering after a leave, shuffling at start)."""
        await self._run("DELETE FROM seats WHERE game_id = ?", (game_id,))
        for s in seats:
            await self._insert_seat(game_id, s)

    async def update_seat(self, game_id: int, seat: int, *, user_id: str | None, bot: str | None,
                          display_name: str) -> None:
        changed = await self._run(
            "UPDATE seats SET user_id = ?, bot = ?, display_name = ? WHERE game_id = ? AND seat = ?",
            (user_id, bot, display_name, game_id, seat),
        )
        if changed != 1:
            raise StoreError(f"game {game_id} has no seat {seat}")

    # --- actions -----------------------------------------------------------------------
    async def actions(self, game_id: int) -> list[ActionRow]:
        """The game's action log, in order: its rows, or the packed log of a closed game."""
        rows = await self._all(f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
        if rows:
            return [ActionRow(**dict(r)) for r in rows]
        packed = await self._one("SELECT actions FROM action_archives WHERE game_id = ?", (game_id,))
        return unpack_actions(game_id, packed["actions"]) if packed is not None else []

    async def append_action(self, game_id: int, *, seat: int, kind: str, notation: str, events: Any,
                            undoable: bool, actor_user_id: str | None, now: float, auto: str | None = None,
                            undoes_seq: int | None = None) -> int:
        row = await self._one("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (game_id,))
        seq = int(row[0]) + 1 if row else 1
        await self._run(
            "INSERT INTO actions (game_id, seq, seat, kind, notation, events, undoable,"
            " actor_user_id, auto, undoes_seq, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, seq, seat, kind, notation, dumps(events), int(bool(undoable)),
             actor_user_id, auto, undoes_seq, now),
        )
        return seq

    # --- standing orders -----------------------------------------------------------------
    async def standing_orders(self, game_id: int) -> dict[int, list[str]]:
        """Seat -> its standing orders (seats without any are absent)."""
        rows = await self._all("SELECT seat, orders FROM standing_orders WHERE game_id = ? ORDER BY seat",
                               (game_id,))
        out: dict[int, list[str]] = {}
        for r in rows:
            try:
                orders = json.loads(r["orders"])
            except ValueError:
                orders = None
            # a row that is not a list of strings stands for no orders: the player sets
            # them again, which is better than a game that cannot move
            if isinstance(orders, list) and orders and all(isinstance(o, str) for o in orders):
                out[int(r["seat"])] = orders
        return out

    async def set_standing_orders(self, game_id: int, seat: int, orders: list[str], now: float) -> None:
        """Replace a seat's standing orders; an empty list removes the row."""
        if not orders:
            await self.clear_standing_orders(game_id, seat)
            return
        await self._run(
            "INSERT INTO standing_orders (game_id, seat, orders, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET orders = excluded.orders,"
            " updated_at = excluded.updated_at",
            (game_id, seat, dumps(list(orders)), now),
        )

    async def clear_standing_orders(self, game_id: int, seat: int | None = None) -> int:
        """Remove a seat's standing orders (every seat's without `seat`); how many rows went."""
        if seat is None:
            return await self._run("DELETE FROM standing_orders WHERE game_id = ?", (game_id,))
        return await self._run("DELETE FROM standing_orders WHERE game_id = ? AND seat = ?", (game_id, seat))

    # --- timers ------------------------------------------------------------------------
    async def set_timer(self, game_id: int, kind: str, due_at: float, attempt: int = 0,
                        payload: Any = None, *, holder: str | None = None, held_until: float | None = None) -> None:
        """Schedule a game's timer of `kind` (a new one, or the one there rescheduled). A
        reschedule is an outcome of whoever held the timer: its claim ends and its takeovers
        count starts again. With `holder`, the timer is written held by that process until
        `held_until`: the process that writes it due now and handles it at once (a game's
        bots) keeps it from the others' sweeps unless it dies first."""
        await self._run(
            "INSERT INTO timers (game_id, kind, due_at, attempt, payload, claimed_by, claimed_until, takeovers)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, 0)"
            " ON CONFLICT (game_id, kind) DO UPDATE SET due_at = excluded.due_at,"
            " attempt = excluded.attempt, payload = excluded.payload,"
            " claimed_by = excluded.claimed_by, claimed_until = excluded.claimed_until, takeovers = 0",
            (game_id, kind, due_at, attempt, dumps(payload if payload is not None else {}), holder,
             held_until if holder is not None else None),
        )

    async def get_timer(self, game_id: int, kind: str) -> TimerRow | None:
        row = await self._one(f"SELECT {TIMER_COLUMNS} FROM timers WHERE game_id = ? AND kind = ?",
                              (game_id, kind))
        return TimerRow(**dict(row)) if row else None

    async def timers(self, game_id: int) -> list[TimerRow]:
        rows = await self._all(f"SELECT {TIMER_COLUMNS} FROM timers WHERE game_id = ? ORDER BY kind", (game_id,))
        return [TimerRow(**dict(r)) for r in rows]

    async def delete_timers(self, game_id: int, kind: str | None = None) -> None:
        if kind is None:
            await self._run("DELETE FROM timers WHERE game_id = ?", (game_id,))
        else:
            await self._run("DELETE FROM timers WHERE game_id = ? AND kind = ?", (game_id, kind))

    async def due_timers(self, kind: str, now: float, limit: int = 200) -> list[TimerRow]:
        """The timers of `kind` due at `now`, claimed or not (a look, not a claim)."""
        rows = await self._all(
            f"SELECT {TIMER_COLUMNS} FROM timers WHERE kind = ? AND due_at <= ?"
            " ORDER BY due_at, game_id LIMIT ?",
            (kind, now, limit),
        )
        return [TimerRow(**dict(r)) for r in rows]

    def claim_timers_sql(self) -> str:
        """The claim of due timers (also what the plan tests look at): through timers_due,
        skipping those another process holds on a lease still running. Taking over a timer
        whose holder's lease ran out counts as a takeover in a row (`takeovers`, which a
        reschedule sets back to 0): the sweeps give up a timer that outlives its holders
        again and again, since firing it is likely what kills them."""
        return (
            "UPDATE timers SET takeovers = takeovers + CASE WHEN claimed_by IS NULL THEN 0 ELSE 1 END,"
            " claimed_by = ?, claimed_until = ? WHERE kind = ? AND game_id IN ("
            " SELECT t.game_id FROM timers t WHERE t.kind = ? AND t.due_at <= ?"
            " AND (t.claimed_until IS NULL OR t.claimed_until <= ?)"
            f" ORDER BY t.due_at, t.game_id LIMIT ?{self._skip_locked('t')})"
            f" RETURNING {TIMER_COLUMNS}"
        )

    async def claim_timers(self, kind: str, owner: str, now: float, lease: float,
                           limit: int = 200) -> list[TimerRow]:
        """Claim up to `limit` timers of `kind` due at `now` that nobody holds (or whose
        holder's lease has run out) for `owner` until `now + lease`; earliest first. Firing
        one is then `owner`'s alone (`hold_timer`); `set_timer` and `delete_timers` end the
        claim, `release_timer` gives it back unfired."""
        self._require_writable()
        rows = await self._all(self.claim_timers_sql(), (owner, now + lease, kind, kind, now, now, limit))
        timers = [TimerRow(**dict(r)) for r in rows]
        return sorted(timers, key=lambda t: (t.due_at, t.game_id))

    async def hold_timer(self, game_id: int, kind: str, owner: str) -> TimerRow | None:
        """The timer if `owner` holds it (locked on PostgreSQL until the transaction ends, so
        a move's reset waits); None if nobody does or another process took it over."""
        row = await self._one(
            f"SELECT {TIMER_COLUMNS} FROM timers WHERE game_id = ? AND kind = ? AND claimed_by = ?{self._lock}",
            (game_id, kind, owner))
        return TimerRow(**dict(row)) if row else None

    async def release_timer(self, game_id: int, kind: str, owner: str) -> None:
        """Give a timer `owner` holds back unfired (due as it was)."""
        await self._run("UPDATE timers SET claimed_by = NULL, claimed_until = NULL"
                        " WHERE game_id = ? AND kind = ? AND claimed_by = ?", (game_id, kind, owner))

    async def retain_timer(self, game_id: int, kind: str, owner: str, until: float) -> None:
        """Hold the timer for `owner` until `until` again, after `owner` rescheduled it (which
        ended its claim) and goes on working under it: a deadline firing that moves several
        late seats, one transaction each. Only right after `hold_timer` found it `owner`'s in
        the same transaction."""
        await self._run("UPDATE timers SET claimed_by = ?, claimed_until = ? WHERE game_id = ? AND kind = ?",
                        (owner, until, game_id, kind))

    # --- outbox ------------------------------------------------------------------------
    async def add_outbox(self, game_id: int | None, kind: str, payload: Any, now: float) -> int:
        row = await self._returning(
            "INSERT INTO outbox (game_id, created_at, kind, payload, attempts, next_attempt_at)"
            " VALUES (?, ?, ?, ?, 0, ?) RETURNING id",
            (game_id, now, kind, dumps(payload), now),
        )
        assert row is not None
        return int(row[0])

    async def get_outbox(self, outbox_id: int) -> OutboxRow | None:
        row = await self._one(f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE id = ?{self._lock}", (outbox_id,))
        return OutboxRow(**dict(row)) if row else None

    async def outbox_rows(self, game_id: int | None = None) -> list[OutboxRow]:
        if game_id is None:
            rows = await self._all(f"SELECT {OUTBOX_COLUMNS} FROM outbox ORDER BY id")
        else:
            rows = await self._all(f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE game_id = ? ORDER BY id",
                                   (game_id,))
        return [OutboxRow(**dict(r)) for r in rows]

    def due_outbox_sql(self, columns: str = OUTBOX_COLUMNS) -> str:
        """The due query (also what the plan tests look at)."""
        return f"SELECT {columns} FROM outbox o{self._index('outbox_due')} WHERE {_DUE} ORDER BY o.id LIMIT ?"

    async def due_outbox(self, now: float, limit: int = 50) -> list[OutboxRow]:
        """Undelivered rows whose retry time has come, oldest first. Only the oldest pending
        row of each game is returned, so one game's posts are never delivered out of order
        (a row given up no longer counts as pending: the game's later posts go on).

        Both scans use partial indexes that hold only the rows still to deliver (outbox_due
        in id order, outbox_by_game for the "nothing older pending" check), so the cost does
        not grow with the delivered rows of every game ever played.

        A look only: what a dispatcher delivers it takes with `claim_outbox`."""
        rows = await self._all(self.due_outbox_sql(), (now, limit))
        return [OutboxRow(**dict(r)) for r in rows]

    def claim_outbox_sql(self) -> str:
        """The claim (also what the plan tests look at): the due query's rows that nobody
        holds on a running lease, marked as the caller's. Taking over a row whose holder's
        lease ran out counts as a failed attempt (the holder died or stalled mid-delivery,
        possibly after sending a part), which also tells the composer the row may be out
        in part already, and as a takeover in a row (`takeovers`, which a recorded outcome
        sets back to 0): the dispatcher gives up a row that outlives its holders again and
        again, since it is likely what kills them."""
        return (
            "UPDATE outbox SET"
            " attempts = attempts + CASE WHEN claimed_by IS NULL THEN 0 ELSE 1 END,"
            " takeovers = takeovers + CASE WHEN claimed_by IS NULL THEN 0 ELSE 1 END,"
            " last_error = CASE WHEN claimed_by IS NULL THEN last_error"
            "  ELSE 'the lease of ' || claimed_by || ' ran out before the delivery finished' END,"
            " claimed_by = ?, claimed_until = ?"
            f" WHERE id IN (SELECT o.id FROM outbox o{self._index('outbox_due')}"
            f" WHERE {_DUE} AND (o.claimed_until IS NULL OR o.claimed_until <= ?)"
            f" ORDER BY o.id LIMIT ?{self._skip_locked('o')})"
            f" RETURNING {OUTBOX_COLUMNS}"
        )

    async def claim_outbox(self, owner: str, now: float, lease: float, limit: int = 50) -> list[OutboxRow]:
        """Claim up to `limit` rows to deliver for `owner` until `now + lease`, oldest first:
        the rows `due_outbox` picks (the oldest pending row of each game, back-off
        respected) that nobody holds or whose holder's lease has run out.

        A game's later row is never claimed while an earlier one is pending, held or not,
        so one game's posts keep their order across processes; a live-board step that
        delivers the rows after its own (bot/sessions/live.py) does so under the claim of
        the first, which nobody else can claim meanwhile."""
        self._require_writable()
        rows = await self._all(self.claim_outbox_sql(), (owner, now + lease, now, now, limit))
        return sorted((OutboxRow(**dict(r)) for r in rows), key=lambda r: r.id)

    async def renew_claims(self, owner: str, ids: Iterable[int], now: float, lease: float) -> list[int]:
        """Extend `owner`'s leases on these rows to `now + lease` (the heartbeat of a long
        delivery). Returns the ids another process holds now: taken over after this one's
        lease ran out, so their deliveries must stop. (A row finished meanwhile is neither
        renewed nor returned.)"""
        self._require_writable()
        wanted = list(dict.fromkeys(int(i) for i in ids))
        if not wanted:
            return []
        renewed = {int(r[0]) for r in await self._all(
            f"UPDATE outbox SET claimed_until = ? WHERE claimed_by = ? AND id IN ({_marks(len(wanted))})"
            " AND delivered_at IS NULL AND dead = 0 RETURNING id",
            (now + lease, owner, *wanted))}
        rest = [i for i in wanted if i not in renewed]
        if not rest:
            return []
        rows = await self._all(
            f"SELECT id FROM outbox WHERE id IN ({_marks(len(rest))}) AND claimed_by IS NOT NULL AND claimed_by <> ?",
            (*rest, owner))
        return sorted(int(r[0]) for r in rows)

    async def release_claims(self, owner: str, ids: Iterable[int], *, interrupted: str | None = None) -> int:
        """Give back rows `owner` holds without finishing them (claimed but not started, or
        a delivery cut short by a shutdown), so another process may take them at once
        instead of after the lease. `interrupted` (why) counts the release as a failed
        attempt: the row may be out in part. Returns how many were released."""
        wanted = list(dict.fromkeys(int(i) for i in ids))
        if not wanted:
            return 0
        sets = "claimed_by = NULL, claimed_until = NULL"
        params: list[Any] = []
        if interrupted is not None:
            sets += ", attempts = attempts + 1, last_error = ?"
            params.append(interrupted[:2000])
        return await self._run(
            f"UPDATE outbox SET {sets} WHERE claimed_by = ? AND id IN ({_marks(len(wanted))})",
            (*params, owner, *wanted))

    async def require_claim(self, outbox_id: int, owner: str) -> None:
        """Raise ClaimLost if another process holds the row (locking it on PostgreSQL until
        the transaction ends). A row `owner` holds, or nobody holds, may be finished."""
        row = await self._one(f"SELECT claimed_by FROM outbox WHERE id = ?{self._lock}", (outbox_id,))
        holder = row[0] if row is not None else None
        if holder is not None and holder != owner:
            raise ClaimLost(outbox_id, owner, holder)

    async def mark_delivered(self, outbox_id: int, now: float, owner: str | None = None) -> None:
        """The row went out; its claim ends. With `owner`, ClaimLost if another process holds it."""
        if owner is not None:
            await self.require_claim(outbox_id, owner)
        await self._run(
            "UPDATE outbox SET delivered_at = ?, last_error = NULL, takeovers = 0, claimed_by = NULL, claimed_until = NULL"
            " WHERE id = ? AND delivered_at IS NULL",
            (now, outbox_id),
        )

    async def mark_failed(self, outbox_id: int, error: str, now: float, *, retry_after: float | None = None,
                          permanent: bool = False, owner: str | None = None) -> OutboxRow | None:
        """Record a failed delivery. The next attempt waits 5 s, 10 s, 20 s ... capped at
        15 minutes (or `retry_after`, e.g. Discord's rate-limit hint, if longer). How many
        attempts a row gets is the caller's policy: `permanent` gives it up now (see
        `give_up`, which also tells the host). The claim ends (the retry is anyone's); with
        `owner`, ClaimLost if another process holds the row."""
        row = await self.get_outbox(outbox_id)  # locked on PostgreSQL, as require_claim would
        if owner is not None and row is not None and row.claimed_by not in (None, owner):
            raise ClaimLost(outbox_id, owner, row.claimed_by)
        if row is None or row.delivered_at is not None:
            return row
        attempts = row.attempts + 1
        delay = retry_delay(attempts, retry_after)
        # a dead row keeps the time it was given up in next_attempt_at (pruning goes by it)
        updated = await self._returning(
            "UPDATE outbox SET attempts = ?, next_attempt_at = ?, last_error = ?, dead = ?, takeovers = 0,"
            f" claimed_by = NULL, claimed_until = NULL WHERE id = ? RETURNING {OUTBOX_COLUMNS}",
            (attempts, now if permanent else now + delay, error[:2000], int(permanent), outbox_id),
        )
        return OutboxRow(**dict(updated)) if updated else None

    async def give_up(self, outbox_id: int, error: str, now: float, *,
                      notice: tuple[int, str, Any] | None = None,
                      notice_every: float = NOTICE_EVERY, owner: str | None = None) -> int | None:
        """Mark a row dead (it no longer holds its game's later posts back) and, in the same
        transaction, queue `notice` = (game_id, problem, payload) as a new row of kind
        'notice' unless that game's host was told about that problem in the last
        `notice_every` seconds. Returns the notice's row id, if one was queued. With
        `owner`, ClaimLost (and nothing queued) if another process holds the row."""
        await self.mark_failed(outbox_id, error, now, permanent=True, owner=owner)
        if notice is None:
            return None
        game_id, problem, payload = notice
        return await self.queue_notice(game_id, problem, payload, now, notice_every=notice_every)

    async def give_up_pending(self, game_id: int, error: str, now: float) -> int:
        """Give up every row of the game still to deliver (none can be: the game's channel is
        gone); their claims end. Returns how many. Through outbox_by_game, which holds only
        the rows still to deliver."""
        return await self._run(
            "UPDATE outbox SET dead = 1, last_error = ?, next_attempt_at = ?, takeovers = 0,"
            " claimed_by = NULL, claimed_until = NULL WHERE game_id = ? AND delivered_at IS NULL AND dead = 0",
            (error[:2000], now, game_id))

    async def queue_notice(self, game_id: int, problem: str, payload: Any, now: float, *,
                           notice_every: float = NOTICE_EVERY) -> int | None:
        """Queue a message to a game's host about a delivery problem, at most once per game
        and problem every `notice_every` seconds. Notices have no game_id of their own: they
        must not queue behind (or hold up) the game's posts.

        One statement decides and records "told now", so two processes meeting the same
        problem at once queue one notice: the second waits on the first's row and then
        finds it too recent."""
        told = await self._returning(
            "INSERT INTO delivery_notices (game_id, problem, notified_at) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id, problem) DO UPDATE SET notified_at = excluded.notified_at"
            " WHERE ? - delivery_notices.notified_at >= ? RETURNING notified_at",
            (game_id, problem, now, now, notice_every),
        )
        if told is None:
            return None
        return await self.add_outbox(None, "notice", payload, now)

    async def delivery_contact(self, game_id: int) -> DeliveryContact | None:
        """Who to tell about a game's delivery problems, where, and in which language."""
        row = await self._one(
            "SELECT g.id AS game_id, g.game, g.guild_id, g.channel_id, g.host_user_id,"
            " COALESCE(p.locale, g.locale) AS locale, g.settings AS settings_json FROM games g"
            " LEFT JOIN user_prefs p ON p.user_id = g.host_user_id WHERE g.id = ?",
            (game_id,),
        )
        return DeliveryContact(**dict(row)) if row else None

    async def pending_posts_after(self, game_id: int, after_id: int, limit: int = 50) -> list[OutboxRow]:
        """A game's rows still to deliver that come after `after_id`, oldest first: the run
        that a live-board step may deliver together with its first row."""
        rows = await self._all(
            f"SELECT {OUTBOX_COLUMNS} FROM outbox{self._index('outbox_due')}"
            " WHERE id > ? AND game_id = ? AND delivered_at IS NULL AND dead = 0 ORDER BY id LIMIT ?",
            (after_id, game_id, limit),
        )
        return [OutboxRow(**dict(r)) for r in rows]

    async def live_board(self, game_id: int) -> str | None:
        row = await self._one("SELECT board_json FROM live_boards WHERE game_id = ?", (game_id,))
        return str(row[0]) if row else None

    async def set_live_board(self, game_id: int, board_json: str, now: float) -> None:
        await self._run(
            "INSERT INTO live_boards (game_id, board_json, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET board_json = excluded.board_json,"
            " updated_at = excluded.updated_at",
            (game_id, board_json, now),
        )

    async def outbox_parts(self, outbox_id: int) -> dict[str, OutboxPart]:
        rows = await self._all(
            "SELECT part, outcome, message_id, done_at FROM outbox_parts WHERE outbox_id = ?", (outbox_id,))
        return {r["part"]: OutboxPart(**dict(r)) for r in rows}

    async def record_part(self, outbox_id: int, part: str, outcome: str, now: float,
                          message_id: str | None = None) -> None:
        await self._run(
            "INSERT INTO outbox_parts (outbox_id, part, outcome, message_id, done_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (outbox_id, part) DO UPDATE SET outcome = excluded.outcome,"
            " message_id = excluded.message_id, done_at = excluded.done_at",
            (outbox_id, part, outcome, message_id, now),
        )

    def prune_sql(self) -> str:
        """The rows `prune_outbox` deletes (also what the plan tests look at)."""
        return (
            f"SELECT id FROM outbox{self._index('outbox_finished')}"
            " WHERE (delivered_at IS NOT NULL OR dead = 1)"
            " AND COALESCE(delivered_at, next_attempt_at) < ?"
            " AND (delivered_at IS NOT NULL OR next_attempt_at < ?) LIMIT ?"
        )

    async def prune_outbox(self, now: float, *, keep_delivered: float = OUTBOX_KEEP_DELIVERED,
                           keep_dead: float = OUTBOX_KEEP_DEAD, batch: int = OUTBOX_PRUNE_BATCH) -> int:
        """Delete up to `batch` finished rows older than their keep time (their parts go
        with them); return how many. Found through the outbox_finished index, so a call
        does not read the rows it keeps (except dead ones still inside their week, which
        are few)."""
        # Two statements, not DELETE ... WHERE id IN (SELECT ...): PostgreSQL plans that as a
        # hash join against a scan of the whole outbox whenever the table is small enough for
        # a scan to cost less than `batch` look-ups, which it then walks on every call.
        rows = await self._all(self.prune_sql(), (now - keep_delivered, now - keep_dead, batch))
        return await self._delete_ids("outbox", "id", [int(r[0]) for r in rows])

    async def _delete_ids(self, table: str, column: str, ids: list[int]) -> int:
        """Delete the rows of `table` whose `column` is one of `ids` (through its key)."""
        if not ids:
            return 0
        return await self._run(f"DELETE FROM {table} WHERE {column} IN ({_marks(len(ids))})", ids)

    # --- retention -------------------------------------------------------------------------
    async def idle_lobbies(self, before: float, limit: int = 100) -> list[int]:
        """Lobbies nobody has touched (joined, left, changed) since `before`, oldest first."""
        rows = await self._all("SELECT id FROM games WHERE status = 'lobby' AND updated_at < ?"
                               " ORDER BY updated_at LIMIT ?", (before, limit))  # games_lobbies
        return [int(r["id"]) for r in rows]

    def forget_live_boards_sql(self) -> str:
        """The games whose live boards `forget_live_boards` deletes (also what the plan tests
        look at): found from the closed games the sweep is not done with (games_to_pack), not
        by reading every live board (one per running game) or every closed game."""
        return (
            "SELECT g.id FROM games g WHERE g.status IN ('finished', 'abandoned') AND g.log_packed = 0"
            " AND g.updated_at < ? AND EXISTS (SELECT 1 FROM live_boards l WHERE l.game_id = g.id)"
            " AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.game_id = g.id AND o.delivered_at IS NULL"
            " AND o.dead = 0) LIMIT ?"
        )

    async def forget_live_boards(self, before: float, limit: int = OUTBOX_PRUNE_BATCH) -> int:
        """Delete up to `limit` live boards of games closed (finished or abandoned) before
        `before` whose posts have all gone out; return how many. A live board is only read
        to deliver a game's next post, and a closed game's last one is out. (A closed game's
        log is packed only once its live board is gone, so the games this looks at are the
        ones the sweep is not done with.)"""
        rows = await self._all(self.forget_live_boards_sql(), (before, limit))
        return await self._delete_ids("live_boards", "game_id", [int(r[0]) for r in rows])

    def archive_candidates_sql(self) -> str:
        """The closed games whose logs are still to pack, closed before `?`, whose live board is
        gone (`forget_live_boards` finds them through the same index) (also what the plan
        tests look at): through games_to_pack, which holds only those, so a sweep does not
        read the games it is done with. On PostgreSQL the rows are locked, passing over those
        another process is packing (a game it packed meanwhile is re-checked: log_packed)."""
        return (
            "SELECT g.id FROM games g WHERE g.status IN ('finished', 'abandoned') AND g.log_packed = 0"
            " AND g.updated_at < ? AND NOT EXISTS (SELECT 1 FROM live_boards l WHERE l.game_id = g.id)"
            f" ORDER BY g.updated_at LIMIT ?{self._skip_locked('g')}"
        )

    async def archive_actions(self, before: float, now: float, limit: int = ARCHIVE_BATCH) -> int:
        """Pack the action logs of up to `limit` games closed before `before` into one row each
        (`action_archives`) and delete their rows; return how many games the sweep is now done
        with (a game closed without a move has nothing to pack, and counts). What `actions()`
        returns afterwards is the same list."""
        games = await self._all(self.archive_candidates_sql(), (before, limit))
        for g in games:
            game_id = int(g["id"])
            rows = await self._all(f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? ORDER BY seq",
                                   (game_id,))
            if rows:
                await self._run("INSERT INTO action_archives (game_id, actions, archived_at) VALUES (?, ?, ?)",
                                (game_id, pack_actions([ActionRow(**dict(r)) for r in rows]), now))
                await self._run("DELETE FROM actions WHERE game_id = ?", (game_id,))
            await self._run("UPDATE games SET log_packed = 1 WHERE id = ?", (game_id,))
        return len(games)

    # --- user preferences ----------------------------------------------------------------
    async def get_prefs(self, user_id: str) -> UserPrefs:
        row = await self._one(f"SELECT {PREFS_COLUMNS} FROM user_prefs WHERE user_id = ?", (user_id,))
        return UserPrefs(**dict(row)) if row else UserPrefs(user_id=user_id)

    async def prefs_for(self, user_ids: Iterable[str]) -> dict[str, UserPrefs]:
        ids = list(dict.fromkeys(user_ids))
        if not ids:
            return {}
        rows = await self._all(
            f"SELECT {PREFS_COLUMNS} FROM user_prefs WHERE user_id IN ({_marks(len(ids))})", ids)
        found = {r["user_id"]: UserPrefs(**dict(r)) for r in rows}
        return {uid: found.get(uid) or UserPrefs(user_id=uid) for uid in ids}

    async def set_prefs(self, user_id: str, *, dm_reminders: bool | None = None,
                        locale: str | None = None) -> UserPrefs:
        """Change the preferences given (None keeps the stored one); one statement, so two
        changes of different preferences at once both stay."""
        dm = None if dm_reminders is None else int(dm_reminders)
        row = await self._returning(
            "INSERT INTO user_prefs (user_id, dm_reminders, locale) VALUES (?, COALESCE(?, 0), ?)"
            " ON CONFLICT (user_id) DO UPDATE SET"
            " dm_reminders = COALESCE(?, user_prefs.dm_reminders), locale = COALESCE(?, user_prefs.locale)"
            f" RETURNING {PREFS_COLUMNS}",
            (user_id, dm, locale, dm, locale),
        )
        assert row is not None
        return UserPrefs(**dict(row))

    async def set_hours(self, user_id: str, *, tz: str | None, quiet_start: int | None,
                        quiet_end: int | None) -> UserPrefs:
        """Set a person's own hours as given (None clears them): the time zone and the quiet
        hours, both ends or neither."""
        row = await self._returning(
            "INSERT INTO user_prefs (user_id, tz, quiet_start, quiet_end) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET tz = ?, quiet_start = ?, quiet_end = ?"
            f" RETURNING {PREFS_COLUMNS}",
            (user_id, tz, quiet_start, quiet_end, tz, quiet_start, quiet_end),
        )
        assert row is not None
        return UserPrefs(**dict(row))

    async def set_pace(self, user_id: str, **fields: Any) -> UserPrefs:
        """Set the person's away time or digest columns given (PACE_COLUMNS; None clears one)."""
        names = list(fields)
        if not names or any(n not in PACE_COLUMNS for n in names):
            raise StoreError(f"user_prefs: cannot set {names}")
        values = [fields[n] for n in names]
        row = await self._returning(
            f"INSERT INTO user_prefs (user_id, {', '.join(names)}) VALUES (?, {_marks(len(names))})"
            f" ON CONFLICT (user_id) DO UPDATE SET {', '.join(f'{n} = ?' for n in names)}"
            f" RETURNING {PREFS_COLUMNS}",
            (user_id, *values, *values),
        )
        assert row is not None
        return UserPrefs(**dict(row))

    async def claim_pace(self, user_id: str, expect: dict[str, Any], **fields: Any) -> bool:
        """Set the pace columns given only if the `expect`ed ones still hold what was read:
        the one process whose update matches sends the digest or the return DM (the others'
        find it changed and send nothing)."""
        if not fields or any(n not in PACE_COLUMNS for n in [*fields, *expect]):
            raise StoreError(f"user_prefs: cannot claim {list(fields)} by {list(expect)}")
        sets = ", ".join(f"{n} = ?" for n in fields)
        where = " AND ".join(f"{n} = ?" for n in expect)
        row = await self._returning(
            f"UPDATE user_prefs SET {sets} WHERE user_id = ? AND {where} RETURNING user_id",
            (*fields.values(), user_id, *expect.values()))
        return row is not None

    async def due_digests(self, now: float, limit: int = 200) -> list[UserPrefs]:
        """The people whose daily digest is due."""
        rows = await self._all(
            f"SELECT {PREFS_COLUMNS} FROM user_prefs WHERE digest_next_at IS NOT NULL AND digest_next_at <= ?"
            " ORDER BY digest_next_at LIMIT ?", (now, limit))
        return [UserPrefs(**dict(r)) for r in rows]

    async def due_returns(self, now: float, limit: int = 200) -> list[UserPrefs]:
        """The people whose away time has ended and who were not yet told what waits on them."""
        rows = await self._all(
            f"SELECT {PREFS_COLUMNS} FROM user_prefs WHERE away_told = 0 AND away_until <= ?"
            " ORDER BY away_until LIMIT ?", (now, limit))
        return [UserPrefs(**dict(r)) for r in rows]

    async def game_clocks(self, game_id: int) -> str | None:
        """A game's time banks (JSON), or None for a game without them."""
        row = await self._one("SELECT clocks FROM games WHERE id = ?", (game_id,))
        return row[0] if row else None

    async def set_clocks(self, game_id: int, clocks_json: str | None) -> None:
        """Store a game's time banks; the caller holds the game's row (get_game in a write
        transaction, or the commit's version-guarded update), so no change is lost."""
        await self._run("UPDATE games SET clocks = ? WHERE id = ?", (clocks_json, game_id))

    # --- results and ratings ---------------------------------------------------------------
    async def record_results(self, rows: list[ResultRow]) -> None:
        """A finished game's result, one row per seat (written once: a game finishes once)."""
        for r in rows:
            await self._run(
                "INSERT INTO results (game_id, seat, user_id, bot, guild_id, game, place, total, stats, players,"
                " finished_at, forfeited) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO NOTHING",
                (r.game_id, r.seat, r.user_id, r.bot, r.guild_id, r.game, r.place, r.total, r.stats_json,
                 r.players, r.finished_at, int(r.forfeited)))

    async def results_of_game(self, game_id: int) -> list[ResultRow]:
        rows = await self._all(f"SELECT {RESULT_COLUMNS} FROM results WHERE game_id = ? ORDER BY seat", (game_id,))
        return [ResultRow(**dict(r)) for r in rows]

    async def results_of_guild(self, guild_id: str, game: str | None = None) -> list[ResultRow]:
        """Every result of the server's finished games (of one title, if given), in the order
        the games finished: what ratings are rebuilt from."""
        sql = f"SELECT {RESULT_COLUMNS} FROM results WHERE guild_id = ?"
        params: list[Any] = [guild_id]
        if game is not None:
            sql += " AND game = ?"
            params.append(game)
        rows = await self._all(sql + " ORDER BY finished_at, game_id, seat", params)
        return [ResultRow(**dict(r)) for r in rows]

    async def results_of_player(self, user_id: str, guild_id: str | None) -> list[ResultRow]:
        """Every result of the player's games (in one server, if given), oldest first, with the
        other seats of those games (for their opponents)."""
        sql = (f"SELECT {', '.join('o.' + c.strip() for c in RESULT_COLUMNS.split(','))}"
               " FROM results r JOIN results o ON o.game_id = r.game_id WHERE r.user_id = ?")
        params: list[Any] = [user_id]
        if guild_id is not None:
            sql += " AND r.guild_id = ?"
            params.append(guild_id)
        rows = await self._all(sql + " ORDER BY o.finished_at, o.game_id, o.seat", params)
        return [ResultRow(**dict(r)) for r in rows]

    async def unrecorded_results(self, guild_id: str | None, limit: int = 500) -> list[int]:
        """Finished games (of a server, if given) with no result rows: finished before results
        were kept. The rebuild fills them in from their stored state."""
        sql = ("SELECT g.id FROM games g WHERE g.status = 'finished'"
               " AND NOT EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id)")
        params: list[Any] = []
        if guild_id is not None:
            sql += " AND g.guild_id = ?"
            params.append(guild_id)
        rows = await self._all(sql + " ORDER BY g.id LIMIT ?", (*params, limit))
        return [int(r[0]) for r in rows]

    async def display_names(self, user_ids: Iterable[str]) -> dict[str, str]:
        """Each person's name as their latest seat shows it."""
        ids = list(dict.fromkeys(user_ids))
        if not ids:
            return {}
        rows = await self._all(
            f"SELECT user_id, display_name, game_id FROM seats WHERE user_id IN ({_marks(len(ids))})"
            " ORDER BY game_id", ids)
        return {r["user_id"]: r["display_name"] for r in rows}

    async def rating_rules(self, guild_id: str) -> RatingRules | None:
        row = await self._one("SELECT guild_id, enabled, with_bots FROM rating_rules WHERE guild_id = ?", (guild_id,))
        return RatingRules(**dict(row)) if row else None

    async def set_rating_rules(self, guild_id: str, *, enabled: bool, with_bots: bool, now: float) -> RatingRules:
        row = await self._returning(
            "INSERT INTO rating_rules (guild_id, enabled, with_bots, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET enabled = ?, with_bots = ?, updated_at = ?"
            " RETURNING guild_id, enabled, with_bots",
            (guild_id, int(enabled), int(with_bots), now, int(enabled), int(with_bots), now))
        assert row is not None
        return RatingRules(**dict(row))

    async def ratings_of(self, guild_id: str, game: str, user_ids: Iterable[str]) -> dict[str, RatingRow]:
        ids = list(dict.fromkeys(user_ids))
        if not ids:
            return {}
        rows = await self._all(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ? AND user_id IN ({_marks(len(ids))})",
            (guild_id, game, *ids))
        return {r["user_id"]: RatingRow(**dict(r)) for r in rows}

    async def put_rating(self, rating: RatingRow, game_id: int, now: float) -> None:
        """A player's rating after a rated game, and the change it made (for their trend)."""
        values = (rating.guild_id, rating.game, rating.user_id, rating.mu, rating.sigma, rating.games, rating.wins, now)
        await self._run(
            "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, wins, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET"
            " mu = ?, sigma = ?, games = ?, wins = ?, updated_at = ?",
            (*values, rating.mu, rating.sigma, rating.games, rating.wins, now))
        await self._run(
            "INSERT INTO rating_changes (game_id, user_id, guild_id, game, mu, sigma, at) VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id, user_id) DO UPDATE SET mu = ?, sigma = ?, at = ?",
            (game_id, rating.user_id, rating.guild_id, rating.game, rating.mu, rating.sigma, now,
             rating.mu, rating.sigma, now))

    async def clear_ratings(self, guild_id: str) -> None:
        await self._run("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
        await self._run("DELETE FROM rating_changes WHERE guild_id = ?", (guild_id,))

    async def leaderboard(self, guild_id: str, game: str, limit: int = 20) -> list[RatingRow]:
        """The server's rated players of a game, best first (by mu − 3σ, the rating shown)."""
        rows = await self._all(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game = ?"
            " ORDER BY mu - 3 * sigma DESC, user_id LIMIT ?", (guild_id, game, limit))
        return [RatingRow(**dict(r)) for r in rows]

    async def rating_trend(self, guild_id: str, game: str, user_id: str, limit: int = 10) -> list[tuple[float, float]]:
        """The player's last `limit` ratings (mu, sigma) in that game, oldest first."""
        rows = await self._all(
            "SELECT mu, sigma FROM rating_changes WHERE guild_id = ? AND game = ? AND user_id = ?"
            " ORDER BY at DESC LIMIT ?", (guild_id, game, user_id, limit))
        return [(float(r[0]), float(r[1])) for r in reversed(rows)]

    # --- followers --------------------------------------------------------------------------
    async def set_follow(self, game_id: int, user_id: str, every: int | None, locale: str | None, now: float) -> None:
        await self._run(
            "INSERT INTO follows (game_id, user_id, every, locale, created_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id, user_id) DO UPDATE SET every = ?, locale = ?",
            (game_id, user_id, every, locale, now, every, locale))

    async def drop_follow(self, game_id: int, user_id: str) -> int:
        return await self._run("DELETE FROM follows WHERE game_id = ? AND user_id = ?", (game_id, user_id))

    async def followers(self, game_id: int) -> list[tuple[str, int | None, str | None]]:
        """(user id, every how many moves or None, language) of the game's followers."""
        rows = await self._all("SELECT user_id, every, locale FROM follows WHERE game_id = ? ORDER BY user_id",
                               (game_id,))
        return [(str(r[0]), None if r[1] is None else int(r[1]), r[2]) for r in rows]

    # --- leagues ---------------------------------------------------------------------------
    async def insert_league(self, *, guild_id: str, channel_id: str, name: str, game: str, options: Any,
                            table_size: int, rounds: int, deadline_hours: float, locale: str, created_by: str,
                            now: float) -> LeagueRow | None:
        """A new league; None if the server already has one of that name."""
        row = await self._returning(
            "INSERT INTO leagues (guild_id, channel_id, name, game, options, table_size, rounds, deadline_hours,"
            " locale, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            f" ON CONFLICT (guild_id, name) DO NOTHING RETURNING {LEAGUE_COLUMNS}",
            (guild_id, channel_id, name, game, dumps(options), table_size, rounds, deadline_hours, locale,
             created_by, now))
        return LeagueRow(**dict(row)) if row else None

    async def get_league(self, league_id: int) -> LeagueRow | None:
        row = await self._one(f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = ?{self._lock}", (league_id,))
        return LeagueRow(**dict(row)) if row else None

    async def leagues_of_guild(self, guild_id: str) -> list[LeagueRow]:
        rows = await self._all(f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE guild_id = ? ORDER BY created_at DESC",
                               (guild_id,))
        return [LeagueRow(**dict(r)) for r in rows]

    async def update_league(self, league_id: int, *, round: int, status: str) -> None:
        await self._run("UPDATE leagues SET round = ?, status = ? WHERE id = ?", (round, status, league_id))

    async def set_league_card(self, league_id: int, message_id: str) -> None:
        await self._run("UPDATE leagues SET card_message_id = ? WHERE id = ?", (message_id, league_id))

    async def add_league_player(self, league_id: int, user_id: str, display_name: str, now: float) -> bool:
        """False if they had already joined."""
        row = await self._returning(
            "INSERT INTO league_players (league_id, user_id, display_name, joined_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (league_id, user_id) DO NOTHING RETURNING user_id",
            (league_id, user_id, display_name, now))
        return row is not None

    async def drop_league_player(self, league_id: int, user_id: str) -> int:
        return await self._run("DELETE FROM league_players WHERE league_id = ? AND user_id = ?", (league_id, user_id))

    async def league_players(self, league_id: int) -> list[tuple[str, str]]:
        """(user id, name) of the league's players, in the order they joined."""
        rows = await self._all("SELECT user_id, display_name FROM league_players WHERE league_id = ?"
                               " ORDER BY joined_at, user_id", (league_id,))
        return [(str(r[0]), str(r[1])) for r in rows]

    async def add_league_table(self, league_id: int, round: int, table_no: int, players: list[str]) -> None:
        await self._run("INSERT INTO league_tables (league_id, round, table_no, players) VALUES (?, ?, ?, ?)",
                        (league_id, round, table_no, dumps(players)))

    async def set_league_table_game(self, league_id: int, round: int, table_no: int, game_id: int) -> int:
        """The table's game, if it has none yet (1) — else nothing (0)."""
        return await self._run("UPDATE league_tables SET game_id = ? WHERE league_id = ? AND round = ?"
                               " AND table_no = ? AND game_id IS NULL", (game_id, league_id, round, table_no))

    async def league_tables(self, league_id: int, round: int | None = None) -> list[LeagueTable]:
        """The league's tables (of one round, if given) with their games' status."""
        sql = ("SELECT t.league_id, t.round, t.table_no, t.players AS players_json, t.game_id, g.status"
               " FROM league_tables t LEFT JOIN games g ON g.id = t.game_id WHERE t.league_id = ?")
        params: list[Any] = [league_id]
        if round is not None:
            sql += " AND t.round = ?"
            params.append(round)
        rows = await self._all(sql + " ORDER BY t.round, t.table_no", params)
        return [LeagueTable(**dict(r)) for r in rows]

    async def league_table_of_game(self, game_id: int) -> LeagueTable | None:
        row = await self._one("SELECT league_id, round, table_no, players AS players_json, game_id"
                              " FROM league_tables WHERE game_id = ?", (game_id,))
        return LeagueTable(**dict(row)) if row else None

    async def add_forfeit(self, game_id: int, seat: int, user_id: str, display_name: str, now: float) -> None:
        await self._run("INSERT INTO forfeits (game_id, seat, user_id, display_name, at) VALUES (?, ?, ?, ?, ?)"
                        " ON CONFLICT (game_id, seat) DO NOTHING", (game_id, seat, user_id, display_name, now))

    async def forfeits(self, game_id: int) -> dict[int, str]:
        """seat -> the user id of who forfeited it."""
        rows = await self._all("SELECT seat, user_id FROM forfeits WHERE game_id = ?", (game_id,))
        return {int(r[0]): str(r[1]) for r in rows}

    # --- raw access (tests, maintenance) -------------------------------------------------
    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[dict[str, Any]]:
        return [dict(r) for r in await self._all(sql, params)]

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> int:
        return await self._run(sql, params)


class StoreCommon:
    """What both stores do the same way around their transactions: the test pause before
    COMMIT, `async with`, and the shortcuts (one statement group in its own transaction,
    `now` taken from the store's clock when not given)."""

    _clock: Callable[[], float]

    def _init_common(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._pause_in_tx = float(os.environ.get(PAUSE_ENV) or 0)
        self._pause_marker = os.environ.get(PAUSE_MARKER_ENV)
        self.applied_migrations: list[int] = []

    def read(self) -> AbstractAsyncContextManager[StoreTx]:
        raise NotImplementedError

    def write(self) -> AbstractAsyncContextManager[StoreTx]:
        raise NotImplementedError

    async def connect(self) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    @classmethod
    async def open(cls, target: Any, **kwargs: Any) -> Self:
        store = cls(target, **kwargs)
        await store.connect()
        return store

    async def __aenter__(self) -> Self:
        await self.connect()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def _pause_before_commit(self) -> None:
        if self._pause_in_tx:
            if self._pause_marker:
                Path(self._pause_marker).write_text(str(os.getpid()))
            await asyncio.sleep(self._pause_in_tx)

    def _now(self, now: float | None) -> float:
        return self._clock() if now is None else now

    # --- shortcuts -----------------------------------------------------------------------
    # The writes among them are whole transactions, so a conflict the database settled by
    # rolling one back is answered by running it again (bot/store/retry.py).
    async def _writing(self, body: Callable[[StoreTx], Awaitable[T]], what: str) -> T:
        async def run() -> T:
            async with self.write() as tx:
                return await body(tx)
        return await retry_conflicts(run, what=what)

    async def get_game(self, game_id: int) -> GameRow | None:
        async with self.read() as tx:
            return await tx.get_game(game_id)

    async def seats(self, game_id: int) -> list[SeatRow]:
        async with self.read() as tx:
            return await tx.seats(game_id)

    async def actions(self, game_id: int) -> list[ActionRow]:
        async with self.read() as tx:
            return await tx.actions(game_id)

    async def standing_orders(self, game_id: int) -> dict[int, list[str]]:
        async with self.read() as tx:
            return await tx.standing_orders(game_id)

    async def timers(self, game_id: int) -> list[TimerRow]:
        async with self.read() as tx:
            return await tx.timers(game_id)

    async def outbox_rows(self, game_id: int | None = None) -> list[OutboxRow]:
        async with self.read() as tx:
            return await tx.outbox_rows(game_id)

    async def due_outbox(self, now: float | None = None, limit: int = 50) -> list[OutboxRow]:
        async with self.read() as tx:
            return await tx.due_outbox(self._now(now), limit)

    async def claim_outbox(self, owner: str, now: float | None = None, lease: float = CLAIM_LEASE,
                           limit: int = 50) -> list[OutboxRow]:
        at = self._now(now)
        return await self._writing(lambda tx: tx.claim_outbox(owner, at, lease, limit), "claim_outbox")

    async def renew_claims(self, owner: str, ids: Iterable[int], now: float | None = None,
                           lease: float = CLAIM_LEASE) -> list[int]:
        at, wanted = self._now(now), list(ids)
        return await self._writing(lambda tx: tx.renew_claims(owner, wanted, at, lease), "renew_claims")

    async def release_claims(self, owner: str, ids: Iterable[int], *, interrupted: str | None = None) -> int:
        wanted = list(ids)
        return await self._writing(lambda tx: tx.release_claims(owner, wanted, interrupted=interrupted),
                                   "release_claims")

    async def claim_timers(self, kind: str, owner: str, now: float | None = None, lease: float = CLAIM_LEASE,
                           limit: int = 200) -> list[TimerRow]:
        at = self._now(now)
        return await self._writing(lambda tx: tx.claim_timers(kind, owner, at, lease, limit), "claim_timers")

    async def mark_delivered(self, outbox_id: int, now: float | None = None, owner: str | None = None) -> None:
        at = self._now(now)
        await self._writing(lambda tx: tx.mark_delivered(outbox_id, at, owner), "mark_delivered")

    async def mark_failed(self, outbox_id: int, error: str, now: float | None = None, *,
                          retry_after: float | None = None, permanent: bool = False,
                          owner: str | None = None) -> OutboxRow | None:
        at = self._now(now)
        return await self._writing(lambda tx: tx.mark_failed(outbox_id, error, at, retry_after=retry_after,
                                                             permanent=permanent, owner=owner), "mark_failed")

    async def give_up(self, outbox_id: int, error: str, now: float | None = None, *,
                      notice: tuple[int, str, Any] | None = None,
                      notice_every: float = NOTICE_EVERY, owner: str | None = None) -> int | None:
        at = self._now(now)
        return await self._writing(lambda tx: tx.give_up(outbox_id, error, at, notice=notice,
                                                         notice_every=notice_every, owner=owner), "give_up")

    async def queue_notice(self, game_id: int, problem: str, payload: Any, now: float | None = None, *,
                           notice_every: float = NOTICE_EVERY) -> int | None:
        at = self._now(now)
        return await self._writing(lambda tx: tx.queue_notice(game_id, problem, payload, at,
                                                              notice_every=notice_every), "queue_notice")

    async def delivery_contact(self, game_id: int) -> DeliveryContact | None:
        async with self.read() as tx:
            return await tx.delivery_contact(game_id)

    async def pending_posts_after(self, game_id: int, after_id: int, limit: int = 50) -> list[OutboxRow]:
        async with self.read() as tx:
            return await tx.pending_posts_after(game_id, after_id, limit)

    async def live_board(self, game_id: int) -> str | None:
        async with self.read() as tx:
            return await tx.live_board(game_id)

    async def outbox_parts(self, outbox_id: int) -> dict[str, OutboxPart]:
        async with self.read() as tx:
            return await tx.outbox_parts(outbox_id)

    async def record_part(self, outbox_id: int, part: str, outcome: str, now: float | None = None,
                          message_id: str | None = None) -> None:
        at = self._now(now)
        await self._writing(lambda tx: tx.record_part(outbox_id, part, outcome, at, message_id), "record_part")

    async def prune_outbox(self, now: float | None = None, **kwargs: Any) -> int:
        """One batch of `prune_outbox` in its own short transaction; call again while it
        returns a positive count (yielding in between lets moves through)."""
        at = self._now(now)
        return await self._writing(lambda tx: tx.prune_outbox(at, **kwargs), "prune_outbox")

    async def get_prefs(self, user_id: str) -> UserPrefs:
        async with self.read() as tx:
            return await tx.get_prefs(user_id)

    async def set_prefs(self, user_id: str, *, dm_reminders: bool | None = None,
                        locale: str | None = None) -> UserPrefs:
        return await self._writing(lambda tx: tx.set_prefs(user_id, dm_reminders=dm_reminders, locale=locale),
                                   "set_prefs")

    async def set_pace(self, user_id: str, **fields: Any) -> UserPrefs:
        return await self._writing(lambda tx: tx.set_pace(user_id, **fields), "set_pace")

    async def due_digests(self, now: float | None = None, limit: int = 200) -> list[UserPrefs]:
        at = self._now(now)
        async with self.read() as tx:
            return await tx.due_digests(at, limit)

    async def due_returns(self, now: float | None = None, limit: int = 200) -> list[UserPrefs]:
        at = self._now(now)
        async with self.read() as tx:
            return await tx.due_returns(at, limit)

    async def set_hours(self, user_id: str, *, tz: str | None, quiet_start: int | None,
                        quiet_end: int | None) -> UserPrefs:
        return await self._writing(
            lambda tx: tx.set_hours(user_id, tz=tz, quiet_start=quiet_start, quiet_end=quiet_end), "set_hours")

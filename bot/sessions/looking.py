"""Looking at games: the lobby, the status, a seat's private view and menu, the history, the games waiting on a user."""
from __future__ import annotations


from pydantic import ValidationError

from bot.sessions.core import Core, Loaded, not_running, public_menu, public_notation
from bot.sessions.errors import SessionError
from bot.sessions.pace import local_clocks, pace_of, read_clocks
from bot.sessions.models import (
    GameInfo,
    HistoryEntry,
    LegalMove,
    PrivateView,
    StatusInfo,
    WaitingGame,
)
from bot.store import ActionRow
from games import registry
from games.core import Event, Game


def seat_view(ld: Loaded, seat: int, *, legal: bool = True) -> PrivateView:
    """What `seat` may see of the loaded game (its hand, its secret choices) and, while the
    game waits on it, its menu; with `legal`, every move open to it with its words too (what
    autocomplete lists: the one costly part, left out where nothing lists them)."""
    game, state = ld.game, ld.state
    waiting = sorted(game.active_players(state)) if ld.row.status == "active" else []
    active = seat in waiting
    moves: list[LegalMove] = []
    if active and legal:
        for action in game.legal_actions(state, seat):
            moves.append(LegalMove(notation=game.format_action(action),
                                   label=game.describe_action(state, seat, action)))
    return PrivateView(
        game_id=ld.row.id, channel_id=ld.row.channel_id, game=ld.row.game, seat=seat,
        version=ld.row.version, status=ld.row.status, names=ld.names, active=active, waiting=waiting,
        view=game.view(state, seat),
        prompt=game.prompt(state, seat) if active else None, legal=moves,
        decision=game.decision(state, seat) if active else None,
    )


def public_log(game: Game | None, names: list[str], actions: list[ActionRow]) -> list[HistoryEntry]:
    """A game's move log as everyone may read it: public events only, secret details of the
    notation left out, each move marked when a later undo took it back."""
    undone = {a.undoes_seq for a in actions if a.kind == "undo"}
    entries: list[HistoryEntry] = []
    for a in actions:
        events: list[Event] = []
        for raw in a.events():
            try:
                event = Event.model_validate(raw)
            except ValidationError:
                continue
            if event.to is None:
                events.append(event)
        entries.append(HistoryEntry(
            seq=a.seq, kind=a.kind, seat=a.seat,
            name=names[a.seat] if 0 <= a.seat < len(names) else f"#{a.seat + 1}",
            notation=public_notation(game, a.notation), events=events, undone=a.seq in undone, auto=a.auto,
            created_at=a.created_at,
        ))
    return entries


class Looking:
    """The lobby, the status, a seat's private view, the history, the games waiting on a user."""

    def __init__(self, core: Core) -> None:
        self.core = core

    # ==================================================================================
    # looking
    # ==================================================================================
    async def lobby(self, channel_id: str) -> GameInfo:
        async with self.core.store.read() as tx:
            ld = await self.core.open_in_tx(tx, channel_id)
        return self.core.info(ld)

    async def status(self, channel_id: str) -> StatusInfo:
        """The channel's open game, or its most recent one when none is open."""
        ld, _ = await self.core.read_channel(channel_id, include_closed=True)
        info = self.core.info(ld)
        if ld.state is None:
            return StatusInfo(info=info, names=ld.names, version=ld.row.version)
        game = ld.game
        result = game.result(ld.state)
        waiting = sorted(game.active_players(ld.state)) if ld.row.status == "active" else []
        people = {s: str(ld.seats[s].user_id) for s in waiting if s < len(ld.seats) and ld.seats[s].user_id}
        everyone = {s.seat: str(s.user_id) for s in ld.seats if s.user_id}
        now = self.core.clock()
        async with self.core.store.read() as tx:
            prefs = await tx.prefs_for(everyone.values()) if everyone else {}
            banks = await read_clocks(tx, ld) if ld.row.status == "active" else None
        by_seat = {s: prefs.get(u) for s, u in everyone.items()}
        return StatusInfo(
            info=info, names=ld.names, version=ld.row.version, waiting=waiting,
            waiting_user_ids=list(people.values()),
            view=game.view(ld.state, None), result=result, last_move_at=ld.row.last_move_at,
            menu=public_menu(game, ld.state, waiting), clocks=local_clocks(people, prefs, now),
            pace=pace_of(banks, by_seat, len(ld.seats), now) if ld.row.status == "active" else [],
        )

    async def private_view(self, channel_id: str, user_id: str) -> PrivateView:
        """What this user's seat may see (hand, secret choices), with the moves open to it:
        in the channel's game under way, or in its last one if that was played to the end
        (the final hand). A lobby, an abandoned game or a lobby that closed has no hand."""
        ld, _ = await self.core.read_channel(channel_id, include_closed=True)
        if ld.row.status not in ("active", "finished") or ld.state is None:
            raise not_running(ld.row)
        seat = ld.seat_of(user_id)
        if seat is None:
            raise SessionError("not_in_game")
        return seat_view(ld, seat)

    async def history(self, channel_id: str) -> list[HistoryEntry]:
        """The move log of the channel's game (open, else most recent), public events only."""
        async with self.core.store.read() as tx:
            row = await tx.open_game(channel_id) or await tx.latest_game(channel_id)
            if row is None:
                raise SessionError("no_game_here")
            seats = await tx.seats(row.id)
            actions = await tx.actions(row.id)
        try:
            game: Game | None = registry.get(row.game)
        except Exception:  # noqa: BLE001 - the log of a game we can no longer load still shows
            game = None
        return public_log(game, [s.display_name for s in seats], actions)

    async def games_waiting_on(self, user_id: str, guild_id: str | None = None) -> list[WaitingGame]:
        """Active games (in this guild, if given) that wait on this user now."""
        async with self.core.store.read() as tx:
            rows = await tx.games_of_user(user_id, guild_id, ("active",))
            seat_rows = {row.id: await tx.seats(row.id) for row in rows}
        waiting: list[WaitingGame] = []
        for row in rows:
            try:
                ld = self.core.load(row, seat_rows[row.id])
                active = ld.game.active_players(ld.state)
            except SessionError:
                continue  # a corrupt game is reported when someone opens it, not here
            mine = sorted(s.seat for s in ld.seats if s.user_id == user_id and s.seat in active)
            if mine:
                waiting.append(WaitingGame(
                    game_id=row.id, channel_id=row.channel_id, guild_id=row.guild_id,
                    game=row.game, version=row.version, seats=mine, since=row.last_move_at,
                    names=ld.names, locale=row.locale, asks=ld.game.prompt(ld.state, mine[0]),
                ))
        return waiting

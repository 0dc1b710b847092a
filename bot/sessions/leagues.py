"""Leagues: a server's set of players for one game, played in rounds.

A league is opened by someone who may manage the server, players sign up, and each round the
players are grouped into tables of the league's size: by the league's standings, then by the
server's rating for the game (so each table is of players of about the same strength), moving
people apart who already met when that costs little. Each table is a game of its own, in a
thread of the league's channel, seated and started at once (no lobby), with the league's turn
deadline: a player who runs out of time forfeits that game (a bot plays the seat on, and the
player is placed last: bot/sessions/results.py). When the last game of a round ends, the
standings after it are posted (an outbox row of no game); the next round opens when the
organiser asks (`/league round`).

The standings and the grouping are in bot/sessions/standings.py.

A round is planned in one transaction (its tables written with their players) and each table
opened in another, with its game: the adapter makes each table's thread between the two, so a
crash between them leaves a table still to open, which the next `/league round` opens (the
plan is never made twice).
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from bot.sessions.core import Core, log
from bot.sessions.errors import SessionError
from bot.sessions.lobby import Lobby, remember_language
from bot.sessions.models import Actor, Outcome
from bot.sessions.settings import GameSettings
from bot.sessions.standings import Standings, group_tables, standings_in_tx, table_sizes, tiebreak
from bot.store import ChannelBusy, LeagueRow, LeagueTable, Tx, retries_conflicts
from games import registry
from games.core.i18n import language_for

NAME_MAX = 60
ROUNDS_MAX = 20


class LeagueInfo(BaseModel):
    league: LeagueRow
    players: list[tuple[str, str]] = Field(default_factory=list)  # (user id, name), in joining order
    tables: list[LeagueTable] = Field(default_factory=list)  # of the round being played

    @property
    def round_over(self) -> bool:
        return all(t.game_id is not None and t.status in ("finished", "abandoned") for t in self.tables)


class RoundPlan(BaseModel):
    league: LeagueRow
    round: int
    tables: list[LeagueTable]  # those still to open
    names: dict[str, str]


# ------------------------------------------------------------------------------ the service part
class Leagues:
    """Open a league, sign up, plan and open rounds, standings (see the module)."""

    def __init__(self, core: Core, lobbies: Lobby) -> None:
        self.core = core
        self.lobbies = lobbies

    @retries_conflicts
    async def create(self, *, guild_id: str, channel_id: str, name: str, game: str, actor: Actor,
                     rounds: int, table_size: int | None = None, deadline_hours: float = 72.0,
                     options: dict[str, Any] | None = None, locale: str | None = "en") -> LeagueInfo:
        """A new league of the server, open for sign-ups (the adapter checks the caller may
        manage the server); its organiser joins it unless they say otherwise."""
        name = " ".join(name.split())
        if not 1 <= len(name) <= NAME_MAX:
            raise SessionError("league_bad_name", most=NAME_MAX)
        try:
            rules = registry.get(game)
        except registry.UnknownGame:
            raise SessionError("unknown_game", game=game, available=registry.names()) from None
        if not 1 <= rounds <= ROUNDS_MAX:
            raise SessionError("bad_option", option="rounds", value=str(rounds))
        size = table_size if table_size is not None else rules.max_players
        if not rules.min_players <= size <= rules.max_players:
            raise SessionError("league_bad_table", least=rules.min_players, most=rules.max_players)
        try:
            opts = rules.options_model.model_validate(options or {}).model_dump(mode="json")
            GameSettings(deadline_hours=deadline_hours)
        except ValidationError as exc:
            err = exc.errors()[0]
            option = ".".join(str(p) for p in err.get("loc", ())) or "options"
            raise SessionError("bad_option", option=option, value=str(err.get("input"))) from None
        async with self.core.store.write() as tx:
            row = await tx.insert_league(
                guild_id=guild_id, channel_id=channel_id, name=name, game=game, options=opts, table_size=size,
                rounds=rounds, deadline_hours=deadline_hours, locale=language_for(locale), created_by=actor.user_id,
                now=self.core.clock())
            if row is None:
                raise SessionError("league_exists", name=name)
            return LeagueInfo(league=row)

    async def set_card(self, league_id: int, message_id: str) -> None:
        """Where the league's sign-up card is, to redraw it as the league goes on."""
        async with self.core.store.write() as tx:
            await tx.set_league_card(league_id, message_id)

    async def leagues(self, guild_id: str) -> list[LeagueRow]:
        async with self.core.store.read() as tx:
            return await tx.leagues_of_guild(guild_id)

    async def info(self, league_id: int, guild_id: str | None = None) -> LeagueInfo:
        async with self.core.store.read() as tx:
            return await self._info(tx, league_id, guild_id)

    async def _info(self, tx: Tx, league_id: int, guild_id: str | None) -> LeagueInfo:
        row = await tx.get_league(league_id)
        if row is None or (guild_id is not None and row.guild_id != guild_id):
            raise SessionError("no_league")  # another server's league is none of this one's
        return LeagueInfo(league=row, players=await tx.league_players(league_id),
                          tables=await tx.league_tables(league_id, row.round) if row.round else [])

    @retries_conflicts
    async def join(self, league_id: int, actor: Actor, guild_id: str | None = None) -> LeagueInfo:
        async with self.core.store.write() as tx:
            info = await self._info(tx, league_id, guild_id)
            if info.league.status != "signup":
                raise SessionError("league_started")
            if not await tx.add_league_player(league_id, actor.user_id, actor.name, self.core.clock()):
                raise SessionError("league_already_in")
            await remember_language(tx, actor)
            return await self._info(tx, league_id, guild_id)

    @retries_conflicts
    async def leave(self, league_id: int, actor: Actor, guild_id: str | None = None) -> LeagueInfo:
        async with self.core.store.write() as tx:
            info = await self._info(tx, league_id, guild_id)
            if info.league.status != "signup":
                raise SessionError("league_started")
            if not await tx.drop_league_player(league_id, actor.user_id):
                raise SessionError("league_not_in")
            return await self._info(tx, league_id, guild_id)

    @retries_conflicts
    async def plan_round(self, league_id: int, guild_id: str | None = None) -> RoundPlan:
        """The next round's tables, written at once (or, if the round being played still has
        tables to open, those): the adapter then opens each one (`open_table`)."""
        async with self.core.store.write() as tx:
            info = await self._info(tx, league_id, guild_id)
            league = info.league
            names = dict(info.players)
            waiting = [t for t in info.tables if t.game_id is None]
            if waiting:
                return RoundPlan(league=league, round=league.round, tables=waiting, names=names)
            if league.status == "finished":
                raise SessionError("league_over")
            if info.tables and not info.round_over:
                open_games = sum(t.status not in ("finished", "abandoned") for t in info.tables)
                raise SessionError("league_round_running", round=league.round, count=open_games)
            rules = registry.get(league.game)
            sizes = table_sizes(len(info.players), league.table_size, rules.min_players, rules.max_players)
            if sizes is None:
                raise SessionError("league_too_few", have=len(info.players), least=rules.min_players)
            standings = await standings_in_tx(tx, league)
            points = {s.user_id: (s.points, s.rating or 0.0) for s in standings.lines}
            order = sorted(names, key=lambda u: (-points[u][0], -points[u][1], tiebreak(league.id, u)))
            met: Counter[frozenset[str]] = Counter()
            for t in await tx.league_tables(league.id):
                met.update(frozenset(pair) for pair in combinations(t.players, 2))
            number = league.round + 1
            for table_no, players in enumerate(group_tables(order, sizes, met), start=1):
                await tx.add_league_table(league.id, number, table_no, players)
            await tx.update_league(league.id, round=number, status="playing")
            row = await tx.get_league(league.id)
            assert row is not None
            return RoundPlan(league=row, round=number, tables=await tx.league_tables(league.id, number), names=names)

    @retries_conflicts
    async def open_table(self, league_id: int, round: int, table_no: int, channel_id: str) -> Outcome | None:
        """Open one planned table as a game in `channel_id` (its thread): seated in the planned
        order, shuffled as any game's seats, and started, with the league's deadline that
        forfeits. None if the table is open already (another call got there first)."""
        now = self.core.clock()
        async with self.core.store.write() as tx:
            league = await tx.get_league(league_id)
            tables = [t for t in await tx.league_tables(league_id, round) if t.table_no == table_no]
            if league is None or not tables:
                raise SessionError("no_league")
            table = tables[0]
            if table.game_id is not None:
                return None
            names = dict(await tx.league_players(league_id))
            settings = GameSettings(deadline_hours=league.deadline_hours, deadline_action="forfeit")
            try:
                game_id = await tx.insert_game(
                    game=league.game, guild_id=league.guild_id, channel_id=channel_id,
                    host_user_id=league.created_by, locale=league.locale, options=league.options,
                    settings=settings.model_dump(mode="json"), seed=self.core.new_seed(), now=now)
            except ChannelBusy:
                raise SessionError("game_already_here") from None
            for seat, user_id in enumerate(table.players):
                await tx.add_seat(game_id, seat, user_id=user_id, bot=None, display_name=names.get(user_id, user_id))
            if not await tx.set_league_table_game(league_id, round, table_no, game_id):
                log.warning("league %s round %s table %s was opened twice", league_id, round, table_no)
            row = await tx.get_game(game_id)
            assert row is not None
            ld = self.core.load(row, await tx.seats(game_id), with_state=False)
            return await self.lobbies.start_seated(tx, ld, now)

    async def standings(self, league_id: int, guild_id: str | None = None) -> Standings:
        async with self.core.store.read() as tx:
            info = await self._info(tx, league_id, guild_id)
            return await standings_in_tx(tx, info.league)

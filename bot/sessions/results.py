"""Every finished game's result kept, and each server's ratings, leaderboards and profiles.

A game's result is written, one row per seat, in the transaction that finishes it (Commit), and
so is the rating update of a server that keeps ratings (/league ratings): the rating and the
result it comes from can never disagree, and a game is rated once. Ratings use openskill's
Plackett–Luce model, which rates free-for-all results of any number of players with ties; a
player's rating is shown as mu − 3σ (near 0 for a newcomer, rising as the model grows sure).

Which games count: at least two people seated, none of the seats played by a bot unless the
server says games with bots count (bots themselves are never rated). An abandoned game has no
result, so it never counts. `rebuild` recomputes a server's ratings from the stored results, in
the order the games finished, and gets the same numbers as the game-by-game updates; it first
fills in the results of games that finished before results were kept, from their stored state.
"""
from __future__ import annotations

import json
from collections import Counter, defaultdict
from typing import Any, Iterable

from openskill.models import PlackettLuce
from pydantic import BaseModel, Field

from bot.sessions.core import Core, Loaded, log
from bot.store import RatingRow, RatingRules, ResultRow, SeatRow, Tx, retries_conflicts
from games import registry
from games.core import Result

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3


def result_rows(ld: Loaded, seats: list[SeatRow], result: Result, now: float) -> list[ResultRow]:
    return [ResultRow(game_id=ld.row.id, seat=p.seat, user_id=seats[p.seat].user_id, bot=seats[p.seat].bot,
                      guild_id=ld.row.guild_id, game=ld.row.game, place=p.rank, total=p.total,
                      stats_json=json.dumps(p.stats, sort_keys=True, default=str), players=len(seats),
                      finished_at=now)
            for p in result.players if p.seat < len(seats)]


def with_forfeits(rows: list[ResultRow], forfeited: dict[int, str]) -> list[ResultRow]:
    """A game's result with its forfeits (seats whose players ran out of time where that
    forfeits, played on by a bot): each such seat is its player's, placed last; the others keep
    their order."""
    if not forfeited:
        return rows
    kept = [r for r in rows if r.seat not in forfeited]
    out = []
    for r in rows:
        if r.seat in forfeited:
            out.append(r.model_copy(update={"user_id": forfeited[r.seat], "bot": None, "forfeited": True,
                                            "place": len(kept) + 1}))
        else:
            out.append(r.model_copy(update={"place": 1 + sum(o.place < r.place for o in kept)}))
    return out


def counts(rows: list[ResultRow], rules: RatingRules | None) -> bool:
    """Whether a finished game counts for the server's ratings."""
    if rules is None or not rules.enabled or not rows or rows[0].guild_id is None:
        return False
    people = [r for r in rows if r.user_id]
    return len({r.user_id for r in people}) >= 2 and (rules.with_bots or len(people) == len(rows))


def rate(rows: list[ResultRow], before: dict[str, RatingRow]) -> list[RatingRow]:
    """The people's ratings after the game of `rows` (its seats), from their ratings before."""
    people = sorted((r for r in rows if r.user_id), key=lambda r: (r.place, r.seat))
    teams = []
    for r in people:
        old = before.get(str(r.user_id))
        teams.append([MODEL.rating(mu=old.mu, sigma=old.sigma) if old else MODEL.rating()])
    rated = MODEL.rate(teams, ranks=[float(r.place) for r in people])
    after = []
    for r, (new,) in zip(people, rated):
        old = before.get(str(r.user_id))
        after.append(RatingRow(guild_id=str(r.guild_id), game=r.game, user_id=str(r.user_id),
                               mu=float(new.mu), sigma=float(new.sigma), games=(old.games if old else 0) + 1,
                               wins=(old.wins if old else 0) + (r.place == 1)))
    return after


async def apply_ratings(tx: Tx, rows: list[ResultRow], at: float) -> list[RatingRow]:
    """Rate one counted game in the caller's transaction."""
    guild, game = str(rows[0].guild_id), rows[0].game
    before = await tx.ratings_of(guild, game, (str(r.user_id) for r in rows if r.user_id))
    after = rate(rows, before)
    for rating in after:
        await tx.put_rating(rating, rows[0].game_id, at)
    return after


class BoardLine(BaseModel):
    rank: int
    user_id: str
    name: str
    rating: float  # mu − 3σ
    sigma: float
    games: int
    wins: int
    trend: float | None = None  # the change of the shown rating over the last games, if any


class Leaderboard(BaseModel):
    guild_id: str
    game: str
    lines: list[BoardLine] = Field(default_factory=list)


class TitleRecord(BaseModel):
    game: str
    games: int
    wins: int
    average_place: float
    best_total: int
    records: dict[str, Any] = Field(default_factory=dict)  # the game's record_stats: the best of each
    rating: float | None = None


class Opponent(BaseModel):
    user_id: str
    name: str
    games: int
    ahead: int  # games the player finished above them


class Profile(BaseModel):
    user_id: str
    name: str
    titles: list[TitleRecord] = Field(default_factory=list)
    opponents: list[Opponent] = Field(default_factory=list)

    @property
    def games(self) -> int:
        return sum(t.games for t in self.titles)


class Results:
    """Results kept as games finish; ratings, leaderboards and profiles built on them."""

    def __init__(self, core: Core) -> None:
        self.core = core

    async def record(self, tx: Tx, ld: Loaded, seats: list[SeatRow], result: Result, now: float) -> None:
        """The finishing commit's part: the result, and the server's ratings if it counts."""
        rows = with_forfeits(result_rows(ld, seats, result, now), await tx.forfeits(ld.row.id))
        await tx.record_results(rows)
        if ld.row.guild_id is not None and counts(rows, await tx.rating_rules(ld.row.guild_id)):
            await apply_ratings(tx, rows, now)

    async def set_rules(self, guild_id: str, *, enabled: bool, with_bots: bool = False) -> RatingRules:
        """Start or stop keeping the server's ratings (the adapter checks the caller may
        manage the server). Games finished while ratings were off count once `rebuild` runs."""
        async with self.core.store.write() as tx:
            return await tx.set_rating_rules(guild_id, enabled=enabled, with_bots=with_bots, now=self.core.clock())

    async def rules(self, guild_id: str) -> RatingRules | None:
        async with self.core.store.read() as tx:
            return await tx.rating_rules(guild_id)

    @retries_conflicts
    async def rebuild(self, guild_id: str) -> int:
        """Recompute the server's ratings from the stored results (filling in those of games
        finished before results were kept); returns how many games were rated."""
        await self._fill_in(guild_id)
        async with self.core.store.write() as tx:
            rules = await tx.rating_rules(guild_id)
            await tx.clear_ratings(guild_id)
            games: dict[int, list[ResultRow]] = {}
            for row in await tx.results_of_guild(guild_id):
                games.setdefault(row.game_id, []).append(row)
            rated = 0
            for rows in games.values():  # in the order the games finished
                if counts(rows, rules):
                    await apply_ratings(tx, rows, rows[0].finished_at)
                    rated += 1
            return rated

    async def _fill_in(self, guild_id: str | None) -> None:
        """The results of finished games that have none, read from their stored state."""
        while True:
            async with self.core.store.read() as tx:
                missing = await tx.unrecorded_results(guild_id)
            if not missing:
                return
            for game_id in missing:
                ld, _ = await self.core.read_id(game_id)
                result = ld.game.result(ld.state)
                if result is None:
                    log.error("game %s is finished but its state has no result", game_id)
                    return
                at = ld.row.last_move_at or ld.row.updated_at
                async with self.core.store.write() as tx:
                    await tx.record_results(result_rows(ld, ld.seats, result, at))

    async def leaderboard(self, guild_id: str, game: str, limit: int = 15) -> Leaderboard:
        async with self.core.store.read() as tx:
            ratings = await tx.leaderboard(guild_id, game, limit)
            names = await tx.display_names([r.user_id for r in ratings])
            trends = {r.user_id: await tx.rating_trend(guild_id, game, r.user_id, 6) for r in ratings}
        lines = []
        for rank, r in enumerate(ratings, start=1):
            trend = trends[r.user_id]
            change = (trend[-1][0] - 3 * trend[-1][1]) - (trend[0][0] - 3 * trend[0][1]) if len(trend) > 1 else None
            lines.append(BoardLine(rank=rank, user_id=r.user_id, name=names.get(r.user_id, r.user_id),
                                   rating=r.shown, sigma=r.sigma, games=r.games, wins=r.wins, trend=change))
        return Leaderboard(guild_id=guild_id, game=game, lines=lines)

    async def profile(self, guild_id: str | None, user_id: str) -> Profile:
        """A player's games by title (in one server, or everywhere), wins, average place, best
        scores, the game's own records, and the people they played most."""
        async with self.core.store.read() as tx:
            rows = await tx.results_of_player(user_id, guild_id)
            others = [r.user_id for r in rows if r.user_id and r.user_id != user_id]
            names = await tx.display_names([user_id, *others])
            ratings = {}
            if guild_id is not None:
                for game in {r.game for r in rows}:
                    mine = await tx.ratings_of(guild_id, game, [user_id])
                    if user_id in mine:
                        ratings[game] = mine[user_id].shown
        by_game: dict[int, list[ResultRow]] = defaultdict(list)
        for row in rows:
            by_game[row.game_id].append(row)
        titles: dict[str, list[ResultRow]] = defaultdict(list)
        met: Counter[str] = Counter()
        ahead: Counter[str] = Counter()
        for seats in by_game.values():
            mine = next((r for r in seats if r.user_id == user_id), None)
            if mine is None:
                continue
            titles[mine.game].append(mine)
            for other in seats:
                if other.user_id and other.user_id != user_id:
                    met[other.user_id] += 1
                    ahead[other.user_id] += mine.place < other.place
        records = []
        for game, mine_rows in sorted(titles.items(), key=lambda kv: -len(kv[1])):
            best: dict[str, Any] = {}
            for stat in self._record_stats(game):
                values = [r.stats.get(stat) for r in mine_rows if isinstance(r.stats.get(stat), (int, float))]
                if values:
                    best[stat] = max(values)
            records.append(TitleRecord(
                game=game, games=len(mine_rows), wins=sum(r.place == 1 for r in mine_rows),
                average_place=sum(r.place for r in mine_rows) / len(mine_rows),
                best_total=max(r.total for r in mine_rows), records=best, rating=ratings.get(game)))
        opponents = [Opponent(user_id=u, name=names.get(u, u), games=n, ahead=ahead[u])
                     for u, n in sorted(met.items(), key=lambda kv: (-kv[1], kv[0]))[:3]]
        return Profile(user_id=user_id, name=names.get(user_id, user_id), titles=records, opponents=opponents)

    @staticmethod
    def _record_stats(game: str) -> Iterable[str]:
        try:
            return registry.get(game).record_stats
        except registry.UnknownGame:
            return ()  # a title this version no longer has: its other figures still show

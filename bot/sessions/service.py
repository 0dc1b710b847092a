"""The sessions service: lobby, moves, undo, bots, timers — everything but Discord.

One object for the callers (the Discord adapter, the CLI, the bench), made of parts that each
do one job and are given the parts they use when they are made:

    core        Core        bot/sessions/core.py: the store, the clock, loading a game
    movers      Movers      movers.py: who moves without being asked (forced moves, standing orders)
    results     Results     results.py: finished games' results, ratings, leaderboards, profiles (core)
    commit      Commit      commit.py: the one commit of a change to a running game (core, movers, results)
    lobbies     Lobby       lobby.py: open, join, leave, seat bots, start (core, commit)
    moves       Moves       moves.py: a click or a move, bots' and forced moves, undo, records (core, commit, movers)
    orders      Orders      orders.py: standing orders, and the moves they make (core, commit, movers)
    automatic   Automatic   automatic.py: the automatic moves until a person is needed (core, moves, orders, movers)
    leagues     Leagues     leagues.py: leagues, their rounds' tables and standings (core, lobbies)
    host        HostTools   host_tools.py: abandon, kick, settings, preferences (core, commit, lobbies)
    looking     Looking     looking.py: status, private views, history (core)
    people      People      people.py: a person's hours, away time, digest, games followed; their DMs (core, looking)
    timers      Timers      timers.py: reminders, deadlines, lapses, the bots' timers (core, commit, movers, moves)
    retention   Retention   retention.py: idle lobbies closed, closed games' leftovers dropped (core, commit)

The service's own methods are the parts' public methods, bound here under the names the
callers use.
"""
from __future__ import annotations

import time
from typing import Callable

from bot.sessions.automatic import Automatic
from bot.sessions.commit import Commit
from bot.sessions.core import Core
from bot.sessions.host_tools import HostTools
from bot.sessions.leagues import Leagues
from bot.sessions.lobby import Lobby
from bot.sessions.looking import Looking
from bot.sessions.movers import Movers
from bot.sessions.people import People
from bot.sessions.moves import Moves
from bot.sessions.orders import Orders
from bot.sessions.results import Results
from bot.sessions.retention import Retention
from bot.sessions.timers import Timers
from bot.store import CLAIM_LEASE, StoreBackend


class SessionService:
    """Railyard's application core (see the parts for what each method does)."""

    def __init__(
        self,
        store: StoreBackend,
        clock: Callable[[], float] = time.time,
        *,
        new_seed: Callable[[], int] | None = None,
        lease: float = CLAIM_LEASE,
    ) -> None:
        core = self.core = Core(store, clock, new_seed=new_seed, lease=lease)
        self.store, self.clock, self.deliveries = core.store, core.clock, core.deliveries
        movers = self.movers = Movers(core)
        results = self.results = Results(core)
        commit = self.commit = Commit(core, movers, results)
        lobbies = self.lobbies = Lobby(core, commit)
        moves = self.moves = Moves(core, commit, movers)
        orders = self.orders = Orders(core, commit, movers)
        automatic = self.automatic = Automatic(core, moves, orders, movers)
        leagues = self.leagues = Leagues(core, lobbies)
        host = self.host = HostTools(core, commit, lobbies)
        looking = self.looking = Looking(core)
        people = self.people = People(core, looking)
        timers = self.timers = Timers(core, commit, movers, moves)
        retention = self.retention = Retention(core, commit)

        # the lobby
        self.create, self.join, self.leave = lobbies.create, lobbies.join, lobbies.leave
        self.add_bot, self.remove_bot = lobbies.add_bot, lobbies.remove_bot
        self.start, self.autostart, self.rematch = lobbies.start, lobbies.autostart, lobbies.rematch
        # moves
        self.click, self.act, self.undo = moves.click, moves.act, moves.undo
        self.step_bot, self.step_forced = moves.step_bot, moves.step_forced
        self.current_state, self.rebuild = moves.current_state, moves.rebuild
        self.record, self.export = moves.record, moves.export
        self.run_bots, self.step_automatic = automatic.run_bots, automatic.step_automatic
        # standing orders
        self.orders_of, self.set_order = orders.orders_of, orders.set_order
        self.cancel_order, self.clear_orders = orders.cancel_order, orders.clear_orders
        self.step_order = orders.step_order
        # the host's tools, a user's preferences
        self.abandon, self.kick, self.settings = host.abandon, host.kick, host.settings
        self.user_prefs, self.set_user_prefs = host.user_prefs, host.set_user_prefs
        # a person's own pace across their games
        self.set_user_hours, self.set_away, self.end_away = people.set_hours, people.set_away, people.end_away
        self.set_digest, self.due_returns, self.due_digests = people.set_digest, people.due_returns, people.due_digests
        self.follow, self.unfollow = people.follow, people.unfollow
        # looking
        self.lobby, self.status, self.private_view = looking.lobby, looking.status, looking.private_view
        self.history, self.games_waiting_on = looking.history, looking.games_waiting_on
        # timers
        self.due_reminders, self.run_deadlines = timers.due_reminders, timers.run_deadlines
        self.run_lapses, self.due_bots = timers.run_lapses, timers.due_bots
        # results and ratings
        self.rating_rules, self.set_rating_rules, self.rebuild_ratings = results.rules, results.set_rules, results.rebuild
        self.leaderboard, self.profile = results.leaderboard, results.profile
        # leagues
        self.create_league, self.leagues_of, self.league = leagues.create, leagues.leagues, leagues.info
        self.join_league, self.leave_league, self.set_league_card = leagues.join, leagues.leave, leagues.set_card
        self.plan_round, self.open_table, self.league_standings = leagues.plan_round, leagues.open_table, leagues.standings
        # retention
        self.expire_lobbies, self.archive_logs = retention.expire_lobbies, retention.archive_logs
        self.forget_live_boards = retention.forget_live_boards


__all__ = ["SessionService"]

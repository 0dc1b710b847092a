"""Galactic Railway bots: one that goes for points, and a random one for fuzzing.

The scorer decides from its own view, which lists every legal placement with the station and
loop points it would score (the view never shows the pile below its top). It takes the
placement that scores most; between equals it prefers the one that joins most track (success
edges make networks and future loops), then a station tile kept back for a bigger network
later. A second tile is placed only when it scores.
"""
from __future__ import annotations

import random
from typing import Any

from games.core.ai import RandomBot
from games.ginga.board import board_of
from games.ginga.models import GingaView, Place, Stop
from games.ginga.notation import parse_action
from games.ginga.tiles import tileset


class ScoringBot:
    name = "scorer"

    def choose(self, game: Any, state: Any, seat: int, rng: random.Random) -> Any:
        view: GingaView = game.view(state, seat)
        if not view.options:
            legal = game.legal_actions(state, seat)
            if not legal:
                raise ValueError(f"seat {seat} has no legal action")
            return legal[0]
        best = max(o.points for o in view.options)
        if view.step == "second" and best <= 0:
            return Stop()
        top = [o for o in view.options if o.points == best]
        if len(top) == 1:
            return parse_action(top[0].notation)
        from games.ginga.scoring import placed_key

        board = board_of(placed_key(state))
        tiles = tileset()

        def rank(option) -> tuple:
            action = parse_action(option.notation)
            tile = tiles.tiles[action.tile]
            successes, _ = board.check(tile, action.x, action.y, action.orient)
            keep_station = best == 0 and not tile.station  # save station tiles for later
            return (successes, keep_station, rng.random())

        choice = max(top, key=rank)
        action = parse_action(choice.notation)
        assert isinstance(action, Place)
        return action


BOTS = {"scorer": ScoringBot(), "random": RandomBot()}

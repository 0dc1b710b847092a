"""The robber (CE-B4): moved by the roller after a 7, or by a knight played (CE-B3), to another
land hex; it robs one card from a player with a building there who holds any."""
from __future__ import annotations

from typing import Any

from games.core.errors import IllegalAction
from games.core.events import Event
from games.core.rng import SeededRng
from games.catan_express import cards as deck
from games.catan_express import economy
from games.catan_express.cards import KINDS, PlayerCards
from games.catan_express.components import DevCard
from games.catan_express.models import CatanState, Menu, PlayerState, Robber
from games.catan_express.phases.facts import (can_play, card_refusal, card_time, dv, elsewhere, ev, holdings,
                                              store)
from games.catan_express.phases.moves import land_label_set, land_labels, robber


def moves(state: CatanState, seat: int, knight: bool) -> list[Robber]:
    d = dv(state)
    players = state.players
    # Each hex's moves follow from the buildings and who holds cards: made once for those,
    # the robber's own hex left out as it moves.
    key = ("robber", seat, knight, tuple([any(p.hand) for p in players]))
    by_label = d.memo.get(key)
    if by_label is None:
        by_hex = d.by_hex()
        by_label = []
        for lab in land_labels(state.map_id, state.options.layout, state.seed):
            victims = _victims(players, seat, by_hex.get(lab, ()))
            by_label.append((lab, [robber(lab, v, knight) for v in victims] if victims
                             else [robber(lab, None, knight)]))
        d.memo[key] = by_label
    at = state.robber
    out: list[Robber] = []
    for lab, found in by_label:
        if lab != at:
            out += found
    return out


def menu(state: CatanState, seat: int) -> Menu:
    return Menu.of("robber", moves(state, seat, knight=False))


def refusal(state: CatanState, seat: int, a: Robber) -> IllegalAction | None:
    phase = state.phase
    knight = a.knight
    if knight:
        problem = card_refusal(state, seat, DevCard.KNIGHT)
        if problem is not None:
            return problem
    if not (phase == "robber" or (knight and phase in ("roll", "main"))):
        return elsewhere(state)
    if a.hex not in land_label_set(state.map_id, state.options.layout, state.seed):
        # Only a land hex's label as printed: the notation writes those, and a label written
        # otherwise ("c3") would be stored as typed and then match no hex when it produces.
        return IllegalAction("catan_express.robber_on_land", hex=a.hex)
    if a.hex == state.robber:
        return IllegalAction("catan_express.robber_must_move")
    victims = _victims(state.players, seat, dv(state).by_hex().get(a.hex, ()))
    when = card_time(state) and can_play(state, seat, DevCard.KNIGHT) if knight else phase == "robber"
    if when and (a.victim in victims if victims else a.victim is None):
        return None
    if a.victim is None:
        return IllegalAction("catan_express.robber_must_rob", seats=list(victims))
    if victims:
        return IllegalAction("catan_express.cannot_rob", victim_seat=a.victim)
    return IllegalAction("catan_express.nobody_to_rob", hex=a.hex)


def move(game: Any, s: CatanState, seat: int, a: Robber, events: list[Event]) -> bool:
    if a.knight:
        p = s.own(seat)
        cards, played = PlayerCards(seat, tuple(p.dev), tuple(p.dev_new), p.played_card, p.knights).play(
            DevCard.KNIGHT)
        p.dev, p.played_card, p.knights = list(cards.held), True, cards.knights
        p.dev_cards -= 1
        p.played = bumped(p.played, KINDS.index(DevCard.KNIGHT))
        events += played
        holder, la = deck.largest_army(s.largest_army, {i: q.knights for i, q in enumerate(s.players)}, seat)
        s.largest_army = holder
        events += la
    s.robber = a.hex
    events.append(ev("robber_moved", seat=seat, at=a.hex))
    if a.victim is not None:
        rng = SeededRng(s.seed, s.draws, "ce.rob")
        s.draws += 1
        out = economy.rob(holdings(s), seat, a.victim, a.hex, dv(s).by_hex(), rng)
        store(s, out.holdings)
        events += out.events
    if s.phase == "robber":
        s.phase = "main"
    return False


def bumped(counts: list[int], i: int) -> list[int]:
    """A new list of counts with one more at `i` (states share lists; see CatanState.fork)."""
    out = list(counts)
    out[i] += 1
    return out


def _victims(players: list[PlayerState], thief: int, on_hex: Any) -> tuple[int, ...]:
    """economy.robbable from the stored hands: others on the hex holding a card."""
    return tuple(sorted({s for s, _ in on_hex if s != thief and any(players[s].hand)}))

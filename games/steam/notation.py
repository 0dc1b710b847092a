"""Text notation for Steam moves, and their words.

    bid 5 | pass                         a turn-order auction; pass also ends a delivery round's turn
    capital 3                            standard game: three $5 steps of income for cash
    take engineer | decline urbanize     an action tile; basic game: take City Growth or Urbanize declined
    build C7 22 r3                       a tile face (tile list ids: 21…47, T11…T43) turned 3 steps clockwise
    upgrade C7 42 r0 | redirect C7 23 r1 over a tile (ST-6) / the last tile of an incomplete link (ST-5)
    urbanize D5 gray 3                   a new city tile on a town, with the cubes of supply space 3 (0: none left)
    grow C7 3                            City Growth with the cubes of supply space 3
    done                                 end one's building turn
    deliver red C7-E9-G9                 a cube by the places it passes (delivery.notation)
    locomotive                           raise the locomotive instead of delivering
    income | points                      where this delivery's points go (ST-9)

Hexes are the map's labels (column letters, row number). Parsing takes any case and extra spaces
and raises IllegalAction("unparsable") on anything else.
"""
from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from games.core.errors import IllegalAction
from games.core.events import Event
from games.core.vocabulary import Vocabulary
from games.steam.models import (ACTION_TILES, COLOURS, Bid, Capital, Deliver, Done, Grow, Pass, Place, Score, Take,
                                Upgrade, Urbanize)

_HEX = r"([a-z]{1,2}\d{1,2})"
_PATTERNS = [
    (re.compile(r"^bid\s+(\d{1,4})$"), lambda m: Bid(amount=int(m[1]))),
    (re.compile(r"^pass$"), lambda m: Pass()),
    (re.compile(r"^capital\s+(\d{1,2})$"), lambda m: Capital(steps=int(m[1]))),
    (re.compile(r"^(take|decline)\s+([a-z_]+)$"), lambda m: Take(tile=m[2], decline=m[1] == "decline")),
    (re.compile(rf"^(build|upgrade|redirect)\s+{_HEX}\s+(t?\d\d)\s+r([0-5])$"),
     lambda m: Place(how=m[1], hex=m[2].upper(), face=m[3].upper(), rotation=int(m[4]))),
    (re.compile(rf"^urbanize\s+{_HEX}\s+([a-z]+)\s+(\d{{1,2}})$"),
     lambda m: Urbanize(hex=m[1].upper(), colour=m[2], space=int(m[3]))),
    (re.compile(rf"^grow\s+{_HEX}\s+(\d{{1,2}})$"), lambda m: Grow(hex=m[1].upper(), space=int(m[2]))),
    (re.compile(r"^done$"), lambda m: Done()),
    (re.compile(r"^deliver\s+([a-z]+)\s+([a-z0-9\-\[\]]+)$"), lambda m: Deliver(colour=m[1], route=_route(m[2]))),
    (re.compile(r"^(locomotive|loco)$"), lambda m: Upgrade()),
    (re.compile(r"^(income|points)$"), lambda m: Score(into=m[1])),
]


def _route(text: str) -> str:
    return "-".join(part.upper() for part in text.split("-"))


def format_action(action: Any) -> str:
    if isinstance(action, Bid):
        return f"bid {action.amount}"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Capital):
        return f"capital {action.steps}"
    if isinstance(action, Take):
        return f"{'decline' if action.decline else 'take'} {action.tile}"
    if isinstance(action, Place):
        return f"{action.how} {action.hex} {action.face} r{action.rotation}"
    if isinstance(action, Urbanize):
        return f"urbanize {action.hex} {action.colour} {action.space}"
    if isinstance(action, Grow):
        return f"grow {action.hex} {action.space}"
    if isinstance(action, Done):
        return "done"
    if isinstance(action, Deliver):
        return f"deliver {action.colour} {action.route}"
    if isinstance(action, Upgrade):
        return "locomotive"
    if isinstance(action, Score):
        return action.into
    raise TypeError(f"not a Steam move: {action!r}")


def parse_action(text: str) -> Any:
    if not isinstance(text, str) or len(text) > 200:
        raise IllegalAction("unparsable", text=str(text)[:60])
    clean = " ".join(text.strip().lower().split())
    for pattern, make in _PATTERNS:
        found = pattern.match(clean)
        if found:
            try:
                action = make(found)
            except ValidationError:  # well-formed words with an impossible value ("grow C7 0")
                break
            if isinstance(action, Take) and action.tile not in ACTION_TILES:
                break
            if isinstance(action, (Urbanize, Deliver)) and action.colour not in COLOURS:
                break
            return action
    raise IllegalAction("unparsable", text=text[:60])


# --- words ---------------------------------------------------------------------------------

def tile_words(tile: str) -> dict[str, Any]:
    return {"key": f"steam.tile.{tile}"}


def colour_words(colour: str) -> dict[str, Any]:
    return {"key": f"steam.colour.{colour}"}


def describe(game: Any, state: Any, seat: int, action: Any) -> Event:
    """Words for a move `seat` could make now (button labels, autocomplete)."""
    if isinstance(action, Bid):
        return Event(key="steam.act.bid", params={"amount": action.amount})
    if isinstance(action, Pass):
        key = "steam.act.pass_delivery" if state.phase == "deliver" else "steam.act.pass_bid"
        return Event(key=key)
    if isinstance(action, Capital):
        return Event(key="steam.act.capital", params={"steps": action.steps, "amount": action.steps * 5,
                                                      "income": state.players[seat].income - action.steps})
    if isinstance(action, Take):
        key = "steam.act.decline" if action.decline else "steam.act.take"
        return Event(key=key, params={"tile": tile_words(action.tile)})
    if isinstance(action, Place):
        return Event(key=f"steam.act.{action.how}", params={"hex": action.hex, "face": action.face,
                                                            "rotation": action.rotation})
    if isinstance(action, Urbanize):
        return Event(key="steam.act.urbanize", params={"hex": action.hex, "colour": colour_words(action.colour),
                                                       "space": action.space})
    if isinstance(action, Grow):
        return Event(key="steam.act.grow", params={"hex": action.hex, "space": action.space})
    if isinstance(action, Done):
        return Event(key="steam.act.done")
    if isinstance(action, Deliver):
        return Event(key="steam.act.deliver", params={"colour": colour_words(action.colour), "route": action.route})
    if isinstance(action, Upgrade):
        return Event(key="steam.act.locomotive", params={"level": state.players[seat].locomotive + 1})
    if isinstance(action, Score):
        points = state.pending[0][1] if state.pending else 0
        return Event(key=f"steam.act.score_{action.into}", params={"points": points})
    raise TypeError(f"not a Steam move: {action!r}")


# Words people type for the notation's words (English synonyms and Japanese).
WORDS = {
    "入札": "bid", "パス": "pass", "資本金": "capital", "取る": "take", "辞退": "decline", "建設": "build",
    "改良": "upgrade", "方向転換": "redirect", "都市化": "urbanize", "都市成長": "grow", "終了": "done",
    "輸送": "deliver", "機関車": "locomotive", "収入": "income", "勝利点": "points", "finish": "done",
    "赤": "red", "青": "blue", "黄": "yellow", "紫": "purple", "灰": "gray", "grey": "gray",
}
NAMES = {
    "手番順": "turn_order", "優先輸送": "first_deliver", "エンジニア": "engineer", "優先建設": "first_build",
    "turn order": "turn_order", "first deliver": "first_deliver", "first build": "first_build",
    "city growth": "city_growth",
}


def vocabulary() -> Vocabulary:
    names = dict(NAMES)
    for tile in ACTION_TILES:
        names[tile] = tile
    return Vocabulary(names=names, words=WORDS)

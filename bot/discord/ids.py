"""Custom ids of Railyard's buttons and selects: restart-proof, because they carry everything
a click needs to find its game again in the database.

    ry:<game_id>:<version>:<verb>[:<arg>]          at most 100 characters (Discord's limit)

* `game_id` — the games table row; a click in a channel whose open game is another one (the
  game ended, a new one started) is a stale click.
* `version` — the game's version when the message was drawn. Buttons that act on the public
  board (`act`, `claim`, the route and payment selects) are refused with "the board changed"
  when it moved on. Lobby buttons carry 0: the lobby message is edited in place after every
  change, and the service itself refuses a second join, a start outside the lobby, etc.
  `hand` and `log` are not checked: they always show the current state.
  The private ticket choice (`keep`) is not version-checked either: it names the tickets
  offered to that one player, which nobody else can change, so a simultaneous choice by
  another player must not make it stale. For the same reason a private choice made while
  others choose at the same time (`pick`, e.g. Santa Fe's secret card) is not checked
  against the version but against the decision it was drawn for (its arg: the game UI's
  `decision_key`, e.g. "choose.3" for the card choice of round 3).
* `verb` / `arg`:
    buttons  act:<notation>   play this move (e.g. `ry:12:40:act:draw red`)
             hand             show my hand (ephemeral)
             claim            open the private route/payment selects
             join[:<target>], leave, bot[:<target>], start   lobby (target: auto-start size)
             log:<page>       page through /game log
    selects  keep             keep the chosen tickets (values: ticket ids)
             route:<n>        the n-th select of claimable routes (values: route id)
             pay:<n>          the n-th select of payments (values: move notation)
             pick:<key>       a private simultaneous choice (values: move notation, or what
                              the game UI's `pick_notation` turns into one)
"""
from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "ry"
MAX_LENGTH = 100
BUTTON_VERBS = ("act", "hand", "claim", "join", "leave", "bot", "start", "log")
SELECT_VERBS = ("keep", "route", "pay", "pick")


def _template(verbs: tuple[str, ...]) -> str:
    return (rf"{PREFIX}:(?P<gid>[0-9]{{1,19}}):(?P<ver>[0-9]{{1,19}}):(?P<verb>{'|'.join(verbs)})"
            r"(?::(?P<arg>.+))?")


BUTTON_TEMPLATE = _template(BUTTON_VERBS)
SELECT_TEMPLATE = _template(SELECT_VERBS)
_ANY = re.compile(_template(BUTTON_VERBS + SELECT_VERBS), re.DOTALL)


class CustomIdTooLong(ValueError):
    pass


@dataclass(frozen=True)
class ComponentId:
    game_id: int
    version: int
    verb: str
    arg: str | None = None

    def __str__(self) -> str:
        text = f"{PREFIX}:{self.game_id}:{self.version}:{self.verb}"
        if self.arg is not None:
            text += f":{self.arg}"
        if len(text) > MAX_LENGTH:
            raise CustomIdTooLong(text)
        return text

    @classmethod
    def parse(cls, custom_id: str) -> "ComponentId | None":
        match = _ANY.fullmatch(custom_id)
        if match is None:
            return None
        return cls.from_match(match)

    @classmethod
    def from_match(cls, match: re.Match[str]) -> "ComponentId":
        return cls(int(match["gid"]), int(match["ver"]), match["verb"], match["arg"])


def make_id(game_id: int, version: int, verb: str, arg: str | None = None) -> str:
    return str(ComponentId(game_id, version, verb, arg))


def fits(game_id: int, version: int, verb: str, arg: str | None = None) -> bool:
    try:
        make_id(game_id, version, verb, arg)
    except CustomIdTooLong:
        return False
    return True

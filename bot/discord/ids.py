"""Custom ids of Railyard's buttons and selects: restart-proof, because they carry everything
a click needs to find its game again in the database.

    ry:<game_id>:<version>:<verb>[:<arg>]          at most 100 characters (Discord's limit)

An id names *what* was clicked, never what the clicker may do: a client can send any id, so
every right (whose seat, the host's, the lobby's size, a legal move) is checked against the
stored game by the service and the rules, and an id's arg is only ever a choice to validate,
a page to clamp or a staleness check.

* `game_id` — the games table row; a click in a channel whose open game is another one (the
  game ended, a new one started) is a stale click ("that game has ended").
* `version` — the game's version when the message was drawn. The chooser's components say
  in their arg whether the version is checked (see bot/discord/chooser.py): a menu that any
  move makes stale is refused with "the board changed" when the game moved on; a decision
  with a key of its own (a simultaneous or secret choice) is checked against its key
  instead, so another player's move never makes it stale. Lobby and log buttons carry 0:
  the lobby message is edited in place after every change, and the service itself refuses
  a second join, a start outside the lobby, etc. `hand` is not version-checked: it always
  shows the current state (only while its game is the channel's open one).
* `verb` / `arg`, and what decides whether the click may do it:
    buttons  cb:<check>:<path>[:<n>]   pick option n of the clicker's own menu at the stop
                              reached by <path> (without n: open the menu there); the rules
                              accept or refuse the move it makes for the clicker's seat
             cp:<check>:<path>:<page>  another page of the options at that stop
             ca:<check>::<n>  the n-th amount of the menu (opens a modal)
             hand             show my hand (ephemeral; the clicker's own seat only)
             join, leave, bot, start
                              the lobby; the service checks the seat and the host's rights.
                              A lobby opened with `players: n` starts itself when n seats
                              are taken: n is stored with the lobby, never in an id (an arg
                              on these verbs, as older lobbies drew, is ignored)
             log:<page>       page through /game log (clamped to the pages there are)
             rematch[:thread] the final post's Rematch (bot/sessions/lobby.py Lobby.rematch),
                              with `thread` in a new thread of the channel
             lj, lv           Join / Leave on a league's sign-up card: <game_id> is the
                              league's id there (bot/discord/leagues.py); the service checks
                              the league is the clicking server's and still takes sign-ups
             ob:<check>:<path>[:<n>], op:<check>:<path>:<page>, oa:<check>::<n>
                              the same as cb / cp / ca in the clicker's menu of standing
                              orders (/orders, bot/discord/orders.py): the pick *sets* an
                              order, which the service checks against the rules' menu again
             ox:all           cancel all of the clicker's standing orders
             ox:<i>:<8 hex>   cancel the clicker's i-th order, if it is still the one whose
                              notation hashes to <8 hex> (a used-up or changed list makes the
                              click stale: the current list is shown instead)
             ct:<check>::<n>:<tally>   the n-th group of the menu shown with the picks
                              <tally> (a + / − / Start over button); cd:<check>::<n>:<tally>
                              makes its move with those picks (Confirm); the rules check
                              the move as any other (see bot/discord/chooser.py)
             ot:…, od:…       the same as ct / cd in the menu of standing orders
    selects  cs:<check>:<path> the option picked at that stop (value: its number)
             cg:<check>::<n>  the n-th multi-pick group of the menu (values: option numbers;
                              the group's bounds are checked again); with `:<tally>:<side>`,
                              the picks of one side of it, shown again with the others
             os:<check>:<path>, og:<check>::<n>
                              the same as cs / cg in the menu of standing orders
  Verbs of earlier versions (act, claim, keep, route, pay, pick) are still recognised so an
  old post's button says it is out of date instead of failing.
  Selects, pages and log pages live on ephemeral messages and replace them; on any other
  message they are answered with a new ephemeral one, so a click never rewrites a public post.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "ry"
MAX_LENGTH = 100
LEGACY_BUTTON_VERBS = ("act", "claim")
LEGACY_SELECT_VERBS = ("keep", "route", "pay", "pick")
ORDER_BUTTON_VERBS = ("ob", "op", "ot", "od", "oa", "oq", "ox")
ORDER_SELECT_VERBS = ("os", "og")
ORDER_VERBS = ORDER_BUTTON_VERBS + ORDER_SELECT_VERBS
LEAGUE_VERBS = ("lj", "lv")
REMATCH_IN_THREAD = "thread"  # the arg of "rematch" that opens it in a new thread
BUTTON_VERBS = ("cb", "cp", "ct", "cd", "ca", "cq", "cr", "hand", "join", "leave", "bot", "start", "log", "rematch",
                *LEAGUE_VERBS,
                *ORDER_BUTTON_VERBS,
                *LEGACY_BUTTON_VERBS)
SELECT_VERBS = ("cs", "cg", *ORDER_SELECT_VERBS, *LEGACY_SELECT_VERBS)


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

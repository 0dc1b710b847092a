"""The one chooser: any game's decision (games/core/choices.py) as Discord components.

The rules describe what a seat may choose, step by step; this module draws it and reads the
clicks back, for every game alike. A game's Discord module only says how things look (the
emoji for a pick's icon); it adds no custom id and parses no notation.

Components (custom ids `ry:<game>:<version>:<verb>:<check>:<path>[:<n>]`, see ids.py):

    cb  button       pick option <n> at the stop reached by <path>; without <n>, open the
                     chooser at that stop (the "Choose…" button of a secret decision)
    cs  select       the same, the option being the select's value (<n>: which select of
                     the page, so that each has an id of its own)
    cp  button       show page <n> of the options at that stop
    cg  multi-select group <n> of the decision; values are item numbers
    ca  button       amount <n> of the decision (opens a modal; the modal's id is `cm`)

`<path>` lists, dot-joined, the option numbers picked at each stop where the person was
asked (steps with a single option are taken without asking and are not in it; the walk
in games/core/choices.py takes them again). Numbers, not values, keep ids short: the menu
they index is the same menu as long as the `<check>` holds —

    v            the menu goes stale with any move: the id's version must be the game's;
    k<8 hex>     the decision has a key of its own (a simultaneous or secret choice): the key
                 must be the same, whatever others did meanwhile (the version is not checked);
    o            "open my menu" (a public post's way into a private menu): names no option,
                 checks nothing, shows the clicker's menu as it is now.

A forged or stale id can only name an option of the clicker's *own* current menu, which the
rules then check again: ids name what was clicked, never grant anything.

The same drawing serves the menu of standing orders (`Game.order_choices`, see
bot/discord/orders.py) under verbs of its own (`ORDER_VERBS`: ob, os, op, og, oa), so a
pick there sets an order instead of making a move.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Protocol, Sequence

import discord

from bot.discord.refusals import StaleClick
from bot.discord.text import LABEL_MAX, OPTION_TEXT_MAX, clip, event_text, t
from bot.discord.ui.components import Row, button, option, selects
from bot.sessions import PublicMenu
from games.core.choices import Decision, Pick, Stop
from games.core.errors import IllegalAction

BUTTONS_AT_MOST = 5  # a step with more options becomes a select
PUBLIC_BUTTONS_AT_MOST = 10  # the public turn post: two rows of quick taps
SELECTS_PER_PAGE = 4  # one row is left for paging
OPTIONS_PER_SELECT = 25
OPTIONS_PER_PAGE = SELECTS_PER_PAGE * OPTIONS_PER_SELECT


@dataclass(frozen=True)
class Verbs:
    """The custom-id verbs a drawn menu uses: a move's menu or the standing orders' one."""

    button: str
    select: str
    page: str
    group: str
    amount: str


MOVE_VERBS = Verbs(button="cb", select="cs", page="cp", group="cg", amount="ca")
ORDER_VERBS = Verbs(button="ob", select="os", page="op", group="og", amount="oa")


class Look(Protocol):
    """What a game's presentation tells the chooser."""

    def emoji(self, icon: str | None) -> str | None: ...


def check_of(decision: Decision) -> str:
    return check_for(decision.key)


def check_for(key: str | None) -> str:
    """`v` for a version-checked menu, else `k` and 8 hex of the decision's key."""
    if key is None:
        return "v"
    return "k" + hashlib.sha1(key.encode("utf-8")).hexdigest()[:8]


@dataclass(frozen=True)
class Ref:
    """A chooser id's argument, read back: `<check>:<path>[:<n>]`."""

    check: str
    path: tuple[int, ...]
    n: int | None = None

    def arg(self) -> str:
        text = f"{self.check}:{'.'.join(map(str, self.path))}"
        return text if self.n is None else f"{text}:{self.n}"

    @classmethod
    def parse(cls, arg: str | None) -> "Ref":
        parts = (arg or "").split(":")
        try:
            check, path = parts[0], parts[1]
            numbers = tuple(int(p) for p in path.split(".") if p)
            n = int(parts[2]) if len(parts) > 2 and parts[2] != "" else None
        except (IndexError, ValueError):
            raise StaleClick(ended=False) from None
        if len(parts) > 3 or not (check in ("v", "o") or (check.startswith("k") and len(check) == 9)):
            raise StaleClick(ended=False)
        return cls(check, numbers, n)


def verify(ref: Ref, decision: Decision, id_version: int, game_version: int) -> None:
    """Raise StaleClick when the menu the id was drawn from is not the clicker's menu now.
    `o` ("open my menu", on public posts) checks nothing: it names no option."""
    if ref.check == "o" and not ref.path and ref.n is None:
        return
    if ref.check != check_of(decision):
        raise StaleClick()
    if ref.check == "v" and id_version != game_version:
        raise StaleClick()


def picked_number(values: Sequence[str]) -> int:
    """The one option index a select or button sent back; a forged or empty value is refused."""
    if len(values) != 1 or not values[0].isdigit():
        raise IllegalAction("choice.not_offered")
    return int(values[0])


def group_notation(decision: Decision, n: int | None, values: Sequence[str]) -> str:
    """The move a multi-pick makes: group `n`'s items at the indexes sent back (the rules check
    the bounds again when the move is played)."""
    if n is None or not 0 <= n < len(decision.groups):
        raise IllegalAction("choice.not_offered")
    group = decision.groups[n]
    picked = []
    for value in values:
        index = picked_number([value])
        if not 0 <= index < len(group.items):
            raise IllegalAction("choice.not_offered")
        picked.append(group.items[index].value)
    return group.notation(picked)


def path_and_page(ref: Ref, values: Sequence[str], *, picked: bool, paging: bool) -> tuple[list[int], int]:
    """Where a click leads in a menu: the path of option indexes (a select's pick, or the
    button's own index, appended to the path the id carries) and the page of options shown."""
    path = list(ref.path)
    if picked:
        return path + [picked_number(values)], 0
    if paging:
        return path, ref.n or 0
    return (path + [ref.n] if ref.n is not None else path), 0


def walk(decision: Decision, path: Sequence[int]) -> Stop:
    """Replay option numbers picked at each asked stop. A number out of range (a forged id or
    a menu that changed) is refused like any pick that is not on offer."""
    stop = decision.walk([])
    for number in path:
        if stop.move is not None or not 0 <= number < len(stop.options):
            raise IllegalAction("choice.not_offered")
        stop = decision.walk([*stop.picks, stop.options[number].value])
    return stop


# ------------------------------------------------------------------------------ drawing
def stop_rows(game_id: int, version: int, check: str, path: Sequence[int], options: Sequence[Pick],
              step: str | None, look: Look, lang: str, *, page: int = 0,
              buttons_at_most: int = BUTTONS_AT_MOST, verbs: Verbs = MOVE_VERBS,
              names: Sequence[str] | None = None) -> list[Row]:
    """The options of one stop: buttons when few, else selects (25 options each, paged).
    `names` turns seat parameters in the labels ("trade with {seat}") into players' names."""
    if len(options) <= buttons_at_most:
        return _button_rows([
            button(game_id, version, verbs.button, Ref(check, tuple(path), i).arg(),
                   label=clip(event_text(lang, o.label, names), LABEL_MAX), emoji=look.emoji(o.icon))
            for i, o in enumerate(options)
        ])
    pages = max(1, -(-len(options) // OPTIONS_PER_PAGE))
    page = max(0, min(page, pages - 1))
    first = page * OPTIONS_PER_PAGE
    chunk = options[first:first + OPTIONS_PER_PAGE]
    rows: list[Row] = []
    for start in range(0, len(chunk), OPTIONS_PER_SELECT):
        part = chunk[start:start + OPTIONS_PER_SELECT]
        entries = [option(event_text(lang, o.label, names), str(first + start + i),
                          clip(event_text(lang, o.detail, names), OPTION_TEXT_MAX) if o.detail else None,
                          emoji=look.emoji(o.icon)) for i, o in enumerate(part)]
        low, high = first + start + 1, first + start + len(part)
        placeholder = t(lang, step or "choice.step.move")
        if len(options) > OPTIONS_PER_SELECT:
            placeholder = f"{placeholder} ({low}–{high} / {len(options)})"
        # each select of a page gets its own id (the last number: which select it is)
        rows.append(selects(game_id, version, verbs.select, entries, placeholder=placeholder, numbered=False,
                            arg=Ref(check, tuple(path), start // OPTIONS_PER_SELECT).arg()))
    if pages > 1:
        nav: Row = []
        if page > 0:
            nav.append(button(game_id, version, verbs.page, Ref(check, tuple(path), page - 1).arg(),
                              label=t(lang, "discord.choose.previous"), emoji="◀️"))
        if page < pages - 1:
            nav.append(button(game_id, version, verbs.page, Ref(check, tuple(path), page + 1).arg(),
                              label=t(lang, "discord.choose.next"), emoji="▶️"))
        rows.append(nav)
    return rows


def decision_rows(game_id: int, version: int, decision: Decision, look: Look, lang: str, *,
                  public: bool = False, verbs: Verbs = MOVE_VERBS,
                  names: Sequence[str] | None = None) -> list[Row]:
    """Everything a decision offers at its start: the first step's options, one multi-select
    per group, one button per amount."""
    check = check_of(decision)
    rows: list[Row] = []
    if decision.choices:
        first = decision.walk([])
        rows += stop_rows(game_id, version, check, (), first.options, first.step, look, lang,
                          buttons_at_most=PUBLIC_BUTTONS_AT_MOST if public else BUTTONS_AT_MOST,
                          verbs=verbs, names=names)
    for n, group in enumerate(decision.groups):
        entries = [option(event_text(lang, item.label, None), str(i),
                          clip(event_text(lang, item.detail, None), OPTION_TEXT_MAX) if item.detail else None,
                          emoji=look.emoji(item.icon)) for i, item in enumerate(group.items)]
        placeholder = t(lang, group.step)
        if group.min == group.max:
            placeholder = f"{placeholder} ({group.min})"
        else:
            placeholder = f"{placeholder} ({group.min}–{group.max})"
        rows.append(selects(game_id, version, verbs.group, entries, placeholder=placeholder, numbered=False,
                            min_values=max(1, group.min), max_values=group.max,
                            arg=Ref(check, (), n).arg()))
    for n, amount in enumerate(decision.amounts):
        rows.append([button(game_id, version, verbs.amount, Ref(check, (), n).arg(),
                            label=clip(event_text(lang, amount.label, None), LABEL_MAX),
                            style=discord.ButtonStyle.primary)])
    return rows


def public_rows(game_id: int, version: int, menu: PublicMenu | None, look: Look, lang: str) -> list[Row]:
    """A public turn post's part of the menu: the first step of the one waited-on seat's
    decision as quick taps, and a way into the private menu when choosing is secret, when
    several seats choose at once, or when the decision has more than steps (groups, amounts)."""
    if menu is None:
        return []
    check = check_for(menu.key)
    rows: list[Row] = []
    if menu.options:
        rows += stop_rows(game_id, version, check, (), menu.options, menu.options[0].step, look, lang,
                          buttons_at_most=PUBLIC_BUTTONS_AT_MOST)
    if not menu.options or menu.more:
        # A secret choice is opened privately; its check is the clicker's own, so a "v"
        # here would make the entry stale for every seat but one: open by the clicker's menu.
        rows.append([open_button(game_id, version, lang)])
    return rows


def open_button(game_id: int, version: int, lang: str) -> discord.ui.Item | None:
    """"Choose…": shows the clicker's whole menu as it is when clicked, privately."""
    return button(game_id, version, "cb", Ref("o", ()).arg(), label=t(lang, "discord.choose.open"),
                  emoji="🔒", style=discord.ButtonStyle.primary)


def small_rows(game_id: int, version: int, decision: Decision, look: Look, lang: str, *,
               names: Sequence[str] | None = None) -> list[Row]:
    """A short way back into a decision, for a player whose click came from a menu that went
    stale: the decision itself when it is one step of a few buttons, else "Choose…" alone."""
    first = decision.walk([]) if decision.choices else None
    if (first is not None and 0 < len(first.options) <= BUTTONS_AT_MOST
            and not decision.groups and not decision.amounts):
        return decision_rows(game_id, version, decision, look, lang, names=names)
    return [[open_button(game_id, version, lang)]]


def picked_text(decision: Decision, stop: Stop, lang: str, names: Sequence[str] | None = None) -> list[str]:
    """What was picked so far, one line a step ("Which route? — Kansas City–Omaha"): the
    picks are the start of some choice's path, which holds their words."""
    made = list(stop.picks)
    choice = next((c for c in decision.choices if [p.value for p in c.path[:len(made)]] == made), None)
    if choice is None:
        return []
    return [f"{t(lang, p.step)} — **{event_text(lang, p.label, names)}**" for p in choice.path[:len(made)]]


def _button_rows(items: list[discord.ui.Item | None]) -> list[Row]:
    present = [i for i in items if i is not None]
    return [present[i:i + 5] for i in range(0, len(present), 5)]

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
    cg  multi-select group <n> of the decision; values are option numbers (see `copies`)
    ct  button       group <n> with the picks <tally> (`cg:<check>::<n>:<tally>:<side>` is a
                     side's select that changes the tally): shows the group so picked
    cd  button       make group <n>'s move with the picks <tally>
    ca  button       amount <n> of the decision (opens a modal; the modal's id is `cm`)
    cq  button       amount <n> of the decision at the value <tally> (a quick amount: the
                     minimum and a few steps above it, so a bid needs no typing)
    cr  button       region <n> of the place options at that stop (bot/discord/picking.py):
                     its pick picture and options; without <n>, the regions again

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

A group (several items picked together, an item maybe several times) is drawn side by side
(what is given, what is got): a side whose picks fit one select is a multi-select with one
option per card (three ore held: three "ore" options, pick two to give two), quick to tick on
a phone; a bigger side is a row of "+ item" buttons (and "− item" ones) that change the count.
A group of one side drawn as one select is made by that select at once, as a person expects
of a list of cards to tick. Any other group shows what is picked so far and a Confirm button,
greyed until the picks are a move. The picks so far travel in the ids (`<tally>`, one
character a count, see `TALLY`), so nothing is kept between clicks.

The same drawing serves the menu of standing orders (`Game.order_choices`, see
bot/discord/orders.py) under verbs of its own (`ORDER_VERBS`: ob, os, op, og, ot, od, oa, oq, or), so a
pick there sets an order instead of making a move.
"""
from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from typing import Mapping, Protocol, Sequence

import discord

from bot.discord.refusals import StaleClick
from bot.discord.text import LABEL_MAX, OPTION_TEXT_MAX, clip, event_text, t
from bot.discord.ui.components import MAX_ROWS, Row, button, option, selects
from bot.sessions import PublicMenu
from games.core.choices import Amount, Decision, Group, Pick, Stop
from games.core.errors import IllegalAction
from games.core.events import Event

BUTTONS_AT_MOST = 5  # a step with more options becomes a select
PUBLIC_BUTTONS_AT_MOST = 10  # the public turn post: two rows of quick taps
NAMED_AT_MOST = 10  # options named as players know them (cities) get a pick picture beyond this many
SELECTS_PER_PAGE = 4  # one row is left for paging
OPTIONS_PER_SELECT = 25
OPTIONS_PER_PAGE = SELECTS_PER_PAGE * OPTIONS_PER_SELECT
TALLY = "0123456789abcdefghijklmnopqrstuvwxyz"  # a group's picks in an id: one character a count
COUNT_MOST = len(TALLY) - 1  # no item is offered more often than one character can count


@dataclass(frozen=True)
class Verbs:
    """The custom-id verbs a drawn menu uses: a move's menu or the standing orders' one."""

    button: str
    select: str
    page: str
    group: str
    tally: str
    done: str
    amount: str
    quick: str
    region: str


MOVE_VERBS = Verbs(button="cb", select="cs", page="cp", group="cg", tally="ct", done="cd", amount="ca", quick="cq",
                   region="cr")
# Orders name no places, so their menu never shows regions ("or" is reserved, not routed).
ORDER_VERBS = Verbs(button="ob", select="os", page="op", group="og", tally="ot", done="od", amount="oa",
                    quick="oq", region="or")
# The quick amounts beside an amount's "…" button, in steps above its minimum: the minimum
# raise, +1, +2, +5 (the modal stays for any other amount).
QUICK_STEPS = (0, 1, 2, 5)


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
    """A chooser id's argument, read back: `<check>:<path>[:<n>[:<tally>[:<side>]]]`."""

    check: str
    path: tuple[int, ...]
    n: int | None = None
    tally: str | None = None  # a group's picks so far (TALLY characters); a quick amount's value (cq)
    side: int | None = None   # which side of the group a select sets

    def arg(self) -> str:
        parts = [self.check, ".".join(map(str, self.path))]
        if self.n is not None or self.tally is not None:
            parts.append("" if self.n is None else str(self.n))
        if self.tally is not None:
            parts.append(self.tally)
            if self.side is not None:
                parts.append(str(self.side))
        return ":".join(parts)

    @classmethod
    def parse(cls, arg: str | None) -> "Ref":
        parts = (arg or "").split(":")
        try:
            check, path = parts[0], parts[1]
            numbers = tuple(int(p) for p in path.split(".") if p)
            n = int(parts[2]) if len(parts) > 2 and parts[2] != "" else None
            tally = parts[3] if len(parts) > 3 else None
            side = int(parts[4]) if len(parts) > 4 else None
        except (IndexError, ValueError):
            raise StaleClick(ended=False) from None
        if len(parts) > 5 or not (check in ("v", "o") or (check.startswith("k") and len(check) == 9)):
            raise StaleClick(ended=False)
        if tally is not None and not all(c in TALLY for c in tally):
            raise StaleClick(ended=False)
        return cls(check, numbers, n, tally, side)


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


# ------------------------------------------------------------------------------ groups
def group_of(decision: Decision, n: int | None) -> Group:
    if n is None or not 0 <= n < len(decision.groups):
        raise IllegalAction("choice.not_offered")
    return decision.groups[n]


def copies(group: Group, counts: Sequence[int], side: int) -> list[int]:
    """A side's options as a multi-select: one per card, each the index of the item it stands
    for, an item as often as it may be picked (an exclusive group leaves out what another
    side picked). Drawing and reading a select both list them so, from the same tally."""
    part, a, b = group.sides()[side]
    limits = group.limits()
    taken = {group.items[i].value for s, (_, x, y) in enumerate(group.sides()) if s != side
             for i in range(x, y) if counts[i]} if group.exclusive else set()
    out: list[int] = []
    for i in range(a, b):
        if group.items[i].value not in taken:
            out += [i] * min(limits[i], max(part.max, 1), COUNT_MOST)
    return out


def as_select(group: Group, counts: Sequence[int], side: int) -> bool:
    """Whether a side is drawn as one multi-select (else as + / − buttons)."""
    return len(copies(group, counts, side)) <= OPTIONS_PER_SELECT


def at_once(group: Group) -> bool:
    """A group of one side drawn as one select: ticking it makes the move, no Confirm."""
    return len(group.sides()) == 1 and as_select(group, [0] * len(group.items), 0)


def tally_text(counts: Sequence[int]) -> str:
    return "".join(TALLY[min(max(c, 0), COUNT_MOST)] for c in counts)


def read_tally(group: Group, text: str | None) -> list[int]:
    """The picks an id carries; one that does not fit the group's items is not on offer."""
    if text is None or len(text) != len(group.items):
        raise IllegalAction("choice.not_offered")
    counts = [TALLY.index(c) for c in text]
    if any(c > m for c, m in zip(counts, group.limits())):
        raise IllegalAction("choice.not_offered")
    return counts


@dataclass(frozen=True)
class GroupPick:
    """Where a click in a group leads: the move it makes, or the picks to show."""

    move: str | None
    counts: list[int]


def group_pick(decision: Decision, ref: Ref, values: Sequence[str], *, select: bool, done: bool) -> GroupPick:
    """Read a click in group `ref.n`: a select's options (a whole group at once, or one side of
    the tally), a + / − / Start over button (the tally it leads to), or Confirm (the move).
    The rules check the move again when it is played."""
    group = group_of(decision, ref.n)
    if ref.tally is None:  # a group made at once by its one select
        if not select or not at_once(group):
            raise IllegalAction("choice.not_offered")
        return GroupPick(move=group.notation_of(_picked(group, [0] * len(group.items), 0, values)), counts=[])
    counts = read_tally(group, ref.tally)
    if select:
        if ref.side is None or not 0 <= ref.side < len(group.sides()):
            raise IllegalAction("choice.not_offered")
        counts = _picked(group, counts, ref.side, values)
    if done:
        return GroupPick(move=group.notation_of(counts), counts=counts)
    return GroupPick(move=None, counts=counts)


def _picked(group: Group, counts: Sequence[int], side: int, values: Sequence[str]) -> list[int]:
    """`counts` with one side's picks replaced by the options a select sent back."""
    options = copies(group, counts, side)
    chosen = [picked_number([v]) for v in values]
    if len(set(chosen)) != len(chosen) or any(not 0 <= k < len(options) for k in chosen):
        raise IllegalAction("choice.not_offered")
    _, a, b = group.sides()[side]
    out = list(counts)
    out[a:b] = [0] * (b - a)
    for k in chosen:
        out[options[k]] += 1
    return out


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
              names: Sequence[str] | None = None, shown: Sequence[int] | None = None,
              numbers: Mapping[int, int] | None = None) -> list[Row]:
    """The options of one stop: buttons when few, else selects (25 options each, paged).
    `names` turns seat parameters in the labels ("trade with {seat}") into players' names.
    `shown`: the indexes of the options to draw, in that order (all by default; a region of a
    pick picture); `numbers`: an option's number in the pick picture, put before its label."""
    indexes = list(range(len(options))) if shown is None else list(shown)

    def words(i: int) -> str:
        text = event_text(lang, options[i].label, names)
        return f"{numbers[i]} · {text}" if numbers is not None and i in numbers else text

    if len(indexes) <= buttons_at_most:
        return _button_rows([
            button(game_id, version, verbs.button, Ref(check, tuple(path), i).arg(),
                   label=clip(words(i), LABEL_MAX), emoji=look.emoji(options[i].icon))
            for i in indexes
        ])
    pages = max(1, -(-len(indexes) // OPTIONS_PER_PAGE))
    page = max(0, min(page, pages - 1))
    first = page * OPTIONS_PER_PAGE
    chunk = indexes[first:first + OPTIONS_PER_PAGE]
    rows: list[Row] = []
    for start in range(0, len(chunk), OPTIONS_PER_SELECT):
        part = chunk[start:start + OPTIONS_PER_SELECT]
        entries = [option(words(i), str(i),
                          clip(event_text(lang, options[i].detail, names), OPTION_TEXT_MAX)
                          if options[i].detail else None,
                          emoji=look.emoji(options[i].icon)) for i in part]
        low, high = first + start + 1, first + start + len(part)
        placeholder = t(lang, step or "choice.step.move")
        if len(indexes) > OPTIONS_PER_SELECT:
            placeholder = f"{placeholder} ({low}–{high} / {len(indexes)})"
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


def group_rows(game_id: int, version: int, check: str, n: int, group: Group, counts: Sequence[int] | None,
               look: Look, lang: str, *, verbs: Verbs = MOVE_VERBS, names: Sequence[str] | None = None) -> list[Row]:
    """Group `n` with the picks `counts` (None: none yet): each side as a select of cards or
    as + / − buttons, then Confirm and Start over unless one select makes the move."""
    if at_once(group):
        return [_side_select(game_id, version, check, n, group, None, 0, look, lang, verbs, names)]
    counts = list(counts) if counts is not None else [0] * len(group.items)
    sides: list[tuple[list[Row], list[Row]]] = []  # per side: its picks, its "−" buttons
    for side in range(len(group.sides())):
        if as_select(group, counts, side):
            select = _side_select(game_id, version, check, n, group, counts, side, look, lang, verbs, names)
            sides.append(([select], []))
        else:
            sides.append(_side_buttons(game_id, version, check, n, group, counts, side, look, lang, verbs, names))
    # Discord shows five rows: the last is Confirm's; "−" buttons go first when rows run short
    # (a "+" button goes back to none after the most, so every count stays reachable)
    fewer = sum(len(more) + len(less) for more, less in sides) <= MAX_ROWS - 1
    rows: list[Row] = [row for more, less in sides for row in (more + less if fewer else more)]
    finished = group.problem(counts) is None
    done = button(game_id, version, verbs.done, Ref(check, (), n, tally_text(counts)).arg(),
                  label=t(lang, "discord.choose.confirm"), emoji="✅", style=discord.ButtonStyle.success,
                  disabled=not finished)
    clear = button(game_id, version, verbs.tally, Ref(check, (), n, tally_text([0] * len(counts))).arg(),
                   label=t(lang, "discord.choose.clear"), emoji="↩️") if any(counts) else None
    rows.append([done, clear])
    return rows


def _bounds(part_min: int, part_max: int) -> str:
    return f"({part_min})" if part_min == part_max else f"({part_min}–{part_max})"


def _side_select(game_id: int, version: int, check: str, n: int, group: Group, counts: Sequence[int] | None,
                 side: int, look: Look, lang: str, verbs: Verbs, names: Sequence[str] | None) -> list:
    """One side as a multi-select of cards; with `counts` None, the whole group picked at once
    (its id carries no tally, its options are the group's own)."""
    part, _, _ = group.sides()[side]
    shown = list(counts) if counts is not None else [0] * len(group.items)
    options = copies(group, shown, side)
    seen: Counter[int] = Counter()
    entries = []
    for k, i in enumerate(options):
        seen[i] += 1
        item = group.items[i]
        entries.append(option(event_text(lang, item.label, names), str(k),
                              clip(event_text(lang, item.detail, names), OPTION_TEXT_MAX) if item.detail else None,
                              emoji=look.emoji(item.icon), default=seen[i] <= shown[i]))
    if counts is None:
        low, high = group.min, group.max
        arg = Ref(check, (), n).arg()
    else:
        low, high = part.min, part.max
        arg = Ref(check, (), n, tally_text(counts), side).arg()
    placeholder = f"{t(lang, part.step if group.parts else group.step)} {_bounds(low, high)}"
    return selects(game_id, version, verbs.group, entries, placeholder=placeholder, numbered=False,
                   min_values=max(1, low) if counts is None else low, max_values=min(high, len(entries)), arg=arg)


def _side_buttons(game_id: int, version: int, check: str, n: int, group: Group, counts: Sequence[int],
                  side: int, look: Look, lang: str, verbs: Verbs,
                  names: Sequence[str] | None) -> tuple[list[Row], list[Row]]:
    """One side as a "+ item" button per item (after the most it may be picked, back to none),
    and a "− item" button per item picked: (the "+" rows, the "−" rows)."""
    _, a, b = group.sides()[side]
    offered = sorted(set(copies(group, counts, side)))
    limits = group.limits()

    def to(i: int, change: int) -> str:
        after = list(counts)
        after[i] = (after[i] + change) % (min(limits[i], COUNT_MOST) + 1)
        return Ref(check, (), n, tally_text(after)).arg()

    def words(i: int) -> str:
        return event_text(lang, group.items[i].label, names)

    more = [button(game_id, version, verbs.tally, to(i, 1), label=t(lang, "discord.choose.add", item=words(i)),
                   emoji=look.emoji(group.items[i].icon),
                   style=discord.ButtonStyle.primary if counts[i] else discord.ButtonStyle.secondary)
            for i in offered]
    fewer = [button(game_id, version, verbs.tally, to(i, -1), label=t(lang, "discord.choose.remove", item=words(i)),
                    emoji=look.emoji(group.items[i].icon)) for i in range(a, b) if counts[i]]
    return _button_rows(more), _button_rows(fewer)


def group_lines(group: Group, counts: Sequence[int] | None, lang: str,
                names: Sequence[str] | None = None) -> list[str]:
    """The group's question, then what is picked so far, a line a side ("You give… ore ×2,
    brick")."""
    lines = ["👉 " + t(lang, group.step)]
    if at_once(group):
        return lines
    counts = counts if counts is not None else [0] * len(group.items)
    for part, a, b in group.sides():
        picked = [event_text(lang, Event(key="choice.counted", params={
            "item": group.items[i].label.model_dump(mode="json", exclude={"to"}), "count": counts[i]}), names)
                  for i in range(a, b) if counts[i]]
        shown = ", ".join(picked) if picked else t(lang, "discord.choose.nothing")
        lines.append(f"{t(lang, part.step)} **{shown}**")
    return lines


def decision_rows(game_id: int, version: int, decision: Decision, look: Look, lang: str, *,
                  public: bool = False, verbs: Verbs = MOVE_VERBS,
                  names: Sequence[str] | None = None, first_rows: list[Row] | None = None) -> list[Row]:
    """Everything a decision offers at its start: the first step's options (with the entries
    of groups shown apart; `first_rows` when they are drawn already, with their pick picture),
    each other group, one button per amount."""
    check = check_of(decision)
    rows: list[Row] = []
    first = decision.first_step()
    if first_rows is not None:
        rows += first_rows
    elif first:
        rows += stop_rows(game_id, version, check, (), first, first[0].step, look, lang,
                          buttons_at_most=PUBLIC_BUTTONS_AT_MOST if public else BUTTONS_AT_MOST,
                          verbs=verbs, names=names)
    for n, group in enumerate(decision.groups):
        if group.entry is None:
            rows += group_rows(game_id, version, check, n, group, None, look, lang, verbs=verbs, names=names)
    for n, amount in enumerate(decision.amounts):
        rows.append([*_quick_buttons(game_id, version, check, n, amount, verbs),
                     button(game_id, version, verbs.amount, Ref(check, (), n).arg(),
                            label=clip(event_text(lang, amount.label, None), LABEL_MAX),
                            style=discord.ButtonStyle.primary)])
    return rows


def _quick_buttons(game_id: int, version: int, check: str, n: int, amount: Amount, verbs: Verbs) -> Row:
    return [button(game_id, version, verbs.quick, Ref(check, (), n, str(value)).arg(), label=str(value),
                   style=discord.ButtonStyle.success) for value in quick_amounts(amount)]


def quick_amounts(amount: Amount) -> list[int]:
    """The values offered as buttons beside an amount's modal: QUICK_STEPS above its minimum,
    those within its bounds."""
    return [amount.min + k * amount.step_by for k in QUICK_STEPS if amount.min + k * amount.step_by <= amount.max]


def quick_notation(decision: Decision, ref: Ref) -> str:
    """The move a quick amount button (`cq`, `oq`) makes; IllegalAction for one the decision
    does not offer (a forged value is refused like a typed one)."""
    if ref.n is None or not 0 <= ref.n < len(decision.amounts) or not (ref.tally or "").isdigit():
        raise IllegalAction("choice.not_offered")
    return decision.amounts[ref.n].notation(int(ref.tally or ""))


def on_board(options: Sequence[Pick]) -> bool:
    """Whether a step's options are picked on a pick picture (bot/discord/picking.py): at least
    two are places, and, when their labels already name them as players know them (`named`:
    cities, routes between two cities), more than NAMED_AT_MOST of them."""
    placed = [o.place for o in options if o.place is not None]
    if len(placed) < 2:
        return False
    if all(p.named for p in placed):
        return len(placed) > NAMED_AT_MOST
    return True


def public_rows(game_id: int, version: int, menu: PublicMenu | None, look: Look, lang: str, *,
                on_map: list[Row] | None = None) -> list[Row]:
    """A public turn post's part of the menu: the first step of the one waited-on seat's
    decision as quick taps, and a way into the private menu when choosing is secret, when
    several seats choose at once, or when the decision has more than steps (groups, amounts).
    Options picked on the board are not listed publicly: `on_map` holds the buttons that open
    their pictures privately (bot/discord/picking.public_rows); without it, "Choose…" does."""
    if menu is None:
        return []
    check = check_for(menu.key)
    rows: list[Row] = []
    pictured = on_board(menu.options)
    if on_map is not None:
        rows += on_map
        pictured = False
    elif menu.options:
        shown = [i for i, o in enumerate(menu.options) if not (pictured and o.place is not None)]
        rows += stop_rows(game_id, version, check, (), menu.options, menu.options[0].step, look, lang,
                          buttons_at_most=PUBLIC_BUTTONS_AT_MOST, shown=shown) if shown else []
    for n, amount in enumerate(menu.amounts):  # the usual amounts in one tap; any other in the private menu
        rows.append(_quick_buttons(game_id, version, check, n, amount, MOVE_VERBS))
    if not menu.options or menu.more or pictured:
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
    if stop.group is not None:
        return group_heading(decision, stop.group, lang, names)
    choice = next((c for c in decision.choices if [p.value for p in c.path[:len(made)]] == made), None)
    if choice is None:
        return []
    return [f"{t(lang, p.step)} — **{event_text(lang, p.label, names)}**" for p in choice.path[:len(made)]]


def group_heading(decision: Decision, n: int, lang: str, names: Sequence[str] | None = None) -> list[str]:
    """The first-step pick that opened group `n` ("What do you do? — Offer a trade"), if any."""
    entry = decision.groups[n].entry
    return [f"{t(lang, entry.step)} — **{event_text(lang, entry.label, names)}**"] if entry is not None else []


def _button_rows(items: list[discord.ui.Item | None]) -> list[Row]:
    present = [i for i in items if i is not None]
    return [present[i:i + 5] for i in range(0, len(present), 5)]

"""Every decision a seat faces, described as data by the rules.

A person does not type `claim Kansas City-Omaha/2 green+1`: they pick a route, then a way to
pay. The rules know which routes and payments are legal, what they are called and whether
choosing is secret, so the rules describe the decision and one shared chooser (in the
Discord adapter, or any other front end) presents it without parsing notation or looking
inside a game's models.

A `Decision` holds three kinds of entries, and every legal move of the seat is reachable
through exactly one of them:

* `Choice` — a move reached by a *path* of picks made in order (route → payment; railroad →
  section → end; tile → placement; later hex → tile → rotation). Choices that share the
  first picks share those steps of the menu. A step where only one value remains is taken
  without asking once the person has started down a path (`Decision.walk`).
* `Group` — pick between `min` and `max` of a set of items at once (keep 1–3 tickets;
  discard half your cards). An item may be picked up to `most` times (four ore), and the
  items may be split into `parts` that each fill one blank of the template (what is given,
  what is got). The move's notation is the template filled with the picks in item order,
  so one set has one spelling. A group shown apart from the first step has an `entry`: an
  option of the first step that opens it ("Offer a trade").
* `Amount` — a whole number within bounds (a bid), filled into a template.

A counted group can hold very many moves (every offer a big hand can make), so it is not
listed blindly: `Group.count(limit)` counts up to a limit, `Group.members` yields them one by
one, `Group.counts_of` reads a notation back, and `Group.edges` and `Group.sample` give the
picks at and just beyond each bound and random picks, from which a conformance check holds a
group to the rules without listing it.

`key` names the decision for stale-click checks. A decision that other seats' moves cannot
change (a simultaneous secret choice, a ticket choice) has a key of its own, so one seat's
move never makes another seat's menu stale; `None` means "any move of the game makes it
stale" and the front end checks the game's version instead.
"""
from __future__ import annotations

import random
import re
from itertools import islice
from typing import Iterator, Sequence

from pydantic import BaseModel, ConfigDict, Field, model_validator

from games.core.errors import IllegalAction
from games.core.events import Event

VALUE_MAX = 40  # a pick's value travels in component ids and select values (100 chars each)
LISTED_AT_MOST = 10_000  # `Decision.all_notations` lists groups up to this size (see TooManyMoves)


PLACE_KINDS = ("hex", "point", "edge", "route", "city", "section", "cell")


class Place(BaseModel):
    """Where on the board a pick is, in the game's own terms, so that a front end can show
    the options of a step on the board instead of listing coordinates.

    `kind` says what it is: a "hex", a "point" (an intersection), an "edge" (a side or spoke),
    a "route" (a path through several places), a "city", a "section" (a stretch of line), a
    "cell" (a table cell or pair of cells). `at` names what it covers, as the game names it
    (a hex "A5"; an edge's two ends; a route's stops in order). Each renderer says where a
    place is in its board image (render.kit.picking).

    `named`: the pick's label already names the place as players know it (a city, a route
    between two cities), so a picture helps only when such options are many. `show`: what
    the pick would put at the place (a tile face and rotation; the points a delivery
    scores), for a picture that draws each option in place; options at one place that
    differ only by what they show are drawn side by side, as are routes that show what they
    score (each on its own board, where lines on one board would cover each other)."""

    model_config = ConfigDict(frozen=True)
    kind: str
    at: tuple[str, ...] = Field(min_length=1)
    named: bool = False
    show: str | None = None

    @model_validator(mode="after")
    def _known(self) -> "Place":
        if self.kind not in PLACE_KINDS:
            raise ValueError(f"place kind {self.kind!r} is not one of {PLACE_KINDS}")
        return self


class Pick(BaseModel):
    """One value at one step: what the person sees (label, detail) and what it stands for.

    `step` is the catalog key of the question the pick answers ("ticket_to_ride.step.route"); `value` is
    short and unique among the options offered at that step; `icon` is a hint a game's
    presentation may turn into an emoji or a colour (a card colour, a railroad letter);
    `place` is where on the board the pick is, when it names a place."""

    model_config = ConfigDict(frozen=True)
    step: str
    value: str = Field(min_length=1, max_length=VALUE_MAX)
    label: Event
    detail: Event | None = None
    icon: str | None = None
    place: Place | None = None


class Choice(BaseModel):
    model_config = ConfigDict(frozen=True)
    notation: str
    path: tuple[Pick, ...] = Field(min_length=1)


class TooManyMoves(ValueError):
    """A group holds more moves than a list should: count, sample or read them back instead."""


class Part(BaseModel):
    """One side of a group (what is given, what is got): the next `size` items of the group,
    of which `min`..`max` picks in all, an item picked twice counting twice."""

    model_config = ConfigDict(frozen=True)
    step: str
    size: int = Field(ge=1)
    min: int = Field(ge=0)
    max: int = Field(ge=0)


class Group(BaseModel):
    """Choose `min`..`max` picks of `items` together; the move is `template` with its "{}"
    filled, part by part, with the picked values joined with `sep`, in the order the items
    are listed.

    `most[i]`: how many times item i may be picked (None: once each). An item picked n times
    is written `counted` filled with n and its value ("{n}{value}": "4ore"), or, without
    `counted`, its value n times ("Denver,Denver"). `parts`: the items split into sides, one
    "{}" each (none: one side of all items, bounded by `min`/`max`); with `exclusive`, a value
    picked on one side may not be picked on another (what is given is not also asked for).
    `entry`: the first-step option that opens the group (None: it is shown beside the first
    step)."""

    model_config = ConfigDict(frozen=True)
    step: str
    items: tuple[Pick, ...] = Field(min_length=1)
    min: int = Field(ge=0)
    max: int = Field(ge=1)
    template: str
    sep: str = ","
    most: tuple[int, ...] | None = None
    counted: str | None = None
    parts: tuple[Part, ...] = ()
    exclusive: bool = False
    entry: Pick | None = None

    @model_validator(mode="after")
    def _fits(self) -> "Group":
        if self.most is not None and len(self.most) != len(self.items):
            raise ValueError(f"group {self.step!r}: {len(self.most)} counts for {len(self.items)} items")
        if self.parts and sum(p.size for p in self.parts) != len(self.items):
            raise ValueError(f"group {self.step!r}: its parts do not cover its {len(self.items)} items")
        if self.template.count("{}") != max(1, len(self.parts)):
            raise ValueError(f"group {self.step!r}: the template needs one {{}} a side")
        return self

    # --- shape
    def limits(self) -> tuple[int, ...]:
        """How many times each item may be picked."""
        return self.most if self.most is not None else (1,) * len(self.items)

    def sides(self) -> list[tuple[Part, int, int]]:
        """Each side with the range of its items: (part, first item, end)."""
        parts = self.parts or (Part(step=self.step, size=len(self.items), min=self.min, max=self.max),)
        out, at = [], 0
        for part in parts:
            out.append((part, at, at + part.size))
            at += part.size
        return out

    # --- writing a pick
    def notation(self, values: Sequence[str]) -> str:
        """The move of a pick given as values, an item picked n times named n times (a group of
        one side). Raises IllegalAction for a value not on offer or counts out of bounds."""
        if self.parts:
            raise ValueError("a group of several parts is picked by counts (notation_of)")
        index = {item.value: i for i, item in enumerate(self.items)}
        counts = [0] * len(self.items)
        for value in values:
            i = index.get(value)
            if i is None:
                raise IllegalAction("choice.not_offered")
            counts[i] += 1
        return self.notation_of(counts)

    def notation_of(self, counts: Sequence[int]) -> str:
        """The move of a pick given as how many times each item is picked."""
        problem = self.problem(counts)
        if problem is not None:
            raise problem
        return self.write(counts)

    def problem(self, counts: Sequence[int]) -> IllegalAction | None:
        """Why `counts` is not a pick of this group (None: it is one)."""
        limits = self.limits()
        if len(counts) != len(self.items) or any(not 0 <= c <= m for c, m in zip(counts, limits)):
            return IllegalAction("choice.not_offered")
        taken: dict[str, int] = {}
        for side, (part, a, b) in enumerate(self.sides()):
            total = sum(counts[a:b])
            if not part.min <= total <= part.max:
                return IllegalAction("choice.pick_count", min=part.min, max=part.max)
            if self.exclusive:
                for i in range(a, b):
                    if counts[i] and taken.setdefault(self.items[i].value, side) != side:
                        return IllegalAction("choice.not_offered")
        if self.parts and not self.min <= sum(counts) <= self.max:
            return IllegalAction("choice.pick_count", min=self.min, max=self.max)
        return None

    def write(self, counts: Sequence[int]) -> str:
        """The notation of `counts`, checked or not (a conformance check also writes picks just
        beyond the bounds, for the rules to refuse)."""
        texts = []
        for _, a, b in self.sides():
            words: list[str] = []
            for i in range(a, b):
                n, value = counts[i], self.items[i].value
                if n <= 0:
                    continue
                if self.counted is None:
                    words += [value] * n
                else:
                    words.append(self.counted.format(n=n, value=value))
            texts.append(self.sep.join(words))
        return self.template.format(*texts)

    # --- reading a move back
    def counts_of(self, notation: str) -> tuple[int, ...] | None:
        """The pick whose move is `notation`, or None when the group cannot make that move."""
        sides = self.sides()
        literal = self.template.split("{}")
        if len(literal) != len(sides) + 1:
            return None
        match = re.fullmatch("(.*?)".join(re.escape(x) for x in literal), notation, re.DOTALL)
        if match is None:
            return None
        token = None
        if self.counted is not None:
            token = re.compile(re.escape(self.counted).replace(r"\{n\}", r"(?P<n>[0-9]+)")
                               .replace(r"\{value\}", r"(?P<value>.+)"), re.DOTALL)
        counts = [0] * len(self.items)
        for (part, a, b), text in zip(sides, match.groups()):
            index = {self.items[i].value: i for i in range(a, b)}
            for word in text.split(self.sep) if text else []:
                n, value = 1, word
                if token is not None:
                    m = token.fullmatch(word)
                    if m is None:
                        return None
                    n, value = int(m["n"]), m["value"]
                i = index.get(value)
                if i is None:
                    return None
                counts[i] += n
        if self.problem(counts) is not None or self.write(counts) != notation:
            return None  # out of bounds, or not the one spelling the group writes
        return tuple(counts)

    # --- every pick, and picks to test with
    def members(self) -> Iterator[tuple[int, ...]]:
        """Every pick of the group, as counts, one at a time."""
        limits = self.limits()
        sides = self.sides()
        side_of = [s for s, (_, a, b) in enumerate(sides) for _ in range(a, b)]
        # what the items after i on i's side could still add (a side too short of its least
        # is left at once, not explored to the end)
        room = [sum(limits[i + 1:b]) for s, (_, a, b) in enumerate(sides) for i in range(a, b)]
        counts = [0] * len(self.items)
        totals = [0] * len(sides)
        holders: dict[str, int] = {}  # value -> the side holding it (exclusive groups)

        def rec(i: int) -> Iterator[tuple[int, ...]]:
            if i == len(counts):
                if not self.parts or self.min <= sum(totals) <= self.max:
                    yield tuple(counts)
                return
            side = side_of[i]
            part = sides[side][0]
            value = self.items[i].value
            blocked = self.exclusive and holders.get(value, side) != side
            top = 0 if blocked else min(limits[i], part.max - totals[side])
            for n in range(top + 1):
                if totals[side] + n + room[i] < part.min:
                    continue
                counts[i] = n
                totals[side] += n
                fresh = n and self.exclusive and value not in holders
                if fresh:
                    holders[value] = side
                yield from rec(i + 1)
                if fresh:
                    del holders[value]
                totals[side] -= n
            counts[i] = 0

        return rec(0)

    def count(self, limit: int | None = None) -> int:
        """How many picks the group has, counting no further than `limit` + 1."""
        found = self.members() if limit is None else islice(self.members(), limit + 1)
        return sum(1 for _ in found)

    def all_notations(self, limit: int = LISTED_AT_MOST) -> list[str]:
        """Every move the group can make; TooManyMoves when there are more than `limit`."""
        picks = list(islice(self.members(), limit + 1))
        if len(picks) > limit:
            raise TooManyMoves(f"group {self.step!r} holds more than {limit} moves")
        return [self.write(p) for p in picks]

    def _fill(self, counts: list[int], side: int, upto: int, skip: int = -1) -> None:
        """Add picks to one side, item by item in order (not `skip`), until it holds `upto`."""
        part, a, b = self.sides()[side]
        limits = self.limits()
        taken = {self.items[i].value for s, (_, x, y) in enumerate(self.sides()) if s != side
                 for i in range(x, y) if counts[i]} if self.exclusive else set()
        for i in range(a, b):
            if i == skip or self.items[i].value in taken:
                continue
            room = min(limits[i] - counts[i], upto - sum(counts[a:b]))
            if room > 0:
                counts[i] += room

    def edges(self) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
        """Picks at the bounds, and picks just beyond them: each item as often as it may be
        picked and once more, each side as full as it may be and one fuller, a value on two
        sides of an exclusive group (the other sides holding their fewest). A rule that allows
        exactly the group's picks allows the first list and refuses the second."""
        limits = self.limits()
        sides = self.sides()
        inside: list[tuple[int, ...]] = []
        outside: list[tuple[int, ...]] = []

        def finish(counts: list[int], keep: int) -> list[int]:
            for s, (part, _, _) in enumerate(sides):
                if s != keep:
                    self._fill(counts, s, part.min)
            return counts

        for s, (part, a, b) in enumerate(sides):
            for i in range(a, b):
                counts = [0] * len(self.items)
                counts[i] = min(limits[i], part.max)
                self._fill(counts, s, part.min, skip=i)
                finish(counts, s)
                if self.problem(counts) is None:
                    inside.append(tuple(counts))
                    beyond = list(counts)
                    beyond[i] += 1
                    outside.append(tuple(beyond))
            full = [0] * len(self.items)
            self._fill(full, s, part.max)
            finish(full, s)
            if self.problem(full) is None:
                inside.append(tuple(full))
                spare = next((i for i in range(a, b) if full[i] < limits[i]), None)
                if spare is not None and sum(full[a:b]) == part.max:
                    fuller = list(full)
                    fuller[spare] += 1
                    outside.append(tuple(fuller))
        if self.exclusive:
            for s, (part, a, b) in enumerate(sides):
                for i in range(a, b):
                    for t, (_, x, y) in enumerate(sides):
                        twin = next((j for j in range(x, y) if t != s and self.items[j].value == self.items[i].value),
                                    None)
                        if twin is not None:
                            counts = [0] * len(self.items)
                            counts[i] = counts[twin] = 1
                            outside.append(tuple(finish(counts, -1)))
        return list(dict.fromkeys(inside)), [c for c in dict.fromkeys(outside) if self.problem(c) is not None]

    def sample(self, rng: random.Random, tries: int = 50) -> tuple[int, ...] | None:
        """A pick drawn at random (not uniformly): each side a random size within its bounds,
        filled one pick at a time on random items. None if no draw lands on a pick."""
        limits = self.limits()
        sides = self.sides()
        for _ in range(tries):
            counts = [0] * len(self.items)
            for s in rng.sample(range(len(sides)), len(sides)):
                part, a, b = sides[s]
                want = rng.randint(part.min, max(part.min, min(part.max, sum(limits[a:b]))))
                for _ in range(want):
                    taken = {self.items[i].value for t, (_, x, y) in enumerate(sides) if t != s
                             for i in range(x, y) if counts[i]} if self.exclusive else set()
                    room = [i for i in range(a, b) if counts[i] < limits[i] and self.items[i].value not in taken]
                    if not room:
                        break
                    counts[rng.choice(room)] += 1
            if self.problem(counts) is None:
                return tuple(counts)
        return None


class Amount(BaseModel):
    """A whole number from `min` to `max` in steps of `step_by`, filled into `template`."""

    model_config = ConfigDict(frozen=True)
    step: str
    label: Event
    min: int
    max: int
    step_by: int = 1
    template: str

    def notation(self, amount: int) -> str:
        if not self.min <= amount <= self.max or (amount - self.min) % self.step_by:
            raise IllegalAction("choice.amount_range", min=self.min, max=self.max)
        return self.template.format(amount)

    def all_notations(self) -> list[str]:
        return [self.template.format(n) for n in range(self.min, self.max + 1, self.step_by)]


class Stop(BaseModel):
    """Where a walk down the choices stands: the picks made (those taken without asking
    included), and either the options of the next step, the finished move, or the group
    (its index in `Decision.groups`) whose entry was picked."""

    picks: tuple[str, ...]
    step: str | None = None
    options: list[Pick] = Field(default_factory=list)
    move: str | None = None
    group: int | None = None


class Decision(BaseModel):
    seat: int
    key: str | None = None
    secret: bool = False  # choosing stays private until a reveal: present it only to the seat
    prompt: Event | None = None
    choices: list[Choice] = Field(default_factory=list)
    groups: list[Group] = Field(default_factory=list)
    amounts: list[Amount] = Field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.choices or self.groups or self.amounts)

    def first_step(self) -> list[Pick]:
        """The options of the first step, one per distinct first value, in the rules' order,
        then the entries of the groups shown apart."""
        options = self._say_where_it_leads([], _distinct([c.path[0] for c in self.choices]))
        return options + [g.entry for g in self.groups if g.entry is not None]

    def entry_group(self, value: str) -> int | None:
        """The index of the group whose entry has this value (None: no such group)."""
        return next((n for n, g in enumerate(self.groups) if g.entry is not None and g.entry.value == value), None)

    def _say_where_it_leads(self, made: list[str], options: list[Pick]) -> list[Pick]:
        """An option whose later steps all have one value makes the whole move when picked
        (the walk takes those steps without asking), so its words must say all of it: "T20"
        alone would place the tile without saying where. Such an option's label becomes
        "<its label> → <the last step's label>" (catalog key `choice.then`)."""
        # One pass over the choices: for each option, how many paths go through it and the
        # last one seen (a build menu has thousands of paths; asking per option was quadratic).
        depth = len(made)
        through: dict[str, int] = {}
        last: dict[str, Choice] = {}
        for choice in self.choices:
            if len(choice.path) > depth and _starts_with(choice, made):
                value = choice.path[depth].value
                through[value] = through.get(value, 0) + 1
                last[value] = choice
        out = []
        for option in options:
            ends = last.get(option.value)
            if through.get(option.value) == 1 and ends is not None and len(ends.path) > depth + 1:
                tail = ends.path[-1]
                option = option.model_copy(update={"label": Event(
                    key="choice.then", params={"first": option.label.model_dump(mode="json", exclude={"to"}),
                                               "then": tail.label.model_dump(mode="json", exclude={"to"})})})
            out.append(option)
        return out

    def walk(self, picks: Sequence[str]) -> Stop:
        """Follow `picks` down the choices. After the first pick, a step with a single
        option is taken without asking; the walk stops at a step with several options or at
        a finished move. Raises IllegalAction("choice.not_offered") for a pick that no legal
        choice has (a forged or stale value)."""
        made = list(picks)
        if not made:
            options = self.first_step()
            if not options:
                raise IllegalAction("choice.not_offered")
            return Stop(picks=(), step=options[0].step, options=options)
        group = self.entry_group(made[0])
        if group is not None:
            if len(made) > 1:
                raise IllegalAction("choice.not_offered")
            return Stop(picks=tuple(made), step=self.groups[group].step, group=group)
        live = [c for c in self.choices if _starts_with(c, made)]
        if not live:
            raise IllegalAction("choice.not_offered")
        while True:
            done = [c for c in live if len(c.path) == len(made)]
            if done:
                # A path that is finished is the move (two choices never share a whole path).
                return Stop(picks=tuple(made), move=done[0].notation)
            options = _distinct([c.path[len(made)] for c in live])
            if len(options) > 1:
                return Stop(picks=tuple(made), step=options[0].step, options=self._say_where_it_leads(made, options))
            made.append(options[0].value)
            live = [c for c in live if c.path[len(made) - 1].value == made[-1]]

    def all_notations(self) -> list[str]:
        """Every move this decision can make: each choice, each group's picks, each amount.
        Raises TooManyMoves for a group too large to list (`holds` answers for any move)."""
        out = [c.notation for c in self.choices]
        for group in self.groups:
            out += group.all_notations()
        for amount in self.amounts:
            out += amount.all_notations()
        return out

    def holds(self, notation: str) -> bool:
        """Whether this decision can make the move `notation`, without listing its groups."""
        return (any(c.notation == notation for c in self.choices)
                or any(g.counts_of(notation) is not None for g in self.groups)
                or any(notation in a.all_notations() for a in self.amounts))


def _starts_with(choice: Choice, picks: Sequence[str]) -> bool:
    return len(choice.path) >= len(picks) and all(p.value == v for p, v in zip(choice.path, picks))


def _distinct(picks: Sequence[Pick]) -> list[Pick]:
    seen: dict[str, Pick] = {}
    for pick in picks:
        seen.setdefault(pick.value, pick)
    return list(seen.values())


def one_step_decision(game: object, state: object, seat: int) -> Decision:
    """The decision any game can describe without knowing more: one pick per legal move,
    labelled by `describe_action`. Games with deeper menus override `Game.decision`."""
    choices = []
    for action in game.legal_actions(state, seat):  # type: ignore[attr-defined]
        notation = game.format_action(action)  # type: ignore[attr-defined]
        label = game.describe_action(state, seat, action)  # type: ignore[attr-defined]
        value = notation if len(notation) <= VALUE_MAX else f"#{len(choices)}"
        choices.append(Choice(notation=notation, path=(Pick(step="choice.step.move", value=value, label=label),)))
    return Decision(seat=seat, prompt=game.prompt(state, seat), choices=choices)  # type: ignore[attr-defined]

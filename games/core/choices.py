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
  discard half your cards). The move's notation is the group's template filled with the
  picked values in item order, so one set has one spelling.
* `Amount` — a whole number within bounds (a bid), filled into a template.

`key` names the decision for stale-click checks. A decision that other seats' moves cannot
change (a simultaneous secret choice, a ticket choice) has a key of its own, so one seat's
move never makes another seat's menu stale; `None` means "any move of the game makes it
stale" and the front end checks the game's version instead.
"""
from __future__ import annotations

from itertools import combinations
from typing import Sequence

from pydantic import BaseModel, ConfigDict, Field

from games.core.errors import IllegalAction
from games.core.events import Event

VALUE_MAX = 40  # a pick's value travels in component ids and select values (100 chars each)


class Pick(BaseModel):
    """One value at one step: what the person sees (label, detail) and what it stands for.

    `step` is the catalog key of the question the pick answers ("ttr.step.route"); `value` is
    short and unique among the options offered at that step; `icon` is a hint a game's
    presentation may turn into an emoji or a colour (a card colour, a railroad letter)."""

    model_config = ConfigDict(frozen=True)
    step: str
    value: str = Field(min_length=1, max_length=VALUE_MAX)
    label: Event
    detail: Event | None = None
    icon: str | None = None


class Choice(BaseModel):
    model_config = ConfigDict(frozen=True)
    notation: str
    path: tuple[Pick, ...] = Field(min_length=1)


class Group(BaseModel):
    """Choose `min`..`max` of `items` together; the move is `template` with "{}" replaced by
    the picked values joined with `sep`, in the order the items are listed."""

    model_config = ConfigDict(frozen=True)
    step: str
    items: tuple[Pick, ...] = Field(min_length=1)
    min: int = Field(ge=0)
    max: int = Field(ge=1)
    template: str
    sep: str = ","

    def notation(self, values: Sequence[str]) -> str:
        order = [item.value for item in self.items]
        picked = set(values)
        if len(picked) != len(values) or not picked <= set(order):
            raise IllegalAction("choice.not_offered")
        if not self.min <= len(picked) <= self.max:
            raise IllegalAction("choice.pick_count", min=self.min, max=self.max)
        return self.template.format(self.sep.join(v for v in order if v in picked))

    def all_notations(self) -> list[str]:
        """Every move the group can make (for conformance checks: groups are small)."""
        values = [item.value for item in self.items]
        return [self.notation(combo) for k in range(max(self.min, 0), self.max + 1)
                for combo in combinations(values, k)]


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
    included), and either the options of the next step or the finished move."""

    picks: tuple[str, ...]
    step: str | None = None
    options: list[Pick] = Field(default_factory=list)
    move: str | None = None


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
        """The options of the first step, one per distinct first value, in the rules' order."""
        return self._say_where_it_leads([], _distinct([c.path[0] for c in self.choices]))

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
        live = [c for c in self.choices if _starts_with(c, made)]
        if not live:
            raise IllegalAction("choice.not_offered")
        while True:
            done = [c for c in live if len(c.path) == len(made)]
            if done:
                # A path that is finished is the move (two choices never share a whole path).
                return Stop(picks=tuple(made), move=done[0].notation)
            options = _distinct([c.path[len(made)] for c in live])
            if len(options) > 1 or not made:
                return Stop(picks=tuple(made), step=options[0].step, options=self._say_where_it_leads(made, options))
            made.append(options[0].value)
            live = [c for c in live if c.path[len(made) - 1].value == made[-1]]

    def all_notations(self) -> list[str]:
        """Every move this decision can make: each choice, each group subset, each amount."""
        out = [c.notation for c in self.choices]
        for group in self.groups:
            out += group.all_notations()
        for amount in self.amounts:
            out += amount.all_notations()
        return out


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

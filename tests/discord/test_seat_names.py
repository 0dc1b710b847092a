"""No text a player reads shows a seat as a bare number.

A seat reaches the catalogs as an index counted from 0; only a param named as a seat
(`games.core.i18n.is_seat_param`: `seat`, `seats`, `..._seat`, `..._seats`) is turned into the
player's name. A seat passed under any other name is printed as the index itself ("accepted 0,
1; refused 2"). So whole games of every title are played by their bots, with distinctive player
names, and every text players can read is formatted from them in English and Japanese: public
and private events, menus (labels, details, prompts), log lines, standing orders, the board,
hand and final images with their alt texts, and the Discord status, hints and hands. Every
param formatted on the way is watched:

* a seat param must be shown as one of the players' names;
* any other param holding a whole number (or a list of them) must be a count or a number that
  is never a seat: an ICU plural argument of some catalog string, or one of `NUMBERS` below.
  A new numeric param that is neither fails here until it is named as a seat or listed.

And no text is left with a placeholder nobody filled ("Robber on {hex}").
"""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from typing import Any, Iterator

import pytest

import games.core.i18n as i18n
from bot.discord.text import event_text
from bot.discord.ui import base as ui_base
from bot.sessions import PrivateView
from games import registry
from games.catalog import entries
from games.core.plural import Plural, parse_template
from render import registry as renderers
from tests.discord.conftest import ALICE, CHANNEL, GUILD, find_id
from tests.discord.test_alt_text import _play_out
from tests.support.bot_games import bot_steps

NAMES = ["Ann Seatname", "Bob Seatname", "Cyd Seatname", "Dee Seatname", "Eve Seatname", "Flo Seatname"]

# Numbers that are never seats and are not plural arguments anywhere (those are counts).
NUMBERS = frozenset({
    # money, prices, income, points, levels
    "amount", "cash", "money", "cost", "cheapest", "price", "minimum", "maximum", "lowest", "owed",
    "income", "before", "after", "score", "level",
    # a tie-break's two figures: the tied players' incomes, tickets or action tiles
    "above", "below",
    # dice, ranks, turns, rounds, orders and positions (1-based ordinals, never seats)
    "a", "b", "sum", "dice", "rank", "turn", "round", "order", "position", "number",
    # board places and pieces named by number: intersections, supply spaces, tokens, rotations
    "point", "space", "token", "rotation", "exits", "value",
    # sizes shown beside others: cards in the deck and discard, what is left or returned
    "deck", "discard", "done", "growth", "longest", "loops", "of", "n", "playable", "rails",
    "ferries", "stops", "tickets", "reshuffled", "returned",
    # the bot's own numbers: a game's id and board version, bounds of a lobby, pages of a log
    "game_id", "version", "min", "max", "page", "pages",
})


def _plural_arguments() -> frozenset[str]:
    found: set[str] = set()

    def walk(parts) -> None:
        for part in parts:
            if isinstance(part, Plural):
                found.add(part.name)
                for _, branch in (*part.exact, *part.categories):
                    walk(branch)

    for lang in i18n.LANGUAGES:
        for text in i18n.catalog(lang).values():
            walk(parse_template(text).parts)
    return frozenset(found)


def _whole_numbers(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, (list, tuple)) and bool(value) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value)


@dataclass
class Watch:
    """Every param formatted while it is installed, judged as above."""

    counts: frozenset[str]
    offences: dict[tuple[str, str], str] = field(default_factory=dict)
    unfilled: dict[str, str] = field(default_factory=dict)  # template -> what it became
    seats_shown: int = 0
    templates: list[str] = field(default_factory=list)

    def judge(self, lang: str, name: str, value: Any, names, shown: str) -> None:
        where = self.templates[-1] if self.templates else "?"
        if i18n.is_seat_param(name) and _whole_numbers(value):
            self.seats_shown += 1
            wanted = [names[v] for v in ([value] if isinstance(value, int) else value)
                      if names is not None and 0 <= v < len(names)]
            if names is None or len(wanted) != (1 if isinstance(value, int) else len(value)) \
                    or not all(w in shown for w in wanted):
                self.offences[(name, where)] = f"seat {value!r} shown as {shown!r}"
        elif _whole_numbers(value) and name not in self.counts and name not in NUMBERS:
            self.offences[(name, where)] = f"{value!r} shown as {shown!r}: a seat? name it `..._seat(s)`"


@pytest.fixture
def watch(monkeypatch) -> Iterator[Watch]:
    w = Watch(counts=_plural_arguments())
    render_value, format_message = i18n._render_value, i18n.format_message

    def watched_value(lang, name, value, names):
        shown = render_value(lang, name, value, names)
        w.judge(lang, name, value, names, shown)
        return shown

    def watched_format(lang, template, params=None, names=None):
        w.templates.append(template)
        try:
            text = format_message(lang, template, params, names)
        finally:
            w.templates.pop()
        if re.search(r"\{\w+\}", text):
            w.unfilled[template] = text
        return text

    monkeypatch.setattr(i18n, "_render_value", watched_value)
    monkeypatch.setattr(i18n, "format_message", watched_format)
    yield w


def _looks() -> None:
    for entry in entries().values():
        importlib.import_module(entry.look)


# (game, players, options): every title at its largest table, and the variants that add words
TABLES = [
    ("ticket_to_ride", 5, {}),
    ("ginga", 4, {}),
    ("santa_fe", 5, {"advanced": True, "buy_track": True}),
    ("steam", 4, {}),
    ("steam", 5, {"map": "rhine_ruhr", "standard": True}),
    ("catan_express", 4, {}),
    ("catan_express", 6, {"map": "islands"}),
]


def _texts_of_a_decision(lang: str, decision, names) -> None:
    if decision.prompt is not None:
        event_text(lang, decision.prompt, names)
    picks = [p for c in decision.choices for p in c.path] + [p for g in decision.groups for p in g.items]
    events = {e.model_dump_json(): e for p in picks for e in (p.label, p.detail) if e is not None}
    for event in events.values():  # a label many options share is read once
        event_text(lang, event, names)
    for amount in decision.amounts:
        event_text(lang, amount.label, names)


@pytest.mark.slow  # a whole game
@pytest.mark.parametrize("name, players, options", TABLES,
                         ids=[f"{g}-{n}{'-' + '-'.join(o) if o else ''}" for g, n, o in TABLES])
def test_no_text_of_a_whole_game_shows_a_seat_number(name, players, options, watch: Watch) -> None:
    _looks()
    game, drawer, ui = registry.get(name), renderers.get(name), ui_base.get(name)
    names = NAMES[:players]
    steps = bot_steps(game, players, 7, next(iter(game.bots())), options)
    every = max(1, len(steps) // 12)
    for index, step in enumerate(steps):
        position = _Position.of(game, step.state, names, name)
        events = [*game.apply(step.state, step.seat, step.action).events,
                  game.describe_action(step.state, step.seat, step.action)]
        for lang in i18n.LANGUAGES:
            for event in events:
                event_text(lang, event, names)
            position.read(ui, lang)
            if index % every == 0:
                _every_picture(game, drawer, step.state, names, lang)
    last = _Position.of(game, steps[-1].after, names, name)
    for lang in i18n.LANGUAGES:
        last.read(ui, lang)
        _every_picture(game, drawer, steps[-1].after, names, lang)
        final = game.view(steps[-1].after, None)
        drawer.final_image(final, names, lang)
        drawer.describe("final", final, names, lang)
    assert watch.seats_shown > 100  # the watch saw the games' seats go by
    assert watch.offences == {}
    assert watch.unfilled == {}


@dataclass
class _Position:
    """What a position shows on Discord, worked out once and read in each language: the public
    view, and per seat its view, prompt, menu and standing orders."""

    public: Any
    seats: list[tuple[PrivateView, Any, list]]  # (private view, orders menu, described orders)
    names: list[str]

    @classmethod
    def of(cls, game, state, names, name: str) -> "_Position":
        active = game.active_players(state)
        seats = []
        for seat in range(len(names)):
            decision = game.decision(state, seat) if seat in active else None
            pv = PrivateView(game_id=1, channel_id="1", game=name, seat=seat, version=1, names=list(names),
                             status="finished" if game.is_over(state) else "active", active=seat in active, view=game.view(state, seat), prompt=game.prompt(state, seat),
                             decision=decision)
            orders = game.order_choices(state, seat) if seat in active else None
            described = [game.describe_order(state, seat, n) for n in orders.all_notations()[:20]] if orders else []
            seats.append((pv, orders, described))
        return cls(game.view(state, None), seats, list(names))

    def read(self, ui, lang: str) -> None:
        names = self.names
        ui.summary(self.public, names, lang)
        ui.waiting_hint(self.public, lang)
        for pv, orders, described in self.seats:
            ui.hand_text(pv, lang)
            if pv.prompt is not None:
                event_text(lang, pv.prompt, names)
            if pv.decision is not None:
                _texts_of_a_decision(lang, pv.decision, names)
                for pick in pv.decision.first_step()[:25]:
                    ui.move_label(pick.label, names, lang)
            if orders is not None:
                _texts_of_a_decision(lang, orders, names)
            for event in described:
                event_text(lang, event, names)


def _every_picture(game, drawer, state, names, lang: str) -> None:
    public = game.view(state, None)
    drawer.board_image(public, names, lang)
    drawer.describe("board", public, names, lang)
    for seat in range(len(names)):
        private = game.view(state, seat)
        drawer.hand_image(private, names, lang)
        drawer.describe("hand", private, names, lang)


def test_the_watch_finds_a_seat_under_another_name_and_a_seat_without_names(watch: Watch) -> None:
    # the wording of Catan Express answers before it named its seats: "accepted 0, 1; refused 2"
    i18n.format_message("en", "Answers: accepted {accepted}; refused {refused}.",
                        {"accepted": [0, 1], "refused": [2]}, NAMES[:3])
    i18n.translate("ja", "catan_express.ev.robbed", {"seat": 1, "victim_seat": 2}, None)  # no names: "#2"
    i18n.translate("en", "catan_express.ev.discarded", {"seat": 0, "count": 4}, NAMES[:3])  # a count: fine
    assert {name for name, _ in watch.offences} == {"accepted", "refused", "seat", "victim_seat"}
    i18n.translate("en", "catan_express.ev.robber_moved", {"seat": 0}, NAMES[:3])  # no {at}
    assert list(watch.unfilled.values()) == ["Ann Seatname moved the robber to {at}."]


async def test_a_whole_game_on_the_loopback_discord_names_every_seat(harness, fake, watch: Watch) -> None:
    """The same watch over everything the bot itself formats while a whole game is played on
    the loopback Discord, in Japanese: lobby, turn posts, the hand, /game status and log, the
    final post."""
    h = harness
    fake.guilds[GUILD].locale = "ja"
    await h.slash(ALICE, "game new", {"game": "ginga"}, locale="ja")
    lobby = h.lobby()
    await h.click(lobby, None, ALICE, label=i18n.translate("ja", "discord.lobby.add_bot"), locale="ja")
    await h.click(lobby, None, ALICE, label=i18n.translate("ja", "discord.lobby.add_bot"), locale="ja")
    await h.click(lobby, None, ALICE, label=i18n.translate("ja", "discord.lobby.start"), locale="ja")
    post = h.last_post()
    await h.click(post, find_id(post, r"ry:\d+:\d+:hand"), ALICE, locale="ja")
    await h.slash(ALICE, "game status", locale="ja")
    await _play_out(h, ALICE, locale="ja")
    assert (await h.bot.service.status(str(CHANNEL))).info.status == "finished"
    await h.slash(ALICE, "game log", locale="ja")
    assert watch.seats_shown > 20
    assert watch.offences == {}
    assert watch.unfilled == {}
    fake.assert_clean()

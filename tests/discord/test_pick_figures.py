"""How much clicking a whole game asks of people, measured through the real client on the
loopback Discord (issue 21): 4-player games of Steam and Catan Express, three people and a
bot, each person making the move the game's builder bot would make, by clicking through the
chooser as a person does (from the turn post; a bid tapped as a quick amount when there is
one, else typed).

For each game it prints one line of figures:

* interactions the people sent (clicks, selects, modal submits, slash commands: counted
  where the fake Discord receives them), moves made by people and person-turns (a run of
  moves by one person while the game waits on them: a post that waits on a person the post
  before did not, as in test_live_board_measured.py), and the ratios;
* the largest menu a person was shown: the most options in one message (the options of all
  its selects, and the buttons that are options), and how many clicks only turned a page;
* place picks: the steps a person answered whose options are places on the board, and how
  many of them came on a message carrying a picture of the picks (`pick*.png`).

Without EXPECT_PICTURES only what any correct run shows is asserted: the game ends, every
move chosen was made, the counts agree. With it, every place step shown must carry its
picture and no message may offer more than MENU_AT_MOST options.
"""
from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

import pytest

from bot.sessions.live import GAME_POST_KINDS
from games import registry
from games.core.choices import Pick
from games.core.i18n import translate
from games.steam import decisions as steam_steps
from tests.discord.conftest import ALICE, BOB, CAROL, CHANNEL, Harness
from tests.fake_discord import FakeMessage

pytestmark = pytest.mark.slow  # whole games through the real client

# Set once every place pick comes with its picture: then each place step a person is shown
# must carry one, and no message may offer more than MENU_AT_MOST options.
EXPECT_PICTURES = True
MENU_AT_MOST = 25

PEOPLE = (ALICE, BOB, CAROL)
BOT = "builder"  # both games have one; it plays as a sensible person would
MOVES_AT_MOST = 3000  # a game that has not ended by then is stuck
# A picture of the picks of a step. The board on a turn post is not one: it shows the game,
# not which option is which.
PICTURE = re.compile(r"pick.*\.png")

# Until Pick says so itself (`Pick.place`), the steps whose options name places on the board,
# read off each game's decisions module.
PLACE_STEPS = {
    "steam": frozenset({
        steam_steps.BUILD,     # hexes to build on (beside Urbanize, City Growth and Done)
        steam_steps.FACE,      # a tile to lay on the hex picked
        steam_steps.ROTATION,  # that tile turned, its exits facing neighbours
        steam_steps.TOWN,      # the town Urbanize turns into a city
        steam_steps.CITY,      # the city City Growth adds cubes to
        steam_steps.CUBE,      # a cube at a city (beside the locomotive and Pass)
        steam_steps.ROUTE,     # a delivery's route, city to city
    }),
    "catan_express": frozenset({
        "catan_express.step.point",   # intersections: settlements, cities, a rail's or ferry's first end, stops
        "catan_express.step.centre",  # a rail's other end: a hex's centre (also the setup's free rail)
        "catan_express.step.to",      # a ferry's other end
        "catan_express.step.hex",     # where the robber (or a Knight) goes
        "catan_express.step.next",    # a ride's next point
        "catan_express.step.stop",    # a whole ride's last stop
    }),
}

# Chooser components that are options (ids `ry:<game>:<version>:<verb>:<arg>`, see
# bot/discord/chooser.py): a pick (cb; "cb:o:" only opens the menu), a quick amount (cq), the
# amount's "…" that opens its modal (ca), a group's + / − (ct). Selects (cs, cg) count their
# options. Paging (cp), Confirm (cd) and the hand are not options.
OPTION_BUTTONS = ("cb", "cq", "ca", "ct")
OPTION_SELECTS = ("cs", "cg")


def has_place_field() -> bool:
    return "place" in Pick.model_fields


def is_place_step(game: str, step: str, options: Sequence[Any]) -> bool:
    """A step picked on the board: by the chooser's own rule once picks name their places
    (places named as players know them, a few cities, are picked by name), else by step key."""
    if has_place_field():
        from bot.discord.chooser import on_board

        return on_board(options)
    return step in PLACE_STEPS[game]


def verb_of(custom_id: str | None) -> str | None:
    parts = (custom_id or "").split(":")
    return parts[3] if len(parts) > 3 and parts[0] == "ry" else None


def menu_size(components: Sequence[dict]) -> int:
    """The options one message offers."""
    count = 0
    for row in components or []:
        for c in row.get("components") or []:
            verb = verb_of(c.get("custom_id"))
            if c.get("type") == 3 and verb in OPTION_SELECTS:
                count += len(c.get("options") or [])
            elif c.get("type") == 2 and verb in OPTION_BUTTONS and c["custom_id"].split(":")[4] != "o":
                count += 1
    return count


def menu_words(payload: dict) -> str:
    """What a menu asks, for the report: its selects' placeholder, else its question line."""
    for row in payload.get("components") or []:
        for c in row.get("components") or []:
            if c.get("type") == 3 and c.get("placeholder"):
                return re.sub(r"\s*\(\d+–\d+ / \d+\)$", "", c["placeholder"])
    asked = [line for line in (payload.get("content") or "").splitlines() if line.startswith("👉")]
    return asked[-1] if asked else (payload.get("content") or "")[:40]


@dataclass
class Seen:
    user: int
    step: str
    options: int
    place: bool
    pictured: bool


@dataclass
class Figures:
    game: str
    interactions: int = 0
    kinds: Counter = field(default_factory=Counter)
    moves: int = 0
    person_turns: int = 0
    people_waited: int = 0  # like person_turns, each of several people waited on at once counting
    largest: int = 0
    largest_where: str = ""
    paging: int = 0
    steps: list[Seen] = field(default_factory=list)

    @property
    def places(self) -> int:
        return sum(s.place for s in self.steps)

    @property
    def pictured(self) -> int:
        return sum(s.place and s.pictured for s in self.steps)

    def line(self) -> str:
        return (f"figures {self.game}: {self.interactions} interactions, {self.moves} moves by people, "
                f"{self.person_turns} person-turns → {self.interactions / self.moves:.2f}/move, "
                f"{self.interactions / self.person_turns:.2f}/person-turn; largest menu {self.largest} options "
                f"(paging {self.paging}); place picks {self.places}, with picture {self.pictured}")

    def details(self) -> str:
        biggest: dict[str, int] = {}
        for s in self.steps:
            biggest[s.step] = max(biggest.get(s.step, 0), s.options)
        steps = ", ".join(f"{k} {v}" for k, v in sorted(biggest.items(), key=lambda kv: -kv[1])[:6])
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(self.kinds.items()))
        return (f"  {self.game}: {kinds}; {self.people_waited} waits counting each person; largest menu at "
                f"{self.largest_where}; steps answered {len(self.steps)}, the biggest: {steps}")


def label(key: str) -> str:
    return translate("en", key)


async def open_game(h: Harness, name: str) -> int:
    opened = await h.slash(ALICE, "game new", {"game": name})
    assert opened.ephemeral, opened.content
    lobby = h.lobby()
    for user in (BOB, CAROL):
        await h.click(lobby, None, user, label=label("discord.lobby.join"))
    await h.click(lobby, None, ALICE, label=label("discord.lobby.add_bot"))
    await h.click(lobby, None, ALICE, label=label("discord.lobby.start"))
    status = await h.bot.service.status(str(CHANNEL))
    assert status.info.game == name and status.info.status == "active", status.info.status
    assert len(status.info.seats) == 4 and sum(s.is_bot for s in status.info.seats) == 1
    return status.info.game_id


async def play_whole_game(h: Harness, fake: Any, name: str) -> Figures:
    game = registry.get(name)
    bots = game.bots()
    assert BOT in bots, list(bots)
    builder = bots[BOT]
    service = h.bot.service
    first_payload = len(fake.message_payloads)  # the first turn post comes with the start
    game_id = await open_game(h, name)
    status = await service.status(str(CHANNEL))
    seat_of = {int(s.user_id): s.seat for s in status.info.seats if not s.is_bot}
    assert set(seat_of) == set(PEOPLE)
    figures = Figures(name)
    first_interaction = len(fake.interactions)  # the lobby's clicks are not the game's

    def seen(user: int, step: str, options: Sequence[Any], message: FakeMessage, picked: Any) -> None:
        # the message as it is when the person answers from it; a step of places answered by
        # one of its other options (Done beside the hexes) is not a place pick
        pictured = any(PICTURE.fullmatch(a.filename) for a in fake.message(message.id).attachments)
        place = is_place_step(name, step, options) and (
            not has_place_field() or picked is None or getattr(picked, "place", None) is not None)
        figures.steps.append(Seen(user, step, len(options), place, pictured))

    h.on_step = seen
    # the store's log of moves (the public history hides secret ones: "discard", "answer")
    logged = len(await h.bot.store.actions(game_id))
    for _ in range(MOVES_AT_MOST):
        status = await service.status(str(CHANNEL))
        if status.info.status != "active":
            break
        assert status.waiting_user_ids, "after idle() the game waits on a person or has ended"
        user = int(status.waiting_user_ids[0])
        seat = seat_of[user]
        state = await service.rebuild(game_id)
        rng = random.Random(f"{name}:{status.version}:{seat}")
        notation = game.format_action(builder.choose(game, state, seat, rng))
        await h.choose(user, notation, quick=True)
        figures.moves += 1
        log = await h.bot.store.actions(game_id)
        assert len(log) > logged, (notation, "no move was made")
        made = log[logged]  # the person's move comes first; bots' and forced moves follow
        assert (made.seat, made.notation, made.auto) == (seat, notation, None), (made, notation)
        assert made.actor_user_id == str(user), made
        logged = len(log)
    else:
        pytest.fail(f"{name}: the game did not end in {MOVES_AT_MOST} moves by people")
    h.on_step = None

    status = await service.status(str(CHANNEL))
    assert status.info.status == "finished", status.info.status
    assert h.last_post().embeds, "the final post"
    people_seats = set(seat_of.values())
    log = await h.bot.store.actions(game_id)
    assert sum(a.seat in people_seats and a.auto is None for a in log) == figures.moves

    sent = [ir for ir in fake.interactions[first_interaction:] if ir.user_id in PEOPLE]
    figures.interactions = len(sent)
    for ir in sent:
        data = ir.payload.get("data") or {}
        kind = {2: "slash", 4: "autocomplete", 5: "modal"}.get(ir.type)
        if kind is None:
            kind = "select" if data.get("component_type") == 3 else "click"
        figures.kinds[kind] += 1
        figures.paging += verb_of(data.get("custom_id")) == "cp"
        assert ir.callback is not None, ("unanswered", data)

    for record in fake.message_payloads[first_payload:]:
        if "components" not in record.payload:
            continue
        size = menu_size(record.payload["components"])
        if size > figures.largest:
            where = "a private message" if record.ephemeral else "the turn post"
            figures.largest, figures.largest_where = size, f"{where}: {menu_words(record.payload)}"

    rows = [r for r in await h.bot.store.outbox_rows(game_id) if r.kind in GAME_POST_KINDS]
    before: set[str] = set()
    people = {str(u) for u in PEOPLE}
    for row in rows:
        waiting = set(row.payload.get("mention_user_ids") or []) & people
        figures.person_turns += bool(waiting - before)
        figures.people_waited += len(waiting - before)
        before = waiting
    fake.assert_clean()
    return figures


def check(figures: Figures) -> None:
    assert figures.moves > 0
    assert figures.interactions >= figures.moves, "every move takes at least one interaction"
    assert figures.interactions >= len(figures.steps) + figures.paging, "every step answered is a click or a select"
    assert 1 <= figures.person_turns <= figures.people_waited <= figures.moves
    assert len(figures.steps) >= figures.moves, "every move answers at least one step"
    assert figures.paging <= figures.kinds["click"]
    assert figures.largest >= 1
    assert figures.pictured <= figures.places
    if EXPECT_PICTURES:
        missing = Counter(s.step for s in figures.steps if s.place and not s.pictured)
        assert not missing, f"place steps shown without a picture: {dict(missing)}"
        assert figures.largest <= MENU_AT_MOST, figures.largest_where


@pytest.mark.parametrize("name", ["steam", "catan_express"])
async def test_pick_figures(harness: Harness, fake: Any, name: str) -> None:
    figures = await play_whole_game(harness, fake, name)
    print()
    print(figures.line())
    print(figures.details())
    check(figures)

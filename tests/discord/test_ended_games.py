"""Posts of a game that is over (finished or abandoned) stay in the channel: their buttons and
the board images shown afterwards must say the game has ended, never show an old hand or
whose turn it was."""
from __future__ import annotations

import pytest

from games.core.i18n import translate
from tests.discord.conftest import ALICE, BOB, CAROL, CHANNEL, EMPTY, Harness, find_id
from tests.discord.test_alt_text import _play_out as play_out
from tests.support import dump_db


def en(key: str, params: dict | None = None, names=None) -> str:
    return translate("en", key, params or {}, names)


GAME_ENDED = "🔄 " + en("discord.error.game_ended")


async def click_hand_after_the_end(h: Harness, post, hand_id: str, user: int) -> str:
    """Click "Show my hand" on an old post (taken off the live board at the end, so as a
    client still showing it would): answered privately, nothing written, no hand."""
    before = dump_db(h.db_path)
    result = await h.click_as_drawn(post, hand_id, user)
    assert result.ephemeral and dump_db(h.db_path) == before
    assert "hand.png" not in [a.filename for a in result.attachments]
    assert not [cid for cid in result.original.custom_ids if ":cg:" in cid or ":hand" in cid]
    return result.content or ""


async def test_show_my_hand_on_a_post_of_an_abandoned_game_says_it_ended(harness: Harness, fake) -> None:
    h = harness
    await h.new_game(ALICE, [BOB])
    await h.keep_tickets(ALICE)  # Bob still has tickets to choose: his hand would offer them
    post = h.last_post()
    hand_id = find_id(post, r"ry:\d+:\d+:hand")
    await h.slash(ALICE, "game abandon")
    assert find_id(fake.message(post.id), r"ry:\d+:\d+:hand") is None, "the ended board lost its buttons"
    for user in (ALICE, BOB):
        text = await click_hand_after_the_end(h, post, hand_id, user)
        assert text.startswith(GAME_ENDED), text
        assert en("discord.hand.not_your_turn") not in text
        assert en("discord.status.abandoned") in text
    fake.assert_clean()


async def test_show_my_hand_on_a_post_of_a_finished_game_says_it_ended(harness: Harness, fake, toy_game) -> None:
    h = harness
    await h.slash(ALICE, "game new", {"game": "toy", "options": "rounds=1"})
    await h.click(h.lobby(), None, BOB, label=en("discord.lobby.join"))
    await h.click(h.lobby(), None, ALICE, label=en("discord.lobby.start"))
    first = next(p for p in h.posts() if find_id(p, r"ry:\d+:\d+:hand"))
    first_hand = find_id(first, r"ry:\d+:\d+:hand")
    for user in (ALICE, BOB):
        await h.slash(user, "move", {"move": "open red"})
    for _ in range(2):
        status = await h.bot.service.status(str(CHANNEL))
        await h.slash(int(status.waiting_user_ids[0]), "move", {"move": "pass"})
    assert (await h.bot.service.status(str(CHANNEL))).info.status == "finished"
    for user in (ALICE, BOB):
        text = await click_hand_after_the_end(h, first, first_hand, user)
        assert text.startswith(GAME_ENDED), text
        assert en("discord.status.finished") in text
    fake.assert_clean()


@pytest.fixture
def drawn_text(monkeypatch) -> list[str]:
    """Every text the renderers measure or draw (all of it goes through the kit's cleaner)."""
    from render.kit import text as kit_text

    seen: list[str] = []
    original = kit_text._clean

    def recording(text: str) -> str:
        seen.append(text)
        return original(text)

    monkeypatch.setattr(kit_text, "_clean", recording)
    return seen


async def test_the_board_of_an_abandoned_game_says_so_not_whose_turn(harness: Harness, fake, drawn_text) -> None:
    h = harness
    await h.new_game(ALICE, [BOB])
    await h.keep_tickets(ALICE)
    await h.keep_tickets(BOB)
    status = await h.bot.service.status(str(CHANNEL))
    names = status.names
    turn_of = en("ticket_to_ride.render.turn_of", {"seat": status.waiting[0]}, names)
    post = h.last_post()
    deck = await h.move_button(post, "draw deck")
    await h.slash(ALICE, "game abandon")

    # /game status, and a stale click on the old post, both show the last board
    for look in (lambda: h.slash(BOB, "game status"), lambda: h.click_as_drawn(post, deck, BOB)):
        drawn_text.clear()
        shown = await look()
        assert shown.ephemeral and en("discord.status.abandoned") in shown.content
        assert [a.filename for a in shown.attachments] == ["board.png"]
        assert turn_of not in drawn_text
        assert en("render.kit.abandoned") in drawn_text
        # the status embed beside the board says it too, not whose turn it was
        assert shown.original.embeds[0]["description"] == en("discord.status.abandoned")
    fake.assert_clean()


# ---------------------------------------------------------------------------- every command
def said(lang: str, key: str, params: dict | None = None) -> str:
    return "⚠️ " + translate(lang, key, params or {})


def not_your_turn(lang: str) -> list[str]:
    """The words that would say "it is your turn / not your turn" (never true of a game
    that is not under way)."""
    return [translate(lang, "discord.hand.not_your_turn"), translate(lang, "error.not_active").split("{")[0]]


# Every command a person may use in a channel, with options that would be valid in a game.
COMMANDS: list[tuple[str, dict | None]] = [
    ("game hand", None), ("game status", None), ("game log", None), ("game undo", None),
    ("game export", None), ("game settings", {"reminder_minutes": 30}), ("game kick", {"player": BOB}),
    ("move", {"move": "pass"}), ("orders", None), ("orders", {"order": "pass"}), ("game abandon", None),
]
# Every component a post or a private message of a game may carry (see bot/discord/ids.py),
# as drawn for the game before it ended: (verb and argument, a select?).
COMPONENTS: list[tuple[str, bool]] = [
    ("hand", False), ("cb:v::0", False), ("cb:o:", False), ("cs:v::0", True), ("cp:v::1", False),
    ("cg:v::0", True), ("ca:v::0", False), ("join", False), ("leave", False), ("bot", False), ("start", False),
    ("ob:o:", False), ("os:v::0", True), ("ox:all", False),
]


def first_line(result) -> str:
    embeds = result.original.embeds if result.original is not None else []
    text = result.content or ((embeds[0].get("description") or "") if embeds else "")
    return text.split("\n")[0]


async def every_answer(h: Harness, channel: int, user: int, locale: str) -> dict[str, str]:
    """The first line of the answer to each command, each answered privately with nothing
    written and never a word about turns."""
    lang = lang_of(locale)
    answers = {}
    for command, options in COMMANDS:
        before = dump_db(h.db_path)
        result = await h.slash(user, command, options, channel=channel, locale=locale)
        assert result.ephemeral, (command, result.content)
        assert dump_db(h.db_path) == before, command
        text = "\n".join([result.content or ""] + [e.get("description") or "" for e in result.original.embeds])
        assert not any(words in text for words in not_your_turn(lang)), (command, text)
        answers[f"{command} {' '.join(options or {})}".strip()] = first_line(result)
    return answers


async def every_component(h: Harness, message, game_id: int, version: int, user: int, locale: str,
                          ended: str) -> None:
    """Each component as drawn for the game, clicked now: "that game has ended", then what
    became of it (`ended`); privately, nothing written, no hand, no menu."""
    lang = lang_of(locale)
    for verb, is_select in COMPONENTS:
        custom_id = f"ry:{game_id}:{version}:{verb}"
        live = h.fake.message(message.id)
        kept = live.components
        item = ({"type": 3, "custom_id": custom_id, "options": [{"label": "1", "value": "0"}]} if is_select
                else {"type": 2, "style": 2, "label": "(as drawn)", "custom_id": custom_id})
        live.components = [{"type": 1, "components": [item]}]
        before = dump_db(h.db_path)
        try:
            result = await (h.select(live, custom_id, ["0"], user, locale=locale) if is_select
                            else h.click(live, custom_id, user, locale=locale))
        finally:
            live.components = kept
        assert result.ephemeral and dump_db(h.db_path) == before, verb
        assert result.content.split("\n")[:2] == ["🔄 " + translate(lang, "discord.error.game_ended"),
                                                  translate(lang, ended)], (verb, result.content)
        assert "hand.png" not in [a.filename for a in result.attachments], verb
        assert not result.original.custom_ids, (verb, result.original.custom_ids)


ASKING = [(ALICE, "en-US"), (ALICE, "ja"), (CAROL, "ja")]  # a player (the host), and someone who never played


@pytest.mark.slow  # a whole game
async def test_every_command_and_button_says_what_became_of_the_game(harness: Harness, fake) -> None:
    """No game here, a lobby closed before it started, an abandoned game and a finished one:
    each command and each old component answers what is true of it, for a player and for
    someone who never played, in English and Japanese."""
    h = harness

    # a channel that never had a game
    for user, locale in ASKING:
        nothing = said(lang_of(locale), "error.no_game_here")
        assert set((await every_answer(h, EMPTY, user, locale)).values()) == {nothing}

    # a lobby closed before its game started
    await h.slash(ALICE, "game new", {"game": "ticket_to_ride"})
    lobby = h.lobby()
    await h.click(lobby, None, BOB, label=en("discord.lobby.join"))
    game_id = await h.game_id()
    await h.slash(ALICE, "game abandon")
    for user, locale in ASKING:
        lang = lang_of(locale)
        closed = said(lang, "error.no_game_here.closed")
        assert await every_answer(h, CHANNEL, user, locale) == {
            "game hand": closed, "game status": translate(lang, "discord.lobby.closed"),
            "game log": translate(lang, "discord.log.none"), "game undo": closed, "game export": closed,
            "game settings reminder_minutes": closed, "game kick player": closed, "move move": closed,
            "orders": closed, "orders order": closed, "game abandon": closed}
        await every_component(h, lobby, game_id, 0, user, locale, "discord.lobby.closed")

    # an abandoned game (Bob still had tickets to choose: it was his turn, now it is nobody's)
    await h.new_game(ALICE, [BOB])
    await h.keep_tickets(ALICE)
    post = h.last_post()
    game_id = await h.game_id()
    version = (await h.bot.service.status(str(CHANNEL))).version
    await h.slash(ALICE, "game abandon")
    for user, locale in ASKING:
        lang = lang_of(locale)
        gone = said(lang, "error.no_game_here.abandoned")
        answers = await every_answer(h, CHANNEL, user, locale)
        export = answers.pop("game export")
        assert answers["game log"].startswith("`  1`")  # the moves that were made
        assert answers == {
            "game hand": gone, "game status": translate(lang, "discord.status.abandoned"),
            "game log": answers["game log"], "game undo": gone, "game settings reminder_minutes": gone,
            "game kick player": gone, "move move": gone, "orders": gone, "orders order": gone, "game abandon": gone}
        assert (f"#{game_id}" in export and "⚠️" not in export) if user == ALICE \
            else export == said(lang, "error.export_not_player")
        await every_component(h, post, game_id, version, user, locale, "discord.status.abandoned")

    # a finished game: a player's /game hand is their final hand, said to be over
    await h.slash(ALICE, "game new", {"game": "ginga", "options": "start_player=1"})
    await h.click(h.lobby(), None, ALICE, label=en("discord.lobby.add_bot"))
    await h.click(h.lobby(), None, ALICE, label=en("discord.lobby.start"))
    game_id = await h.game_id()
    post = h.last_post()
    await play_out(h, ALICE)
    status = await h.bot.service.status(str(CHANNEL))
    assert status.info.status == "finished"
    for user, locale in ASKING:
        lang = lang_of(locale)
        over = said(lang, "error.no_game_here.finished")
        answers = await every_answer(h, CHANNEL, user, locale)
        export = answers.pop("game export")
        assert answers == {
            "game hand": "🏁 " + translate(lang, "discord.status.finished") if user == ALICE
            else said(lang, "error.not_in_game"),
            "game status": translate(lang, "discord.status.finished"), "game log": answers["game log"],
            "game undo": over, "game settings reminder_minutes": over, "game kick player": over,
            "move move": over, "orders": over, "orders order": over, "game abandon": over}
        assert answers["game log"].startswith("`  1`")
        assert (f"#{game_id}" in export and "⚠️" not in export) if user == ALICE \
            else export == said(lang, "error.export_not_player")
        await every_component(h, post, game_id, status.version, user, locale, "discord.status.finished")
    fake.assert_clean()


def lang_of(locale: str) -> str:
    return "ja" if locale == "ja" else "en"

"""`/game export`: a player takes a finished game's record home as a JSON file, the format
`railyard replay` reads; a running game, a stranger or an empty channel get a clear private
answer and nothing changes."""
from __future__ import annotations

from games.core.i18n import translate
from games.replay import GameRecord, replay, scores
from tests.discord.conftest import ALICE, BOB, CAROL, CHANNEL, EMPTY, Harness
from tests.support import dump_db


def text(lang: str, key: str, **params) -> str:
    return translate(lang, key, params)


async def play_toy_to_the_end(h: Harness) -> None:
    await h.slash(ALICE, "game new", {"game": "toy", "options": "rounds=1"})
    await h.click(h.lobby(), None, BOB, label=text("en", "discord.lobby.join"))
    await h.click(h.lobby(), None, ALICE, label=text("en", "discord.lobby.start"))
    for user in (ALICE, BOB):
        await h.slash(user, "move", {"move": "open red"})
    for _ in range(2):
        status = await h.bot.service.status(str(CHANNEL))
        await h.slash(int(status.waiting_user_ids[0]), "move", {"move": "pass"})
    assert (await h.bot.service.status(str(CHANNEL))).info.status == "finished"


async def test_a_player_exports_a_finished_game_and_it_replays_to_its_result(harness: Harness, fake, toy_game) -> None:
    h = harness
    await play_toy_to_the_end(h)
    before = dump_db(h.db_path)
    result = await h.slash(BOB, "game export")
    assert result.ephemeral
    files = [a for a in result.attachments if a.filename.endswith(".json")]
    assert len(files) == 1, result.attachments
    record = GameRecord.model_validate_json(files[0].data)
    assert record.game == "toy" and record.players == 2 and len(record.moves) == 4
    assert record.names is not None and len(record.names) == 2
    assert record.result, "a played-out game carries its result"
    state, replayed = replay(record)
    assert scores(replayed) == record.result
    assert files[0].filename in (result.content or "")
    assert dump_db(h.db_path) == before, "exporting writes nothing"
    fake.assert_clean()


async def test_export_is_refused_while_the_game_runs_and_to_strangers(harness: Harness, fake, toy_game) -> None:
    h = harness
    await h.slash(ALICE, "game new", {"game": "toy", "options": "rounds=1"})
    await h.click(h.lobby(), None, BOB, label=text("en", "discord.lobby.join"))
    await h.click(h.lobby(), None, ALICE, label=text("en", "discord.lobby.start"))
    before = dump_db(h.db_path)
    running = await h.slash(ALICE, "game export")
    assert running.ephemeral and not running.attachments
    assert text("en", "error.export_not_over") in (running.content or "")
    ja = await h.slash(ALICE, "game export", locale="ja")
    assert text("ja", "error.export_not_over") in (ja.content or "") and not ja.attachments
    assert dump_db(h.db_path) == before

    for user in (ALICE, BOB):
        await h.slash(user, "move", {"move": "open red"})
    for _ in range(2):
        status = await h.bot.service.status(str(CHANNEL))
        await h.slash(int(status.waiting_user_ids[0]), "move", {"move": "pass"})
    stranger = await h.slash(CAROL, "game export")
    assert stranger.ephemeral and not stranger.attachments
    assert text("en", "error.export_not_player") in (stranger.content or "")
    empty = await h.slash(ALICE, "game export", channel=EMPTY)
    assert empty.ephemeral and not empty.attachments
    assert text("en", "error.no_game_here") in (empty.content or "")
    fake.assert_clean()

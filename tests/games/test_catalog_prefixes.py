"""Every word of a game is under the game's one prefix, in the game's own folder; the shared
catalogs name no game; a key stored by an older game still finds its words."""
import json

import pytest

from games.catalog import entries
from games.core.errors import IllegalAction
from games.core.i18n import DATA_DIR, current_key, translate

GAMES = list(entries())
SHARED = ("messages", "discord", "render", "web")


def _keys(path):
    return list(json.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("game", GAMES)
def test_a_games_words_are_under_its_name(game):
    catalogs = sorted((DATA_DIR / game).rglob("messages.*.json"))
    assert catalogs
    for path in catalogs:
        layer = path.parent.name if path.parent.name in ("render", "discord") else None
        for key in _keys(path):
            assert key.startswith(f"{game}."), (path, key)
            if layer is not None:  # a picture's words say so, and so do the Discord look's
                assert key.startswith(f"{game}.{layer}."), (path, key)


def test_the_shared_catalogs_name_no_game():
    for folder in SHARED:
        for path in (DATA_DIR / folder).glob("*.json"):
            if path.name == "renamed.json":
                continue
            owned = [k for k in _keys(path) if k.split(".")[0] in GAMES]
            assert owned == [], path


def test_a_games_refusal_is_worded_under_its_name():
    assert IllegalAction("catan_express.deck_empty").message_key == "catan_express.error.deck_empty"
    assert IllegalAction("not_active").message_key == "error.not_active"
    assert translate("en", "catan_express.error.deck_empty") != "catan_express.error.deck_empty"


def test_a_key_stored_before_the_renaming_still_reads():
    assert current_key("catan_express.ev.built") == "catan_express.ev.built"
    assert current_key("discord.ttr.x") == "ticket_to_ride.discord.x"
    assert current_key("render.kit.abandoned") == "render.kit.abandoned"
    for lang in ("en", "ja"):
        old = translate(lang, "ticket_to_ride.act.draw_face_up", {"color": {"key": "ticket_to_ride.color.red"}})
        assert old == translate(lang, "ticket_to_ride.act.draw_face_up", {"color": {"key": "ticket_to_ride.color.red"}})
        assert "ticket_to_ride." not in old and "ticket_to_ride." not in old

"""Every code the service can raise, and every key it emits, has a message in both languages."""
from __future__ import annotations

import json
import re

import pytest

from games.core.errors import message_key_of
from bot.sessions import CODES, NO_GAME_REASONS, NOT_ACTIVE_REASONS, UNDO_REASONS, SessionError
from games.core.i18n import DATA_DIR, LANGUAGES, catalog, translate

EMITTED_KEYS = ["session.started", "session.first_player", "session.undone", "session.timeout_move", "session.kicked",
                "session.abandoned", "reminder.waiting"]
CORE_KEYS_KEPT = ["error.not_active", "error.unparsable", "error.game_over", "error.no_legal_action"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_code_and_key_has_a_message(lang: str) -> None:
    messages = catalog(lang)
    for code in CODES:
        assert message_key_of(code) in messages, code
    for code, reasons in (("undo_not_allowed", UNDO_REASONS), ("no_game_here", NO_GAME_REASONS),
                          ("not_active_game", NOT_ACTIVE_REASONS)):
        for reason in reasons:
            assert SessionError(code, reason=reason).message_key in messages, (code, reason)
    for key in EMITTED_KEYS + CORE_KEYS_KEPT:
        assert key in messages, key


def test_both_catalogs_have_the_same_keys_and_placeholders() -> None:
    en = json.loads((DATA_DIR / "messages" / "en.json").read_text(encoding="utf-8"))
    ja = json.loads((DATA_DIR / "messages" / "ja.json").read_text(encoding="utf-8"))
    assert en.keys() == ja.keys()
    for key in en:
        # a placeholder is {name} or the head of an ICU plural {name, plural, ...}
        assert set(re.findall(r"{(\w+)[},]", en[key])) == set(re.findall(r"{(\w+)[},]", ja[key])), key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_messages_render_with_names(lang: str) -> None:
    names = ["Alice", "Bob"]
    text = translate(lang, "error.game_corrupt", {"game_id": 12})
    assert "12" in text and "{" not in text
    text = translate(lang, "session.timeout_move", {"seat": 1, "notation": "pass"}, names)
    assert "Bob" in text and "pass" in text
    text = translate(lang, "reminder.waiting", {"seats": [0, 1], "hours": 12}, names)
    assert "Alice" in text and "Bob" in text and "12" in text
    text = translate(lang, "error.not_enough_players", {"min": 2, "have": 1})
    assert "2" in text and "1" in text and "{" not in text
    err = SessionError("undo_not_allowed", reason="someone_moved_since")
    assert "{" not in translate(lang, err.message_key, err.params, names)

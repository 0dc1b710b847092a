"""The message catalog: languages, seat names, nested and bilingual parameters."""
from games.core.i18n import language_for, translate

NAMES = ["山田太郎", "Bob 🚂"]


def test_discord_locales_map_to_catalog_languages():
    assert language_for("ja") == "ja"
    assert language_for("en-US") == "en" and language_for("fr") == "en" and language_for(None) == "en"


def test_not_your_turn_names_the_players_waited_on():
    en = translate("en", "error.not_active", {"waiting": [0, 1]}, NAMES)
    assert "山田太郎" in en and "Bob 🚂" in en
    ja = translate("ja", "error.not_active", {"waiting": [1]}, NAMES)
    assert "Bob 🚂" in ja and "手番" in ja


def test_nested_and_bilingual_parameters():
    route = {"key": "ticket_to_ride.route", "params": {"a": {"en": "Atlanta", "ja": "アトランタ"},
                                            "b": {"en": "Miami", "ja": "マイアミ"},
                                            "color": {"key": "ticket_to_ride.color.blue"}, "length": 5}}
    params = {"seat": 0, "route": route, "points": 10,
              "payment": {"key": "ticket_to_ride.pay.plain", "params": {"count": 5, "color": {"key": "ticket_to_ride.color.blue"}}}}
    assert translate("en", "ticket_to_ride.ev.claimed", params, NAMES) == \
        "山田太郎 claimed Atlanta–Miami (5 blue) with 5 blue for 10 points."
    assert "アトランタ–マイアミ（青5）" in translate("ja", "ticket_to_ride.ev.claimed", params, NAMES)


def test_unknown_language_key_and_placeholder_never_crash():
    assert translate("xx", "error.game_over") == translate("en", "error.game_over")
    assert translate("en", "no.such.key") == "no.such.key"
    assert "{waiting}" in translate("en", "error.not_active", {})

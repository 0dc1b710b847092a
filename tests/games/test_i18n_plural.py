"""ICU plural arguments in catalog strings, chosen by Babel's CLDR plural rules."""
import json
import re
from string import Formatter

import pytest
from babel import Locale

from games.core.errors import DataError
from games.core.i18n import LANGUAGES, catalog, format_message, load_catalog
from games.core.plural import Plural, parse_template

ROUTES = "{count, plural, =0 {no routes} one {# route} other {# routes}} left"


@pytest.mark.parametrize("count, text", [(0, "no routes left"), (1, "1 route left"), (2, "2 routes left"),
                                         (11, "11 routes left"), (21, "21 routes left")])
def test_english_picks_the_exact_match_then_one_or_other(count, text):
    assert format_message("en", ROUTES, {"count": count}) == text


def test_japanese_has_only_the_other_form_and_still_formats():
    ja = "{count, plural, other {#本}}の路線"
    assert [format_message("ja", ja, {"count": n}) for n in (1, 2)] == ["1本の路線", "2本の路線"]
    assert format_message("ja", ROUTES, {"count": 1}) == "1 routes left"  # ja has no 'one' category


def test_languages_with_more_categories_follow_cldr():
    # Babel knows every locale's rules; Russian 'few' shows the rules are not hand-written.
    ru = "{n, plural, one {# маршрут} few {# маршрута} many {# маршрутов} other {# маршрута}}"
    assert [format_message("ru", ru, {"n": n}) for n in (1, 3, 5, 21)] == \
        ["1 маршрут", "3 маршрута", "5 маршрутов", "21 маршрут"]


def test_several_plurals_params_and_seats_in_one_string():
    template = "{seat} drew {cards, plural, one {# card} other {# cards}} and {tickets, plural, one {# ticket} other {# tickets}} from {where}"
    text = format_message("en", template, {"seat": 1, "cards": 2, "tickets": 1, "where": "the deck"}, ["Ann", "Bob"])
    assert text == "Bob drew 2 cards and 1 ticket from the deck"


def test_nested_plurals_each_hash_is_its_own_number():
    template = "{a, plural, one {# apple{b, plural, one { and # pear} other { and # pears}}} other {# apples}}"
    assert format_message("en", template, {"a": 1, "b": 3}) == "1 apple and 3 pears"
    assert format_message("en", template, {"a": 2, "b": 1}) == "2 apples"


def test_hash_outside_a_plural_and_escaped_braces_stay_literal():
    assert format_message("en", "Game #{id} {{raw}} {n, plural, other {#}}", {"id": 7, "n": 3}) == "Game #7 {raw} 3"


def test_counts_given_as_text_and_missing_counts():
    template = "{points, plural, one {# point} other {# points}}"
    assert format_message("en", template, {"points": "+1"}) == "+1 point"
    assert format_message("en", template, {"points": "\u22121"}) == "\u22121 point"
    assert format_message("en", template, {"points": "many"}) == "many points"
    assert format_message("en", template, {"points": 1.5}) == "1.5 points"  # CLDR: visible decimals
    assert format_message("en", template, {}) == "{points}"  # missing: visible, never a crash


@pytest.mark.parametrize("bad", [
    "{n, plural, one {# x}}",  # no other
    "{n, plural, one {# x} other {# y}",  # unclosed
    "{n, plural, one # x other {# y}}",  # branch without braces
    "{n, plural, lots {# x} other {# y}}",  # unknown category
    "{n, plural, one {a} one {b} other {c}}",  # twice
    "{n,plural one {a} other {b}}",  # missing comma
    "closing } alone",
])
def test_malformed_plural_syntax_is_a_data_error_at_load(tmp_path, bad):
    path = tmp_path / "messages.en.json"
    path.write_text(json.dumps({"good": "{n, plural, one {#} other {#}}", "bad": bad}), encoding="utf-8")
    with pytest.raises(DataError, match="'bad'"):
        load_catalog(path)


def test_every_catalog_string_expands_to_a_valid_format_string():
    for lang in LANGUAGES:
        rule = Locale.parse(lang).plural_form
        for key, template in catalog(lang).items():
            parsed = parse_template(template)
            for n in (0, 1, 2, 12):
                expanded = parsed.expand(_EveryCount(n), rule)
                fields = [field for _, field, _, _ in Formatter().parse(expanded) if field is not None]
                assert all(re.fullmatch(r"\w+", f) for f in fields), (lang, key, fields)


def test_no_catalog_string_has_a_branch_its_language_never_picks():
    # Japanese has no 'one' category: "{count, plural, one {...} other {...}}" always says the
    # 'other' text there, even for one. A branch for exactly one is written "=1" instead.
    for lang in LANGUAGES:
        used = Locale.parse(lang).plural_form.tags | {"other"}
        for key, template in catalog(lang).items():
            for plural in _plurals(parse_template(template).parts):
                dead = {category for category, _ in plural.categories} - used
                assert not dead, f"{lang} {key}: {sorted(dead)} never chosen in {lang}; use =N"


def _plurals(parts):
    for part in parts:
        if isinstance(part, Plural):
            yield part
            for _, branch in (*part.exact, *part.categories):
                yield from _plurals(branch)


class _EveryCount(dict):
    """Parameters in which every name is present and is the number n."""

    def __init__(self, n):
        super().__init__()
        self.n = n

    def __contains__(self, name):
        return True

    def get(self, name, default=None):
        return self.n

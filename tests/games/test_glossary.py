"""One Japanese term per game concept: data/<game>/glossary.json names it and the variants to
avoid, and no Japanese catalog string of that game uses an avoided variant."""
import json
import re

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from games.core.i18n import DATA_DIR

GAMES = json.loads((DATA_DIR / "games.json").read_text(encoding="utf-8"))
SHARED = ["messages/ja.json", "discord/messages.ja.json", "render/messages.ja.json"]


class Term(BaseModel):
    model_config = ConfigDict(extra="forbid")
    concept: str = Field(min_length=1)
    en: str = Field(min_length=1)
    ja: str = Field(min_length=1)
    avoid: list[str]
    note: str | None = None

    @field_validator("avoid")
    @classmethod
    def _avoid_is_not_the_term(cls, avoid, info):
        if any(not v or v == info.data.get("ja") for v in avoid):
            raise ValueError("an avoided variant is empty or the term itself")
        return avoid


class Glossary(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str
    shared_keys: list[str]  # regexes: this game's keys inside the shared catalogs
    terms: list[Term] = Field(min_length=5)

    @field_validator("shared_keys")
    @classmethod
    def _patterns_compile(cls, patterns):
        for p in patterns:
            try:
                re.compile(p)
            except re.error as exc:
                raise ValueError(f"bad key pattern {p!r}: {exc}") from exc
        return patterns


def _glossary(game) -> Glossary:
    return Glossary.model_validate_json((DATA_DIR / game / "glossary.json").read_text(encoding="utf-8"))


def _strings(game, glossary):
    out = {}
    for folder in GAMES[game]["catalogs"]:
        out.update(json.loads((DATA_DIR / folder / "messages.ja.json").read_text(encoding="utf-8")))
    for rel in SHARED:
        for key, text in json.loads((DATA_DIR / rel).read_text(encoding="utf-8")).items():
            if any(re.search(p, key) for p in glossary.shared_keys):
                out[key] = text
    return out


def avoided_in(text, glossary):
    """The avoided variants in the text, after the glossary's own terms are taken out (bare
    チケット may be avoided while チケット・トゥ・ライド, the title, is a term)."""
    rest = text
    for term in sorted((t.ja for t in glossary.terms), key=len, reverse=True):
        rest = rest.replace(term, "\0")
    return [v for t in glossary.terms for v in t.avoid if v in rest]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_has_a_valid_glossary(game):
    glossary = _glossary(game)
    assert glossary.game == game
    concepts = [t.concept for t in glossary.terms]
    assert len(concepts) == len(set(concepts))
    terms = {t.ja for t in glossary.terms}
    assert not terms & {v for t in glossary.terms for v in t.avoid}  # no term is another's variant


@pytest.mark.parametrize("game", sorted(GAMES))
def test_japanese_catalogs_use_the_glossary_terms(game):
    glossary = _glossary(game)
    strings = _strings(game, glossary)
    assert len(strings) > 20  # the game's own catalogs were found
    found = {key: avoided_in(text, glossary) for key, text in strings.items()}
    assert {key: bad for key, bad in found.items() if bad} == {}


def test_the_term_check_finds_an_avoided_variant_but_not_the_term_inside_a_longer_one():
    glossary = _glossary("ticket_to_ride")
    assert avoided_in("目的地カードを3枚引きました", glossary) == ["目的地カード"]
    assert avoided_in("チケット・トゥ・ライドでチケットを引く", glossary) == []


def test_a_broken_glossary_is_refused():
    good = json.loads((DATA_DIR / "santa_fe" / "glossary.json").read_text(encoding="utf-8"))
    bad_term = {**good, "terms": [{**good["terms"][0], "avoid": [good["terms"][0]["ja"]]}, *good["terms"][1:]]}
    for broken in ({**good, "terms": good["terms"][:2]}, {**good, "extra": 1}, bad_term,
                   {**good, "shared_keys": ["("]}):
        with pytest.raises(ValidationError):
            Glossary.model_validate(broken)

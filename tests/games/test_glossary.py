"""One term per game concept: data/<game>/glossary.json names it (in Japanese as the game's
rulebook does) and the variants to avoid, and no catalog string of that game uses an avoided
variant. A game's strings are all its catalogs (rules, render, Discord: the folders games.json
lists for it) and its keys in the shared catalogs; the shared catalogs' other strings speak of
no game, so they use no game's avoided variants."""
import json
import re
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from games.core.i18n import DATA_DIR, translate

GAMES = json.loads((DATA_DIR / "games.json").read_text(encoding="utf-8"))
SHARED_FOLDERS = ("messages", "discord", "render", "web")


def _shared_catalog(folder: str, lang: str) -> dict[str, str]:
    path = DATA_DIR / folder / (f"{lang}.json" if folder == "messages" else f"messages.{lang}.json")
    return json.loads(path.read_text(encoding="utf-8"))


class Term(BaseModel):
    model_config = ConfigDict(extra="forbid")
    concept: str = Field(min_length=1)
    en: str = Field(min_length=1)
    ja: str = Field(min_length=1)
    avoid: list[str]
    avoid_en: list[str] = []  # English variants to avoid (whole words, any case)
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


def _claims(glossary, key) -> bool:
    return any(re.search(p, key) for p in glossary.shared_keys)


def _strings(game, glossary, lang="ja"):
    out = {}
    for path in _game_catalogs(game, lang):
        out.update(json.loads(path.read_text(encoding="utf-8")))
    for folder in SHARED_FOLDERS:
        for key, text in _shared_catalog(folder, lang).items():
            if _claims(glossary, key):
                out[key] = text
    return out


def _game_catalogs(game, lang):
    """A game's catalogs: its rules words in data/<game>/, its pictures' and its look's below."""
    return sorted((DATA_DIR / game).rglob(f"messages.{lang}.json"))


def avoided_in_english(text, glossary):
    return [v for t in glossary.terms for v in t.avoid_en
            if re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", text, re.IGNORECASE)]


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


@pytest.mark.parametrize("game", sorted(GAMES))
def test_english_catalogs_use_the_glossary_terms(game):
    glossary = _glossary(game)
    found = {key: avoided_in_english(text, glossary) for key, text in _strings(game, glossary, "en").items()}
    assert {key: bad for key, bad in found.items() if bad} == {}


def test_every_catalog_is_one_games_or_shared():
    catalogs = {p.relative_to(DATA_DIR) for p in DATA_DIR.rglob("messages.ja.json")} | {Path("messages/ja.json")}
    shared = {p for p in catalogs if p.parts[0] in SHARED_FOLDERS}
    by_game = {game: set(p.relative_to(DATA_DIR) for p in _game_catalogs(game, "ja")) for game in GAMES}
    assert catalogs == shared | set().union(*by_game.values())
    assert {p.parts[0] for p in shared} == set(SHARED_FOLDERS)
    for game, own in by_game.items():  # the rules' words, and at most its pictures' and its look's
        assert Path(game, "messages.ja.json") in own
        assert own <= {Path(game, "messages.ja.json"), Path(game, "render", "messages.ja.json"),
                       Path(game, "discord", "messages.ja.json")}


def test_a_shared_key_belongs_to_one_game_at_most_and_the_others_speak_of_none():
    glossaries = {game: _glossary(game) for game in GAMES}
    for folder in SHARED_FOLDERS:
        for lang in ("ja", "en"):
            for key, text in _shared_catalog(folder, lang).items():
                owners = [g for g, glossary in glossaries.items() if _claims(glossary, key)]
                assert len(owners) <= 1, (key, owners)
                if owners:
                    continue
                for game, glossary in glossaries.items():
                    bad = avoided_in(text, glossary) if lang == "ja" else avoided_in_english(text, glossary)
                    assert not bad, (folder, key, game, bad)


def test_the_term_check_finds_an_avoided_variant_but_not_the_term_inside_a_longer_one():
    glossary = _glossary("ticket_to_ride")
    assert avoided_in("チケットを3枚引きました", glossary) == ["チケット"]
    assert avoided_in("チケット・トゥ・ライドで目的地カードを引く", glossary) == []
    steam = _glossary("steam")
    assert avoided_in_english("First Deliver (2)", steam) == ["First Deliver"]
    assert avoided_in_english("First Delivery (2), first-deliver", steam) == []


def test_a_broken_glossary_is_refused():
    good = json.loads((DATA_DIR / "santa_fe" / "glossary.json").read_text(encoding="utf-8"))
    bad_term = {**good, "terms": [{**good["terms"][0], "avoid": [good["terms"][0]["ja"]]}, *good["terms"][1:]]}
    for broken in ({**good, "terms": good["terms"][:2]}, {**good, "extra": 1}, bad_term,
                   {**good, "shared_keys": ["("]}):
        with pytest.raises(ValidationError):
            Glossary.model_validate(broken)


def test_steam_colours_read_as_words_in_a_sentence():
    # the rulebook's short 黄/灰 put into a sentence read 「黄の貨物駒」: running text says 黄色の
    glossary = _glossary("steam")
    for colour in ("red", "blue", "yellow", "purple", "gray"):
        for key in ("steam.act.deliver", "steam.act.urbanize", "steam.choice.cube"):
            text = translate("ja", key, {"colour": {"key": f"steam.colour.{colour}"}, "route": "B5-C7",
                                         "hex": "B5", "space": 1, "count": 2})
            assert avoided_in(text, glossary) == [], text

"""Words for Discord: the catalog (data/*/messages.<lang>.json) and Discord's own limits.

* `lang_of(interaction)` — the language of a reply: the interaction's locale (ja → Japanese,
  anything else → English). Public posts use the game's locale instead.
* `t(lang, key, params, names)` — a catalog message.
* `cmd(key)` — a `locale_str` for command/option names and descriptions whose English text
  comes from the catalog and whose Japanese localization `CatalogTranslator` provides when
  the command tree is synced (Discord's name_localizations / description_localizations).
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

import discord
from discord import app_commands

from games.core.i18n import DEFAULT_LANGUAGE, catalog, language_for, translate

CONTENT_MAX = 2000
# a game's thread or forum post archives after a week without messages, Discord's longest:
# async games are slow
THREAD_ARCHIVE_MINUTES = 10080
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FIELD_NAME_MAX = 256
EMBED_TITLE_MAX = 256
EMBED_TOTAL_MAX = 6000
LABEL_MAX = 80  # button label
OPTION_TEXT_MAX = 100  # select option label/description, autocomplete choice name


def lang_of(interaction: discord.Interaction) -> str:
    return language_for(str(interaction.locale) if interaction.locale else None)


def t(lang: str, key: str, params: Mapping[str, Any] | None = None,
      names: Sequence[str] | None = None, **kw: Any) -> str:
    merged = dict(params or {})
    merged.update(kw)
    return translate(lang, key, merged, names)


def event_text(lang: str, event: Any, names: Sequence[str] | None) -> str:
    """An Event (model or its JSON dict) in words."""
    if isinstance(event, dict):
        return translate(lang, event.get("key", ""), event.get("params") or {}, names)
    return translate(lang, event.key, event.params, names)


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, with an ellipsis when it was cut."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)].rstrip() + "…"


def join_lines(lines: Iterable[str], limit: int) -> str:
    """Whole lines joined by newlines, as many as fit in `limit` (then "…")."""
    out: list[str] = []
    size = 0
    for line in lines:
        extra = len(line) + (1 if out else 0)
        if size + extra > limit - 2:
            if not out:
                return clip(line, limit)
            out.append("…")
            break
        out.append(line)
        size += extra
    return "\n".join(out)


def fit_embeds(embeds: list[discord.Embed], total: int = EMBED_TOTAL_MAX - 100) -> list[discord.Embed]:
    """Shorten the longest field values until all embeds together respect Discord's total."""
    def size() -> int:
        n = 0
        for e in embeds:
            n += len(e.title or "") + len(e.description or "")
            n += len(e.footer.text or "") if e.footer else 0
            n += len(e.author.name or "") if e.author else 0
            n += sum(len(f.name or "") + len(f.value or "") for f in e.fields)
        return n

    guard = 0
    while size() > total and guard < 200:
        guard += 1
        longest = None
        for e in embeds:
            for i, f in enumerate(e.fields):
                if longest is None or len(f.value or "") > longest[2]:
                    longest = (e, i, len(f.value or ""))
        if longest is None or longest[2] <= 20:
            for e in embeds:
                if e.description and len(e.description) > 200:
                    e.description = clip(e.description, len(e.description) // 2)
                    break
            else:
                break
            continue
        e, i, length = longest
        field = e.fields[i]
        e.set_field_at(i, name=field.name, value=clip(field.value, max(20, length * 2 // 3)),
                       inline=field.inline)
    return embeds


def cmd(key: str) -> app_commands.locale_str:
    """A command/option name or description: English from the catalog, `key` for the translator."""
    return app_commands.locale_str(translate(DEFAULT_LANGUAGE, key), key=key)


def choice(key: str, value: str) -> app_commands.Choice[str]:
    return app_commands.Choice(name=cmd(key), value=value)


class CatalogTranslator(app_commands.Translator):
    """Japanese localizations of command names, descriptions and choices from the catalog.

    Only strings made with `cmd()` (they carry a catalog key) are translated; English is
    Discord's default, so English locales get no localization entry."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        if not key:
            return None
        lang = language_for(locale.value)
        if lang == DEFAULT_LANGUAGE:
            return None
        return catalog(lang).get(key)

"""The web table's HTML: one small page per mode (watch, play, replay) that loads the table's
script and style from this server and its words from the catalogs (data/web/messages.*.json),
in the reader's language. Nothing is loaded from anywhere else: no fonts, no scripts.
"""
from __future__ import annotations

import html
import json

from games.core.i18n import catalog, translate

# the catalog words the script needs, by the name it uses
SCRIPT_WORDS = (
    "web.table.board", "web.table.scores", "web.table.last", "web.table.log", "web.table.live",
    "web.table.offline", "web.table.replay", "web.table.hand", "web.table.your_move", "web.table.not_your_turn",
    "web.table.places", "web.table.back", "web.table.confirm", "web.table.send", "web.table.moved",
    "web.table.at_place", "web.table.amount", "web.table.group_hint", "web.table.link_expired",
    "web.table.undone", "web.table.seat", "web.table.score", "web.table.rank", "web.table.options",
    "web.replay.step", "web.replay.previous", "web.replay.next", "web.replay.first", "web.replay.last",
    "web.replay.chart", "web.replay.loading", "web.error.no_link", "web.table.watch",
)


def _script_json(data: dict) -> str:
    # inside <script type="application/json">: no "</" may close the element early
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")


def table_page(lang: str, mode: str, game_id: int, base: str, nonce: str) -> str:
    words = {key.split(".", 1)[1]: catalog(lang)[key] for key in SCRIPT_WORDS}
    data = {"mode": mode, "game": game_id, "base": base, "lang": lang, "page": nonce, "words": words}
    title = translate(lang, f"web.title.{mode}", {"game": game_id})
    return f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{html.escape(title)}</title>
<link rel="stylesheet" href="{html.escape(base)}/static/table.css">
<script type="application/json" id="railyard-data">{_script_json(data)}</script>
<script src="{html.escape(base)}/static/table.js" defer></script>
</head>
<body class="mode-{mode}">
<a class="skip" href="#main">{html.escape(translate(lang, "web.table.skip"))}</a>
<header><h1 id="title">{html.escape(title)}</h1><p id="turn" aria-live="polite"></p>
<p id="status" class="status" role="status"></p></header>
<main id="main" tabindex="-1"><noscript>{html.escape(translate(lang, "web.table.noscript"))}</noscript></main>
</body>
</html>
"""


def refused(lang: str, message: str, base: str) -> str:
    title = translate(lang, "web.title.refused")
    return f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<link rel="stylesheet" href="{html.escape(base)}/static/table.css">
</head>
<body><main id="main"><h1>{html.escape(title)}</h1><p class="refused">{html.escape(message)}</p></main></body>
</html>
"""

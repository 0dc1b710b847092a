"""The web table's HTTP server (aiohttp), run inside the bot's process when RAILYARD_WEB_URL is set.

Routes — nothing else is answered (404, or 405 for another method):

    GET  /g/{id}                   the public table (the host allowed spectators: /game settings public_table)
    GET  /g/{id}/table.json        its data;   GET /g/{id}/board.png  its board;  GET /g/{id}/events  live updates
    GET  /g/{id}/replay            the replay; GET /g/{id}/replay.json, /g/{id}/replay/{step}.png, /g/{id}/chart.png
    GET  /g/{id}/play              a player's table (the link's token is in the fragment, read by the page)
    GET  /g/{id}/play/table.json   their table and the options of the step reached (?p=pick&p=pick…)
    GET  /g/{id}/play/board.png, /g/{id}/play/hand.png, /g/{id}/play/events
    POST /g/{id}/play/move         a move (JSON), with the page's CSRF token
    GET  /static/table.js, /static/table.css

A player's requests carry `Authorization: Bearer <token>` (bot/web/links.py); a move also
`X-Railyard-Page` (the nonce the page was served with) and `X-Railyard-CSRF` (the token the
table's data gave for that page), is JSON, and when the browser says where it comes from
(`Origin`) it must be the table's own address. Requests are rate-limited per link (a
player's) or per client address (spectators). The access log names the route, never the
address asked for: no token or query can reach it.

Live updates are server-sent events (`text/event-stream`), read by the page with fetch so that
a player's stream carries its token in a header like every other request.
"""
from __future__ import annotations

import asyncio
import gzip
import json
import logging
import secrets
import time
from pathlib import Path
from typing import Any, Awaitable, Callable
from urllib.parse import urlsplit

from aiohttp import web

from bot.sessions import SessionError, SessionService
from bot.web import pages
from bot.web.links import BadLink, PlayerLink, Signer, player_url
from bot.web.live import Watcher
from bot.web.table import NotShown, Tables, refusal
from games.core import IllegalAction
from games.core.i18n import LANGUAGES, translate
from render import registry as renderers

log = logging.getLogger("railyard.web")

STATIC = Path(__file__).resolve().parent / "static"
STATIC_FILES = {"table.js": "text/javascript", "table.css": "text/css"}
KEEPALIVE = 15.0  # seconds between comments on a quiet event stream (proxies close silent ones)
# event streams held open at once: by one link (a player's tabs), by one address (spectators
# behind one router: a club's room, a classroom)
STREAMS_PER_LINK = 4
STREAMS_PER_ADDRESS = 64
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:;"
                               " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Bucket:
    """A token bucket: `rate` requests a second on average, `burst` at once."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate, self.burst, self.level, self.at = rate, burst, burst, now

    def take(self, now: float) -> bool:
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level >= 1:
            self.level -= 1
            return True
        return False


class RateLimits:
    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: dict[str, Bucket] = {}

    def allow(self, key: str) -> bool:
        now = self.clock()
        if len(self._buckets) > 10_000:  # forget buckets that have refilled
            self._buckets = {k: b for k, b in self._buckets.items() if now - b.at < b.burst / b.rate}
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = Bucket(self.rate, self.burst, now)
        return bucket.take(now)


def language(request: web.Request) -> str:
    asked = request.query.get("lang", "")
    if asked in LANGUAGES:
        return asked
    for part in request.headers.get("Accept-Language", "").split(","):
        tag = part.split(";")[0].strip().lower()
        if tag.startswith("ja"):
            return "ja"
        if tag.startswith("en"):
            return "en"
    return "en"


class WebTable:
    """The server: `await start()`, `await stop()`; `link(game_id, user_id, seat)` for the bot's replies."""

    def __init__(self, service: SessionService, *, base_url: str, host: str = "127.0.0.1", port: int = 8080,
                 signer: Signer, link_hours: int = 12, clock: Callable[[], float] = time.time,
                 poll: float = 1.0, on_commit: Callable[[Any], None] | None = None,
                 rate: float = 8.0, burst: float = 40.0, public_rate: float = 40.0, public_burst: float = 200.0) -> None:
        self.service = service
        self.rebase(base_url)
        self.host, self.port = host, port
        self.signer = signer
        self.link_hours = link_hours
        self.clock = clock
        self.on_commit = on_commit
        self.tables = Tables(service)
        self.watcher = Watcher(service.store, poll)
        self.limits = RateLimits(rate, burst)  # per player's link
        # per client address: spectators behind one address share it, so it is larger
        self.public_limits = RateLimits(public_rate, public_burst)
        self.streams: dict[str, int] = {}
        self.moves_made = 0
        self._runner: web.AppRunner | None = None
        self._static = {name: (STATIC / name).read_bytes() for name in STATIC_FILES}
        # compressed once: a table's script and style are most of what its page weighs
        self._gzipped = {name: gzip.compress(data, 9, mtime=0) for name, data in self._static.items()}
        self.app = self._make_app()

    # ------------------------------------------------------------------ lifecycle
    def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard], client_max_size=64 * 1024)
        r = app.router
        r.add_get(r"/g/{game_id:\d{1,18}}", self.watch_page, allow_head=False)
        r.add_get(r"/g/{game_id:\d{1,18}}/table.json", self.public_json, allow_head=False)
        r.add_get(r"/g/{game_id:\d{1,18}}/board.png", self.public_board, allow_head=False)
        r.add_get(r"/g/{game_id:\d{1,18}}/events", self.public_events, allow_head=False)
        r.add_get(r"/g/{game_id:\d{1,18}}/replay", self.replay_page, allow_head=False)
        r.add_get(r"/g/{game_id:\d{1,18}}/replay.json", self.replay_json, allow_head=False)
        r.add_get(r"/g/{game_id:\d{1,18}}/replay/{step:\d{1,6}}.png", self.replay_board, allow_head=False)
        r.add_get(r"/g/{game_id:\d{1,18}}/chart.png", self.chart, allow_head=False)
        r.add_get(r"/g/{game_id:\d{1,18}}/play", self.play_page, allow_head=False)
        r.add_get(r"/g/{game_id:\d{1,18}}/play/table.json", self.play_json, allow_head=False)
        r.add_get(r"/g/{game_id:\d{1,18}}/play/board.png", self.play_board, allow_head=False)
        r.add_get(r"/g/{game_id:\d{1,18}}/play/hand.png", self.play_hand, allow_head=False)
        r.add_get(r"/g/{game_id:\d{1,18}}/play/events", self.play_events, allow_head=False)
        r.add_post(r"/g/{game_id:\d{1,18}}/play/move", self.play_move)
        r.add_get(r"/static/{name:table\.(js|css)}", self.static, allow_head=False)
        return app

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        if self._runner.addresses:  # the port the system gave, when asked for port 0
            self.port = self._runner.addresses[0][1]
        self.watcher.start()
        log.info("web table listening on %s:%s for %s", self.host, self.port, self.base_url)

    async def stop(self) -> None:
        await self.watcher.stop()
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    def rebase(self, base_url: str) -> None:
        """The table's public address (RAILYARD_WEB_URL): its links, and the Origin a move must come from."""
        self.base_url = base_url.rstrip("/")
        parts = urlsplit(self.base_url)
        self.base_path = parts.path.rstrip("/")
        self.origin = f"{parts.scheme}://{parts.netloc}"

    # ------------------------------------------------------------------ for the bot
    def link(self, game_id: int, user_id: str, seat: int) -> str:
        """A player's personal link to the game, good for RAILYARD_WEB_LINK_HOURS."""
        expires = int(self.clock()) + self.link_hours * 3600
        token = self.signer.sign(PlayerLink(game_id=game_id, user_id=str(user_id), seat=seat, expires=expires))
        return player_url(self.base_url, token, game_id)

    def notify(self, game_id: int) -> None:
        self.watcher.notify(game_id)

    # ------------------------------------------------------------------ the guard around every request
    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        started = time.perf_counter()
        status = 500
        try:
            try:
                response = await handler(request)
            except _Refused as exc:  # a refusal in the reader's words, as JSON
                response = self._error(request, exc.key, exc.status)
            status = response.status
        except web.HTTPException as exc:
            status = exc.status
            if exc.status in (404, 405):
                response = self._plain(request, "web.error.not_found" if exc.status == 404 else "web.error.method",
                                       exc.status)
                if "Allow" in exc.headers:
                    response.headers["Allow"] = exc.headers["Allow"]
            else:
                raise
        finally:
            # the route's pattern, never the address: no token, no query
            info = request.match_info.route.resource if request.match_info.route else None
            shown = info.canonical if info is not None else "-"
            log.debug("%s %s %s %.1f ms", request.method, shown, status, (time.perf_counter() - started) * 1000)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if type(response) is web.Response and response.content_type in ("application/json", "text/html") \
                and "Content-Encoding" not in response.headers:
            response.enable_compression()  # gzip or deflate, as the browser accepts; the log grows with the game
        return response

    def _plain(self, request: web.Request, key: str, status: int) -> web.Response:
        return web.Response(text=translate(language(request), key), status=status,
                            content_type="text/plain", charset="utf-8")

    @staticmethod
    def _json(data: Any, status: int = 200) -> web.Response:
        return web.Response(text=json.dumps(data, ensure_ascii=False, separators=(",", ":")), status=status,
                            content_type="application/json", headers={"Cache-Control": "no-store"})

    def _error(self, request: web.Request, key: str, status: int, **params: Any) -> web.Response:
        return self._json({"error": translate(language(request), key, params), "code": key}, status)

    @staticmethod
    def _client(request: web.Request) -> str:
        """The client's address; behind a reverse proxy on the same machine, the one it names."""
        peer = request.remote or "-"
        forwarded = request.headers.get("X-Forwarded-For", "")
        if forwarded and peer in ("127.0.0.1", "::1"):
            return forwarded.split(",")[-1].strip() or peer
        return peer

    @staticmethod
    def _game_id(request: web.Request) -> int:
        return int(request.match_info["game_id"])

    # ------------------------------------------------------------------ spectators
    async def _public(self, request: web.Request, *, with_actions: bool = False):
        if not self.public_limits.allow("addr:" + self._client(request)):
            raise _Refused("web.error.slow_down", 429)
        try:
            return await self.tables.public_game(self._game_id(request), with_actions=with_actions)
        except NotShown as exc:
            raise _Refused(exc.key, exc.status) from None

    async def watch_page(self, request: web.Request) -> web.StreamResponse:
        return await self._page(request, "watch")

    async def replay_page(self, request: web.Request) -> web.StreamResponse:
        return await self._page(request, "replay")

    async def play_page(self, request: web.Request) -> web.StreamResponse:
        # the page is the same for everyone; the token (in the fragment) never reaches here
        return await self._page(request, "play")

    async def _page(self, request: web.Request, mode: str) -> web.StreamResponse:
        lang = language(request)
        game_id = self._game_id(request)
        if mode != "play":
            try:
                await self._public(request)
            except _Refused as exc:
                html = pages.refused(lang, translate(lang, exc.key), self.base_path)
                return web.Response(text=html, status=exc.status, content_type="text/html", charset="utf-8",
                                    headers={"Cache-Control": "no-store"})
        nonce = secrets.token_urlsafe(18) if mode == "play" else ""
        html = pages.table_page(lang, mode, game_id, self.base_path, nonce)
        return web.Response(text=html, content_type="text/html", charset="utf-8",
                            headers={"Cache-Control": "no-store"})

    async def public_json(self, request: web.Request) -> web.StreamResponse:
        ld, actions = await self._public(request, with_actions=True)
        return self._json(self.tables.public_table(ld, language(request), actions))

    async def public_board(self, request: web.Request) -> web.StreamResponse:
        ld, _ = await self._public(request)
        return self._png(await self.tables.board(ld, language(request)))

    async def public_events(self, request: web.Request) -> web.StreamResponse:
        ld, _ = await self._public(request)
        return await self._stream(request, "addr:" + self._client(request), ld.row.id, ld.row.version)

    async def replay_json(self, request: web.Request) -> web.StreamResponse:
        ld, actions = await self._public(request, with_actions=True)
        lang = language(request)
        frames = await self.tables.frames(ld, actions, lang)
        return self._json({"game_id": ld.row.id, "title": translate(lang, f"{ld.row.game}.title"),
                           "status": ld.row.status, "version": ld.row.version,
                           "frames": [{"played": f.played, "seat": f.seat, "text": f.text} for f in frames]})

    async def replay_board(self, request: web.Request) -> web.StreamResponse:
        ld, actions = await self._public(request, with_actions=True)
        lang = language(request)
        step = int(request.match_info["step"])
        frames = await self.tables.frames(ld, actions, lang)
        if step >= len(frames):
            return self._error(request, "web.error.not_found", 404)
        return self._png(await self.tables.replay_board(ld, actions, step, lang), cache=True)

    async def chart(self, request: web.Request) -> web.StreamResponse:
        ld, _ = await self._public(request)
        data = await self.tables.chart(ld, language(request))
        if data is None:
            return self._error(request, "web.error.no_chart", 404)
        return self._png(data)

    @staticmethod
    def _png(data: bytes, *, cache: bool = False) -> web.Response:
        return web.Response(body=data, content_type="image/png",
                            headers={"Cache-Control": "private, max-age=300" if cache else "no-store"})

    # ------------------------------------------------------------------ a player
    def _link(self, request: web.Request) -> PlayerLink:
        header = request.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise _Refused("web.error.no_link", 401)
        try:
            link = self.signer.read(token, self.clock())
        except BadLink as exc:
            raise _Refused(f"web.error.link_{exc.reason}", 401) from None
        if link.game_id != self._game_id(request):
            raise _Refused("web.error.link_forged", 401)
        if not self.limits.allow("link:" + link.key):
            raise _Refused("web.error.slow_down", 429)
        return link

    async def _player(self, request: web.Request):
        link = self._link(request)
        try:
            ld = await self.tables.player_game(link.game_id, link.user_id, link.seat)
        except NotShown as exc:
            raise _Refused(exc.key, exc.status) from None
        return link, ld

    async def play_json(self, request: web.Request) -> web.StreamResponse:
        link, ld = await self._player(request)
        lang = language(request)
        picks = request.query.getall("p", [])
        async with self.service.store.read() as tx:
            actions = await tx.actions(ld.row.id)
        try:
            data = self.tables.player(ld, link.seat, lang, picks, actions)
        except IllegalAction as exc:
            return self._json({"error": refusal(lang, exc), "code": exc.code}, 400)
        nonce = request.headers.get("X-Railyard-Page", "")
        data["csrf"] = self.signer.page_token(link, nonce) if nonce else None
        data["size"] = png_size(await self.tables.board(ld, lang))  # the places' coordinates are this image's
        data["expires"] = link.expires
        places = renderers.get(ld.row.game).places
        # a board whose own markers are numbers on white discs gets dark badges, as its pick pictures do
        data["dark"] = bool(places is not None and places.dark_badges)
        return self._json(data)

    async def play_board(self, request: web.Request) -> web.StreamResponse:
        _, ld = await self._player(request)
        return self._png(await self.tables.board(ld, language(request)))

    async def play_hand(self, request: web.Request) -> web.StreamResponse:
        link, ld = await self._player(request)
        return self._png(await self.tables.hand(ld, link.seat, language(request)))

    async def play_events(self, request: web.Request) -> web.StreamResponse:
        link, ld = await self._player(request)
        return await self._stream(request, "link:" + link.key, ld.row.id, ld.row.version)

    async def play_move(self, request: web.Request) -> web.StreamResponse:
        lang = language(request)
        link = self._link(request)
        origin = request.headers.get("Origin")
        if origin is not None and origin != self.origin:
            return self._error(request, "web.error.csrf", 403)
        nonce, csrf = request.headers.get("X-Railyard-Page", ""), request.headers.get("X-Railyard-CSRF", "")
        if not self.signer.check_page_token(link, nonce, csrf):
            return self._error(request, "web.error.csrf", 403)
        if request.content_type != "application/json":
            return self._error(request, "web.error.bad_request", 400)
        try:
            body = await request.json()
        except ValueError:
            return self._error(request, "web.error.bad_request", 400)
        if not isinstance(body, dict):
            return self._error(request, "web.error.bad_request", 400)
        try:
            ld = await self.tables.player_game(link.game_id, link.user_id, link.seat)
        except NotShown as exc:
            return self._error(request, exc.key, exc.status)
        started = time.perf_counter()
        try:
            outcome = await self.tables.move(ld, link.seat, body)
        except (SessionError, IllegalAction) as exc:
            status = 409 if getattr(exc, "code", "") == "stale_version" else 400
            return self._json({"error": refusal(lang, exc), "code": exc.code}, status)
        self.moves_made += 1
        if outcome is not None:
            if self.on_commit is not None:
                self.on_commit(outcome)
            self.notify(outcome.game_id)
        log.debug("a move from the web table of game %s took %.1f ms", ld.row.id,
                  (time.perf_counter() - started) * 1000)
        return self._json({"version": outcome.version if outcome is not None else ld.row.version})

    # ------------------------------------------------------------------ live updates
    async def _stream(self, request: web.Request, key: str, game_id: int, version: int) -> web.StreamResponse:
        if self.streams.get(key, 0) >= (STREAMS_PER_LINK if key.startswith("link:") else STREAMS_PER_ADDRESS):
            return self._error(request, "web.error.slow_down", 429)
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                               "X-Accel-Buffering": "no"})
        for name, value in SECURITY_HEADERS.items():
            response.headers[name] = value
        self.streams[key] = self.streams.get(key, 0) + 1
        try:
            await response.prepare(request)
            with self.watcher.watching(game_id, version):
                known = version
                await response.write(f"event: version\ndata: {known}\n\n".encode())
                while True:
                    changed = await self.watcher.changed(game_id, known, KEEPALIVE)
                    if changed is None:
                        if not self.watcher.running:
                            break
                        await response.write(b": still here\n\n")
                        continue
                    known = changed
                    await response.write(f"event: version\ndata: {known}\n\n".encode())
        except ConnectionResetError:
            pass  # the reader went away
        finally:
            self.streams[key] -= 1
            if not self.streams[key]:
                del self.streams[key]
        return response

    # ------------------------------------------------------------------ files
    async def static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in STATIC_FILES:
            raise web.HTTPNotFound()
        headers = {"Cache-Control": "public, max-age=3600", "Vary": "Accept-Encoding"}
        body = self._static[name]
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            body, headers["Content-Encoding"] = self._gzipped[name], "gzip"
        return web.Response(body=body, content_type=STATIC_FILES[name], charset="utf-8", headers=headers)


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


class _Refused(Exception):
    def __init__(self, key: str, status: int) -> None:
        super().__init__(key)
        self.key, self.status = key, status

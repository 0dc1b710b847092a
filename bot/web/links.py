"""The web table's addresses and the signed links that open a player's table.

A player's link carries a token: the game, the player's Discord id, their seat and when the
link stops working, signed with HMAC-SHA256. Nothing is stored: any process holding the
secret checks a token by itself, and a link "reused after a kick" is refused because the
seat it names no longer belongs to that player (the seats table says who sits there now).

The token travels in the address's fragment (`/g/12/play#t=…`), which browsers never send
to a server: it cannot reach an access log, a proxy's log or a Referer header. The page's
script reads it and sends it in the `Authorization` header of its own requests.

The secret is RAILYARD_WEB_SECRET, or else derived from the bot's token (every process of a
deployment has it; resetting the token ends every link given out).

Pages also need a CSRF token for a move: `page_token` binds one to the link and to the page
load that asked for it (a random nonce the page keeps), so a move needs the page as served,
not only the link.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass

TOKEN_VERSION = "1"


def web_secret(explicit: str | None, bot_token: str) -> bytes:
    """The key links are signed with: the configured secret, else one derived from the bot's
    token (never the token itself)."""
    if explicit:
        return hashlib.sha256(b"railyard-web:" + explicit.encode()).digest()
    if not bot_token:
        # a process without a token (tests building the table alone) signs with a key of its own
        return secrets.token_bytes(32)
    return hmac.new(bot_token.encode(), b"railyard web table links", hashlib.sha256).digest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class PlayerLink:
    """What a valid token says: the game, the player, their seat, until when."""

    game_id: int
    user_id: str
    seat: int
    expires: int

    @property
    def key(self) -> str:
        """A short name of this link (rate limits, CSRF), never the token itself."""
        return f"{self.game_id}:{self.user_id}:{self.seat}:{self.expires}"


class BadLink(Exception):
    """A token that is forged, malformed or expired: `reason` is "forged" or "expired"."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Signer:
    def __init__(self, key: bytes) -> None:
        self._key = key

    def _mac(self, *parts: str) -> bytes:
        return hmac.new(self._key, "|".join(parts).encode(), hashlib.sha256).digest()[:18]

    def sign(self, link: PlayerLink) -> str:
        body = f"{TOKEN_VERSION}.{link.game_id}.{link.user_id}.{link.seat}.{link.expires}"
        return f"{_b64(body.encode())}.{_b64(self._mac('link', body))}"

    def read(self, token: str, now: float) -> PlayerLink:
        """The link a token stands for; BadLink when it is not one this server signed or has expired."""
        try:
            body_b64, mac_b64 = token.strip().split(".")
            body = _unb64(body_b64).decode()
            mac = _unb64(mac_b64)
        except (ValueError, UnicodeDecodeError):
            raise BadLink("forged") from None
        if not hmac.compare_digest(mac, self._mac("link", body)):
            raise BadLink("forged")
        version, game_id, user_id, seat, expires = body.split(".")
        if version != TOKEN_VERSION:
            raise BadLink("forged")
        link = PlayerLink(game_id=int(game_id), user_id=user_id, seat=int(seat), expires=int(expires))
        if now >= link.expires:
            raise BadLink("expired")
        return link

    def page_token(self, link: PlayerLink, nonce: str) -> str:
        """The CSRF token of one page load of this link (`nonce`: the page's own)."""
        return _b64(self._mac("page", link.key, nonce))

    def check_page_token(self, link: PlayerLink, nonce: str, token: str) -> bool:
        return bool(nonce) and hmac.compare_digest(token.encode(), self.page_token(link, nonce).encode())


def table_url(base: str, game_id: int) -> str:
    return f"{base.rstrip('/')}/g/{game_id}"


def spectator_url(base: str, game_id: int) -> str:
    return table_url(base, game_id)


def replay_url(base: str, game_id: int) -> str:
    return f"{table_url(base, game_id)}/replay"


def player_url(base: str, token: str, game_id: int) -> str:
    return f"{table_url(base, game_id)}/play#t={token}"

"""The web table: a small aiohttp server in the bot's process that shows a game in a browser —
the live public table, a player's own table (their hand, their options on the board, their
moves through the sessions service) and the replay. An adapter beside bot/discord: it imports
the sessions service, the games and the renderers, never discord.

    server.py   the routes, the security around them (links, CSRF, rate limits), live updates
    table.py    what a table shows, read from the service; moves made through it
    links.py    signed, expiring links bound to a player and a seat
    live.py     which games are watched, and their versions polled from the database
    pages.py    the HTML; static/ its script and style
"""
from bot.web.links import PlayerLink, Signer, player_url, replay_url, spectator_url, web_secret
from bot.web.server import WebTable

__all__ = ["PlayerLink", "Signer", "WebTable", "player_url", "replay_url", "spectator_url", "web_secret"]

"""Railyard's Discord components and each game's way of showing itself (buttons, embeds)."""

from bot.discord.ui import ginga as _ginga  # noqa: E402,F401  (registers the Galactic Railway UI)
from bot.discord.ui import santa_fe as _santa_fe  # noqa: E402,F401  (registers the Santa Fe UI)

"""Each game's look on Discord (colour, emoji, status embed, hand text), registered here:
one import per game, so a game without a look is visible in this list, not a silent default."""

from bot.discord.ui import ginga as _ginga  # noqa: F401  (registers the Galactic Railway look)
from bot.discord.ui import santa_fe as _santa_fe  # noqa: F401  (registers the Santa Fe look)
from bot.discord.ui import ticket_to_ride as _ticket_to_ride  # noqa: F401  (registers the Ticket to Ride look)

"""Each game's look on Discord (colour, emoji, status embed, hand text): the look column of
data/games.json (games/catalog.py). Each look module registers itself when imported; a game
whose look cannot be imported fails here, at start, not at its first post."""
import importlib

from games.catalog import entries

for _entry in entries().values():
    importlib.import_module(_entry.look)

"""Steam (Martin Wallace): rail building and goods delivery on a hex map.

This package holds the game's data layer so far — tiles and the double-sided stock (tiles.py),
the two maps (maps.py), the loose components and fixed numbers (components.py) and where track
may go (legality.py). The game is not registered in data/games.json until its rules exist.
"""

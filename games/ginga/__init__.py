"""銀河鉄道 英楽園 (Galactic Railway): the tile game."""

"""Steam (Martin Wallace): rail building and goods delivery on a hex map.

rules.py is the Game; the phases' work is in auction.py, building.py (with legality.py, where
track may go), delivery.py and economy.py / income.py; map.py reads the two maps, tiles.py the
tiles and their double-sided stock, components.py the fixed numbers; derived.py keeps what is
worked out once per position (the parsed rails, runs and the delivery network).
"""

"""Catan Express's rules, a module per job; rules.py wires them into the game.

facts     what a position says (derived board facts, cards in hand and bank, pieces left,
          points), the price tables, and the reason a move made at the wrong time gets
moves     the moves the menus list again and again, made once (frozen values)
turn      a turn's start and the game's end
setup     the snake-order setup: settlements, start cards, the free rail (CE-B6, CE-3)
roll      the roll and what it produces (CE-B1)
gold      gold river owners taking their cards (CE-B1)
discard   a 7: discarding half (CE-B4)
robber    moving the robber, by a 7 or a knight, and robbing (CE-B4)
devcards  buying and playing development cards (CE-B3)
trade     the bank, harbours and offers between players (CE-B5)
build     settlements, cities, rails and ferries in a turn (CE-2, CE-4, CE-5, CE-B7)
ride      the locomotive's move in the race (CE-8 … CE-11)
stops     the race's starter and the naming of stops (CE-6, CE-7)
end       ending a turn: special building turns (CE-B7), the race beginning, a stuck race
menus     each phase's menu, from the kinds' listers

Each move kind's module gives its `refusal(state, seat, action)` (None: allowed; else the most
useful reason), the handler that makes it, and the lister of its moves for the menus.
"""

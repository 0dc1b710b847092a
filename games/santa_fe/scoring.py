"""Santa Fe scoring (SF-10): $1 = 1 point; each played city card = value × railroads connected
to that city; ties broken by the most 7-value cards played, then shared."""
from __future__ import annotations

from games.core.protocol import PlayerResult, Result, ScoreLine
from games.core.ranking import TieBreak, rank
from games.santa_fe.map import SantaFeMap
from games.santa_fe.models import SantaFeState

CATEGORIES = ["money", "cities"]
TIE_BREAKS = (TieBreak("sevens", "santa_fe.tie.sevens"),)  # SF-10: then shared


def railroads_at(mask: int) -> int:
    return bin(mask).count("1")


def card_points(board: SantaFeMap, state: SantaFeState, city: int) -> int:
    return board.values[city] * railroads_at(state.connected[city])


def score(board: SantaFeMap, state: SantaFeState, seat: int) -> int:
    p = state.players[seat]
    return p.money + sum(card_points(board, state, c) for c in p.played)


def final_result(board: SantaFeMap, state: SantaFeState) -> Result:
    from games.santa_fe.notation import city_words

    rows: list[PlayerResult] = []
    for seat, p in enumerate(state.players):
        lines = [ScoreLine(category="money", points=p.money, key="santa_fe.line.money", params={"money": p.money})]
        for city in p.played:
            k = railroads_at(state.connected[city])
            lines.append(ScoreLine(category="cities", points=board.values[city] * k, key="santa_fe.line.city",
                                   params={"city": city_words(board, city), "value": board.values[city],
                                           "railroads": k}))
        sevens = sum(1 for c in p.played if board.values[c] == 7)
        rows.append(PlayerResult(seat=seat, rank=0, total=sum(line.points for line in lines), lines=lines,
                                 stats={"sevens": sevens, "money": p.money, "cards": len(p.played)}))

    ties = rank(rows, TIE_BREAKS, "santa_fe.tie.shared")
    return Result(players=rows, categories=list(CATEGORIES), label_prefix="santa_fe", reason=state.end_reason or "end",
                  ties=ties)

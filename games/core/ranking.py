"""Final rankings with their tie-breaks: the players in order, their places, and for every two
neighbours on the same total which rule decided between them (games.core.protocol.Tie).

Each game states its tie-breaks as data, in the rulebook's order: the stat of PlayerResult.stats
compared, which way wins, and the catalog key of the sentence that says it decided. One
function sorts, numbers the places and records the ties, so the order and its reasons always
agree and no renderer has to work them out again.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from games.core.protocol import PlayerResult, Tie


@dataclass(frozen=True)
class TieBreak:
    """One tie-break rule: the higher `stat` wins (the lower with `lower`); `key` is the catalog
    key of the sentence saying it decided (see Tie)."""

    stat: str
    key: str
    lower: bool = False
    params: Mapping[str, Any] = field(default_factory=dict)  # more words for the sentence

    def value(self, row: PlayerResult) -> Any:
        return row.stats[self.stat]

    def sort_key(self, row: PlayerResult) -> Any:
        value = self.value(row)
        return value if self.lower else -value


def rank(rows: list[PlayerResult], breaks: Sequence[TieBreak], shared_key: str) -> list[Tie]:
    """Order `rows` in place by total then by `breaks`; give each its place (players level on
    the total and on every tie-break share it, ordered by seat) and return the ties between
    neighbours on the same total: the first rule that tells them apart, else `shared_key`."""
    rows.sort(key=lambda r: (-r.total, *(b.sort_key(r) for b in breaks), r.seat))
    ties: list[Tie] = []
    for position, row in enumerate(rows):
        prev = rows[position - 1] if position else None
        if prev is None or prev.total != row.total:
            row.rank = position + 1
            continue
        deciding = next((b for b in breaks if b.value(prev) != b.value(row)), None)
        if deciding is None:
            row.rank = prev.rank
            ties.append(Tie(above=prev.seat, below=row.seat, key=shared_key, shared=True,
                            params={"points": row.total}))
        else:
            row.rank = position + 1
            ties.append(Tie(above=prev.seat, below=row.seat, key=deciding.key,
                            params={**deciding.params, "points": row.total, "above": deciding.value(prev),
                                    "below": deciding.value(row)}))
    return ties

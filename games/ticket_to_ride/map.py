"""The USA map as data: cities, routes, tickets and deck, read from data/ticket_to_ride/map.json.

The rules only hold rules; every number about the board lives in the data file and is
validated here (and again by a test that checks every count the rulebook states).
"""
from __future__ import annotations

import json
from functools import cached_property, lru_cache
from pathlib import Path

from pydantic import BaseModel, ValidationError, field_validator, model_validator

from games.core.errors import DataError

MAP_PATH = Path(__file__).resolve().parents[2] / "data" / "ticket_to_ride" / "map.json"
LOCOMOTIVE = "locomotive"
GRAY = "gray"


class City(BaseModel):
    name: str
    name_ja: str
    x: float
    y: float

    @field_validator("x", "y")
    @classmethod
    def _on_board(cls, v: float) -> float:
        if not 0.0 <= v <= 1.0:
            raise ValueError("coordinates are normalised to 0..1")
        return v


class Route(BaseModel):
    id: int
    code: str
    a: str
    b: str
    length: int
    color: str
    double: int | None = None

    @field_validator("length")
    @classmethod
    def _length(cls, v: int) -> int:
        if not 1 <= v <= 6:
            raise ValueError("route length must be 1..6")
        return v


class Ticket(BaseModel):
    id: int
    a: str
    b: str
    points: int


class Deck(BaseModel):
    colors: list[str]
    cards_per_color: int
    locomotives: int


class RulesConstants(BaseModel):
    players_min: int
    players_max: int
    trains_per_player: int
    initial_cards: int
    face_up: int
    face_up_loco_reset: int
    initial_tickets: int
    initial_keep_min: int
    draw_tickets: int
    draw_keep_min: int
    route_points: dict[int, int]
    longest_path_bonus: int
    end_trains_at_most: int
    doubles_min_players: int


class TicketToRideMap(BaseModel):
    format: int
    title: dict[str, str]
    board_aspect: float
    cities: list[City]
    routes: list[Route]
    tickets: list[Ticket]
    deck: Deck
    rules: RulesConstants

    @model_validator(mode="after")
    def _consistent(self) -> "TicketToRideMap":
        names = {c.name for c in self.cities}
        if len(names) != len(self.cities):
            raise ValueError("duplicate city names")
        for i, r in enumerate(self.routes):
            if r.id != i:
                raise ValueError(f"route ids must be 0..n-1 in order (route {r.code})")
            if r.a not in names or r.b not in names:
                raise ValueError(f"route {r.code} names an unknown city")
            if r.color != GRAY and r.color not in self.deck.colors:
                raise ValueError(f"route {r.code} has unknown colour {r.color}")
        for t in self.tickets:
            if t.a not in names or t.b not in names:
                raise ValueError(f"ticket {t.id} names an unknown city")
        if len({r.code for r in self.routes}) != len(self.routes):
            raise ValueError("route codes must be unique")
        if len({t.id for t in self.tickets}) != len(self.tickets):
            raise ValueError("ticket ids must be unique")
        return self

    # --- derived lookups (computed once) ---------------------------------------------
    @cached_property
    def card_colors(self) -> list[str]:
        """The nine card kinds: the eight colours, then the locomotive."""
        return [*self.deck.colors, LOCOMOTIVE]

    @cached_property
    def city_index(self) -> dict[str, int]:
        return {c.name: i for i, c in enumerate(self.cities)}

    @cached_property
    def route_by_code(self) -> dict[str, Route]:
        return {r.code.lower(): r for r in self.routes}

    @cached_property
    def ticket_by_id(self) -> dict[int, Ticket]:
        return {t.id: t for t in self.tickets}

    @cached_property
    def twin(self) -> dict[int, int]:
        """Route id -> the other half of its double route."""
        groups: dict[int, list[int]] = {}
        for r in self.routes:
            if r.double is not None:
                groups.setdefault(r.double, []).append(r.id)
        out: dict[int, int] = {}
        for ids in groups.values():
            if len(ids) != 2:
                raise DataError(f"double route group {ids} must have exactly two halves")
            out[ids[0]], out[ids[1]] = ids[1], ids[0]
        return out

    @cached_property
    def route_ends(self) -> list[tuple[int, int]]:
        return [(self.city_index[r.a], self.city_index[r.b]) for r in self.routes]

    def city_label(self, name: str, lang: str) -> str:
        if lang == "ja":
            return self.cities[self.city_index[name]].name_ja
        return name

    def total_cards(self) -> int:
        return len(self.deck.colors) * self.deck.cards_per_color + self.deck.locomotives


def load_map(path: Path) -> TicketToRideMap:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return TicketToRideMap.model_validate(data)
    except (OSError, ValueError, ValidationError) as exc:
        raise DataError(f"Ticket to Ride map {path} is broken: {exc}") from exc


@lru_cache(maxsize=1)
def usa() -> TicketToRideMap:
    return load_map(MAP_PATH)

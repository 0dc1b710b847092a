"""Catan Express's loose components and fixed numbers: the five resources, what each terrain
yields, the bank, build costs and the parallel fee, pieces per player, the development decks,
Largest Army, the victory point values and the race's numbers (CE-B1 … CE-B5, CE-2, CE-4 …
CE-9).

Why it is shaped so
    These numbers do not depend on the map, so they live in one file
    (data/catan_express/components.json) apart from the layouts; the rules read them from here
    rather than repeating literals, and tests/games/catan_express/test_economy.py checks each against the
    rulings. Numbers that change with the player count (bank, deck, stop rounds) are keyed by
    the count, so a missing count is a data error rather than a silent default.
"""
from __future__ import annotations

from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from games.core.datafile import read_model

COMPONENTS_PATH = Path(__file__).resolve().parents[2] / "data" / "catan_express" / "components.json"


class Resource(StrEnum):
    """The five resources, in the order a hand lists them."""

    LUMBER = "lumber"
    BRICK = "brick"
    WOOL = "wool"
    GRAIN = "grain"
    ORE = "ore"


RESOURCES: tuple[Resource, ...] = tuple(Resource)


class DevCard(StrEnum):
    """The development cards' kinds (CE-B3)."""

    KNIGHT = "knight"
    VICTORY_POINT = "victory_point"
    ROAD_BUILDING = "road_building"
    YEAR_OF_PLENTY = "year_of_plenty"
    MONOPOLY = "monopoly"


GOLD = "choice"  # the terrains entry of a hex whose owners choose what it yields (CE-B1)

Costed = Literal["settlement", "city", "development_card", "rail", "ferry"]
Building = Literal["settlement", "city"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DevelopmentDeck(_Strict):
    players: list[int]
    cards: dict[DevCard, int]

    @field_validator("cards")
    @classmethod
    def _every_kind(cls, v: dict[DevCard, int]) -> dict[DevCard, int]:
        if set(v) != set(DevCard) or min(v.values()) < 1:
            raise ValueError(f"give a positive count for each of {[c.value for c in DevCard]}")
        return v

    @property
    def size(self) -> int:
        return sum(self.cards.values())


class LargestArmy(_Strict):
    knights: int
    points: int


class Points(_Strict):
    settlement: int
    city: int
    victory_point_card: int
    victory_point_chip: int
    water_tower: int
    fastest_driver: int


class BankTrade(_Strict):
    plain: int
    generic_harbour: int
    resource_harbour: int

    @model_validator(mode="after")
    def _harbours_help(self) -> "BankTrade":
        if not self.plain > self.generic_harbour > self.resource_harbour >= 1:
            raise ValueError("bank trade ratios must fall: plain > generic harbour > resource harbour >= 1")
        return self


class Players(_Strict):
    min: int
    max: int


class Components(_Strict):
    format: int
    players: Players
    resources: list[Resource]
    terrains: dict[str, Resource | Literal["choice"] | None]
    bank_per_resource: dict[int, int]
    costs: dict[str, dict[Resource, int]]
    parallel_fee_per_owner: dict[Resource, int]
    pieces_per_player: dict[str, int]
    production: dict[str, int]
    development_decks: list[DevelopmentDeck]
    road_building_pieces: int
    year_of_plenty_cards: int
    largest_army: LargestArmy
    points: Points
    cities_before_race: int
    cities_added_at_race: int
    race_start_points: int
    stop_rounds: dict[int, int]
    robber_roll: int
    discard_over: int
    bank_trade: BankTrade

    @field_validator("resources")
    @classmethod
    def _resources_in_order(cls, v: list[Resource]) -> list[Resource]:
        if tuple(v) != RESOURCES:
            raise ValueError(f"resources must be exactly {[r.value for r in RESOURCES]} in that order")
        return v

    @field_validator("costs")
    @classmethod
    def _positive_costs(cls, v: dict[str, dict[Resource, int]]) -> dict[str, dict[Resource, int]]:
        for item, amounts in v.items():
            if not amounts or min(amounts.values()) < 1:
                raise ValueError(f"the cost of {item} names at least one resource, each at least 1")
        return v

    @field_validator("parallel_fee_per_owner")
    @classmethod
    def _positive_fee(cls, v: dict[Resource, int]) -> dict[Resource, int]:
        if not v or min(v.values()) < 1:
            raise ValueError("the parallel fee names at least one resource, each at least 1")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> "Components":
        counts = range(self.players.min, self.players.max + 1)
        for name, table in (("bank_per_resource", self.bank_per_resource), ("stop_rounds", self.stop_rounds)):
            if set(table) != set(counts):
                raise ValueError(f"{name} needs exactly the player counts {list(counts)}")
        covered = sorted(p for deck in self.development_decks for p in deck.players)
        if covered != list(counts):
            raise ValueError(f"development_decks must cover each player count {list(counts)} exactly once")
        if set(self.costs) != {"settlement", "city", "development_card", "rail", "ferry"}:
            raise ValueError("costs needs settlement, city, development_card, rail and ferry")
        if set(self.pieces_per_player) != {"settlement", "city", "rail", "ferry"}:
            raise ValueError("pieces_per_player needs settlement, city, rail and ferry")
        if set(self.production) != {"settlement", "city"}:
            raise ValueError("production needs settlement and city")
        produced = {t for t in self.terrains.values() if isinstance(t, Resource)}
        if produced != set(Resource):
            raise ValueError("every resource must come from some terrain")
        if self.cities_before_race + self.cities_added_at_race != self.pieces_per_player["city"]:
            raise ValueError("cities before the race plus those added at the race must be the city pieces")
        return self

    def bank_size(self, players: int) -> int:
        """Cards of each resource in the bank (CE-B1: 19, or 24 with 5–6 players)."""
        return self.bank_per_resource[players]

    def deck(self, players: int) -> DevelopmentDeck:
        """The development deck used with this many players (CE-B3: 25, or 34 with 5–6)."""
        return next(d for d in self.development_decks if players in d.players)

    def cost(self, item: Costed) -> dict[Resource, int]:
        return self.costs[item]

    def yields(self, terrain: str) -> Resource | Literal["choice"] | None:
        """What a hex of this terrain produces: a resource, GOLD (the owner's choice) or None."""
        return self.terrains[terrain]


def load_components(path: Path = COMPONENTS_PATH) -> Components:
    return read_model(path, Components, "Catan Express components file")


@lru_cache(maxsize=1)
def components() -> Components:
    return load_components()

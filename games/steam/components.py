"""Steam's loose components and fixed numbers: cubes, supply spaces, new city tiles, growth
markers, action tiles, turns per player count, build costs (rulebook contents list, ST-1, ST-2,
ST-M4, ST-11, ST-14).

Why it is shaped so
    These numbers are the same on both maps, so they live in one file (data/steam/components.json)
    apart from the maps and tiles; the rules read them from here rather than repeating literals,
    and tests/games/steam/test_data.py checks each against the rulebook.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, field_validator, model_validator

from games.core.datafile import read_model
from games.steam.map import Colour, PRINTED_COLOURS

COMPONENTS_PATH = Path(__file__).resolve().parents[2] / "data" / "steam" / "components.json"


class ActionTile(BaseModel):
    number: int
    id: str
    name: dict[str, str]
    cost: int = 0
    cost_plus_new_level: bool = False


class BuildCosts(BaseModel):
    exit: int
    town: int
    river: int
    hills: int
    replacing_town_tile: int


class Components(BaseModel):
    format: int
    cubes: dict[Colour, int]
    supply_spaces: int
    supply_cubes_per_space: dict[str, int]
    new_city_tiles: dict[Colour, int]
    growth_markers: int
    player_colours: int
    player_tokens_per_colour: int
    game_turns: dict[int, int]
    locomotive: dict[str, int]
    placements_per_turn: dict[str, int]
    build_costs: BuildCosts
    action_tiles: list[ActionTile]

    @field_validator("cubes", "new_city_tiles")
    @classmethod
    def _every_colour(cls, v: dict[Colour, int]) -> dict[Colour, int]:
        if set(v) != set(Colour):
            raise ValueError(f"give a number for each of {[c.value for c in Colour]}")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> "Components":
        numbers = [a.number for a in self.action_tiles]
        if numbers != list(range(1, len(numbers) + 1)):
            raise ValueError("action tiles are numbered 1, 2, 3, … in order")
        if "default" not in self.supply_cubes_per_space or "default" not in self.placements_per_turn:
            raise ValueError("supply_cubes_per_space and placements_per_turn need a 'default'")
        return self

    @property
    def total_cubes(self) -> int:
        return sum(self.cubes.values())

    def supply_cubes(self, players: int) -> int:
        """Cubes put on each goods supply space at setup (ST-M4: 3, or 2 with 3 players)."""
        return self.supply_cubes_per_space.get(str(players), self.supply_cubes_per_space["default"])

    def action(self, action_id: str) -> ActionTile:
        for a in self.action_tiles:
            if a.id == action_id:
                return a
        raise KeyError(action_id)

    @property
    def printed_colours(self) -> tuple[Colour, ...]:
        return PRINTED_COLOURS


def load_components(path: Path = COMPONENTS_PATH) -> Components:
    return read_model(path, Components, "Steam components file")


@lru_cache(maxsize=1)
def components() -> Components:
    return load_components()

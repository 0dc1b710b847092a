"""Steam's income track as data (data/steam/income.json): the spaces from the lowest (−10) up,
what raising cash takes at each level, the standard game's shortfall rates, maintenance and the
final income points (rulebook "現金", phases 4 and 6, "勝利点計算"; ST-10, ST-12, ST-14).

Why it is shaped so
    The rulebook we have describes the income track only through its rules: markers start on 0,
    the lowest space is −10, a delivery point raises income by $1 and raising cash moves the
    marker one space back per $5 at every level (its examples go 0 → −2 and −1 → −2), at −10
    two victory points per $5 instead. So the file holds one uniform segment of $1 spaces from
    −10 upward with no top; a board whose spaces changed size somewhere would add a segment
    there, and `previous_space` follows it. The loader raises DataError on a broken file.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, Field, model_validator

from games.core.datafile import read_model

INCOME_PATH = Path(__file__).resolve().parents[2] / "data" / "steam" / "income.json"


# --- the income track as data ------------------------------------------------------------

class Segment(BaseModel):
    start: int = Field(alias="from")  # the first space of this stretch of the track
    step: int  # dollars between neighbouring spaces in this stretch


class RaiseRule(BaseModel):
    dollars_per_step: int
    income_spaces_per_step: int
    points_per_step_at_lowest: int


class Shortfall(BaseModel):
    dollars_per_point: int
    dollars_per_income_space: int


class FinalScoring(BaseModel):
    income_dollars_per_point: int
    points_lost_per_dollar_below_zero: int


class IncomeTrack(BaseModel):
    format: int
    lowest: int
    start: int
    segments: list[Segment]
    raise_: RaiseRule = Field(alias="raise")
    standard_shortfall: Shortfall
    maintenance_per_locomotive_level: int
    final_scoring: FinalScoring

    @model_validator(mode="after")
    def _consistent(self) -> "IncomeTrack":
        if not self.segments or self.segments[0].start != self.lowest:
            raise ValueError("the first segment must start on the lowest space")
        starts = [s.start for s in self.segments]
        if starts != sorted(set(starts)):
            raise ValueError("segments must start on strictly increasing spaces")
        if any(s.step < 1 for s in self.segments):
            raise ValueError("every step is at least $1")
        for before, after in zip(self.segments, self.segments[1:]):
            if (after.start - before.start) % before.step:
                raise ValueError(f"segment starting at {after.start} is not a space of the one before")
        if not self.on_track(self.start):
            raise ValueError("the starting space is not on the track")
        numbers = (self.raise_.dollars_per_step, self.raise_.income_spaces_per_step,
                   self.raise_.points_per_step_at_lowest, self.standard_shortfall.dollars_per_point,
                   self.standard_shortfall.dollars_per_income_space,
                   self.final_scoring.income_dollars_per_point)
        if min(numbers) < 1 or self.maintenance_per_locomotive_level < 0:
            raise ValueError("rates must be positive")
        return self

    def _segment(self, income: int) -> Segment:
        if income < self.lowest:
            raise ValueError(f"income {income} is below the track")
        return [s for s in self.segments if s.start <= income][-1]

    def on_track(self, income: int) -> bool:
        if income < self.lowest:
            return False
        seg = self._segment(income)
        return (income - seg.start) % seg.step == 0

    def previous_space(self, income: int) -> int | None:
        """The space one step back (None on the lowest space)."""
        if income <= self.lowest:
            return None
        seg = self._segment(income)
        if income > seg.start:
            return income - seg.step
        below = self._segment(income - 1)
        return income - 1 - (income - 1 - below.start) % below.step

    def spaces_back(self, income: int, steps: int) -> int | None:
        """The space `steps` back from `income`, or None if the track ends first."""
        for _ in range(steps):
            income = self.previous_space(income)
            if income is None:
                return None
        return income


def load_income_track(path: Path = INCOME_PATH) -> IncomeTrack:
    return read_model(path, IncomeTrack, "Steam income track file")


@lru_cache(maxsize=1)
def income_track() -> IncomeTrack:
    return load_income_track()

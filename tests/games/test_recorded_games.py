"""Whole recorded games replayed as fixtures (tests/fixtures/<game>/*.json): every move is
legal, cards/tickets/trains are conserved after each, and the final scores are the recorded
ones. A rules change that alters a recorded game shows up here."""
import json
from pathlib import Path

import pytest

from games.replay import GameRecord, ReplayError, replay, scores

FIXTURES = sorted(Path("tests/fixtures").glob("*/*.json"))


def test_there_are_fixtures_for_ticket_to_ride():
    assert len([f for f in FIXTURES if f.parent.name == "ticket_to_ride"]) >= 3


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_recorded_game_replays_to_its_result(path):
    record = GameRecord.model_validate_json(path.read_text(encoding="utf-8"))
    state, result = replay(record)
    assert result is not None, "a recorded game must reach its end"
    assert scores(result) == record.result


def test_a_tampered_record_stops_at_the_bad_move():
    path = next(p for p in FIXTURES if p.parent.name == "ticket_to_ride")
    data = json.loads(path.read_text(encoding="utf-8"))
    seat = data["moves"][10][0]
    data["moves"][10] = [seat, "claim Atlanta-Miami locomotive"]  # nobody holds 5 locomotives here
    record = GameRecord.model_validate(data)
    with pytest.raises(ReplayError) as err:
        replay(record)
    assert err.value.index == 10 and "move 11" in str(err.value)

"""The events box keeps what matters when the turn's events do not fit."""
from types import SimpleNamespace

from render.kit.events import fit_blocks, public_event_lines


def test_everything_is_kept_when_it_fits():
    assert fit_blocks([["a"], ["b", "c"]], 3) == ["a", "b", "c"]


def test_the_first_move_and_the_final_events_survive_a_cut():
    blocks = [["Alice built track"], ["to Denver"], ["+$2 bonus"], ["+$4 bonus"], ["Game over!"]]
    kept = fit_blocks(blocks, 4)
    assert kept == ["Alice built track", "…", "+$4 bonus", "Game over!"]
    assert len(fit_blocks(blocks, 2)) == 2 and fit_blocks(blocks, 2)[-1].endswith("Game over!")
    assert fit_blocks(blocks, 1) == ["Alice built track …"]


def test_a_last_event_too_long_keeps_its_end_and_spare_room_goes_to_the_first():
    kept = fit_blocks([["a1", "a2", "a3", "a4"], ["b1", "b2", "b3", "b4", "b5"]], 5)
    assert kept[0] == "a1" and kept[-1] == "b5" and "…" in kept and len(kept) == 5
    kept = fit_blocks([["a1", "a2", "a3", "a4"], ["b"]], 4)
    assert kept == ["a1", "a2", "…", "b"]


def test_public_lines_skip_private_events_and_say_a_dash_when_empty():
    private = SimpleNamespace(to=0, key="ticket_to_ride.render.game_over", params={})
    assert public_event_lines([private], [], "en", 20, 400, 5) == ["—"]
    public = SimpleNamespace(to=None, key="ticket_to_ride.render.game_over", params={})
    assert public_event_lines([private, public], [], "en", 20, 400, 5) == ["Game over"]

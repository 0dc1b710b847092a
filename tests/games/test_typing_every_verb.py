"""Whatever a person types as a move, in any phase of any game, ends as a legal move or as a
typed refusal worded in both catalogs, never as a crash and never as a move the rules do not
offer (tests/support/typing_checks.py). The games are played by the rules' own bots with
options that reach every phase the state model names; every kind of move must have been legal
somewhere, so that every verb of the notation is typed."""
from __future__ import annotations

import pytest

from games import registry
from tests.support.typing_checks import Play, check_typing, phases

# Per game: whole games reaching every phase (Steam's capital and auctions are the standard
# game's; Santa Fe's engineer and buying the advanced game's; Catan Express's gold river the
# islands', its special building turns five or six players'), and how many positions per phase.
PLAYS: dict[str, tuple[list[Play], int]] = {
    "ticket_to_ride": ([Play(2, 1), Play(5, 2)], 6),
    "ginga": ([Play(2, 1), Play(4, 2)], 6),
    "santa_fe": ([Play(3, 1), Play(4, 2, {"advanced": True, "buy_track": True})], 6),
    "steam": ([Play(3, 1, bots=("random",)), Play(4, 2, {"standard": True}, bots=("builder",))], 3),
    "catan_express": ([Play(3, 1), Play(5, 2, {"map": "islands"}), Play(4, 3, {"layout": "beginner"})], 6),
}


@pytest.mark.parametrize("name", registry.names())
def test_every_verb_typed_in_every_phase_is_a_legal_move_or_a_typed_refusal(name: str) -> None:
    game = registry.get(name)
    plays, per_phase = PLAYS[name]
    tally = check_typing(game, plays, seed=20, per_phase=per_phase)
    assert tally.phases == phases(game), "a phase was never reached: add a play that reaches it"
    assert tally.accepted > 0 and tally.typed > 10 * len(tally.verbs)

"""Building Santa Fe positions for tests: real setup, then the few fields a test needs."""
from __future__ import annotations

from games.santa_fe.models import DOUBLE, Choice, SantaFeState
from games.santa_fe.rules import GAME

BOARD = GAME.board
RR = {rr.code: i for i, rr in enumerate(BOARD.railroads)}


def city(name: str) -> int:
    return BOARD.city_index[name]


def started(n: int = 3, seed: int = 7, **options) -> SantaFeState:
    return GAME.setup(n, {"first_player": 0, **options}, seed)


def act(state: SantaFeState, seat: int, text: str) -> SantaFeState:
    return GAME.apply(state, seat, GAME.parse_action(text)).state


def section(path: str) -> tuple[int, int]:
    """'Omaha>Cheyenne/2' -> (section id, end)."""
    place = GAME.parse_action(f"place SF {path}")
    return place.section, place.end


def build(state: SantaFeState, code: str, *paths: str) -> SantaFeState:
    """Lay complete sections for railroad `code` along its lines (no bonuses, no money):
    each path 'A>B' must start at a head of that railroad."""
    s = state.clone()
    r = RR[code]
    for path in paths:
        sid, end = section(path)
        start, far = BOARD.ends[sid][end], BOARD.ends[sid][1 - end]
        heads = s.lines[r]
        line = next(i for i, h in enumerate(heads) if h[1] == -1 and h[0] == start)
        spaces = BOARD.sections[sid].spaces
        assert s.sec_rr[sid] == -1 and s.supply[r] >= spaces
        s.sec_rr[sid], s.sec_built[sid], s.sec_from[sid] = r, spaces, end
        s.supply[r] -= spaces
        heads[line] = (far, -1, 0, 0)
        s.connected[far] |= 1 << r
    GAME.check_invariants(s)
    return s


def to_track(state: SantaFeState, seat: int, double: bool = False, turn: int = 1) -> SantaFeState:
    """Put the game in a track-laying turn with `seat` to place (every choice revealed)."""
    s = state.clone()
    s.phase = "track"
    s.track_turn = turn
    s.first = seat
    s.order_pos = 0
    s.left = 2 if double else 1
    s.placed_now = 0
    s.round = max(s.round, 2)
    for i, p in enumerate(s.players):
        p.choice = None
        if i == seat and double:
            p.doubles -= 1
            p.revealed = Choice(card=DOUBLE)
        else:
            p.revealed = Choice(card=p.hand[0]) if p.hand else Choice(card=-2)
    return s


def legal_texts(state: SantaFeState, seat: int) -> list[str]:
    return [GAME.format_action(a) for a in GAME.legal_actions(state, seat)]

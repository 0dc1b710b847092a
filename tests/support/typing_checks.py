"""What a person can type, in every phase of a game: every verb of the game's notation, with
arguments that were legal somewhere in a game, with those arguments bent, and with garbage. Each
text goes the two ways a typed move goes — the notation (`parse_action`, then `apply`) and the
typed-move reader `/move` uses (games/core/typed.py `resolve`, then `apply`) — and must end as a
legal move or as a typed refusal (IllegalAction whose message is in both catalogs), never as
another exception, never as a move the rules do not list as legal, never changing the state.

Written once, called from each game's property tests. Deterministic: the positions come from
whole games played by the game's own bots (tests/support/bot_games.py), the texts from a
random.Random seeded by the caller.
"""
from __future__ import annotations

import random
import typing
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from games.core.choices import Decision
from games.core.errors import IllegalAction
from games.core.i18n import LANGUAGES, catalog
from games.core.typed import resolve
from tests.support.bot_games import bot_steps

# Words a person might type as an argument: numbers out of range, seats and counts written
# oddly, signs, labels that are not there, other scripts, nothing at all. (Words of the game's
# own moves come in through `bent`.)
GARBAGE = ("0", "-1", "7", "13", "99", "1000", "99999999999999999999", "1.5", "1e9", "０", "一", "x", "xyz",
           "@0", "@1", "@9", "@", ":", "+", "-", "--", ",", "r6", "r-1", "t99", "Z99", "A0", "C3",
           "1x", "0x+1y", "9x+9y", "x+", "@2:x", "12@", "none", "all", "東京", "🚂", "[]", "{}", "None",
           "null", "'", '"', "\\", "\t", "ｘｙｚ")


@dataclass
class Play:
    """One whole game to take positions from."""

    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    bots: tuple[str, ...] = ()  # the game's bots that play it, each a whole game (default: all)


@dataclass
class Tally:
    typed: int = 0      # texts typed (each both ways)
    accepted: int = 0   # of those, moves the rules made
    phases: set[str] = field(default_factory=set)
    verbs: set[str] = field(default_factory=set)


def action_kinds(game: Any) -> set[str]:
    """The `kind` of every move class in the game's action model (a discriminated union)."""
    union = typing.get_args(game.action_model)[0]
    return {cls.model_fields["kind"].default for cls in typing.get_args(union)}


def phase_field(game: Any) -> str:
    fields = game.state_model.model_fields
    return "phase" if "phase" in fields else "step"


def phases(game: Any) -> set[str]:
    """Every phase the state model names (its `phase` or `step` Literal)."""
    return set(typing.get_args(game.state_model.model_fields[phase_field(game)].annotation))


def positions(game: Any, plays: Iterable[Play]) -> tuple[list[Any], list[str]]:
    """Every state of one game per play and per bot of the game's, and the moves played."""
    states: list[Any] = []
    played: list[str] = []
    for play in plays:
        for bot in play.bots or tuple(game.bots()):
            steps = bot_steps(game, play.players, play.seed, bot, play.options)
            states += [steps[0].state, *(s.after for s in steps)]
            played += [game.format_action(s.action) for s in steps]
    return states, played


class Remembering:
    """The game with each position's legal moves asked once: the typed-move reader asks for them
    on every text, and the same position is typed into many times. Everything else is the game's."""

    def __init__(self, game: Any) -> None:
        self._game = game
        self._legal: dict[tuple[int, int], tuple[Any, list[Any]]] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def legal_actions(self, state: Any, seat: int) -> list[Any]:
        key = (id(state), seat)  # kept with the state itself: an id is only unique while it lives
        held = self._legal.get(key)
        if held is None or held[0] is not state:
            held = self._legal[key] = (state, self._game.legal_actions(state, seat))
        return held[1]


def corpus(game: Any, notations: Iterable[str]) -> dict[str, list[str]]:
    """Moves by their first word (the verb). A move class that needs no argument is added as
    well (a pass nobody needed); every kind of move of the game's action model must be there."""
    seen: dict[str, set[str]] = {}
    kinds: set[str] = set()
    union = typing.get_args(typing.get_args(game.action_model)[0])
    bare: list[str] = []
    for cls in union:
        try:
            bare.append(game.format_action(cls()))
        except ValueError:  # pydantic: it needs arguments
            continue
    for text in [*notations, *bare]:
        kinds.add(game.parse_action(text).kind)
        seen.setdefault(text.split()[0], set()).add(text)
    missing = action_kinds(game) - kinds
    assert not missing, f"no position offered a move of kind {sorted(missing)}: add plays that reach them"
    return {verb: sorted(texts) for verb, texts in sorted(seen.items())}


def bent(rng: random.Random, notation: str, words: Sequence[str]) -> str:
    """A notation with one thing changed as a person might: a word dropped, doubled, swapped,
    replaced by garbage or by a word of another move, a digit changed, the case or spacing."""
    parts = notation.split()
    how = rng.randrange(9)
    i = rng.randrange(len(parts))
    if how == 0 and len(parts) > 1:
        del parts[i]
    elif how == 1:
        parts.insert(i, parts[i])
    elif how == 2 and len(parts) > 1:
        j = rng.randrange(len(parts))
        parts[i], parts[j] = parts[j], parts[i]
    elif how == 3:
        parts[i] = rng.choice(GARBAGE)
    elif how == 4:
        parts[i] = rng.choice(words)
    elif how == 5:
        digits = [k for k, ch in enumerate(parts[i]) if ch.isdigit()]
        if digits:
            k = rng.choice(digits)
            parts[i] = parts[i][:k] + rng.choice("0123456789") + parts[i][k + 1:]
        else:
            parts[i] += str(rng.randrange(20))
    elif how == 6:
        parts.append(rng.choice(GARBAGE))
    elif how == 7:
        return notation.upper() if rng.random() < 0.5 else notation.replace(" ", rng.choice(("", "  ", "-", ",")))
    else:
        parts[i] = parts[i][: rng.randrange(len(parts[i]) + 1)]
    return " ".join(parts)


def texts_for(rng: random.Random, verbs: dict[str, list[str]], legal: Sequence[str], per_verb: int) -> list[str]:
    """What to type in one position: for every verb, the verb alone, the verb with garbage, moves
    of that verb legal elsewhere (as they are and bent); a few of the moves legal here, bent."""
    words = sorted({w for texts in verbs.values() for t in texts for w in t.split()})
    out: list[str] = []
    for verb, texts in verbs.items():
        out.append(verb)
        out.append(f"{verb} {' '.join(rng.choice(GARBAGE) for _ in range(rng.randint(1, 3)))}")
        for _ in range(per_verb):
            notation = rng.choice(texts)
            out.append(notation)
            out.append(bent(rng, notation, words))
    for notation in rng.sample(list(legal), min(len(legal), per_verb)):
        out.append(bent(rng, notation, words))
    out += ["", " ", "x" * 250, "\x00", "🚂🚂", "ｐａｓｓ"]
    return out


def _refusal_is_worded(exc: IllegalAction) -> None:
    for lang in LANGUAGES:
        assert exc.message_key in catalog(lang), f"refusal {exc.message_key} has no {lang} message ({exc.params})"


def check_text(game: Any, state: Any, seat: int, text: str, legal: set[str], menu: Decision) -> int:
    """Type `text` for `seat` both ways; the number of ways the rules made a move (0–2). A move
    made must be one the seat may make: a legal move, or one its menu offers (a counted group,
    such as a trade on any terms, is too large for the list of legal moves)."""
    made = 0
    for read in (game.parse_action, lambda t: resolve(game, state, seat, t)):
        try:
            action = read(text)
            game.apply(state, seat, action)
        except IllegalAction as exc:
            _refusal_is_worded(exc)
            continue
        except Exception as exc:  # noqa: BLE001 - the point: name the text that broke the rules
            raise AssertionError(f"{game.name}: typing {text!r} for seat {seat} in phase "
                                 f"{getattr(state, phase_field(game))} raised {exc!r}") from exc
        notation = game.format_action(action)
        assert notation in legal or menu.holds(notation), (
            f"{game.name}: {text!r} was applied as {notation!r}, which is not a legal "
            f"move of seat {seat} in phase {getattr(state, phase_field(game))}")
        made += 1
    return made


def check_typing(game: Any, plays: Iterable[Play], seed: int, per_phase: int = 6, per_verb: int = 1) -> Tally:
    """Type every verb in up to `per_phase` positions of each phase met in the plays' games, for
    the waited-on seat(s) and one seat that is not waited on."""
    rng = random.Random(seed)
    states, played = positions(game, plays)
    game = Remembering(game)
    by_phase: dict[str, list[Any]] = {}
    for state in states:
        by_phase.setdefault(getattr(state, phase_field(game)), []).append(state)
    chosen: list[tuple[Any, list[int]]] = []
    offered: list[str] = []
    for phase, group in sorted(by_phase.items()):
        for state in rng.sample(group, min(per_phase, len(group))):
            active = sorted(game.active_players(state))
            seats = active + [s for s in range(state.n) if s not in active][:1]
            chosen.append((state, seats))
            offered += [game.format_action(a) for s in active for a in game.legal_actions(state, s)]
    verbs = corpus(game, [*played, *offered])
    tally = Tally(verbs=set(verbs), phases=set(by_phase))
    for state, seats in chosen:
        before = game.dump_state(state)
        for seat in seats:
            legal = {game.format_action(a) for a in game.legal_actions(state, seat)}
            menu = game.decision(state, seat)
            for text in texts_for(rng, verbs, sorted(legal), per_verb):
                tally.accepted += check_text(game, state, seat, text, legal, menu)
                tally.typed += 1
        assert game.dump_state(state) == before, (
            f"{game.name}: typing changed the state in phase {getattr(state, phase_field(game))}")
    return tally

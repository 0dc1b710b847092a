"""What the web table shows, read from the sessions service: a game's public table, a player's
own table with the options at each step and where they are on the board, the replay's frames.

Everything public comes from the spectator view (`Game.view(state, None)`), the function the
Discord posts use; a player's hand and menu come from `seat_view`, the one the Discord chooser
uses, for the seat their link names and no other. A move is made by the service's `click`
(the same version guard, the same one transaction with the outbox as a Discord click).

Images are drawn by the render pool (workers when the bot has them, else threads), never on
the event loop, and kept in small caches keyed by game, version and language, so a table
watched by many people is drawn once per move.
"""
from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Hashable, Sequence


from bot.sessions import Actor, SessionError, SessionService
from bot.sessions.core import Loaded
from bot.sessions.looking import public_log, seat_view
from games import registry as games
from games.core import Event, IllegalAction
from games.core.choices import Decision, Pick, Stop
from games.core.i18n import translate
from render import pick as pick_render
from render import pool as render_pool
from render import registry as renderers
from render.kit.chart import score_timeline
from render.kit.ranking import ending_on_totals

LOG_LINES = 60  # the newest lines of the log a table shows
SHOWN = ("active", "finished")
CHART_SIZE = (900, 420)


class NotShown(Exception):
    """The table cannot be shown: `key` is the catalog key saying why (a 404 or 403 page)."""

    def __init__(self, key: str, status: int = 404) -> None:
        super().__init__(key)
        self.key, self.status = key, status


class Cache:
    """A small least-recently-used map (images and replays by game, version and language)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable) -> Any:
        if key in self._items:
            self._items.move_to_end(key)
            return self._items[key]
        return None

    def put(self, key: Hashable, value: Any) -> Any:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)
        return value


def words(lang: str, event: Event | dict | None, names: Sequence[str]) -> str:
    if event is None:
        return ""
    if isinstance(event, dict):
        event = Event.model_validate(event)
    return translate(lang, event.key, event.params, names)


def refusal(lang: str, exc: SessionError | IllegalAction) -> str:
    """A refusal in the reader's words (the same catalog keys Discord's replies use)."""
    return translate(lang, exc.message_key, exc.params)


@dataclass(frozen=True)
class Frame:
    """One position of a replay: the moves played before it, and what the last one did."""

    played: int
    seat: int | None
    text: str


def replay_board(game: str, players: int, options: dict[str, Any], seed: int, moves: list[tuple[int, str]],
                 names: list[str], lang: str) -> bytes:
    """The public board after `moves` (a module-level function: the render pool may run it in
    a worker). Only the spectator view of the replayed state is drawn."""
    rules = games.get(game)
    state = rules.setup(players, options, seed)
    for seat, notation in moves:
        state = rules.apply(state, seat, rules.parse_action(notation)).state
    renderer = renderers.get(game)
    return renderer.board(rules.view(state, None), names, lang)


def score_chart(game: str, view: Any, names: list[str], lang: str, result: Any) -> bytes | None:
    """Each seat's score after each turn, as the final image charts it; None when the game
    keeps no history of scores."""
    renderer = renderers.get(game)
    rows = renderer.score_rows(view)
    n = len(names)
    if result is not None:
        rows = ending_on_totals(rows, result, n)
    rows = [r for r in rows if len(r) == n]
    if len(rows) < 2:
        return None
    colours = list(renderer.palette.players)
    series = [(names[s], colours[s % len(colours)], [row[s] for row in rows]) for s in range(n)]
    image = score_timeline(series, CHART_SIZE, title=translate(lang, "web.replay.chart"),
                           markers=renderer.symbols.seats)
    return renderer.encode(image)


class Tables:
    """The web table's reading and moving, on the sessions service."""

    def __init__(self, service: SessionService) -> None:
        self.service = service
        self.core = service.core
        self.images = Cache(256)
        self.replays = Cache(64)

    # ------------------------------------------------------------------ loading
    async def _load(self, game_id: int, *, with_actions: bool = False) -> tuple[Loaded, list[Any]]:
        try:
            ld, actions = await self.core.read_id(game_id, with_actions=with_actions)
        except SessionError as exc:
            raise NotShown("web.error.no_game" if exc.code == "no_game_here" else "web.error.broken") from None
        if ld.row.status not in SHOWN or ld.state is None:
            raise NotShown("web.error.not_started" if ld.row.status == "lobby" else "web.error.no_game")
        return ld, actions

    async def public_game(self, game_id: int, *, with_actions: bool = False) -> tuple[Loaded, list[Any]]:
        """The game if its host opened its table to spectators (else NotShown)."""
        ld, actions = await self._load(game_id, with_actions=with_actions)
        if not ld.settings.public_table:
            raise NotShown("web.error.private", 403)
        return ld, actions

    async def player_game(self, game_id: int, user_id: str, seat: int) -> Loaded:
        """The game of a player's link: refused when the seat is no longer theirs (kicked, replaced)."""
        ld, _ = await self._load(game_id)
        if seat >= len(ld.seats) or ld.seats[seat].user_id != user_id:
            raise NotShown("web.error.not_your_seat", 403)
        return ld

    # ------------------------------------------------------------------ the public table
    def table(self, ld: Loaded, lang: str, history: list[Any]) -> dict[str, Any]:
        """The public table as the page shows it: whose turn, the scores, the last turn, the log."""
        game, state, names = ld.game, ld.state, ld.names
        waiting = sorted(game.active_players(state)) if ld.row.status == "active" else []
        result = game.result(state)
        lines = self._log(ld, lang, history)
        scores: list[dict[str, Any]] = []
        if result is not None:
            scores = [{"seat": p.seat, "name": names[p.seat], "score": p.total, "rank": p.rank}
                      for p in result.players]
        else:
            rows = renderers.get(ld.row.game).score_rows(game.view(state, None))
            last = rows[-1] if rows and len(rows[-1]) == len(names) else [0] * len(names)  # no turn scored yet
            scores = [{"seat": s, "name": names[s], "score": last[s]} for s in range(len(names))]
        if result is not None:
            turn = translate(lang, "web.table.finished")
        elif waiting:
            turn = translate(lang, "web.table.waiting", {"waiting": waiting}, names)
        else:
            turn = ""
        return {
            "game_id": ld.row.id, "game": ld.row.game, "title": translate(lang, f"{ld.row.game}.title"),
            "alt": self._alt("board", ld, None, lang),
            "version": ld.row.version, "status": ld.row.status, "names": names, "waiting": waiting,
            "turn": turn, "scores": scores, "last": lines[-1] if lines else None,
            "log": lines[-LOG_LINES:], "moves": sum(1 for h in lines if not h["undone"]),
        }

    @staticmethod
    def _alt(kind: str, ld: Loaded, seat: int | None, lang: str) -> str:
        """The image's alt text, as Discord's attachments carry it (empty if the words fail)."""
        try:
            return renderers.get(ld.row.game).describe(kind, ld.game.view(ld.state, seat), ld.names, lang)
        except Exception:  # noqa: BLE001 - words are a nicety; the image still shows
            return ""

    @staticmethod
    def _log(ld: Loaded, lang: str, actions: list[Any]) -> list[dict[str, Any]]:
        names = ld.names
        lines = []
        for entry in public_log(ld.game, names, actions):
            text = " ".join(t for t in (words(lang, e, names) for e in entry.events) if t) or entry.notation
            lines.append({"seq": entry.seq, "seat": entry.seat, "name": names[entry.seat] if 0 <= entry.seat < len(names)
                          else "", "text": text, "undone": entry.undone, "undo": entry.kind == "undo"})
        return lines

    def public_table(self, ld: Loaded, lang: str, actions: list[Any]) -> dict[str, Any]:
        """The public table, worked out once per version and language however many watch it."""
        key = ("table", ld.row.id, ld.row.version, lang)
        cached = self.replays.get(key)
        if cached is None:
            cached = self.replays.put(key, self.table(ld, lang, actions))
        return cached

    async def board(self, ld: Loaded, lang: str) -> bytes:
        """The public board of the game as it is now (drawn once per version and language)."""
        return await self._drawn(ld, "board", None, lang)

    # ------------------------------------------------------------------ a player's table
    async def hand(self, ld: Loaded, seat: int, lang: str) -> bytes:
        return await self._drawn(ld, "hand", seat, lang)

    async def _drawn(self, ld: Loaded, kind: str, seat: int | None, lang: str) -> bytes:
        """The `kind` image of the seat's view (None: the spectator's), drawn once per version."""
        key = (kind, ld.row.id, ld.row.version, seat, lang)
        cached = self.images.get(key)
        if cached is not None:
            return cached
        view = ld.game.view(ld.state, seat)
        data, _ = await render_pool.current().draw(ld.row.game, kind, view, ld.names, lang, route=ld.row.id)
        return self.images.put(key, data)

    def player(self, ld: Loaded, seat: int, lang: str, picks: Sequence[str], history: list[Any]) -> dict[str, Any]:
        """The seat's own table: the public table, and while the game waits on the seat the
        options of the step its `picks` reach, each with where it is on the board."""
        out = self.table(ld, lang, history)
        pv = seat_view(ld, seat, legal=False)
        out.update(seat=seat, name=ld.names[seat], active=pv.active, hand_alt=self._alt("hand", ld, seat, lang),
                   prompt=words(lang, pv.prompt, ld.names) if pv.prompt else "", step=None)
        if pv.active and pv.decision is not None:
            out["step"] = self.step(ld, pv.view, pv.decision, lang, picks)
        return out

    def step(self, ld: Loaded, view: Any, decision: Decision, lang: str, picks: Sequence[str]) -> dict[str, Any]:
        """The step reached by `picks`: its options (with their places located on the board),
        or the group or amount to fill in. IllegalAction for picks the menu does not offer."""
        names = ld.names
        # the first step may offer only what is shown beside it (a group, an amount): no options
        first = decision.first_step() if not picks else None
        stop: Stop = decision.walk(list(picks)) if first is None or first else Stop(picks=())
        step: dict[str, Any] = {"picks": list(stop.picks), "question": translate(lang, stop.step) if stop.step else "",
                                "options": [], "groups": [], "amounts": [], "move": stop.move}
        if stop.group is not None:
            step["groups"] = [self._group(decision, stop.group, lang, names)]
            return step
        options = stop.options
        step["options"] = self._options(ld, view, options, lang)
        if not stop.picks:  # the first step also offers what is shown beside it: groups, amounts
            step["groups"] = [self._group(decision, n, lang, names) for n, g in enumerate(decision.groups)
                              if g.entry is None]
            step["amounts"] = [{"index": n, "label": words(lang, a.label, names), "min": a.min, "max": a.max,
                                "step": a.step_by} for n, a in enumerate(decision.amounts)]
        return step

    def _options(self, ld: Loaded, view: Any, options: list[Pick], lang: str) -> list[dict[str, Any]]:
        names = ld.names
        places = [o.place for o in options]
        marks: list[Any] = [None] * len(options)
        if any(p is not None for p in places) and renderers.get(ld.row.game).places is not None:
            located = pick_render.locate(ld.row.game, view, [p for p in places if p is not None])
            it = iter(located)
            marks = [next(it) if p is not None else None for p in places]
        out = []
        for o, mark, place in zip(options, marks, places):
            item: dict[str, Any] = {"value": o.value, "label": words(lang, o.label, names),
                                    "detail": words(lang, o.detail, names) if o.detail else ""}
            if mark is not None and place is not None:
                item["place"] = {"at": "|".join(place.at), "spot": _pt(mark.spot),
                                 "line": [_pt(p) for p in mark.line], "outline": [_pt(p) for p in mark.outline]}
            out.append(item)
        return out

    @staticmethod
    def _group(decision: Decision, index: int, lang: str, names: list[str]) -> dict[str, Any]:
        group = decision.groups[index]
        return {"index": index, "question": translate(lang, group.step), "min": group.min, "max": group.max,
                "items": [{"label": words(lang, item.label, names), "most": most}
                          for item, most in zip(group.items, group.limits())]}

    @staticmethod
    def notation(decision: Decision, body: dict[str, Any]) -> str:
        """The move a posted form stands for (IllegalAction when the menu does not offer it)."""
        picks = body.get("picks") or []
        if not isinstance(picks, list) or not all(isinstance(p, str) for p in picks):
            raise IllegalAction("choice.not_offered")
        group, amount = body.get("group"), body.get("amount")
        if isinstance(group, dict):
            index, counts = group.get("index"), group.get("counts")
            if not isinstance(index, int) or not 0 <= index < len(decision.groups) or not isinstance(counts, list) \
                    or not all(isinstance(c, int) for c in counts):
                raise IllegalAction("choice.not_offered")
            entry = decision.groups[index].entry
            if (entry is None and picks) or (entry is not None and picks != [entry.value]):
                raise IllegalAction("choice.not_offered")
            return decision.groups[index].notation_of(counts)
        if isinstance(amount, dict):
            index, value = amount.get("index"), amount.get("value")
            if not isinstance(index, int) or not 0 <= index < len(decision.amounts) or not isinstance(value, int):
                raise IllegalAction("choice.not_offered")
            return decision.amounts[index].notation(value)
        stop = decision.walk(picks)
        if stop.move is None:
            raise IllegalAction("choice.not_offered")
        return stop.move

    async def move(self, ld: Loaded, seat: int, body: dict[str, Any]) -> Any:
        """Make the seat's move through the sessions service; its outcome."""
        pv = seat_view(ld, seat, legal=False)
        if not pv.active or pv.decision is None:
            raise IllegalAction("not_active", waiting=pv.waiting)
        notation = self.notation(pv.decision, body)
        version = body.get("version")
        if not isinstance(version, int):
            raise SessionError("stale_version", version=ld.row.version)
        user = ld.seats[seat]
        actor = Actor(user_id=str(user.user_id), name=user.display_name)
        result = await self.service.click(ld.row.channel_id, actor, game_id=ld.row.id, move=notation,
                                          expected_version=version, show_after=False)
        return result.outcome

    # ------------------------------------------------------------------ the replay
    async def frames(self, ld: Loaded, actions: list[Any], lang: str) -> list[Frame]:
        """The replay's positions: the start, then after each move in force (undone ones left
        out), each with the public words of its move."""
        key = ("frames", ld.row.id, ld.row.version, lang)
        cached = self.replays.get(key)
        if cached is not None:
            return cached
        effective = self.service.moves.in_force(ld, actions)
        lines = {h["seq"]: h for h in self._log(ld, lang, actions)}
        out = [Frame(played=0, seat=None, text=translate(lang, "web.replay.start"))]
        for n, a in enumerate(effective, start=1):
            name, text = lines[a.seq]["name"], lines[a.seq]["text"]
            out.append(Frame(played=n, seat=a.seat, text=text if not name or name in text else f"{name}: {text}"))
        return self.replays.put(key, out)

    async def replay_board(self, ld: Loaded, actions: list[Any], step: int, lang: str) -> bytes:
        effective = self.service.moves.in_force(ld, actions)[:step]
        moves = [(a.seat, a.notation) for a in effective]
        # the moves themselves are in the key: an undo changes what step n shows
        key = ("replay", ld.row.id, step, lang, hash(tuple(moves)))
        cached = self.images.get(key)
        if cached is not None:
            return cached
        data = await render_pool.current().call(replay_board, ld.row.game, len(ld.seats), dict(ld.options),
                                                ld.row.seed, moves, ld.names, lang, route=ld.row.id)
        return self.images.put(key, data)

    async def chart(self, ld: Loaded, lang: str) -> bytes | None:
        key = ("chart", ld.row.id, ld.row.version, lang)
        cached = self.images.get(key)
        if cached is not None:
            return cached or None
        view = ld.game.view(ld.state, None)
        data = await asyncio.to_thread(score_chart, ld.row.game, view, ld.names, lang, ld.game.result(ld.state))
        self.images.put(key, data or b"")
        return data


def _pt(p: Sequence[float]) -> list[float]:
    return [round(float(p[0]), 1), round(float(p[1]), 1)]

"""The chooser (bot.discord.chooser) as a person meets it on the loopback Discord: the options a
message shows, a click on one of them, and a move made by clicking through its steps.

Every game's Discord tests make their moves this way; what differs between games is how an
option reaches a message (on the turn post, in the private menu behind "Choose…", in a part of
the map) and what its pictures must show, which each game's tests pass in as `show`.
"""
from __future__ import annotations

import re
from typing import Any, Awaitable, Callable

from tests.discord.conftest import CHANNEL, Harness

CHOOSER = re.compile(r"ry:\d+:(\d+):(cb|cs):([vk][0-9a-f]*):([0-9.]*)(?::(\d+))?")  # a pick, not "open" / page


def offered(message: Any) -> list[dict]:
    """Every option of the chooser a message shows, in order: buttons (`cb`) and the options
    of selects (`cs`), each with what a person reads and what clicking it sends. Checks on
    the way that no select holds more than 25 options."""
    out = []
    for cid in message.custom_ids:
        match = CHOOSER.fullmatch(cid)
        if match is None:
            continue
        comp = message.component(cid)
        version, verb, check, path, n = match.groups()
        if verb == "cb":
            if n is None:
                continue
            out.append({"label": comp["label"], "custom_id": cid, "value": None, "index": int(n),
                        "check": check, "path": path, "version": int(version), "kind": "button"})
        else:
            assert 1 <= len(comp["options"]) <= 25, (cid, len(comp["options"]))
            for o in comp["options"]:
                out.append({"label": o["label"], "description": o.get("description"), "custom_id": cid,
                            "value": o["value"], "index": int(o["value"]), "check": check, "path": path,
                            "version": int(version), "kind": "select", "placeholder": comp.get("placeholder")})
    return out


async def press(h: Harness, message: Any, entry: dict, user: int, *, locale: str = "en-US") -> Any:
    """Click a button or pick a select option, as listed by `offered`."""
    if entry["kind"] == "button":
        return await h.click(message, entry["custom_id"], user, locale=locale)
    return await h.select(message, entry["custom_id"], [entry["value"]], user, locale=locale)


def text_of(h: Harness, result: Any) -> str:
    """What the clicker read: the answer, or the private message it updated."""
    if result.content:
        return result.content
    if result.original is None:
        return ""
    return h.fake.message(result.original.id).content or ""


# show(message, stop, index, here, private_view) -> (message, entry, record)
Show = Callable[[Any, Any, int, str, Any], Awaitable[tuple[Any, dict, dict]]]


async def walk_chooser(h: Harness, message: Any, user: int, notation: str, show: Show, *,
                       locale: str = "en-US") -> tuple[Any, list[dict]]:
    """From `message` (a turn post, a hand, a private reply), click the chooser's options one
    step after another, as a person would, until `notation` is played. The option to click at
    each step is the one the rules' menu leads through to that move (`index` among the step's
    options; `here`, the path of the steps before, as the component ids carry it).

    `show(message, stop, index, here, private_view)` brings that option onto a message the way
    the game's messages offer it, checking them on the way, and returns that message, the
    option's entry (as `offered` lists it) and what the step records. After each click the walk
    goes on from the private reply when the click answered with one. Returns the last
    interaction and the records, one a step."""
    pv = await h.bot.service.private_view(str(CHANNEL), str(user))
    decision = pv.decision
    assert decision is not None and pv.active, f"user {user} is not waited on"
    choice = next((c for c in decision.choices if c.notation == notation), None)
    assert choice is not None, (notation, [c.notation for c in decision.choices][:20])
    picks: list[str] = []
    path: list[int] = []
    steps: list[dict] = []
    result = None
    while True:
        stop = decision.walk(picks)
        if stop.move is not None:
            assert stop.move == notation and result is not None
            return result, steps
        picks = list(stop.picks)
        index = [o.value for o in stop.options].index(choice.path[len(picks)].value)
        message, entry, record = await show(message, stop, index, ".".join(map(str, path)), pv)
        steps.append(record)
        result = await press(h, message, entry, user, locale=locale)
        picks.append(stop.options[index].value)
        path.append(index)
        if result.original is not None and result.original.ephemeral:
            message = h.fake.message(result.original.id)

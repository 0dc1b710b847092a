"""One live board per game: when a change makes a new channel message and when it edits the
game's current one.

A channel where every card drawn posts a new board is unreadable and pings nobody usefully.
So each game keeps one *live* message (its board, its buttons, the events since it was
posted), and the posts due for a game are delivered together, as one step:

* **new message** when somebody is newly waited on (so the mention notifies them), when the
  game starts or ends, and when there is no live message yet (or it is gone). The previous
  live message loses its buttons, so nobody clicks a stale one. A new message carries a
  freshly drawn board.
* **edit** otherwise: steps inside a turn (the second card, a ticket choice, another
  player's part of a simultaneous choice) and runs of bot moves that end with nobody newly
  waited on. An edit updates the words, the status and the buttons; it keeps the board
  picture the message was posted with (re-sending a picture for every step is most of a
  game's bytes), and the next new message draws the board again.

"Newly waited on" follows the posts in order: a person who was waited on, stopped being
waited on (they moved, bots moved) and is waited on again at the end of the step is newly
waited on; a person who is still waited on from the live message is not pinged again.

A post given up (it could not be delivered) was never shown, and nobody it newly waited on
was pinged: the live board forgets whoever that post stopped or started waiting on
(`skipped`), so the next step pings each of them it waits on, however the game went in
between. The live message itself stays the one to edit, if nobody is newly waited on.

Reminders and notices are separate messages. A reminder in the channel is kept on the live
board (`reminders`) only so that it can be taken away again: the next reminder, or the next
step of the game (a move, an undo, a kick, the end, an abandon), deletes it, so a game has at
most one reminder standing in its channel, and none once it has moved on (see
bot/discord/outbox_messages.py). `plan` starts the board after a step without any: the step
deletes them. This module is Discord-free: the outbox dispatcher and the offline demo (which
counts what the adapter would send) both plan with it.
"""
from __future__ import annotations

from typing import Literal, Sequence

from pydantic import BaseModel, Field

from bot.sessions.posting import GamePost
from games.core import Event

GAME_POST_KINDS = ("start", "move", "undo", "kick")
LINES_KEPT = 30  # events a live message remembers; its text shows the most recent that fit


class PostFacts(BaseModel):
    """What the planner needs from one outbox row of a game post."""

    row_id: int
    kind: str
    waiting_user_ids: list[str] = Field(default_factory=list)  # people the game waits on after it
    finished: bool = False
    events: list[Event] = Field(default_factory=list)


def facts_of(row_id: int, post: GamePost) -> PostFacts:
    """The planner's facts of an outbox row's game post."""
    return PostFacts(row_id=row_id, kind=post.kind, finished=post.finished,
                     waiting_user_ids=list(post.mention_user_ids), events=list(post.events))


class StandingReminder(BaseModel):
    """A reminder message the bot posted in a game's channel and has not taken away yet."""

    channel_id: str
    message_id: str


class LiveBoard(BaseModel):
    """A game's live message as last delivered (stored per game)."""

    message_id: str | None = None
    waiting_user_ids: list[str] = Field(default_factory=list)
    lines: list[Event] = Field(default_factory=list)  # events the live message shows
    closed: bool = False  # the game ended: its last message is final, nothing edits it
    picture: bool = True  # the live message has its board picture (it can go out without one)
    reminders: list[StandingReminder] = Field(default_factory=list)  # still in the channel, to delete


class Step(BaseModel):
    """How to deliver one game's due posts: a new message or an edit of the live one."""

    action: Literal["new", "edit"]
    rows: list[int]  # the outbox rows this step delivers, oldest first
    last_row: int  # the row whose state (view, result) the message shows
    ping_user_ids: list[str] = Field(default_factory=list)  # mention and notify these
    lines: list[Event] = Field(default_factory=list)  # the events the message shows
    strip_message_id: str | None = None  # the previous live message, to lose its buttons
    final: bool = False
    draw_board: bool = False  # a new picture of the board goes with this message


def plan(live: LiveBoard, posts: Sequence[PostFacts]) -> tuple[Step, LiveBoard]:
    """The one step that delivers `posts` (a game's due game posts, oldest first), and the
    live board after it."""
    if not posts:
        raise ValueError("nothing to plan")
    waiting = set(live.waiting_user_ids)
    ping: set[str] = set()
    start = final = False
    events: list[Event] = []
    for post in posts:
        now_waiting = set(post.waiting_user_ids)
        ping = (ping | (now_waiting - waiting)) & now_waiting  # newly waited on and still so
        waiting = now_waiting
        start |= post.kind == "start"
        final |= post.finished
        events += post.events
    last = posts[-1]
    new = bool(ping) or start or final or live.message_id is None or live.closed
    order = [u for u in last.waiting_user_ids if u in ping]
    lines = (events if new else [*live.lines, *events])[-LINES_KEPT:]
    step = Step(
        action="new" if new else "edit", rows=[p.row_id for p in posts], last_row=last.row_id,
        ping_user_ids=order, lines=lines,
        strip_message_id=live.message_id if new and not live.closed else None,
        final=final, draw_board=new,
    )
    after = LiveBoard(message_id=live.message_id if not new else None,
                      waiting_user_ids=list(last.waiting_user_ids), lines=lines, closed=final)
    return step, after


def posted(live: LiveBoard, message_id: str, *, picture: bool = True) -> LiveBoard:
    """The live board once a new message was sent (its id is known only then), and whether
    it went out with its picture."""
    return live.model_copy(update={"message_id": message_id, "picture": picture})


def skipped(live: LiveBoard, post: PostFacts | None) -> LiveBoard:
    """The live board after a game post was given up, never shown: `post`'s facts, or None
    when its row cannot even be read. Only who the live message waited on and who is still
    waited on after the post count as notified; the people the post newly waited on were
    never pinged (so they are newly waited on at the next step), and those who stopped being
    waited on are forgotten (so waiting on them again pings them). A row that cannot be read
    may have waited on anyone: the next step pings everyone it waits on."""
    if post is None:
        waiting: list[str] = []
    else:
        still = set(post.waiting_user_ids)
        waiting = [u for u in live.waiting_user_ids if u in still]
    return live.model_copy(update={"waiting_user_ids": waiting})

"""A game stopped before its end (abandoned) is drawn from its last view, and that view is the
rules' picture of a game still under way: it names whose turn it is. The rules cannot know
the game was abandoned (that happens outside them), so the caller marks the view with
`abandoned(view)` and the renderers ask `is_abandoned(view)`: the header then says the game
was abandoned instead of whose turn it is, and no seat is highlighted as the one to move.

The mark wraps the view without copying or changing it: every attribute reads through to the
game's own view model, so a renderer draws a marked view exactly like the original otherwise.
"""
from __future__ import annotations

from typing import Any

ABANDONED_KEY = "render.kit.abandoned"  # the header's title ("Game abandoned")
ABANDONED_SUB_KEY = "render.kit.abandoned_sub"  # under it ("No result: …")


class AbandonedView:
    """A game's view, marked as belonging to an abandoned game."""

    __slots__ = ("view",)

    def __init__(self, view: Any) -> None:
        object.__setattr__(self, "view", view)

    def __getattr__(self, name: str) -> Any:
        return getattr(object.__getattribute__(self, "view"), name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a marked view is read-only")

    def __repr__(self) -> str:
        return f"AbandonedView({self.view!r})"


def abandoned(view: Any) -> Any:
    """`view` marked as the last view of an abandoned game (None stays None)."""
    if view is None or isinstance(view, AbandonedView):
        return view
    return AbandonedView(view)


def is_abandoned(view: Any) -> bool:
    return isinstance(view, AbandonedView)

"""Game options as people type them: `advanced=true, buy_track=true`.

One reading for every way a game is created (the `/game new options:` text, the demo's
`--option` flags), so an option that works offline works the same in Discord. The game's own
options model validates the values; this module only splits the text and describes the
options for help texts.
"""
from __future__ import annotations

import json
from typing import Any, Iterable

from pydantic import BaseModel

from bot.sessions.errors import SessionError


def parse_options(text: str | Iterable[str] | None) -> dict[str, Any]:
    """`key=value, key=value` (or a list of `key=value`), values read as JSON when they can
    be (numbers, true/false), else kept as text. A part without `=` is refused."""
    if text is None:
        return {}
    parts = text.replace(";", ",").split(",") if isinstance(text, str) else list(text)
    options: dict[str, Any] = {}
    for part in parts:
        if not part.strip():
            continue
        key, sep, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key:
            raise SessionError("bad_option", option=key or part.strip(), value=value)
        try:
            options[key] = json.loads(value)
        except ValueError:  # plain words are text values
            options[key] = value
    return options


def describe_options(model: type[BaseModel]) -> list[str]:
    """`name=<type> (default …)` for each option a game takes, for help texts."""
    lines = []
    for name, field in model.model_fields.items():
        kind = getattr(field.annotation, "__name__", None) or str(field.annotation).replace("typing.", "")
        default = json.dumps(field.default)
        lines.append(f"{name}=<{kind}> (default {default})")
    return lines

"""ICU plural arguments inside catalog strings that otherwise use str.format placeholders.

`parse_template` reads a string such as
    "{seat} has {count, plural, one {# train} other {# trains}} left"
into text, placeholders and plural arguments; `Template.expand` picks each plural's branch
for the given parameters and returns a plain str.format template in which `#` has become the
argument's own placeholder (so the number is written exactly as `{count}` would write it).
Syntax errors raise ValueError; the catalog loader turns them into DataError.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any, Callable, Mapping, Union

CATEGORIES = ("zero", "one", "two", "few", "many", "other")
_HEAD = re.compile(r"\s*(\w+)\s*,\s*plural\s*,", re.ASCII)
_SELECTOR = re.compile(r"\s*(=\d+|[a-z]+)\s*", re.ASCII)


@dataclass(frozen=True)
class Placeholder:
    text: str  # the whole "{...}", passed to str.format untouched


@dataclass(frozen=True)
class Hash:
    pass


@dataclass(frozen=True)
class Plural:
    name: str
    exact: tuple[tuple[Decimal, "Parts"], ...]
    categories: tuple[tuple[str, "Parts"], ...]


Part = Union[str, Placeholder, Hash, Plural]
Parts = tuple[Part, ...]


@dataclass(frozen=True)
class Template:
    parts: Parts

    @property
    def has_plurals(self) -> bool:
        return any(isinstance(p, Plural) for p in self.parts)

    def expand(self, params: Mapping[str, Any], rule: Callable[[Any], str]) -> str:
        return _expand(self.parts, params, rule, None)


def _matching_brace(text: str, start: int) -> int:
    """Index of the '}' closing the '{' at `start`."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError(f"unclosed '{{' at character {start}")


def _parse(text: str, in_branch: bool) -> Parts:
    parts: list[Part] = []
    buf: list[str] = []
    i = 0

    def flush() -> None:
        if buf:
            parts.append("".join(buf))
            buf.clear()

    while i < len(text):
        ch = text[i]
        if ch in "{}" and text[i + 1:i + 2] == ch:  # str.format's escaped brace
            buf.append(ch * 2)
            i += 2
        elif ch == "{":
            end = _matching_brace(text, i)
            inner = text[i + 1:end]
            head = _HEAD.match(inner)
            flush()
            if head:
                parts.append(_parse_plural(head.group(1), inner[head.end():]))
            elif "," in inner and "plural" in inner:
                raise ValueError(f"malformed plural argument {{{inner}}}")
            else:
                parts.append(Placeholder(text[i:end + 1]))
            i = end + 1
        elif ch == "}":
            raise ValueError(f"unmatched '}}' at character {i}")
        elif ch == "#" and in_branch:
            flush()
            parts.append(Hash())
            i += 1
        else:
            buf.append(ch)
            i += 1
    flush()
    return tuple(parts)


def _parse_plural(name: str, body: str) -> Plural:
    exact: dict[Decimal, Parts] = {}
    categories: dict[str, Parts] = {}
    pos = 0
    while body[pos:].strip():
        m = _SELECTOR.match(body, pos)
        if not m or body[m.end():m.end() + 1] != "{":
            raise ValueError(f"plural {name!r}: expected a selector and a {{branch}} at {body[pos:]!r}")
        selector = m.group(1)
        end = _matching_brace(body, m.end())
        branch = _parse(body[m.end() + 1:end], in_branch=True)
        if selector.startswith("="):
            number = Decimal(selector[1:])
            if number in exact:
                raise ValueError(f"plural {name!r}: {selector} given twice")
            exact[number] = branch
        elif selector in CATEGORIES:
            if selector in categories:
                raise ValueError(f"plural {name!r}: '{selector}' given twice")
            categories[selector] = branch
        else:
            raise ValueError(f"plural {name!r}: unknown category {selector!r}")
        pos = end + 1
    if "other" not in categories:
        raise ValueError(f"plural {name!r} has no 'other' branch")
    return Plural(name, tuple(exact.items()), tuple(categories.items()))


@lru_cache(maxsize=4096)
def parse_template(text: str) -> Template:
    return Template(_parse(text, in_branch=False))


def as_number(value: Any) -> Decimal | None:
    """A count as a number: ints and floats, or text such as '+4', '−2', '$12', '1,000'."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float, Decimal)):
        return Decimal(str(value))
    if isinstance(value, str):
        cleaned = value.strip().replace("\u2212", "-").replace(",", "").lstrip("+$")
        try:
            return Decimal(cleaned)
        except InvalidOperation:
            return None
    return None


def _choose(plural: Plural, params: Mapping[str, Any], rule: Callable[[Any], str]) -> Parts:
    number = as_number(params.get(plural.name))
    if number is not None:
        for exact, branch in plural.exact:
            if exact == number:
                return branch
        wanted = rule(abs(number))  # a Decimal keeps visible decimals: CLDR reads 1.0 as 'other'
    else:
        wanted = "other"  # a count that is not a number: the general form
    branches = dict(plural.categories)
    return branches.get(wanted, branches["other"])


def _expand(parts: Parts, params: Mapping[str, Any], rule: Callable[[Any], str], owner: str | None) -> str:
    out: list[str] = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, Placeholder):
            out.append(part.text)
        elif isinstance(part, Hash):
            out.append("{" + owner + "}" if owner else "#")
        elif part.name not in params:
            out.append("{" + part.name + "}")  # left visible like any unfilled placeholder
        else:
            out.append(_expand(_choose(part, params, rule), params, rule, part.name))
    return "".join(out)

"""The sessions service is made of parts given their collaborators, not of mixins sharing
private names: no module of bot/sessions imports another's underscore names or reaches into
another object's underscore members, and no part inherits from another."""
from __future__ import annotations

import ast
import inspect
from pathlib import Path

import bot.sessions.service as service_module
from bot.sessions import SessionService

SESSIONS = Path(__file__).resolve().parents[2] / "bot" / "sessions"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _modules() -> list[tuple[str, ast.Module]]:
    return [(path.name, ast.parse(path.read_text(encoding="utf-8"), str(path)))
            for path in sorted(SESSIONS.glob("*.py"))]


def test_no_module_imports_another_modules_private_names() -> None:
    offenders = [f"{name}:{node.lineno} imports {alias.name} from {node.module}"
                 for name, tree in _modules() for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bot.sessions")
                 for alias in node.names if _private(alias.name)]
    assert offenders == []


def test_only_an_object_itself_touches_its_private_members() -> None:
    offenders = [f"{name}:{node.lineno} .{node.attr} of {ast.unparse(node.value)}"
                 for name, tree in _modules() for node in ast.walk(tree)
                 if isinstance(node, ast.Attribute) and _private(node.attr)
                 and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))]
    assert offenders == []


def test_the_check_sees_what_it_refuses() -> None:
    tree = ast.parse("from bot.sessions.core import _Loaded\nself.core._load(row)\nself._read(x)\n")
    imports = [a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names if _private(a.name)]
    reached = [n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and _private(n.attr)
               and not (isinstance(n.value, ast.Name) and n.value.id in ("self", "cls"))]
    assert imports == ["_Loaded"] and reached == ["_load"]


def test_the_service_is_composed_not_inherited() -> None:
    assert SessionService.__mro__ == (SessionService, object)
    parts = [obj for _, obj in inspect.getmembers(service_module, inspect.isclass)
             if obj.__module__.startswith("bot.sessions.") and obj is not SessionService]
    assert len(parts) >= 10
    for part in parts:
        assert part.__mro__ == (part, object), f"{part.__name__} inherits from {part.__mro__[1].__name__}"

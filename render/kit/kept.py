"""What drawing keeps from one board to the next (compressed bands, panel parts, whole maps):
values by key, least recently used dropped first once their bytes pass a limit. Render threads
share them (render/pool.py, workers=0), so every step holds the lock."""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable, Generic, Hashable, TypeVar

V = TypeVar("V")


class Kept(Generic[V]):
    """Values kept by key within `limit` bytes, as `size_of(value)` counts them."""

    def __init__(self, limit: int, size_of: Callable[[V], int]) -> None:
        self.limit = limit
        self.size = 0
        self._size_of = size_of
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        """The value kept for `key` (now the most recently used), or None."""
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: Hashable, value: V, *, before: Callable[[list[Hashable]], list[Hashable]] | None = None) -> None:
        """Keep `value` unless `key` is kept already; `before(keys)`, if given, names keys to drop
        first (oldest first in `keys`), as a caller that keeps a few of a kind at most needs."""
        with self._lock:
            if key in self._items:
                return
            for old in (before(list(self._items)) if before is not None else []):
                self.size -= self._size_of(self._items.pop(old))
            self._items[key] = value
            self.size += self._size_of(value)
            while self.size > self.limit and self._items:
                _, dropped = self._items.popitem(last=False)
                self.size -= self._size_of(dropped)

    def replace(self, key: Hashable, value: V) -> None:
        """Keep `value` for `key`, in place of any value kept for it (now the most recently used)."""
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.size -= self._size_of(old)
        self.put(key, value)

    def values_where(self, wanted: Callable[[Hashable], bool]) -> list[V]:
        with self._lock:
            return [v for k, v in self._items.items() if wanted(k)]

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.size = 0

    def __len__(self) -> int:
        return len(self._items)


class KeptCache:
    """A drawing cache whose values live in one Kept (`_items`): its bytes, its count, clearing."""

    _items: Kept

    @property
    def size(self) -> int:
        return self._items.size

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

"""render/kit/kept.py: values kept within a byte budget, least recently used dropped first."""
from __future__ import annotations

import threading

from render.kit.kept import Kept


def test_the_least_recently_used_goes_first_past_the_budget():
    kept: Kept[bytes] = Kept(10, len)
    kept.put("a", b"aaaa")
    kept.put("b", b"bbbb")
    assert kept.get("a") == b"aaaa"  # "b" is now the least recently used
    kept.put("c", b"cccc")
    assert (kept.get("b"), kept.get("a"), kept.get("c")) == (None, b"aaaa", b"cccc")
    assert kept.size == 8 and len(kept) == 2


def test_a_key_kept_already_keeps_its_value_and_before_drops_first():
    kept: Kept[bytes] = Kept(100, len)
    kept.put(("x", 1), b"one")
    kept.put(("x", 1), b"other")
    kept.put(("y", 1), b"why")
    kept.put(("x", 2), b"two", before=lambda keys: [k for k in keys if k[0] == "x"])
    assert kept.get(("x", 1)) is None and kept.get(("x", 2)) == b"two" and kept.get(("y", 1)) == b"why"
    assert kept.size == 6
    assert kept.values_where(lambda key: key[0] == "y") == [b"why"]
    kept.clear()
    assert len(kept) == 0 and kept.size == 0


def test_threads_keep_the_count_of_bytes_right():
    kept: Kept[bytes] = Kept(1000, len)

    def fill(n: int) -> None:
        for i in range(500):
            kept.put((n, i % 60), bytes(10))
            kept.get((n, (i * 7) % 60))

    threads = [threading.Thread(target=fill, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert kept.size == 10 * len(kept) <= 1000

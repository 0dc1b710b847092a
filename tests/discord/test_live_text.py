"""A live board's words: when a long run of events does not fit in a message, the newest
events are the ones kept (the older ones are in the previous message and in /game log)."""
from bot.discord.posts import _most_recent


def test_the_most_recent_lines_are_kept_in_order():
    lines = [f"event {i:03d} " + "x" * 80 for i in range(100)]
    kept = _most_recent(lines, 2000)
    assert kept[0] == "…" and kept[-1] == lines[-1]
    assert kept[1:] == lines[-(len(kept) - 1):]
    assert sum(len(line) + 1 for line in kept) <= 2000


def test_lines_that_fit_are_all_kept():
    assert _most_recent(["a", "b", "c"], 2000) == ["a", "b", "c"]

"""The `railyard` command: the one place that reaches both the product (bot, games, render) and
the tools beside it (the benches), so it stands above them all (see railyard/cli.py)."""

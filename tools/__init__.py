"""Railyard's tools beside the product: the loopback Discord the tests and benches talk to, and
the bench commands. The bot that `railyard run` starts never imports this package."""

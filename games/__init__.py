"""Railyard's rules layer: pure, deterministic game logic with no I/O beyond reading bundled data."""

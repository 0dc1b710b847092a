"""Railyard's Discord components and each game's way of showing itself (buttons, embeds)."""

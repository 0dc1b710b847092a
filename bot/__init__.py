"""Railyard's application side: the store (SQLite), the sessions service and, later, the
Discord adapter (bot/discord, the only package that may import discord)."""

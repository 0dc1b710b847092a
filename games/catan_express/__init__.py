"""Catan Express: the railway variant of Catan and its race (issue #12)."""

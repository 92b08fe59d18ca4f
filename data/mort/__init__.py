"""Mort de la lumière du jour reference ruleset (TOML files; see board.toml for the format)."""

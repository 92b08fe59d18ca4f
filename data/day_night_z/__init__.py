"""Day Night Z reference ruleset (TOML files; see constants.toml for the format)."""

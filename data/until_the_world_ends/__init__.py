"""Until the World Ends reference ruleset (TOML files; see constants.toml for the format)."""

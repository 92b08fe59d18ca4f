"""The default rulesets shipped with simlib (installed as the package ``simlib._data``)."""

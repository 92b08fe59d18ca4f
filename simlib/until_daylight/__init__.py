"""Until Daylight: ruleset, kernels and Python face."""

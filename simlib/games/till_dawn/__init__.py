"""Till Dawn: competitive push-your-luck for vampires over 3 nights (ruleset, kernels, Python face)."""

"""Until Daylight: ruleset, kernels and Python face."""

# Imported eagerly: the function ``simulate`` must shadow the submodule of the same name
# (a lazy __getattr__ would lose to the submodule attribute once it is imported).
from .simulate import load_result, simulate  # noqa: E402

__all__ = ["simulate", "load_result"]

"""simlib's version, in a module of its own: the core records it in every result and report,
and importing it from the package above (``simlib``) made the core point upward."""
__version__ = "0.1.0"

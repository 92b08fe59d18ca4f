"""``simlib serve``: a local what-if page for designers (see docs/designer/what-if.md)."""

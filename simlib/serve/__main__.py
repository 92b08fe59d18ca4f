"""``python -m simlib.serve``: the same as ``simlib serve``."""
import sys

from .main import main

sys.exit(main())

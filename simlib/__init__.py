"""simlib: how hard is this cooperative survival game, for whom, and what changes if I tweak it?"""
__version__ = "0.1.0"

"""Reference engines: each game's rules written a second time, in plain Python, from the
game's docs page and rulebook by someone who had not read the game's kernels.

The differential tests (``tests/test_differential_<game>.py``) drive a reference engine and
the numba kernels with the same actions and the same chance outcomes, and require them to
agree decision by decision: the legal actions, what the player to move sees, and the final
record. See ``chance.py`` for how chance outcomes are shared.
"""

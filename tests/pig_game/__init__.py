"""Pig, a test-only game written by following ``docs/adding-a-game.md`` alone: it proves
the document is enough and gives the conformance test (``tests/test_conformance.py``) a
game that is not one of simlib's.  Registered by ``tests/conftest.py``."""

"""Mort de la lumière du jour: one killer against four survivors (asymmetric race).

The package is called ``mort`` for short; the game is registered as
``mort_de_la_lumiere_du_jour`` (CLI: ``--game mort-de-la-lumiere-du-jour``, or ``mort``).
"""

"""Mort de la lumière du jour's declaration in the game registry (:mod:`simlib.core.games`).

The package is ``simlib.games.mort`` (short); the registry name is the game's,
``mort_de_la_lumiere_du_jour`` (``--game mort-de-la-lumiere-du-jour``)."""
from __future__ import annotations

from ...core.games import GameInfo, train_policy_command

COMMANDS = {
    "train-policy": train_policy_command("the rollout player"),
}

GAME = GameInfo(
    name="mort_de_la_lumiere_du_jour",
    package=__package__,
    display_name="Mort de la lumière du jour",
    summary="asymmetric race: one killer hunts four survivors who repair generators, open a "
            "gate and escape (or slip through the hatch); energy cards and two dice (5 players)",
    kind="competitive",
    default_policy="heuristic",
    success="the killer wins (at the game's end he has killed rules.killer_win_kills "
            "survivors or more: every survivor in the reference; otherwise an escape or the "
            "round limit makes it the survivors' win), in the study's headline pairing (by "
            "default the same player on both sides)",
    measure="kills",
    measure_short="kills",
    measure_unit="survivors killed",
    grouping_success=(("seat", "each seat's own result: seat 0 the killer wins, seat s (1-4) "
                               "survivor s escaped"),),
    seats_example="killer=heuristic,survivors=random",
    precision_table="by_pairing",
    commands=COMMANDS,  # each pairing known to +- precision, never the pool
    position=3,  # in `simlib games`
)

"""Reference engine of Day Night Z (``day-night-z``): one city adventure, "Supply run",
written apart from simlib's kernels, in plain Python, from ``docs/games/day-night-z.md``,
``/work/shared/rules/day-night-z.md`` and the rulebook (§ = its sections) only.

STATUS: skeleton

Every number is read from ``rules`` (the flat dotted-key dict of a loaded ruleset). Every
random outcome comes from ``chance.draw(kind, options)``.

Setup keys (``setup``)
----------------------
- ``players`` (int, 1..``scenario.max_team``): the team is the first ``players`` names of
  ``scenario.team``; seat i is the i-th of them.
- ``start_hour`` (int 0..23, optional): the clock at the start (default ``scenario.start_hour``).

The model (the docs page's map abstraction)
-------------------------------------------
- A survivor stands either in a **city zone** ``[r, c]`` of the ``city.rows`` x ``city.cols``
  grid (orthogonal adjacency), or on a **tile**. Tiles have string ids: ``"city:r,c"`` (a
  city tile deployed on zone r,c by an ambush, a horde, a Crawler ambush or the Hunter) and
  ``"<location>:<i>"`` (tile i, from 0, of a location's chain; tile 0 is the access tile).
- On a tile an enemy is **engaged** with one survivor (melee both ways) or **far** (ranged
  only). Spawns arrive far. Enemies have stable integer ids (``enemy_id``: 1, 2, ... in
  placement order over the whole game).
- A tile holds its enemies, its corpse markers (a count) and its search markers (a count).

Action forms (tuples; ``legal_actions()`` lists the ones open now)
------------------------------------------------------------------
Pending ``activate`` (the leader chooses who activates next; asked only when 2 or more
living survivors have not activated this turn; with one left he activates automatically):
- ``("activate", seat)``

Pending ``hidden`` (at the start of a hidden survivor's activation, §4.13):
- ``("stay_hidden",)``: stays hidden, rolls ``combat.hide_dice`` infection dice again.
- ``("leave_hiding",)``

Pending ``act`` (the active survivor's activation) and ``reserve`` (after his city encounter
card, he spends the AP he kept) -- ``sp`` is the survival points spent on that roll,
0..min(``survivor.max_sp_per_roll``, his SP):
- ``("move", r, c)``: to an orthogonally adjacent city zone; ``city.move_ap`` AP from a zone,
  ``map.leave_tile_ap`` AP from a city tile (the step out included). Not while engaged.
- ``("enter", location)``: from the location's access zone (or a city tile on it) onto its
  tile 0; ``city.enter_location_ap`` AP (``map.leave_tile_ap`` from a city tile).
- ``("tile", i)``: to the next (i = current + 1) or previous tile of the location;
  ``map.leave_tile_ap`` AP. Not while engaged.
- ``("exit_location",)``: from tile 0 to the access zone; ``map.leave_tile_ap`` AP. Not
  while engaged.
- ``("evade", sp)``: ``city.move_ap`` AP; an Agility check with the worst (lowest)
  evasion of the enemies engaged with him as modifier; success: they are all far.
- ``("attack", weapon, enemy_id, sp)``: ``combat.attack_ap`` AP. ``weapon`` is one he
  carries or ``"fists"``; melee weapons reach only enemies engaged with him, ranged ones
  every enemy on his tile (``map.ranged_reaches_tile``). Needs the weapon's ammo; a slow
  weapon once a turn.
- ``("search_zone",)``: a complete turn (only as the activation's first action, all AP
  unspent), on a location tile free of enemies, not searched before. Draws Perception
  cards; then pending ``keep``.
- ``("search_item", sp)``: ``combat.search_item_ap`` AP; a search marker on his tile: one
  card, a Perception check with the card's modifier.
- ``("search_corpse",)``: ``combat.search_item_ap`` AP; a corpse marker on his tile.
- ``("hide",)``: ``combat.hide_ap`` AP; a corpse marker on his tile, no enemy engaged with
  him; he takes the marker and rolls ``combat.hide_dice`` infection dice.
- ``("defend",)``: ``combat.defend_ap`` AP, once a turn: +``combat.defend_bonus`` Defense
  until the end of the turn.
- ``("rest",)``: a complete turn (first action, not engaged): stress −``survivor.rest_stress``.
- ``("eat",)``: free: one supply, +``survivor.supply_heals`` health (below the top).
- ``("painkillers",)``: free: +amount health. ``("first_aid", sp)``: free, an Aid check,
  +amount health on a success. ``("vaccine", sp)``: free (infected), an Aid check,
  infection −amount on a success. The card is used up either way.
- ``("lower_threat",)``: free: pays the unit's SP price and lowers the threat one unit.
- ``("end",)``: ends the activation; the AP left are kept in reserve.

Pending ``keep`` (after ``search_zone``): ``("keep", card, sp)`` for each card drawn (the
Perception check with the card's and the tile's modifiers).

Pending ``sweep`` (a kill with a sweep weapon whose roll fired its star):
``("sweep", enemy_id)`` a free attack (no SP) on another enemy engaged with him, or
``("no_sweep",)``.

Pending ``roll`` (a check the rules impose: a city encounter's check, the Strength test of
an infection hour): ``("roll", sp)``.

Forced steps taken automatically: the last survivor's activation, eating at 15:00 (as many
supplies as the sheet says, or all he has), the threat phase, the encounter cards, spawns,
the clock, the biker gloves (used on the first damaging hit on the arms).

Observation keys
----------------
``turn``, ``hour``, ``night`` (bool), ``phase`` ("actions", "encounters", "threat", "over"),
``pending`` (the pending kind above), ``to_move``, ``active`` (the seat acting or None),
``threat`` (unit index 1..3 x ``units_per_level``), ``threat_level`` ("green"/"yellow"/
"red"), ``noise_red``, ``noise_yellow``, ``searches``, ``hunter`` ("box", "stalk", "board",
"dead"), ``hunter_wounds``, ``survivors`` (a list by seat of dicts: ``name``, ``alive``,
``zone`` [r, c], ``tile`` (id or None), ``health``, ``stress``, ``infection``, ``sp``,
``supplies``, ``ammo``, ``weapons`` (list), ``items`` (list of search card names:
armour, consumables, suppressor, flashlight), ``hidden``, ``defending``, ``activated``,
``ap``, ``reserve``), ``tiles`` (dict id -> {``enemies``: list of {``id``, ``kind``,
``wounds``, ``engaged`` (seat or None)}, ``corpses``, ``search_markers``, ``searched``}),
``explored`` (location tiles explored), ``visited`` (locations visited),
``surprises_left`` (surprise zones not yet turned), ``miniatures`` (left in the box, by
kind), ``drawn`` (the cards of a pending ``keep``, private to its seat; else []).

Chance kinds (each ``options`` list as described)
-------------------------------------------------
- ``"check_die"``: a survivor's check die (attribute checks: searches, evade, aid, Will,
  Agility, Strength); options: the face names of ``dice`` (``["f1", ..., "f6"]``), one
  draw a die.
- ``"attack_die"``: a survivor's attack die; face names.
- ``"enemy_die"``: an enemy's attack die; face names.
- ``"infection_die"``: a corpse marker's or hiding's infection dice; face names.
- ``"search_deck"``: a search card; the cards left in the pile (search names, repeats).
- ``"spawn_deck"``: a spawn card; spawn names left in the pile.
- ``"exploration_deck"``, ``"encounter_deck"``, ``"surprise_deck"``, ``"corpse_pile"``:
  likewise with the names of ``exploration``, ``encounters``, ``surprises``, ``corpses``.
- ``"threat_a"`` (options "normal"/"fury"/"excitement"), ``"threat_hourglasses"``
  ("zero"/"one"/"two"), ``"threat_hunter"`` ("hunter"/"no_hunter"),
  ``"threat_infection"`` ("infection"/"no_infection"), ``"threat_condition"``
  ("noisy_weapon"/"ambush"/"red_stress"/"nothing"): the threat deck, each column a pile of
  its own (``threat.combination`` "independent"), the values left in it with repeats.
- ``"threat_location"``: the body location a threat card strikes; options: the armour
  locations of the search data in order of first appearance (uniform, one a card).
- ``"hunter_target"``: the survivor the Hunter spawns with; options: the seats in city
  zones.
Every pile is refilled from its discards (the whole deck less the cards held) when a draw
finds it empty.

Record keys
-----------
``result`` ("success", "all_dead", "out_of_turns"), ``success`` (bool), ``vp``, ``turns``
(turns begun), ``alive`` (count), ``alive_seats``, ``deaths`` ({"damage", "infection",
"hunger"}: counts), ``death_cause`` (by seat: None or a cause), ``searches``, ``threat``
(final unit), ``threat_level``, ``threat_from`` ({"noise", "leave", "clock", "cards"}),
``threat_lowered`` (units), ``sp_on_rolls``, ``sp_on_threat``, ``kills``,
``hunter`` ("absent", "came", "wounded", "killed"), ``hunter_spawns``, ``hunter_damage``,
``hunter_kills``, ``decisions`` (actions applied), ``survivors`` (final per-seat dicts as
in the observation).

Readings (where the docs and the rulebook are silent)
-----------------------------------------------------
(see below; filled with the engine)
"""
from __future__ import annotations

from typing import Any, Mapping


class Reference:
    def __init__(self, rules: Mapping[str, Any], setup: Mapping[str, Any], chance):
        raise NotImplementedError

    def to_move(self):
        raise NotImplementedError

    def legal_actions(self) -> list[tuple]:
        raise NotImplementedError

    def apply(self, action: tuple) -> None:
        raise NotImplementedError

    def observation(self) -> dict:
        raise NotImplementedError

    def is_over(self) -> bool:
        raise NotImplementedError

    def record(self) -> dict:
        raise NotImplementedError

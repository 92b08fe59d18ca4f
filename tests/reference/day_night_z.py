"""Reference engine of Day Night Z (``day-night-z``): one city adventure, "Supply run",
written apart from simlib's kernels, in plain Python, from ``docs/games/day-night-z.md``,
the game's engine specification and the rulebook (§ = its sections) only.

STATUS: complete

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
- ``("move", r, c)``: to an orthogonally adjacent city zone; ``city.move_ap`` AP.
- ``("enter", location)``: from the location's access zone (or a city tile on it) onto its
  tile 0; ``city.enter_location_ap`` AP.
- ``("tile", i)``: to the next (i = current + 1) or previous tile of the location;
  ``city.move_ap`` AP.
- ``("exit_location",)``: from tile 0 to the access zone; ``city.move_ap`` AP.
- A move from a place holding enemies costs at least ``map.leave_tile_ap``. A move away
  from enemies engaged with him carries the SP of an Agility check (worst evasion of
  them, at most 0, as modifier): ``("move", r, c, sp)``, ``("enter", location, sp)``,
  ``("tile", i, sp)``, ``("exit_location", sp)``; failed, the AP are spent and he stays;
  passed, they are all far and he moves.
- ``("attack", weapon, enemy_id, sp)``: ``combat.attack_ap`` AP. ``weapon`` is one he
  carries or ``"fists"``; melee weapons reach only enemies engaged with him, ranged ones
  every enemy on his tile (``map.ranged_reaches_tile``). Needs the weapon's ammo; a slow
  weapon once a turn.
- ``("search_zone",)``: a complete turn (no AP spent yet this turn), on a location tile
  free of enemies, not searched before. Draws Perception
  cards; then pending ``keep``.
- ``("search_item", sp)``: ``combat.search_item_ap`` AP; a search marker on his location
  tile, free of enemies (§4.7): one
  card, a Perception check with the card's modifier.
- ``("search_corpse",)``: ``combat.search_item_ap`` AP; a corpse marker on his tile.
- ``("hide",)``: ``combat.hide_ap`` AP; a corpse marker on his tile, no enemy engaged with
  him; he takes the marker and rolls ``combat.hide_dice`` infection dice.
- ``("defend",)``: ``combat.defend_ap`` AP, once a turn: +``combat.defend_bonus`` Defense
  until the end of the turn.
- ``("jump", sp)``: ``map.jump_ap`` AP, on a location tile listed in
  ``locations.<name>.jump_tiles`` (tile numbers from 1; the docs page's "Tile terrain and
  jumps", §4.10): an Agility check with ``map.jump_penalty`` dice fewer and the worst
  evasion of the enemies engaged with him; passed, he lands on the location's access zone
  as a move from the tile to it would (Reading 26); failed, only the AP are spent.
- ``("rest",)``: a complete turn (no AP spent yet this turn, stress above 0): stress
  −``survivor.rest_stress``.
- ``("leave_hiding",)``: free, while hidden among corpses.
- ``("eat",)``: free: one supply, +``survivor.supply_heals`` health (below the top).
- ``("painkillers",)``: free: +amount health. ``("first_aid", sp)``: free, an Aid check,
  +amount health on a success. ``("vaccine", sp)``: free (infected), an Aid check,
  infection −amount on a success. The card is used up either way.
- ``("lower_threat",)``: free: pays the unit's SP price and lowers the threat one unit.
- ``("give", b, direction, good)``: an exchange with teammate ``b`` on his place (§4.6,
  Readings 31-34): ``direction`` 0 he gives ``good`` to b, 1 b gives it to him; ``good``
  one of ``GOODS``; the first give of an exchange costs ``combat.exchange_ap`` AP, the next
  are free up to ``combat.exchange_items`` gives in all.
- ``("set_trap", arg, sp)``: ``combat.trap_ap`` AP, a Mechanisms check (Readings 36-37):
  ``arg`` 1 the melee weapon, 2 the ranged weapon, 3 both go into the trap.
- ``("combine", card)``: ``combat.combine_ap`` AP: the search card ``card`` (a card with
  ``components``) is made of its components (Reading 40).
- ``("end",)``: ends the activation; the AP left are kept in reserve.

Pending ``keep`` (after ``search_zone``): ``("keep", card, sp)`` for each card drawn (the
Perception check with the card's and the tile's modifiers).

Pending ``sweep`` (a kill with a sweep weapon whose roll fired its star):
``("sweep", enemy_id)`` a free attack (no SP) on another enemy engaged with him, or
``("no_sweep",)``.

Pending ``roll`` (a check the rules impose: a city encounter's check, the Strength test of
an infection hour): ``("roll", sp)``.

Forced steps taken automatically: the activation of the last survivor left to activate;
the end of an activation where ``("end",)`` is the only legal action; eating at 15:00 (as
many supplies as the sheet says, or all he has); the threat phase, the encounter cards,
spawns, the clock; the biker gloves (used on the first damaging hit on the arms).
``to_move()`` is the seat of the pending decision; for ``activate`` it is the leader, the
lowest living seat.

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
``ap``, ``reserve``, ``battery`` (the battery units in his backpack), ``light`` (the turns
of light his flashlight has left from the unit it runs on), ``exchange`` (the gives left in
the exchange he has open, Reading 33; 0: none open)), ``tiles`` (dict id ->
{``enemies``: list of {``id``, ``kind``, ``wounds``, ``engaged`` (seat or None)},
``corpses``, ``search_markers``, ``searched``, ``trap`` (the trap marker's damage, 0
none)}),
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
- ``"fire_die"``: the die a miniature on a fire tile rolls after the threat phase; face
  names.
- ``"search_deck"``: a search card; the cards left in the pile (search names, repeats).
- ``"spawn_deck"``: a spawn card; spawn names left in the pile.
- ``"exploration_deck"``, ``"encounter_deck"``, ``"surprise_deck"``, ``"corpse_pile"``:
  likewise with the names of ``exploration``, ``encounters``, ``surprises``, ``corpses``.
- ``"threat_a"`` (options "normal"/"fury"/"excitement"), ``"threat_hourglasses"``
  ("zero"/"one"/"two"), ``"threat_hunter"`` ("hunter"/"no_hunter"),
  ``"threat_infection"`` ("infection"/"no_infection"), ``"threat_condition"``
  ("noisy_weapon"/"ambush"/"red_stress"/"nothing"): the threat deck, each column a pile of
  its own (``threat.combination`` "independent"), the values left in it with repeats.
- ``"threat_location"``: the body location a threat card strikes (one a card, drawn with
  the card's columns), and the location the surprise Crawler's immediate attack strikes;
  options: the armour locations of the search data in order of first appearance.
- ``"hunter_target"``, ``"ambush_target"``: the survivor the Hunter spawns with, the
  survivor a threat card's ambush falls on; options: the living seats outside the
  locations.
Every pile is refilled with the whole deck when a draw finds it empty.

Record keys
-----------
``result`` ("success", "all_dead", "out_of_turns"), ``success`` (bool), ``vp``, ``turns``
(turns begun), ``alive`` (count), ``alive_seats``, ``deaths`` ({"damage", "infection",
"hunger"}: counts), ``death_cause`` (by seat: None or a cause), ``searches``, ``threat``
(final unit), ``threat_level``, ``threat_from`` ({"noise", "leave", "clock", "cards"}),
``threat_lowered`` (units), ``sp_on_rolls``, ``sp_on_threat``, ``kills``,
``hunter`` ("absent", "came", "wounded", "killed"), ``hunter_spawns``, ``hunter_damage``,
``hunter_kills``, ``decisions`` (actions applied), ``traps_set`` (traps whose check
passed), ``trap_kills`` (enemies a trap killed), ``cards_combined``, ``survivors`` (final per-seat dicts as
in the observation).

Order of draws
--------------
A threat card draws its columns in the order ``threat_a``, ``threat_hourglasses``,
``threat_hunter``, ``threat_infection``, ``threat_condition``, then ``threat_location``.
A spawn card's enemies are placed by initiative (highest first, data order among equals),
each miniature while one is left in the box and the tile holds fewer than
``map.tile_capacity``. Dice are drawn one a die, in pool order.

Readings (where the docs and the rulebook are silent)
-----------------------------------------------------
The differential test (``tests/test_differential_day_night_z.py``) plays this engine
against the kernels; where the texts are silent the readings below are the kernels'
(``kernels/engine_nb.py`` lists them), so that the two can be compared.

1. Turn: actions phase (the leader picks each next survivor), city encounter phase (the
   cards in the order drawn; each card's survivor then spends his reserve), threat phase
   (side A: zombies; side B: condition, hourglasses, Hunter icon, infection icon; then
   the noise adjustment). The turn limit ends the game after the threat phase of turn
   ``scenario.turn_limit``.
2. The game ends at once (no further draw) when every survivor is dead, or when
   ``searches_needed`` searches have succeeded and every living survivor stands in an
   exit zone outside any location (on the zone or on a city tile there); this is checked
   after every action and every step of the phases, except that a threat card, once its
   zombies have acted with a survivor left, plays out to its noise adjustment.
3. A successful search is a passed Perception check of a zone search or an item search;
   corpse markers are not searches. An item search adds the card's modifier only (§4.8);
   a zone search the card's and the location's (§4.7).
4. City encounter cards (§4.9). A survivor holds one card at most: he draws none while he
   holds one.
   - Alleys: entering or leaving an alley stops the activation (its AP go to reserve) and
     draws a card when the zone reached holds no enemies.
   - Street zones ("Movement from street zone to street zone": he "ends his movement in a
     street zone free of other creatures and where no tile is deployed"): when his
     activation ends (any way: ``("end",)``, no AP left, an alley's STOP) or when the
     reserve activation he spends after his card ends, he draws a card if all of these
     hold: he is alive; he moved during it (a move that changed his place, or a jump that
     landed; a move whose Agility check failed is no move; the flag is cleared at the start
     of each activation and of each reserve activation); he stands in a city zone outside
     the locations that is not an alley (a plain street zone, an exit, or a surprise zone,
     whose card is turned by then); no city tile is deployed on that zone (so no enemy
     there either); no other living survivor stands there (one in a location at that
     access zone is not there). After an alley's STOP it adds nothing: he stands in the
     alley, or left it for a zone where the alley's rule drew his card unless enemies (on
     a tile) are there.
   The cards are resolved in seat order in the encounter phase; a card drawn in a reserve
   activation (an alley's or a street's) waits for the next turn's (its ambush comes onto
   his tile, in a location if he is in one).
5. Moves cost ``city.move_ap`` (``city.enter_location_ap`` onto a location's tile 0), at
   least ``map.leave_tile_ap`` from a place holding enemies; a tile deployed
   for the first time draws an exploration card; a tile explored earlier and deployed
   again (the location re-entered) draws the location's spawn cards instead (§4.9,
   "entering already visited locations"). Spawn cards for a location: ``spawn_small`` if
   the team is at most ``small_team``, else ``spawn_large``; for city ambushes the team
   size is the number of survivors the adventure began with.
6. Leaving enemies behind (§3.2): only when the last living survivor steps off a city tile
   or out of a location (all its tiles together); moving between a location's tiles
   raises nothing. The tiles are then removed, their enemies' miniatures back in the box
   (the Hunter to the stalk area with its wounds), their corpse and search markers gone.
   A survivor's death is not a leaving.
7. Leaving engaged enemies is a move with an Agility check (§4.9.2: a failed check costs
   the AP and he stays); on a success every enemy engaged with him turns far.
8. Zombies: every enemy on a tile with a living survivor acts, all tiles together, by
   initiative (highest first), ties by kind (data order), then by slot (the lowest slot
   free when the enemy was placed, as the kernels number them); excitement's free advances
   go by slot. Each action: an
   engaged enemy attacks its survivor; a far one advances (engages the priority survivor
   of its tile among those not hidden with fewer than ``map.engaged_cap`` engaged
   enemies: ``combat.target_priority``, noisiest = most noise counters made by his own
   weapons this turn, then lowest health, then lowest seat); advancing uses the action,
   and an enemy with no one to advance on stops. Excitement: every far enemy first
   advances once (free), then the normal actions. Fury: ``fury_actions`` more actions.
9. Rapid fire: ``attacks_per_ap`` rolls on the one target, each spending its ammo and
   making its noise, the chosen SP on the first roll only; the rolls stop when the target
   dies or the ammo runs out. Sweep: a kill on a roll that fired the star lets him
   attack another enemy engaged with him for free (no AP, no SP), which may sweep again.
10. A survivor carries one melee weapon (fists when none) and one ranged weapon; a found
    weapon replaces the carried one of its kind when it deals more damage in his hands
    then; a suppressor card silences all his suppressible weapons; a flashlight gives day
    values of every attribute at night while it is lit (Reading 28); armour counts on its
    location only; the biker gloves (``cancels_attack``) are discarded to cancel the first
    hitting attack on the arms (no damage, no stress, no infection; its noise counter
    stays).
11. Enemies die only of damage; a wounded enemy keeps its wounds when day and night
    change its profile, and is killed when its wounds reach the health of the side in
    play at the hit.
12. Threat condition ambush: one living survivor outside the locations, at random
    (``ambush_target``), gets ``ambush_spawn_per_survivor`` x team size spawn cards on his
    city tile (deployed if needed). Red stress: each survivor at red stress loses
    ``red_stress_health`` (a death of damage). The infection icon: level 1 stress, levels
    2 and 3 health (a death of damage: a death of infection is the level reaching
    ``survivor.infection_death``).
13. The Hunter (§3.13): in the box until a night's first icon puts it in the stalk area;
    from there an icon at night spawns it on the city tile of a random survivor outside
    the locations (a tile deployed on his zone if he stands in the street), if the tile has
    room. At ``clock.dawn_hour`` it leaves the board (back in the box); at
    ``clock.night_start`` its wounds heal. Killed, it never returns.
14. The clock: each hour passed fires, in this order, the night's start (the Hunter
    heals), dawn, the infection test (a Strength check, SP the player's choice), eating,
    the threat hour. Eating is forced: min(eats, supplies) supplies.
15. Piles: an empty pile is refilled with the whole deck (the docs page: the campaign's
    discard piles are left out, an exhausted deck is shuffled anew). Killed enemies' miniatures
    go back to the box at once.
16. The threat track is capped at red's last unit whatever ``red_capped`` says (the track
    has no unit beyond it).
17. The leader is the lowest living seat (the rulebook draws him at random at the start of
    an adventure; only the activation order depends on him).
18. A complete-turn action (rest, zone search) spends every AP left; free actions may
    follow it in the same activation.
19. The Surprise Crawler engages him only if fewer than ``map.engaged_cap`` enemies are
    engaged with him (then it attacks at once); else it arrives far.
20. Record: ``hunter_kills`` counts the Hunter killed, ``hunter_damage`` the damage its
    hits dealt (whole, as rolled).

Tile terrain (§3.10, the docs page's "Tile terrain" section)
------------------------------------------------------------
A location tile carries one terrain, ``locations.<name>.terrain[i]`` (none, cover, high,
flooded, hollow, noisy, fire); city tiles and zones carry none. ``map.cover_tiles`` and
``map.high_ground_tiles`` make every place cover / high ground.

21. Cover: an enemy's attack on a survivor standing on a cover tile rolls
    ``combat.cover_penalty`` dice fewer (before the minimum pool).
22. High ground: a survivor's ranged attack (attribute ranged) from a high tile rolls
    ``combat.high_ground_bonus`` dice more (before the minimum pool); melee unchanged.
23. Flooded, hollow: a move onto the tile costs ``map.flooded_extra_ap`` more than its
    cost (Reading 5). It is legal when that full cost fits his AP, or when the move's
    cost without the extra fits: he then pays that and gains 1 stress (capped at
    ``survivor.stress_max``) as he pays, before any Agility check of the move.
24. Noisy: a survivor arriving on a noisy tile (not a city zone) adds one red noise
    counter and one to his own noise made, before the tile's deployment / exploration.
25. Fire: after the threat phase's noise adjustment, every miniature on a deployed fire
    tile rolls one die (the dice stream), tile by tile (the locations in data order, a
    location's tiles in order), on a tile the living survivors in team order, then the
    enemies by slot; like side B (Reading 2) the fire plays out even if every survivor
    dies in it, and the end is checked after it. A skull costs
    ``map.fire_damage`` health (a survivor dying of it dies of damage; no stress). An
    enemy burnt to death leaves a corpse marker on its tile and goes back to the box (the
    Hunter: dead); it earns nobody SP and is not counted as a kill.

Jumps (§4.10, the "jump" row of the same section)
-------------------------------------------------
26. The jump is offered on a location tile (never a city zone or city tile) whose number
    (from 1) is in ``locations.<name>.jump_tiles``, with AP >= ``map.jump_ap``, one action
    per SP amount 0..min(``survivor.max_sp_per_roll``, his SP) (every check's limit; the
    SP are offered whether or not enemies are engaged with him, unlike a move's), also
    while he hides among corpses; in the list it follows ``defend`` and precedes ``rest``.
    Effect, in this order: the AP are paid; he counts as having acted (no complete-turn
    action after it); he stops hiding; an Agility check (Reading 7's: his agility of the
    hour, the SP spent first, ``survivor.min_pool`` applied after them, a pass earns
    ``sp_per_passed_check``) with modifier -``map.jump_penalty`` + the worst (lowest, at
    most 0) evasion of the enemies engaged with him. A failure ends it there. A success:
    every enemy engaged with him turns far where it stands; he steps off the tile as
    ``("exit_location",)`` steps off tile 0 (Reading 6: the last living survivor out of
    the location raises the threat by the SP of the enemies on all its tiles, which are
    taken away; another survivor still in the location keeps them all); then he arrives
    on the access zone exactly as ``exit_location`` arrives (a city tile there is joined;
    Reading 4's alley STOP and encounter card, with "entering or leaving an alley" judged
    by the zone reached; a surprise zone's card, though the team turned it already when it
    stood there to enter: exits are never surprise zones). A landed jump is a move for
    Reading 4's street card at the end of the activation. A jump never passes tile 0, so
    no tile is deployed or explored on the way, and flooded/noisy terrain of tiles is not
    met (the street zone carries none).

Batteries (§4.2, the docs page's "What the engine plays", **Batteries**)
-----------------------------------------------------------------------
27. Each survivor's backpack starts with ``survivor.start_battery`` battery units, and his
    flashlight's light left is 0. A battery corpse marker (``corpses.<m>.kind`` "battery")
    adds its ``amount`` units to the searcher's backpack.
28. The flashlight (a search card of kind "flashlight") gives the day value of every
    attribute at night only while it is lit: a card of ``turns`` 0 needs no battery and is
    always lit; otherwise it is lit while his light left is above 0. Night is read when a
    value is used (as for every attribute).
29. A survivor who starts an activation (not a reserve activation after his encounter
    card) at night, holding a flashlight that needs a battery, whose light is out (0), with
    a unit in his backpack, takes one unit: the light left is set to the card's ``turns``
    (the first flashlight he holds). This happens first in the activation (before the
    hidden survivor's choice and any action). A night that begins in the threat phase
    finds him in the dark until he next activates.
30. At the end of every turn (after the threat phase and the fire, day or night), every
    survivor's light left above 0 goes down by 1: a unit lasts ``turns`` turns, the turn it
    is taken included; it burns on by day, unused.

Exchanges (§4.6 "reorganize inventory", the docs page's **Exchanges**)
---------------------------------------------------------------------
31. Who and when: only the active survivor, in his activation or his reserve activation
    (pending ``act`` or ``reserve``; an alley's STOP ends the activation at once, so it
    leaves no exchange), with a living teammate ``b`` standing on his place: the same city
    zone outside any tile, the same city tile, or the same location tile (a survivor in a
    location is not on its access zone). Either of them may be hidden among corpses or
    engaged; a give neither stops hiding nor touches enemies. Two teammates who are not the
    active survivor never exchange. It is legal while the exchange he opened has gives
    left, or when he has ``combat.exchange_ap`` AP or more to declare one.
32. What a give hands over (``GOODS``, one action a good and a direction; the giver is the
    active survivor for direction 0, ``b`` for 1): ``supplies``, ``ammo``, ``battery``: one
    unit of the giver's counter (he holds 1 or more; the receiver has no bound);
    ``painkillers``, ``first_aid``, ``vaccine``: one card of that kind (his first); the
    ``flashlight``: to a receiver holding none, every flashlight card of the giver with the
    light left of its battery unit (the receiver's light becomes the giver's, the giver's
    0; the turns a unit gives go with the card); the ``suppressor``: every suppressor card,
    to a receiver holding none; ``ranged``: the giver carries a ranged weapon: the two swap
    their ranged weapons (the receiver's may be none, the giver then has none); ``melee``:
    the giver's melee weapon is not his fists: the two swap melee weapons (a receiver with
    his fists leaves the giver his fists: fists are never handed over). Armour is not
    exchanged. A weapon's search card, if the giver holds one, goes with it; a slow weapon
    shot this turn stays shot (§5 SLOW, "you can only shoot this weapon once per turn": the
    mark goes with the weapon, so its new holder may not shoot it again this turn and the
    one who shot it may shoot the slow weapon he receives; the kernels keep the mark with
    the survivor who shot: a disagreement reported and pinned by the differential test's
    ``test_a_slow_weapon_swapped_after_its_shot``). A swapped weapon is kept as it is
    (Reading 10's choice of the better weapon is a search's, not an exchange's).
33. Cost: a give when no exchange is open declares one: ``combat.exchange_ap`` AP are paid,
    he counts as having acted (no complete-turn action after it), and the exchange allows
    ``combat.exchange_items`` gives in all, this one included; the next gives of it are free
    (also at 0 AP). Any other action, ``("end",)`` included, closes it (its unused gives are
    lost; a give after that declares a new exchange, its AP again); so does the start of
    each activation and each reserve activation.
34. With gives still open and no AP left, the activation goes on (the gives and the free
    actions are legal); ``("end",)`` alone left ends it as ever.

Traps and combined cards (§4.4, §4.5, the docs page's "Traps and combined cards")
--------------------------------------------------------------------------------
35. A stuff for traps card (search kind ``trap_stuff``) is kept as any card, any number of
    them; a component card (kind ``component``, the nails) is kept once: a second copy
    found (a passed check, a successful search) is lost.
36. ``set_trap`` is legal on a location tile (never a city tile or zone) whose trap marker
    is not laid yet, holding a stuff for traps card and ``combat.trap_ap`` AP; ``arg`` 1 /
    2 / 3 names the carried melee / ranged / both weapons, each of them trap-combinable
    (``weapons.<w>.trap_damage`` > 0), at most the card's ``capacity`` of them; each with
    0..the roll's SP limit. No condition on enemies, engaged or far, nor on hiding. It
    closes an open exchange and counts as having acted (no complete-turn action after it).
37. The check: Mechanisms (the hour's value, a lit flashlight's day value at night) + SP,
    ``survivor.min_pool`` at least, a star of his stress colour, a pass earning
    ``sp_per_passed_check``; its dice are ``check_die`` draws. Passed: the stuff for traps
    card (his first) and the chosen weapons (with their search cards) are discarded, the
    melee hand falling back on the fists, and a marker of damage ``amount`` + the weapons'
    ``trap_damage`` lies on his tile; ``traps_set`` + 1. Failed: the AP and the SP only.
    No noise, and hiding is not left (the docs page names neither).
38. The marker fires on the first enemy that engages a survivor on its tile (a threat
    phase's advance, excitement's free advances included); an enemy spawned far or already
    engaged when the marker is laid does not fire it. The marker is discarded, the enemy's
    wounds grow by its damage (resistance not subtracted); at its health it dies: a corpse
    marker, back in the box (the Hunter: dead), no SP, ``trap_kills`` + 1 and not a kill,
    and it takes no further action. A surviving enemy stays engaged, its action spent on
    the advance.
39. A marker not fired goes with the location's tiles when the last survivor leaves the
    location (Reading 6).
40. ``combine``: legal with ``combat.combine_ap`` AP when he carries every component of a
    search card with ``components`` (a weapon component in a hand, another component as a
    card held), one action a combined card in the search data's order; no check, no dice,
    no noise; it closes an open exchange and counts as having acted. The components are
    discarded (a weapon component with its search card, if held, its hand falling back on
    the fists), the combined weapon goes into its hand (with its search card) and
    ``cards_combined`` + 1.
"""
from __future__ import annotations

from typing import Any, Mapping

LEVELS = ("green", "yellow", "red")
# what an exchange hands over (Reading 32)
GOODS = ("supplies", "ammo", "battery", "painkillers", "first_aid", "vaccine", "flashlight",
         "suppressor", "ranged", "melee")


class _GameOver(Exception):
    """Raised where the adventure ends (all dead, or the success condition met)."""


def _names(rules: Mapping[str, Any], section: str) -> list[str]:
    """Entries of a data file (``section.<entry>.<field>``), in the data's order."""
    out: list[str] = []
    pre = section + "."
    for k in rules:
        if k.startswith(pre):
            e = k[len(pre):].split(".")[0]
            if e not in out and len(k[len(pre):].split(".")) >= 2:
                out.append(e)
    return out


class _Pile:
    """A draw pile: the cards left (name -> count); refilled with the full deck less the
    cards held by survivors when a draw finds it empty."""

    def __init__(self, kind: str, full: dict[str, int]):
        self.kind = kind
        self.order = list(full)
        self.full = dict(full)
        self.left = dict(full)

    def options(self) -> list[str]:
        return [n for n in self.order for _ in range(self.left[n])]

    def draw(self, chance, held: dict[str, int] | None = None):
        if sum(self.left.values()) == 0:
            # Reading 15: the whole deck again (docs page: the campaign's discard piles are
            # left out, an exhausted deck is shuffled anew)
            self.left = dict(self.full)
        opts = self.options()
        if not opts:
            return None
        card = chance.draw(self.kind, opts)
        self.left[card] -= 1
        return card


class Reference:
    def __init__(self, rules: Mapping[str, Any], setup: Mapping[str, Any], chance):
        R = self.R = dict(rules)
        self.chance = chance
        n = int(setup.get("players", 1))
        if not R["scenario.min_team"] <= n <= R["scenario.max_team"]:
            raise ValueError(f"players {n} outside {R['scenario.min_team']}..{R['scenario.max_team']}")
        self.team = list(R["scenario.team"])[:n]
        self.n = n
        self.hour = int(setup.get("start_hour", R["scenario.start_hour"]))
        self.turn = 1
        self.faces = _names(R, "dice")
        self.enemy_kinds = _names(R, "enemies")
        self.locations = _names(R, "locations")
        self.upl = R["threat_track.units_per_level"]
        self.threat = LEVELS.index(R["threat_track.start_level"]) * self.upl + R["threat_track.start_unit"]
        self.noise_red = 0
        self.noise_yellow = 0
        self.searches = 0
        self.box = {k: R[f"enemies.{k}.miniatures"] for k in self.enemy_kinds}
        self.hunter = "box"
        self.hunter_wounds = 0
        self.next_enemy = 1
        self.tiles: dict[str, dict] = {}
        self.explored: set[str] = set()
        self.visited: set[str] = set()
        self.searched: set[str] = set()
        self.exits = [tuple(R[f"city.exit_{x}"]) for x in ("a", "b", "c") if f"city.exit_{x}" in R]
        self.alleys = [tuple(z) for z in R["city.alleys"]]
        self.surprises_left = [tuple(z) for z in R["city.surprises"]]
        start = tuple(R[f"city.exit_{R['scenario.start_exit']}"])
        self.search_names = _names(R, "search")
        self.body_locations: list[str] = []
        for c in self.search_names:
            if R[f"search.{c}.kind"] == "armour" and R[f"search.{c}.location"] not in self.body_locations:
                self.body_locations.append(R[f"search.{c}.location"])

        def deck(sec):
            return {c: R[f"{sec}.{c}.count"] for c in _names(R, sec)}
        self.piles = {
            "search": _Pile("search_deck", deck("search")),
            "spawn": _Pile("spawn_deck", deck("spawn")),
            "exploration": _Pile("exploration_deck", deck("exploration")),
            "encounters": _Pile("encounter_deck", deck("encounters")),
            "surprises": _Pile("surprise_deck", deck("surprises")),
            "corpses": _Pile("corpse_pile", deck("corpses")),
            "threat_a": _Pile("threat_a", {k: R[f"threat.side_a.{k}"] for k in ("normal", "fury", "excitement")}),
            "threat_hourglasses": _Pile("threat_hourglasses", {k: R[f"threat.hourglasses.{k}"] for k in ("zero", "one", "two")}),
            "threat_hunter": _Pile("threat_hunter", {"hunter": R["threat.icons.hunter"], "no_hunter": R["threat.icons.no_hunter"]}),
            "threat_infection": _Pile("threat_infection", {"infection": R["threat.icons.infection"], "no_infection": R["threat.icons.no_infection"]}),
            "threat_condition": _Pile("threat_condition", {k: R[f"threat.conditions.{k}"] for k in ("noisy_weapon", "ambush", "red_stress", "nothing")}),
        }
        self.sv: list[dict] = []
        for name in self.team:
            kit = R[f"survivors.{name}.weapon"]
            self.sv.append({
                "name": name, "alive": True, "cause": None, "zone": start, "tile": None,
                "health": R["survivor.health_max"], "stress": 0, "infection": 0,
                "sp": min(R["survivor.sp_start"], R["survivor.sp_cap"]),
                "supplies": R["survivor.start_supplies"], "ammo": R[f"survivors.{name}.ammo"],
                "weapons": [kit] if kit != "fists" else [], "cards": [], "hidden": False,
                "defending": False, "activated": False, "ap": 0, "reserve": 0, "moved": False,
                "slow_used": set(), "noise": 0, "noisy_used": False, "full_ap": 0, "encounter": None,
                "acted": False,
                # Reading 27: battery units in the backpack, the flashlight's light left
                "battery": R["survivor.start_battery"], "light": 0,
                # Reading 33: the gives left in the exchange he has open (0: none)
                "exchange": 0,
            })
        self.stats = {"threat_from": {"noise": 0, "leave": 0, "clock": 0, "cards": 0},
                      "threat_lowered": 0, "sp_on_rolls": 0, "sp_on_threat": 0, "kills": 0,
                      "hunter_spawns": 0, "hunter_damage": 0, "hunter_kills": 0, "decisions": 0,
                      # Readings 35-41: traps set, traps fired, trap kills, cards combined
                      "traps_set": 0, "trap_hits": 0, "trap_kills": 0, "cards_combined": 0}
        self.deaths = {"damage": 0, "infection": 0, "hunger": 0}
        self.result: str | None = None
        self._defer_end = False   # side B of the threat card plays out even if all die
        self.phase = "actions"
        self.active: int | None = None
        self.encounter_queue: list[tuple[int, str]] = []
        self.drawn: list[str] = []
        self.pending: tuple | None = None
        # the game's per-turn log (the batch's rows, play.py's docstring): the threat units
        # and the living survivors at the start (entry 0) and at the end of each turn, the
        # last turn's entry taken when the game ends
        self.history: dict[str, list[int]] = {"threat_by_turn": [self.threat], "alive_by_turn": [n]}
        self._gen = self._game()
        self._advance(None)

    # ------------------------------------------------------------------ interface
    def to_move(self):
        return None if self.pending is None else self.pending[1]

    def is_over(self) -> bool:
        return self.result is not None

    def legal_actions(self) -> list[tuple]:
        if self.pending is None:
            return []
        kind, s = self.pending[0], self.pending[1]
        sv = self.sv[s]
        sps = list(range(0, min(self.R["survivor.max_sp_per_roll"], sv["sp"]) + 1))
        if kind == "activate":
            return [("activate", i) for i in self._to_activate()]
        if kind == "hidden":
            return [("stay_hidden",), ("leave_hiding",)]
        if kind == "keep":
            return [("keep", c, p) for c in dict.fromkeys(self.drawn) for p in sps]
        if kind == "sweep":
            return [("sweep", e["id"]) for e in self._engaged(s) if e["id"] != self.pending[2]] + [("no_sweep",)]
        if kind == "roll":
            return [("roll", p) for p in sps]
        return self._act_legal(s, kind == "reserve")

    def apply(self, action: tuple) -> None:
        action = tuple(action)
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action!r}; legal: {self.legal_actions()}")
        self.stats["decisions"] += 1
        self._advance(action)

    def observation(self) -> dict:
        def tile_obs(t):
            return {"enemies": [{"id": e["id"], "kind": e["kind"], "wounds": e["wounds"],
                                 "engaged": e["engaged"]} for e in t["enemies"]],
                    "corpses": t["corpses"], "search_markers": t["markers"],
                    "searched": t["id"] in self.searched, "trap": t["trap"]}
        s = self.to_move()
        return {
            "turn": self.turn, "hour": self.hour, "night": self._night(), "phase": self.phase,
            "pending": None if self.pending is None else self.pending[0], "to_move": s,
            "active": self.active, "threat": self.threat, "threat_level": LEVELS[self._level()],
            "noise_red": self.noise_red, "noise_yellow": self.noise_yellow,
            "searches": self.searches, "hunter": self.hunter, "hunter_wounds": self.hunter_wounds,
            "survivors": [self._sv_obs(i) for i in range(self.n)],
            "tiles": {k: tile_obs(t) for k, t in self.tiles.items()},
            "explored": sorted(self.explored), "visited": sorted(self.visited),
            "surprises_left": [list(z) for z in self.surprises_left],
            "miniatures": dict(self.box),
            "drawn": list(self.drawn) if self.pending and self.pending[0] == "keep" else [],
        }

    def record(self) -> dict:
        alive = [i for i in range(self.n) if self.sv[i]["alive"]]
        dead = self.n - len(alive)
        success = self.result == "success"
        vp = max(0, self.R["scenario.vp_base"] - self.R["scenario.vp_per_dead"] * dead) if success else 0
        if self.stats["hunter_spawns"] == 0:
            hunter = "absent"
        elif self.stats["hunter_kills"] > 0:
            hunter = "killed"
        elif self.stats["hunter_damage"] > 0:
            hunter = "wounded"
        else:
            hunter = "came"
        return {
            "result": self.result, "success": success, "vp": vp, "turns": self.turn,
            "alive": len(alive), "alive_seats": alive, "deaths": dict(self.deaths),
            "death_cause": [sv["cause"] for sv in self.sv], "searches": self.searches,
            "threat": self.threat, "threat_level": LEVELS[self._level()],
            "threat_from": dict(self.stats["threat_from"]),
            "threat_lowered": self.stats["threat_lowered"], "sp_on_rolls": self.stats["sp_on_rolls"],
            "sp_on_threat": self.stats["sp_on_threat"], "kills": self.stats["kills"], "hunter": hunter,
            "hunter_spawns": self.stats["hunter_spawns"], "hunter_damage": self.stats["hunter_damage"],
            "hunter_kills": self.stats["hunter_kills"], "decisions": self.stats["decisions"],
            "traps_set": self.stats["traps_set"], "trap_kills": self.stats["trap_kills"],
            "cards_combined": self.stats["cards_combined"],
            "survivors": [self._sv_obs(i) for i in range(self.n)],
        }

    # ------------------------------------------------------------------ driving the flow
    def _advance(self, action) -> None:
        try:
            self.pending = self._gen.send(action) if action is not None else next(self._gen)
        except StopIteration:
            self.pending = None
            self.phase = "over"
            self.active = None

    def _game(self):
        try:
            while True:
                self._begin_turn()
                self.phase = "actions"
                yield from self._actions_phase()
                self.phase = "encounters"
                yield from self._encounter_phase()
                self.phase = "threat"
                yield from self._threat_phase()
                self._burn_light()
                self._check_end()
                self._log_turn_end()
                if self.turn >= self.R["scenario.turn_limit"]:
                    self.result = "out_of_turns"
                    return
                self.turn += 1
        except _GameOver:
            self._log_turn_end()
            return

    def _log_turn_end(self):
        self.history["threat_by_turn"].append(self.threat)
        self.history["alive_by_turn"].append(len(self._living()))

    def _begin_turn(self):
        for sv in self.sv:
            sv.update(activated=not sv["alive"], defending=False, slow_used=set(), noise=0, acted=False,
                      noisy_used=False, reserve=0, ap=0, moved=False)
        self.encounter_queue = []

    # ------------------------------------------------------------------ small rules
    def _night(self) -> bool:
        a, b = self.R["clock.night_start"], self.R["clock.day_start"]
        return self.hour >= a or self.hour < b if a > b else a <= self.hour < b

    def _level(self) -> int:
        return min(2, (self.threat - 1) // self.upl)

    def _attr(self, s: int, attr: str) -> int:
        sv = self.sv[s]
        side = "night" if self._night() and not self._lit(s) else "day"
        return self.R[f"survivors.{sv['name']}.{side}.{attr}"]

    # ------------------------------------------------------------------ batteries (§4.2)
    def _flashlights(self, s: int) -> list[str]:
        return [c for c in self.sv[s]["cards"] if self.R[f"search.{c}.kind"] == "flashlight"]

    def _light_turns(self, s: int) -> int:
        """The turns a battery unit gives his flashlight (the first he holds); 0 with no
        flashlight or one that needs no battery."""
        fl = self._flashlights(s)
        if not fl or any(self.R.get(f"search.{c}.turns", 0) == 0 for c in fl):
            return 0
        return self.R[f"search.{fl[0]}.turns"]

    def _lit(self, s: int) -> bool:
        """Reading 28: he holds a flashlight that needs no battery, or one whose unit lasts."""
        fl = self._flashlights(s)
        if not fl:
            return False
        return self._light_turns(s) == 0 or self.sv[s]["light"] > 0

    def _take_battery(self, s: int) -> None:
        """Reading 29: at the start of an activation at night, a flashlight in the dark
        takes a unit from his backpack."""
        sv = self.sv[s]
        turns = self._light_turns(s)
        if self._night() and turns > 0 and sv["light"] == 0 and sv["battery"] > 0:
            sv["battery"] -= 1
            sv["light"] = turns

    def _burn_light(self) -> None:
        """Reading 30: the end of a turn burns a turn of every light left."""
        for sv in self.sv:
            if sv["light"] > 0:
                sv["light"] -= 1

    def _estat(self, kind: str, stat: str) -> int:
        return self.R[f"enemies.{kind}.{'night' if self._night() else 'day'}.{stat}"]

    def _health_level(self, h: int) -> str:
        if h <= self.R["survivor.health_red_at"]:
            return "red"
        return "yellow" if h <= self.R["survivor.health_yellow_at"] else "green"

    def _stress_level(self, st: int) -> str:
        if st >= self.R["survivor.stress_red_from"]:
            return "red"
        return "yellow" if st >= self.R["survivor.stress_yellow_from"] else "green"

    def _ap_for(self, s: int) -> int:
        return self.R[f"survivor.ap_{self._health_level(self.sv[s]['health'])}"]

    def _gain_sp(self, s: int, n: int):
        sv = self.sv[s]
        sv["sp"] = min(self.R["survivor.sp_cap"], sv["sp"] + n)

    def _roll(self, kind: str, n: int) -> list[str]:
        return [self.chance.draw(kind, list(self.faces)) for _ in range(n)]

    def _held(self) -> dict[str, int]:
        held: dict[str, int] = {}
        for sv in self.sv:  # a dead survivor's cards are put aside (§3.3), still out of the deck
            for c in sv["cards"]:
                held[c] = held.get(c, 0) + 1
        return held

    def _in_location(self, s: int) -> str | None:
        t = self.sv[s]["tile"]
        return None if t is None or t.startswith("city:") else t.split(":")[0]

    def _tile_of(self, s: int) -> dict | None:
        t = self.sv[s]["tile"]
        return None if t is None else self.tiles[t]

    def _engaged(self, s: int) -> list[dict]:
        t = self._tile_of(s)
        return [] if t is None else [e for e in t["enemies"] if e["engaged"] == s]

    def _living(self) -> list[int]:
        return [i for i in range(self.n) if self.sv[i]["alive"]]

    # ------------------------------------------------------------------ ends, deaths
    def _check_end(self):
        if self._defer_end:
            return
        alive = self._living()
        if not alive:
            self.result = "all_dead"
            raise _GameOver
        if self.searches >= self.R["scenario.searches_needed"] and all(
                self._in_location(i) is None and self.sv[i]["zone"] in self.exits for i in alive):
            self.result = "success"
            raise _GameOver

    def _die(self, s: int, cause: str):
        sv = self.sv[s]
        if not sv["alive"]:
            return
        sv.update(alive=False, cause=cause, hidden=False)
        self.deaths[cause] += 1
        t = self._tile_of(s)
        if t is not None:
            for e in t["enemies"]:
                if e["engaged"] == s:
                    e["engaged"] = None
        if not self._living() and not self._defer_end:
            self.result = "all_dead"
            raise _GameOver

    def _hurt(self, s: int, n: int, cause: str):
        sv = self.sv[s]
        sv["health"] -= n
        if sv["health"] <= 0:
            sv["health"] = 0
            self._die(s, cause)

    def _heal(self, s: int, n: int):
        sv = self.sv[s]
        sv["health"] = min(self.R["survivor.health_max"], sv["health"] + n)

    def _stress(self, s: int, n: int):
        sv = self.sv[s]
        sv["stress"] = max(0, min(self.R["survivor.stress_max"], sv["stress"] + n))

    def _infect(self, s: int, n: int):
        sv = self.sv[s]
        sv["infection"] += n
        if sv["infection"] >= self.R["survivor.infection_death"]:
            self._die(s, "infection")

    def _infection_dice(self, s: int, n: int):
        faces = self._roll("infection_die", n)
        if any(self.R[f"dice.{f}.infection"] for f in faces):
            self._infect(s, 1)

    # ------------------------------------------------------------------ threat track
    def _raise(self, n: int, source: str):
        top = 3 * self.upl
        new = self.threat + n
        if self.R["threat_track.red_capped"] or new > top:
            new = min(new, top)
        self.stats["threat_from"][source] += new - self.threat
        self.threat = new

    def _can_lower(self, s: int) -> bool:
        lvl = self._level()
        if lvl >= 2:
            return False
        u = (self.threat - 1) % self.upl + 1
        locked = self.R[f"threat_track.locked_{LEVELS[lvl]}"]
        if u <= 1 or u in locked:
            return False
        if self.R["variants.red_units_block_entry"] and (u - 1) in locked:
            return False
        return self.sv[s]["sp"] >= self.R[f"threat_track.cost_{LEVELS[lvl]}"]

    def _leave_rise(self, enemies: list[dict]):
        total = sum(self._estat(e["kind"], "sp") for e in enemies)
        bands = sum(1 for k in range(1, 5) if total >= self.R[f"threat_track.leave_band_{k}_from"])
        if bands:
            self._raise(bands, "leave")

    # ------------------------------------------------------------------ tiles and spawns
    def _deploy(self, tid: str, zone) -> dict:
        if tid not in self.tiles:
            self.tiles[tid] = {"id": tid, "zone": tuple(zone), "enemies": [], "corpses": 0, "markers": 0,
                              "trap": 0}   # Reading 37: the trap marker's damage (0: none)
        return self.tiles[tid]

    def _city_tile_at(self, zone) -> dict:
        """A city tile on ``zone``; every survivor standing in the zone goes onto it."""
        tid = f"city:{zone[0]},{zone[1]}"
        t = self._deploy(tid, zone)
        for sv in self.sv:
            if sv["alive"] and sv["tile"] is None and sv["zone"] == tuple(zone):
                sv["tile"] = tid
        return t

    def _discard_tile(self, tid: str):
        t = self.tiles.pop(tid)
        for e in t["enemies"]:
            self._to_box(e)

    def _to_box(self, e: dict):
        if e["kind"] == "hunter":
            self.hunter_wounds = e["wounds"]
            self.hunter = "stalk"
        elif not self.R["variants.unlimited_miniatures"]:
            self.box[e["kind"]] += 1

    def _place(self, t: dict, kind: str, engaged=None) -> dict | None:
        if self.R[f"enemies.{kind}.night_only"] and not self._night():
            return None
        if self.R[f"enemies.{kind}.city_only"] and not t["id"].startswith("city:"):
            return None
        if len(t["enemies"]) >= self.R["map.tile_capacity"]:
            return None
        if kind == "hunter":
            if self.hunter in ("board", "dead"):
                return None
        elif not self.R["variants.unlimited_miniatures"]:
            if self.box[kind] <= 0:
                return None
            self.box[kind] -= 1
        used = {x["slot"] for t2 in self.tiles.values() for x in t2["enemies"]}
        slot = next(i for i in range(len(used) + 1) if i not in used)
        e = {"id": self.next_enemy, "kind": kind, "wounds": 0, "engaged": engaged, "slot": slot}
        if kind == "hunter":
            e["wounds"] = self.hunter_wounds
            self.hunter = "board"
        self.next_enemy += 1
        t["enemies"].append(e)
        return e

    def _spawn(self, t: dict, cards: int):
        level = LEVELS[self._level()]
        for _ in range(cards):
            card = self.piles["spawn"].draw(self.chance)
            if card is None:
                return
            comp = self.R[f"spawn.{card}.{level}"]
            kinds = [k for k in self.enemy_kinds if comp.get(k, 0) > 0]
            kinds.sort(key=lambda k: -self._estat(k, "initiative"))  # stable: data order among equals
            for k in kinds:
                for _ in range(comp[k]):
                    self._place(t, k)

    def _location_spawn_cards(self, loc: str) -> int:
        small = self.n <= self.R[f"locations.{loc}.small_team"]
        return self.R[f"locations.{loc}.spawn_{'small' if small else 'large'}"]

    def _open_location_tile(self, loc: str, i: int) -> dict:
        tid = f"{loc}:{i}"
        if tid in self.tiles:
            return self.tiles[tid]
        t = self._deploy(tid, tuple(self.R[f"locations.{loc}.access"]))
        if tid not in self.explored:
            self.explored.add(tid)
            card = self.piles["exploration"].draw(self.chance)
            kind = None if card is None else self.R[f"exploration.{card}.kind"]
            if kind in ("spawn", "spawn_and_search"):
                self._spawn(t, self._location_spawn_cards(loc))
            if kind in ("search", "spawn_and_search"):
                t["markers"] += 1
        else:
            self._spawn(t, self._location_spawn_cards(loc))
        return t

    def _leave(self, s: int, whole_location: bool):
        """Survivor s steps off his tile; the last one out of a city tile or a location
        raises the threat by the SP of the enemies left and the tile(s) are taken away."""
        sv = self.sv[s]
        tid = sv["tile"]
        sv["tile"] = None
        sv["hidden"] = False
        if tid is None:
            return
        if tid.startswith("city:"):
            if not any(o["alive"] and o["tile"] == tid for o in self.sv):
                self._leave_rise(self.tiles[tid]["enemies"])
                self._discard_tile(tid)
        elif whole_location:
            loc = tid.split(":")[0]
            if not any(o["alive"] and o["tile"] and o["tile"].split(":")[0] == loc for o in self.sv):
                ids = [k for k in self.tiles if k.split(":")[0] == loc]
                self._leave_rise([e for k in ids for e in self.tiles[k]["enemies"]])
                for k in ids:
                    self._discard_tile(k)

    # ------------------------------------------------------------------ checks and attacks
    def _check(self, s: int, attr: str, modifier: int, sp: int) -> bool:
        sv = self.sv[s]
        sv["sp"] -= sp
        self.stats["sp_on_rolls"] += sp
        pool = max(self.R["survivor.min_pool"], self._attr(s, attr) + sp + modifier)
        ok_colours = self.R[f"colours.check.{self._stress_level(sv['stress'])}"]
        faces = self._roll("check_die", pool)
        ok = any(self.R[f"dice.{f}.star"] in ok_colours for f in faces)
        if ok:
            self._gain_sp(s, self.R["survivor.sp_per_passed_check"])
        return ok

    def _weapon_damage(self, s: int, w: str) -> int:
        st = self._attr(s, "strength")
        if st >= self.R["combat.strength_high"]:
            return self.R[f"weapons.{w}.damage_strong"]
        if st >= self.R["combat.strength_mid"]:
            return self.R[f"weapons.{w}.damage_mid"]
        return self.R[f"weapons.{w}.damage_weak"]

    def _silent(self, s: int, w: str) -> bool:
        return not self.R[f"weapons.{w}.noisy"] or (
            self.R[f"weapons.{w}.suppressible"] and "suppressor" in self.sv[s]["cards"])

    def _targets(self, s: int, w: str) -> list[dict]:
        t = self._tile_of(s)
        if t is None:
            return []
        if self.R[f"weapons.{w}.kind"] == "ranged" and self.R["map.ranged_reaches_tile"]:
            return list(t["enemies"])
        return [e for e in t["enemies"] if e["engaged"] == s]

    def _kill(self, s: int, t: dict, e: dict):
        t["enemies"].remove(e)
        t["corpses"] += 1
        self._gain_sp(s, self._estat(e["kind"], "sp"))
        self.stats["kills"] += 1
        if e["kind"] == "hunter":
            self.hunter = "dead"
            self.hunter_wounds = 0
            self.stats["hunter_kills"] += 1
        elif not self.R["variants.unlimited_miniatures"]:
            self.box[e["kind"]] += 1

    def _attack(self, s: int, w: str, eid: int, sp: int, free: bool):
        R, sv = self.R, self.sv[s]
        t = self._tile_of(s)
        if not free:
            sv["ap"] -= R["combat.attack_ap"]
        if R[f"weapons.{w}.slow"]:
            sv["slow_used"].add(w)
        sv["hidden"] = False
        e = next(x for x in t["enemies"] if x["id"] == eid)
        attr = "ranged" if R[f"weapons.{w}.kind"] == "ranged" else "hth"
        sweep = False
        for roll in range(R[f"weapons.{w}.attacks_per_ap"]):
            if e not in t["enemies"] or sv["ammo"] < R[f"weapons.{w}.ammo"]:
                break
            sv["ammo"] -= R[f"weapons.{w}.ammo"]
            if not self._silent(s, w):
                self.noise_red += 1
                sv["noise"] += 1
                sv["noisy_used"] = True
            spk = min(sp, sv["sp"]) if roll == 0 else 0   # Reading 9: the SP on the first roll
            sv["sp"] -= spk
            self.stats["sp_on_rolls"] += spk
            high = R["combat.high_ground_bonus"] if attr == "ranged" and (
                R["map.high_ground_tiles"] or self._terrain(sv["tile"]) == "high") else 0   # Reading 22
            pool = max(R["survivor.min_pool"], self._attr(s, attr) + spk + high - self._estat(e["kind"], "defense"))
            faces = self._roll("attack_die", pool)
            hit_colours = R[f"colours.attack.{self._health_level(sv['health'])}"]
            if R["combat.star_trait_rule"] == "any_star":
                star = any(R[f"dice.{f}.star"] != "none" for f in faces)
            else:
                ok = R[f"colours.check.{self._stress_level(sv['stress'])}"]
                star = any(R[f"dice.{f}.star"] in ok for f in faces)
            if not any(R[f"dice.{f}.target"] in hit_colours for f in faces):
                continue
            if R["variants.attacks_earn_sp"]:
                self._gain_sp(s, R["survivor.sp_per_passed_check"])
            dmg = self._weapon_damage(s, w)
            pierce = R[f"weapons.{w}.pierce"] or (R[f"weapons.{w}.star_trait"] == "pierce" and star)
            if not pierce:
                dmg = max(0, dmg - self._estat(e["kind"], "resistance"))
            e["wounds"] += dmg
            if e["wounds"] >= self._estat(e["kind"], "health"):
                self._kill(s, t, e)
                sweep = R[f"weapons.{w}.star_trait"] == "sweep" and star
        self._check_end()
        if sweep and sv["alive"] and [x for x in self._engaged(s) if x["id"] != eid]:
            a = yield ("sweep", s, eid)
            if a[0] == "sweep" and (R[f"weapons.{w}.ammo"] <= sv["ammo"]):
                yield from self._attack(s, w, a[1], 0, True)

    def _enemy_attack(self, e: dict, s: int, where: str):
        R, sv = self.R, self.sv[s]
        cards = sv["cards"]
        armour = [c for c in cards if R[f"search.{c}.kind"] == "armour" and R[f"search.{c}.location"] == where]
        cover = R["map.cover_tiles"] or self._terrain(sv["tile"]) == "cover"   # Reading 21
        pool = (self._estat(e["kind"], "attack") - (R["combat.cover_penalty"] if cover else 0)
                - self._attr(s, "defense")
                - (R["combat.defend_bonus"] if sv["defending"] else 0)
                - (R["combat.armour_penalty"] if armour else 0))
        pool = max(R["survivor.min_pool"], pool)
        faces = self._roll("enemy_die", pool)
        if any(R[f"dice.{f}.noise"] for f in faces):
            self.noise_red += 1
        if not any(R[f"dice.{f}.skull"] for f in faces):
            return
        cancel = [c for c in armour if R.get(f"search.{c}.cancels_attack", False)]
        if cancel:
            cards.remove(cancel[0])
            return
        dmg = self._estat(e["kind"], "damage")
        if e["kind"] == "hunter":
            self.stats["hunter_damage"] += dmg
        self._stress(s, R["survivor.stress_per_damaging_attack"])
        if any(R[f"dice.{f}.infection"] for f in faces) and sv["infection"] == 0:
            self._infect(s, 1)
        if sv["alive"]:
            self._hurt(s, dmg, "damage")

    # ------------------------------------------------------------------ search cards
    def _gain_card(self, s: int, card: str):
        R, sv = self.R, self.sv[s]
        kind = R[f"search.{card}.kind"]
        if kind == "supplies":
            sv["supplies"] += R[f"search.{card}.amount"]
        elif kind == "ammo":
            sv["ammo"] += R[f"search.{card}.amount"]
        elif kind == "component" and card in sv["cards"]:
            return   # Reading 35: one of each component card kept; a second copy is lost
        else:
            sv["cards"].append(card)
            if kind == "weapon":
                # Reading 10: one melee and one ranged weapon carried; a found one replaces
                # the carried one of its kind (fists for melee) when it deals more damage
                # in his hands now (reorganising the inventory is free after a search, §4.7)
                w = R[f"search.{card}.weapon"]
                cur = self._carried(s, R[f"weapons.{w}.kind"])
                if cur is None or self._weapon_damage(s, w) > self._weapon_damage(s, cur):
                    sv["weapons"] = [x for x in sv["weapons"] if x != cur] + [w]

    def _carried(self, s: int, kind: str) -> str | None:
        """His weapon of ``kind`` ("melee": fists when he carries none; "ranged": None)."""
        for w in self.sv[s]["weapons"]:
            if self.R[f"weapons.{w}.kind"] == kind:
                return w
        return "fists" if kind == "melee" else None

    def _use_card(self, s: int, card: str):
        self.sv[s]["cards"].remove(card)

    def _card_of_kind(self, s: int, kind: str) -> str | None:
        for c in self.sv[s]["cards"]:
            if self.R[f"search.{c}.kind"] == kind:
                return c
        return None

    # ------------------------------------------------------------------ the actions phase
    def _to_activate(self) -> list[int]:
        return [i for i in range(self.n) if self.sv[i]["alive"] and not self.sv[i]["activated"]]

    def _actions_phase(self):
        while True:
            left = self._to_activate()
            if not left:
                return
            if len(left) == 1:
                s = left[0]
            else:
                a = yield ("activate", min(self._living()))
                s = a[1]
            self.sv[s]["activated"] = True
            yield from self._activation(s, reserve=False)

    def _act_legal(self, s: int, reserve: bool) -> list[tuple]:
        R, sv = self.R, self.sv[s]
        ap = sv["ap"]
        out: list[tuple] = []
        sps = list(range(0, min(R["survivor.max_sp_per_roll"], sv["sp"]) + 1))
        engaged = self._engaged(s)
        tile = self._tile_of(s)
        loc = self._in_location(s)
        # Reading 7: a move away from engaged enemies carries the Agility check's SP
        tail = [(p,) for p in sps] if engaged else [()]
        if loc is None:
            r, c = sv["zone"]
            for z in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= z[0] < R["city.rows"] and 0 <= z[1] < R["city.cols"] and ap >= self._move_cost(s, False):
                    out += [("move", z[0], z[1]) + t for t in tail]
            for L in self.locations:
                if tuple(R[f"locations.{L}.access"]) == sv["zone"] and self._move_pay(s, True, f"{L}:0") is not None:
                    out += [("enter", L) + t for t in tail]
        else:
            i = int(sv["tile"].split(":")[1])
            if i + 1 < R[f"locations.{loc}.tiles"] and self._move_pay(s, False, f"{loc}:{i + 1}") is not None:
                out += [("tile", i + 1) + t for t in tail]
            if i > 0:
                if self._move_pay(s, False, f"{loc}:{i - 1}") is not None:
                    out += [("tile", i - 1) + t for t in tail]
            elif ap >= self._move_cost(s, False):
                out += [("exit_location",) + t for t in tail]
        if tile is not None and ap >= R["combat.attack_ap"]:
            for w in dict.fromkeys(x for x in (self._carried(s, "melee"), self._carried(s, "ranged")) if x):
                if sv["ammo"] < R[f"weapons.{w}.ammo"] or w in sv["slow_used"]:
                    continue
                for e in self._targets(s, w):
                    out += [("attack", w, e["id"], p) for p in sps]
        # a complete-turn action needs an activation (or a reserve) before any action that
        # spends AP this turn
        fresh = not sv["acted"] and ap > 0
        if (fresh and loc is not None and not tile["enemies"] and sv["tile"] not in self.searched
                and self._attr(s, "perception") >= 1):
            out.append(("search_zone",))
        if (loc is not None and not tile["enemies"] and tile["markers"] > 0
                and ap >= R["combat.search_item_ap"]):   # §4.7: a tile free of enemies
            out += [("search_item", p) for p in sps]
        if tile is not None and tile["corpses"] > 0 and ap >= R["combat.search_item_ap"]:
            out.append(("search_corpse",))
        if tile is not None and tile["corpses"] > 0 and not engaged and not sv["hidden"] and ap >= R["combat.hide_ap"]:
            out.append(("hide",))
        if not sv["defending"] and ap >= R["combat.defend_ap"]:
            out.append(("defend",))
        if self._jump_from(s) and ap >= R["map.jump_ap"]:   # Reading 26
            out += [("jump", p) for p in sps]
        out += self._trap_legal(s)      # Reading 36
        out += self._combine_legal(s)   # Reading 40
        if fresh and sv["stress"] > 0:
            out.append(("rest",))
        if sv["hidden"]:
            out.append(("leave_hiding",))
        if sv["supplies"] > 0 and sv["health"] < R["survivor.health_max"]:
            out.append(("eat",))
        if self._card_of_kind(s, "painkillers") and sv["health"] < R["survivor.health_max"]:
            out.append(("painkillers",))
        if self._card_of_kind(s, "first_aid") and sv["health"] < R["survivor.health_max"]:
            out += [("first_aid", p) for p in sps]
        if self._card_of_kind(s, "vaccine") and sv["infection"] > 0:
            out += [("vaccine", p) for p in sps]
        if self._can_lower(s):
            out.append(("lower_threat",))
        out += self._gives(s)
        out.append(("end",))
        return out

    # ------------------------------------------------------------------ exchanges (§4.6)
    def _same_place(self, a: int, b: int) -> bool:
        """Reading 31: on the same location tile or city tile, or in the same city zone
        outside any tile."""
        x, y = self.sv[a], self.sv[b]
        if x["tile"] is not None or y["tile"] is not None:
            return x["tile"] == y["tile"]
        return x["zone"] == y["zone"]

    def _can_give(self, giver: int, taker: int, good: str) -> bool:
        """Reading 32: whether ``giver`` holds ``good`` to hand ``taker``."""
        if good in ("supplies", "ammo", "battery"):
            return self.sv[giver][good] > 0
        if good in ("painkillers", "first_aid", "vaccine"):
            return self._card_of_kind(giver, good) is not None
        if good in ("flashlight", "suppressor"):
            return self._card_of_kind(giver, good) is not None and self._card_of_kind(taker, good) is None
        if good == "ranged":
            return self._carried(giver, "ranged") is not None
        return self._carried(giver, "melee") != "fists"

    def _gives(self, s: int) -> list[tuple]:
        """Reading 31: the gives open to the active survivor ``s``."""
        sv = self.sv[s]
        if sv["exchange"] <= 0 and sv["ap"] < self.R["combat.exchange_ap"]:
            return []
        out = []
        for b in self._living():
            if b == s or not self._same_place(s, b):
                continue
            for d, (giver, taker) in enumerate(((s, b), (b, s))):
                out += [("give", b, d, good) for good in GOODS if self._can_give(giver, taker, good)]
        return out

    def _swap_weapon(self, giver: int, taker: int, kind: str) -> None:
        """Reading 32: the giver's weapon of ``kind`` for the taker's (fists stay)."""
        g, t = self.sv[giver], self.sv[taker]
        wg, wt = self._carried(giver, kind), self._carried(taker, kind)
        wt = None if wt == "fists" else wt
        g["weapons"] = [w for w in g["weapons"] if w != wg] + ([wt] if wt else [])
        t["weapons"] = [w for w in t["weapons"] if w != wt] + [wg]
        for w, a, b in ((wg, g, t), (wt, t, g)):
            if w is None:
                continue
            card = next((c for c in a["cards"] if self.R[f"search.{c}.kind"] == "weapon"
                         and self.R[f"search.{c}.weapon"] == w), None)
            if card is not None:
                a["cards"].remove(card)
                b["cards"].append(card)
        # the slow mark goes with the weapon
        used_g, used_t = wg in g["slow_used"], wt is not None and wt in t["slow_used"]
        g["slow_used"].discard(wg)
        if wt is not None:
            t["slow_used"].discard(wt)
        if used_g:
            t["slow_used"].add(wg)
        if used_t:
            g["slow_used"].add(wt)

    def _give(self, s: int, b: int, d: int, good: str) -> None:
        """Readings 32-33: a give of the active survivor ``s`` with teammate ``b``."""
        R, sv = self.R, self.sv[s]
        if sv["exchange"] <= 0:
            sv["ap"] -= R["combat.exchange_ap"]
            sv["exchange"] = R["combat.exchange_items"]
        sv["exchange"] -= 1
        giver, taker = (s, b) if d == 0 else (b, s)
        g, t = self.sv[giver], self.sv[taker]
        if good in ("supplies", "ammo", "battery"):
            g[good] -= 1
            t[good] += 1
        elif good in ("painkillers", "first_aid", "vaccine"):
            c = self._card_of_kind(giver, good)
            g["cards"].remove(c)
            t["cards"].append(c)
        elif good in ("flashlight", "suppressor"):
            moved = [c for c in g["cards"] if R[f"search.{c}.kind"] == good]
            g["cards"] = [c for c in g["cards"] if c not in moved]
            t["cards"] += moved
            if good == "flashlight":
                t["light"], g["light"] = g["light"], 0
        else:
            self._swap_weapon(giver, taker, good)

    def _move_cost(self, s: int, enter: bool) -> int:
        """Reading 5: a move costs ``city.move_ap`` (``city.enter_location_ap`` from a city
        zone onto a location's tile); leaving a place that holds enemies costs at least
        ``map.leave_tile_ap`` (the exit subzone and the step out, §4.9)."""
        R = self.R
        cost = R["city.enter_location_ap"] if enter else R["city.move_ap"]
        t = self._tile_of(s)
        if t is not None and t["enemies"]:
            cost = max(cost, R["map.leave_tile_ap"])
        return cost

    def _terrain(self, tid: str | None) -> str:
        """The terrain of place ``tid`` (a location tile's ``locations.<name>.terrain``
        entry; city tiles and zones: none)."""
        if tid is None or tid.startswith("city:"):
            return "none"
        loc, i = tid.split(":")
        terrain = self.R.get(f"locations.{loc}.terrain")
        return "none" if not terrain else terrain[int(i)]

    def _jump_from(self, s: int) -> bool:
        """Reading 26: he stands on a location tile with a subzone to jump from
        (``locations.<name>.jump_tiles``, tile numbers from 1)."""
        loc = self._in_location(s)
        if loc is None:
            return False
        i = int(self.sv[s]["tile"].split(":")[1])
        return i + 1 in tuple(self.R.get(f"locations.{loc}.jump_tiles") or ())

    def _move_pay(self, s: int, enter: bool, dest: str) -> tuple[int, int] | None:
        """Reading 23: (AP paid, stress gained) for a move onto location tile ``dest``, or
        None when he cannot afford it. Flooded or hollow ground costs
        ``map.flooded_extra_ap`` more; short of that, a plain move's AP and a stress point."""
        cost = self._move_cost(s, enter)
        ap = self.sv[s]["ap"]
        if self._terrain(dest) in ("flooded", "hollow"):
            full = cost + self.R["map.flooded_extra_ap"]
            if ap >= full:
                return full, 0
            return (cost, 1) if ap >= cost else None
        return (cost, 0) if ap >= cost else None

    def _pay_move(self, s: int, enter: bool, dest: str) -> None:
        ap, stress = self._move_pay(s, enter, dest)
        self.sv[s]["ap"] -= ap
        if stress:
            self._stress(s, stress)

    def _arrive_tile(self, s: int, tid: str) -> None:
        """Reading 24: a noisy tile makes a red noise counter, his own noise."""
        if self._terrain(tid) == "noisy":
            self.noise_red += 1
            self.sv[s]["noise"] += 1

    def _escape(self, s: int, a: tuple) -> bool:
        """Reading 7: a move away from engaged enemies: the move's AP, an Agility check with
        their worst evasion (at most 0) as modifier; failed, he stays; passed, they are far."""
        engaged = self._engaged(s)
        if not engaged:
            return True
        worst = min([0] + [self._estat(e["kind"], "evasion") for e in engaged])
        if not self._check(s, "agility", worst, a[-1]):
            return False
        for e in engaged:
            e["engaged"] = None
        return True

    def _activation(self, s: int, reserve: bool):
        sv = self.sv[s]
        self.active = s
        sv["moved"] = False   # Reading 4: cleared at the start of an activation or a reserve
        sv["exchange"] = 0    # Reading 33: an exchange never outlives an activation
        if reserve:
            sv["ap"], sv["reserve"] = sv["reserve"], 0
            sv["full_ap"] = -1
        else:
            self._take_battery(s)   # Reading 29
            sv["ap"] = sv["full_ap"] = self._ap_for(s)
            if sv["hidden"]:
                a = yield ("hidden", s)
                if a[0] == "stay_hidden":
                    self._infection_dice(s, self.R["combat.hide_dice"])
                    # Reading 2: a death of infection here may leave the team at its goal
                    self._check_end()
                else:
                    sv["hidden"] = False
        keep_reserve = True
        while sv["alive"]:
            legal = self._act_legal(s, reserve)
            if legal == [("end",)]:
                break
            a = yield ("reserve" if reserve else "act", s)
            if a[0] == "end":
                sv["exchange"] = 0   # Reading 33: ending closes the exchange
                break
            stop = yield from self._do(s, a)
            self._check_end()
            if stop:
                keep_reserve = stop == "alley"
                break
        self.active = None
        if not sv["alive"]:
            return
        sv["reserve"] = sv["ap"] if (keep_reserve and not reserve) else 0
        sv["ap"] = 0
        self._street_encounter(s)

    def _street_encounter(self, s: int) -> None:
        """Reading 4, street zones (§4.9): at the end of his activation or reserve, a
        survivor who moved during it and stands in a free street zone draws his city
        encounter card (none while he holds one)."""
        sv = self.sv[s]
        if not sv["alive"] or not sv["moved"] or sv["encounter"] is not None:
            return
        if self._in_location(s) is not None:
            return
        z = sv["zone"]
        if z in self.alleys:
            return
        if f"city:{z[0]},{z[1]}" in self.tiles:        # a city tile there (and so any enemy)
            return
        for o in self._living():
            if o != s and self._in_location(o) is None and self.sv[o]["zone"] == z:
                return                                 # another survivor there
        sv["encounter"] = self.piles["encounters"].draw(self.chance)

    def _do(self, s: int, a: tuple):
        """Carry out action ``a`` of survivor ``s``; returns "stop" (a complete-turn action
        ends the activation), "alley" (an alley ends it, the AP kept) or None."""
        R, sv = self.R, self.sv[s]
        kind = a[0]
        if kind in ("move", "enter", "tile", "exit_location", "attack", "search_zone", "search_item",
                    "search_corpse", "hide", "defend", "rest", "jump", "give", "set_trap", "combine"):
            sv["acted"] = True
        if kind == "give":
            self._give(s, *a[1:])
            return None
        sv["exchange"] = 0   # Reading 33: any other action closes the exchange
        if kind == "move":
            z = (a[1], a[2])
            sv["ap"] -= self._move_cost(s, False)
            sv["hidden"] = False
            if not self._escape(s, a):
                return None
            was_alley = sv["zone"] in self.alleys and self._in_location(s) is None
            self._leave(s, whole_location=False)
            sv["zone"] = z
            sv["moved"] = True
            if f"city:{z[0]},{z[1]}" in self.tiles:
                sv["tile"] = f"city:{z[0]},{z[1]}"
            return self._arrive_zone(s, z, was_alley)
        if kind == "enter":
            loc = a[1]
            self._pay_move(s, True, f"{loc}:0")
            sv["hidden"] = False
            if not self._escape(s, a):
                return None
            self._leave(s, whole_location=False)
            first_visit = loc not in self.visited
            self.visited.add(loc)
            tid = f"{loc}:0"
            if tid not in self.tiles and not first_visit:
                self.explored.add(tid)  # a visited location: its spawn cards, no exploration card
            sv["tile"] = tid
            sv["moved"] = True
            self._arrive_tile(s, tid)
            self._open_location_tile(loc, 0)
            return None
        if kind == "tile":
            loc = self._in_location(s)
            self._pay_move(s, False, f"{loc}:{a[1]}")
            sv["hidden"] = False
            if not self._escape(s, a):
                return None
            sv["tile"] = f"{loc}:{a[1]}"
            sv["hidden"] = False
            sv["moved"] = True
            self._arrive_tile(s, sv["tile"])
            self._open_location_tile(loc, a[1])
            return None
        if kind == "exit_location":
            sv["ap"] -= self._move_cost(s, False)
            sv["hidden"] = False
            if not self._escape(s, a):
                return None
            self._leave(s, whole_location=True)
            sv["moved"] = True
            # tile 0 onto the access zone: a city zone reached (an alley stops, a city tile
            # there is joined)
            z = sv["zone"]
            if f"city:{z[0]},{z[1]}" in self.tiles:
                sv["tile"] = f"city:{z[0]},{z[1]}"
            return self._arrive_zone(s, z, False)
        if kind == "jump":
            # Reading 26: the AP, acted (above), out of hiding, the Agility check at
            # -jump_penalty and the engaged enemies' worst evasion; passed: they are far,
            # he steps off the tile and reaches the access zone as exit_location does
            sv["ap"] -= R["map.jump_ap"]
            sv["hidden"] = False
            engaged = self._engaged(s)
            worst = min([0] + [self._estat(e["kind"], "evasion") for e in engaged])
            if not self._check(s, "agility", worst - R["map.jump_penalty"], a[1]):
                return None
            for e in engaged:
                e["engaged"] = None
            z = sv["zone"] = tuple(R[f"locations.{self._in_location(s)}.access"])
            self._leave(s, whole_location=True)
            sv["moved"] = True
            if f"city:{z[0]},{z[1]}" in self.tiles:
                sv["tile"] = f"city:{z[0]},{z[1]}"
            return self._arrive_zone(s, z, False)
        if kind == "attack":
            yield from self._attack(s, a[1], a[2], a[3], free=False)
            return None
        if kind == "set_trap":
            self._set_trap(s, a[1], a[2])
            return None
        if kind == "combine":
            self._combine(s, a[1])
            return None
        if kind == "search_zone":
            sv["ap"] = 0
            self.searched.add(sv["tile"])
            self.drawn = []
            for _ in range(self._attr(s, "perception")):
                c = self.piles["search"].draw(self.chance, self._held())
                if c is not None:
                    self.drawn.append(c)
            if not self.drawn:
                return None   # Reading 18: AP 0; free actions may follow
            k = yield ("keep", s)
            self.drawn = []
            card, sp = k[1], k[2]
            mod = R[f"search.{card}.modifier"] + R[f"locations.{self._in_location(s)}.search_modifier"]
            if self._check(s, "perception", mod, sp):
                self._gain_card(s, card)
                self.searches += 1
            return None
        if kind == "search_item":
            sv["ap"] -= R["combat.search_item_ap"]
            t = self._tile_of(s)
            t["markers"] -= 1
            card = self.piles["search"].draw(self.chance, self._held())
            if card is not None and self._check(s, "perception", R[f"search.{card}.modifier"], a[1]):
                self._gain_card(s, card)
                self.searches += 1
            return None
        if kind == "search_corpse":
            sv["ap"] -= R["combat.search_item_ap"]
            self._tile_of(s)["corpses"] -= 1
            m = self.piles["corpses"].draw(self.chance)
            mk = None if m is None else R[f"corpses.{m}.kind"]
            if mk == "ammo":
                sv["ammo"] += R[f"corpses.{m}.amount"]
            elif mk == "supplies":
                sv["supplies"] += R[f"corpses.{m}.amount"]
            elif mk == "battery":   # Reading 27
                sv["battery"] += R[f"corpses.{m}.amount"]
            elif mk == "infection":
                self._infection_dice(s, R[f"corpses.{m}.dice"])
            return None
        if kind == "hide":
            sv["ap"] -= R["combat.hide_ap"]
            self._tile_of(s)["corpses"] -= 1
            sv["hidden"] = True
            for e in self._tile_of(s)["enemies"]:
                if e["engaged"] == s:
                    e["engaged"] = None
            self._infection_dice(s, R["combat.hide_dice"])
            return None
        if kind == "defend":
            sv["ap"] -= R["combat.defend_ap"]
            sv["defending"] = True
            return None
        if kind == "leave_hiding":
            sv["hidden"] = False
            return None
        if kind == "rest":
            sv["ap"] = 0
            self._stress(s, -R["survivor.rest_stress"])
            return None   # Reading 18
        if kind == "eat":
            sv["supplies"] -= 1
            self._heal(s, R["survivor.supply_heals"])
            return None
        if kind == "painkillers":
            c = self._card_of_kind(s, "painkillers")
            self._use_card(s, c)
            self._heal(s, R[f"search.{c}.amount"])
            return None
        if kind in ("first_aid", "vaccine"):
            c = self._card_of_kind(s, kind)
            self._use_card(s, c)
            attr = R.get(f"search.{c}.check", "aid")
            if attr == "none" or self._check(s, attr, 0, a[1]):
                if kind == "first_aid":
                    self._heal(s, R[f"search.{c}.amount"])
                else:
                    sv["infection"] = max(0, sv["infection"] - R[f"search.{c}.amount"])
            return None
        if kind == "lower_threat":
            cost = R[f"threat_track.cost_{LEVELS[self._level()]}"]
            sv["sp"] -= cost
            self.stats["sp_on_threat"] += cost
            self.stats["threat_lowered"] += 1
            self.threat -= 1
            return None
        raise ValueError(a)

    def _arrive_zone(self, s: int, z, was_alley: bool):
        """Reading 4: entering or leaving an alley stops the activation (its AP kept) and
        draws his city encounter card when the zone reached holds no enemies and he holds
        none yet; a surprise zone not turned yet turns its card. (A street zone's card waits
        for the end of the activation: ``_street_encounter``.)"""
        if z in self.alleys or was_alley:
            t = self.tiles.get(f"city:{z[0]},{z[1]}")
            if (t is None or not t["enemies"]) and self.sv[s]["encounter"] is None:
                self.sv[s]["encounter"] = self.piles["encounters"].draw(self.chance)
            return "alley"
        if z in self.surprises_left:
            self.surprises_left.remove(z)
            self._surprise(s, z)
        return None

    def _surprise(self, s: int, z):
        R = self.R
        card = self.piles["surprises"].draw(self.chance)
        if card is None:
            return
        kind = R[f"surprises.{card}.kind"]
        if kind == "horde":
            t = self._city_tile_at(z)
            self._spawn(t, R[f"surprises.{card}.spawn_cards"])
        elif kind == "enemy_ambush":
            t = self._city_tile_at(z)
            room = len(self._engaged(s)) < R["map.engaged_cap"]
            e = self._place(t, R[f"surprises.{card}.enemy"], engaged=s if room else None)
            if e is not None and room:
                where = self.chance.draw("threat_location", list(self.body_locations))
                self._enemy_attack(e, s, where)
                self._check_end()
        elif kind == "supplies":
            self.sv[s]["supplies"] += R[f"surprises.{card}.amount"]

    # ------------------------------------------------------------------ city encounters
    def _encounter_phase(self):
        # Reading 4: the cards in seat order; a card drawn during a reserve activation (an
        # alley's, or a street's at its end) waits for the next encounter phase: the loop
        # has passed his seat
        R = self.R
        for s in range(self.n):
            sv = self.sv[s]
            card = sv["encounter"]
            if not sv["alive"] or card is None:
                continue
            sv["encounter"] = None
            kind = R[f"encounters.{card}.kind"]
            if kind == "ambush":
                n = R[f"encounters.{card}.spawn_per_survivor"] * self.n
                if self._level() == 2:
                    n += R.get(f"encounters.{card}.spawn_extra_red", 0)
                # a card kept from a reserve activation may find him in a location: the
                # enemies come onto his tile
                t = self._tile_of(s) if self._in_location(s) is not None else self._city_tile_at(sv["zone"])
                self._spawn(t, n)
            elif kind == "check":
                a = yield ("roll", s)
                if not self._check(s, R[f"encounters.{card}.attribute"], 0, a[1]):
                    self._stress(s, R.get(f"encounters.{card}.fail_stress", 0))
                    self._hurt(s, R.get(f"encounters.{card}.fail_damage", 0), "damage")
            self._check_end()
            if sv["alive"] and sv["reserve"] > 0:
                yield from self._activation(s, reserve=True)
        self.encounter_queue = []

    # ------------------------------------------------------------------ the threat phase
    def _threat_phase(self):
        P = self.piles
        side_a = P["threat_a"].draw(self.chance)
        hourglasses = P["threat_hourglasses"].draw(self.chance)
        hunter_icon = P["threat_hunter"].draw(self.chance)
        infection_icon = P["threat_infection"].draw(self.chance)
        condition = P["threat_condition"].draw(self.chance)
        where = self.chance.draw("threat_location", list(self.body_locations))
        self._zombies(side_a, where)
        if not self._living():
            self.result = "all_dead"
            raise _GameOver
        # Reading 2: after the zombies the card plays out to the noise adjustment even if
        # every survivor dies on the way (or the team has met its goal); the end is checked
        # after it
        self._defer_end = True
        yield from self._threat_side_b(condition, hourglasses, hunter_icon, infection_icon)
        self._fire()
        self._defer_end = False
        self._check_end()

    def _fire(self):
        """Reading 25: every miniature on a deployed fire tile rolls a die; a skull costs
        ``map.fire_damage`` health (tile by tile; on a tile the survivors in team order,
        then the enemies by slot)."""
        R = self.R
        dmg = R["map.fire_damage"]
        fire = [f"{loc}:{i}" for loc in self.locations for i in range(R[f"locations.{loc}.tiles"])
                if f"{loc}:{i}" in self.tiles and self._terrain(f"{loc}:{i}") == "fire"]
        for tid in fire:
            t = self.tiles[tid]
            for s in range(self.n):
                if self.sv[s]["alive"] and self.sv[s]["tile"] == tid:
                    if R[f"dice.{self._roll('fire_die', 1)[0]}.skull"]:
                        self._hurt(s, dmg, "damage")
            for e in sorted(t["enemies"], key=lambda x: x["slot"]):
                if R[f"dice.{self._roll('fire_die', 1)[0]}.skull"]:
                    self._burn(t, e, dmg)

    def _burn(self, t: dict, e: dict, dmg: int):
        """An enemy's fire damage; burnt to death: a corpse, back to the box (the Hunter:
        dead), no SP, no kill."""
        e["wounds"] += dmg
        if e["wounds"] < self._estat(e["kind"], "health"):
            return
        t["enemies"].remove(e)
        t["corpses"] += 1
        if e["kind"] == "hunter":
            self.hunter = "dead"
            self.hunter_wounds = 0
        elif not self.R["variants.unlimited_miniatures"]:
            self.box[e["kind"]] += 1

    def _threat_side_b(self, condition, hourglasses, hunter_icon, infection_icon):
        R = self.R
        # side B: the condition
        if condition == "noisy_weapon":
            if any(sv["alive"] and sv["noisy_used"] for sv in self.sv):
                self._raise(R["threat.effects.noisy_weapon_threat"], "cards")
        elif condition == "ambush":
            # Reading 12: one survivor outside the locations, at random, gets the cards
            seats = [s for s in self._living() if self._in_location(s) is None]
            if seats:
                s = self.chance.draw("ambush_target", seats)
                self._spawn(self._city_tile_at(self.sv[s]["zone"]),
                            R["threat.effects.ambush_spawn_per_survivor"] * self.n)
        elif condition == "red_stress":
            for s in self._living():
                if self._stress_level(self.sv[s]["stress"]) == "red":
                    self._hurt(s, R["threat.effects.red_stress_health"], "damage")
        self._check_end()
        # the hourglasses
        yield from self._clock({"zero": 0, "one": 1, "two": 2}[hourglasses])
        # the Hunter's icon
        if hunter_icon == "hunter" and self._night():
            if self.hunter == "box":
                self.hunter = "stalk"
            elif self.hunter == "stalk":
                seats = [s for s in self._living() if self._in_location(s) is None]
                if seats:
                    s = self.chance.draw("hunter_target", seats)
                    t = self._city_tile_at(self.sv[s]["zone"])
                    if self._place(t, "hunter") is not None:
                        self.stats["hunter_spawns"] += 1
        # the infection icon
        if infection_icon == "infection":
            for s in self._living():
                lvl = self.sv[s]["infection"]
                if lvl == 1:
                    self._stress(s, R["threat.infection_card.level_1_stress"])
                # Reading 12: health lost to the icon kills as damage (a death of infection
                # is the level reaching survivor.infection_death)
                elif lvl == 2:
                    self._hurt(s, R["threat.infection_card.level_2_health"], "damage")
                elif lvl >= 3:
                    self._hurt(s, R["threat.infection_card.level_3_health"], "damage")
        self._noise_adjustment()

    def _noise_adjustment(self):
        """§3.9: any counter raises the threat once; red counters turn yellow, yellow ones go."""
        if self.noise_red + self.noise_yellow > 0:
            self._raise(self.R["threat_track.noise_rise"], "noise")
        self.noise_yellow, self.noise_red = self.noise_red, 0

    def _priority(self, cands: list[int]) -> int:
        def key(s):
            sv = self.sv[s]
            if self.R["combat.target_priority"] == "weakest_then_noisiest":
                return (sv["health"], -sv["noise"], s)
            return (-sv["noise"], sv["health"], s)
        return min(cands, key=key)

    def _advance_enemy(self, t: dict, e: dict) -> bool:
        cap = self.R["map.engaged_cap"]
        cands = [s for s in self._living() if self.sv[s]["tile"] == t["id"] and not self.sv[s]["hidden"]
                 and sum(1 for x in t["enemies"] if x["engaged"] == s) < cap]
        if not cands:
            return False
        e["engaged"] = self._priority(cands)
        if t["trap"] > 0:   # Reading 38: the first enemy to engage on a trapped tile fires it
            self._fire_trap(t, e)
        return True

    def _zombies(self, side_a: str, where: str):
        fury = self.R["threat.side_a.fury_actions"] if side_a == "fury" else 0
        acting = []
        for tid, t in self.tiles.items():
            if any(sv["alive"] and sv["tile"] == tid for sv in self.sv):
                acting += [(t, e) for e in t["enemies"]]
        # Reading 8: ties of initiative by kind (data order), then by the enemy's slot
        acting.sort(key=lambda te: (-self._estat(te[1]["kind"], "initiative"),
                                    self.enemy_kinds.index(te[1]["kind"]), te[1]["slot"]))
        if side_a == "excitement":
            for t, e in sorted(acting, key=lambda te: te[1]["slot"]):
                if e["engaged"] is None:
                    self._advance_enemy(t, e)
        for t, e in acting:
            for _ in range(self._estat(e["kind"], "actions") + fury):
                if e not in t["enemies"]:
                    break   # Reading 38: killed by a trap
                s = e["engaged"]
                if s is not None and (not self.sv[s]["alive"] or self.sv[s]["hidden"]):
                    e["engaged"] = s = None
                if s is not None:
                    self._enemy_attack(e, s, where)
                elif not self._advance_enemy(t, e):
                    break

    # ------------------------------------------------------------------ traps (§4.4) and combined cards (§4.5)
    def _trap_weapons(self, s: int) -> dict[int, str]:
        """Reading 36: his trap-combinable carried weapons by argument bit (1 melee, 2 ranged)."""
        out = {}
        for bit, kind in ((1, "melee"), (2, "ranged")):
            w = self._carried(s, kind)
            if w is not None and self.R.get(f"weapons.{w}.trap_damage", 0) > 0:
                out[bit] = w
        return out

    def _trap_legal(self, s: int) -> list[tuple]:
        R, sv = self.R, self.sv[s]
        loc = self._in_location(s)
        stuff = self._card_of_kind(s, "trap_stuff")
        if loc is None or stuff is None or self._tile_of(s)["trap"] > 0 or sv["ap"] < R["combat.trap_ap"]:
            return []
        ws = self._trap_weapons(s)
        cap = R[f"search.{stuff}.capacity"]
        sps = range(0, min(R["survivor.max_sp_per_roll"], sv["sp"]) + 1)
        args = [arg for arg in (1, 2, 3) if all(b in ws for b in (1, 2) if arg & b)
                and bin(arg).count("1") <= cap]
        return [("set_trap", arg, p) for arg in args for p in sps]

    def _discard_weapon(self, s: int, w: str) -> None:
        """A carried weapon leaves his hand (the melee hand falls back on the fists), with
        its search card if he holds one."""
        sv = self.sv[s]
        sv["weapons"].remove(w)
        card = next((c for c in sv["cards"] if self.R[f"search.{c}.kind"] == "weapon"
                     and self.R[f"search.{c}.weapon"] == w), None)
        if card is not None:
            sv["cards"].remove(card)

    def _set_trap(self, s: int, arg: int, sp: int) -> None:
        """Reading 37: the AP, a Mechanisms check; passed, the stuff for traps card and the
        chosen weapons are discarded and a marker of amount + their trap damage lies on
        his tile; failed, only the AP (and the SP) are spent."""
        R, sv = self.R, self.sv[s]
        sv["ap"] -= R["combat.trap_ap"]
        if not self._check(s, "mechanisms", 0, sp):
            return
        stuff = self._card_of_kind(s, "trap_stuff")
        ws = self._trap_weapons(s)
        dmg = R[f"search.{stuff}.amount"]
        sv["cards"].remove(stuff)
        for bit in (1, 2):
            if arg & bit:
                dmg += R[f"weapons.{ws[bit]}.trap_damage"]
                self._discard_weapon(s, ws[bit])
        self._tile_of(s)["trap"] = dmg
        self.stats["traps_set"] += 1

    def _fire_trap(self, t: dict, e: dict) -> None:
        """Reading 38: the marker is discarded; the enemy takes its damage at once,
        resistance not subtracted; killed: a corpse, back to the box (the Hunter: dead), no
        SP, a trap kill, not a kill."""
        dmg, t["trap"] = t["trap"], 0
        self.stats["trap_hits"] += 1
        e["wounds"] += dmg
        if e["wounds"] < self._estat(e["kind"], "health"):
            return
        t["enemies"].remove(e)
        t["corpses"] += 1
        self.stats["trap_kills"] += 1
        if e["kind"] == "hunter":
            self.hunter = "dead"
            self.hunter_wounds = 0
        elif not self.R["variants.unlimited_miniatures"]:
            self.box[e["kind"]] += 1

    def _components(self, card: str) -> list[str]:
        return list(self.R.get(f"search.{card}.components") or ())

    def _has_component(self, s: int, c: str) -> bool:
        """A weapon component in a hand; another component card held."""
        if self.R[f"search.{c}.kind"] == "weapon":
            return self.R[f"search.{c}.weapon"] in self.sv[s]["weapons"]
        return c in self.sv[s]["cards"]

    def _combine_legal(self, s: int) -> list[tuple]:
        """Reading 40: one action a combined card whose components he carries."""
        if self.sv[s]["ap"] < self.R["combat.combine_ap"]:
            return []
        return [("combine", c) for c in self.search_names
                if self._components(c) and all(self._has_component(s, x) for x in self._components(c))]

    def _combine(self, s: int, card: str) -> None:
        """Reading 40: the components are discarded, the combined weapon goes into its hand."""
        R, sv = self.R, self.sv[s]
        sv["ap"] -= R["combat.combine_ap"]
        for c in self._components(card):
            if R[f"search.{c}.kind"] == "weapon":
                self._discard_weapon(s, R[f"search.{c}.weapon"])
            else:
                sv["cards"].remove(c)
        w = R[f"search.{card}.weapon"]
        cur = self._carried(s, R[f"weapons.{w}.kind"])
        if cur not in (None, "fists"):
            self._discard_weapon(s, cur)
        sv["weapons"].append(w)
        sv["cards"].append(card)
        self.stats["cards_combined"] += 1

    def _clock(self, hours: int):
        R = self.R
        for _ in range(hours):
            self.hour = (self.hour + 1) % 24
            h = self.hour
            if h == R["clock.night_start"] and self.hunter != "dead":
                self.hunter_wounds = 0
            if h == R["clock.dawn_hour"]:
                for s in self._living():
                    self._gain_sp(s, R["clock.dawn_sp"])
                for t in list(self.tiles.values()):
                    for e in list(t["enemies"]):
                        if e["kind"] == "hunter":
                            t["enemies"].remove(e)
                            self.hunter_wounds = e["wounds"]
                if self.hunter != "dead":
                    self.hunter = "box"
            if h in R["clock.infection_hours"]:
                for s in self._living():
                    if self.sv[s]["infection"] > 0:
                        a = yield ("roll", s)
                        if not self._check(s, "strength", 0, a[1]):
                            self._infect(s, 1)
            if h == R["clock.eat_hour"]:
                for s in self._living():
                    sv = self.sv[s]
                    need = R[f"survivors.{sv['name']}.eats"]
                    eaten = min(need, sv["supplies"])
                    sv["supplies"] -= eaten
                    # a supply eaten heals as a supply spent does (survivor.supply_heals)
                    net = -(need - eaten) + (0 if R["variants.eating_only_prevents_loss"]
                                             else eaten * R["survivor.supply_heals"])
                    if net > 0:
                        self._heal(s, net)
                    elif net < 0:
                        self._hurt(s, -net, "hunger")
            if h in R["clock.threat_hours"]:
                self._raise(R["clock.threat_hour_rise"], "clock")
            self._check_end()

    def _sv_obs(self, i: int) -> dict:
        sv = self.sv[i]
        return {"name": sv["name"], "alive": sv["alive"], "zone": list(sv["zone"]), "tile": sv["tile"],
                "health": sv["health"], "stress": sv["stress"], "infection": sv["infection"],
                "sp": sv["sp"], "supplies": sv["supplies"], "ammo": sv["ammo"],
                "weapons": list(sv["weapons"]), "items": list(sv["cards"]), "hidden": sv["hidden"],
                "defending": sv["defending"], "activated": sv["activated"], "ap": sv["ap"],
                "reserve": sv["reserve"], "battery": sv["battery"], "light": sv["light"],
                "exchange": sv["exchange"]}

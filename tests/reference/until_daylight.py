"""Reference engine of Until Daylight (issue #40: a second engine, written from the rules).

STATUS: skeleton

Plain Python, standard library only, slow and obvious.  Written from
``docs/games/until-daylight.md`` (primary), ``/work/shared/rules/until-daylight.md`` and the
rulebook, never from simlib's kernels.  Every number comes from the flat ruleset dict
(``{k: r.get(k) for k in r.keys()}`` of ``simlib.games.until_daylight.ruleset.load_ruleset``,
any preset or override); an optional field absent from the dict takes the schema default
(0 / false / none).

The game runs as one Python generator that yields at every decision; :meth:`apply` sends
the chosen action in and runs chance and forced steps to the next decision.

Setup keys
----------
- ``players`` (int, required): number of seats, ``constants.min_players`` ..
  ``constants.max_players`` (3-6); any other count raises ``ValueError``.
- ``characters`` (list of character names, optional): the character of each seat, all
  different; default: the first ``players`` characters in the data's order
  (pillar, hipster, trigger, haggler, drifter, psycho).
Seat 0 is the first player of round 1 and acts as leader until a leader emerges (that only
rolls dice: nobody's advantage is doubled before a real leader exists).

Decisions and action forms
--------------------------
``to_move()`` is the seat deciding now; ``observation()["decision"]`` names the kind of
decision.  Card names are the data's (``gun_ammo``, ``canned_food``, ``crowbar``, ...);
seats are ints 0..players-1; an "area" is named by the seat that owns it.

``turn`` (a player's action in the search phase or the characters' attack):
  ("draw",)                      search phase only: draw a rubble card (the Hipster looks at
                                 1 + draw_extra cards and keeps one, decision ``keep``)
  ("craft", recipe)              recipe = "trap" | "barricade" (recipes.toml): spends the
                                 ingredients; needs a token in the supply and fewer than
                                 token_limit tokens held; no_barricades forbids "barricade"
  ("give", card, to_seat)        one card (a stack: decision ``move``); no_give forbids it
  ("take", card, from_seat)      one card from another player (who always agrees)
  ("use", card)                  a heal card (only while health < max health); a card with
                                 needs_action = false (bandage) does not end the turn
  ("pickpocket", from_seat, card) spends a pickpocket card (an action): takes that whole
                                 stack/card from the player, +amount XP (kept for good)
  ("attack", area, weapon)       combat only: attack the area with a held weapon (then
                                 decisions ``ammo``, ``boost``, ``after_roll``)
  ("pass",)                      do nothing
  The Haggler's free_trades: the first `amount` give/take actions of a turn do not end it.
``move``:        ("move", n)       how many cards of a stack of 2+ a give/take moves (1..n);
                                   asked of the acting player
``discard``:     ("discard", card) one card leaves the asking player's inventory: over the
                                   slot limit (repeated until within it), a lost_item
                                   event, the Die of Fate's discard_card face, or each
                                   damage a raider deals to the character
``keep``:        ("keep", card)    the Hipster keeps one of the non-event cards looked at
``ammo``:        ("ammo", n)       distance attack: ammo cards spent, 1 .. the fewest that
                                   reach dice_cap dice (or all held)
``boost``:       ("boost", card)   a dice_bonus card before the roll (melee-only ones only
                                   with a melee weapon; offered while dice < dice_cap),
                 ("roll",)         roll now
``after_roll``:  ("focus",)        one B becomes H (needs a B and a focus card)
                 ("energy_shot",)  one X becomes B (needs an X)
                 ("lucky",)        reroll each X once (needs an X; one lucky card per attack)
                 ("resolve",)      assign the damage
``adrenaline``:  ("attack", area, weapon) another attack this turn, spending an adrenaline
                 ("done",)         card; offered after each attack while one is held
``sacrifice``:   ("sacrifice",)    a saved survivor absorbs this 1 damage (discarded)
                 ("endure",)       the character takes it
Forced steps: any decision with exactly one legal action is taken automatically (so a
``turn`` is never offered with ("pass",) alone, a ``discard`` of a single card type is
automatic, ...).  Trap firing, enemy attacks, the Drifter's ignore, the Pillar's absorb,
protection cards, the save of survivors are automatic (no decision).

Observation keys
----------------
round, phase ("search" | "combat" | "final" | "over"), decision (kind above or None),
to_move, first_player, caught (None during the search phase), leader (None until one
emerges), search_actions (actions completed this search phase), exchange (final-fight
exchanges so far), trap_supply, barricade_supply, rubble_deck (cards left), rubble_discard,
horde_deck, horde_discard (card counts), attack (None, or the attack being built:
{area, weapon, dice, rolled: {"H","B","X"}, lucky_used}), seats: list per seat of
{character, health, max_health, xp, slots, slots_used, inventory: {card: count},
traps, barricades, saved (survivors held), kept (monster cards held), area: [enemy names
left to right]}.  Inventories are face up in the game, so everything is public; only the
decks' order is hidden (it does not exist here: cards are drawn from the multiset).

Chance kinds (options at that moment)
-------------------------------------
- "search_timer": the K values of ``per_player*players + offset + d`` for d in
  -spread..spread, each clamped to ``min`` (a list with repeats; K = completed actions).
- "rubble_deck": the rubble draw pile, card names with repeats (data order).  An empty
  pile takes the rubble discard pile as its new draw pile first (no draw if both empty).
- "horde_deck": the horde draw pile, enemy names with repeats; empty: the horde discards
  become the pile when variants.horde_reshuffle, else nothing is drawn.
- "fate_die": the Die of Fate faces, each repeated by its count in dice.fate.faces.
- "attack_die": a player's attack die (dice.combat.faces expanded: H, B, B, B, X, X).
- "reroll_die": a die rerolled by a lucky card (same faces).
- "enemy_die": an enemy's attack die (same faces).

Record keys
-----------
won (bool), cause ("win" | "character_died" | "no_survivor_saved" | "stalemate"),
died_seat, died_round (None unless character_died), rounds_played (the round the game
ended in), exchanges (final-fight exchanges played), characters (per seat), health, xp,
survivors_saved, kills (enemies eliminated per seat, trap kills credited to the owner
when trap_rewards), monsters_kept (per seat), killed ({enemy: count} by players and
traps), leader (seat or None), enemies_left (raiders/infected on the table at the end).

Readings (where the docs page and the rulebook leave a choice)
--------------------------------------------------------------
- Inventory slots: every held rubble card counts, basic weapons included; a stack of
  ``stacks`` ammo is one slot.  Over-limit discards are one card per decision.
- The Die of Fate is rolled before the wave is drawn: remove_enemy / add_enemy change the
  number of horde cards drawn (rulebook example: "adds another infected ... the group
  picks the 10 cards"); the other faces act after the wave is placed.
- The damage path of a character (the Drifter's ignore_damage, then an adjacent Pillar's
  absorb, then the sacrifice decision, then health) applies to enemy damage, injury
  events and the Die of Fate's damage; collateral alone goes straight to health (docs).
  Ignore/absorb count per round (round 10's exchanges share one round).  The Pillar's
  absorb is automatic and cancels the damage.
- A raider's damage discards a card only when it reaches the character's health.
- Protection cards are used automatically, in the data's card order.
- Traps fire one at a time in each area (areas clockwise from the caught player) while
  the area holds a raider or infected: each adds trap_heads to the first one; heads from
  traps of one step add up on an enemy until it dies; a trap left when no enemy remains
  stays with its owner.
- A player's attack: weapon chosen, then ammo, then boost cards, then the roll, then the
  after-roll cards (the rulebook's order: "declare ... choose a weapon and ammunition ...
  roll ... play additional cards").  Ordered damage per the docs page (bodies first on an
  enemy that bodies can kill, else heads).  Then collateral, taming (per attack), then the
  kills' reward draws, in kill order.
- Rewards drawn from the rubble deck and the Fate's draw_card resolve event cards like a
  draw action; the Hipster's extra look applies only to the draw action.  Events among
  the Hipster's looked-at cards resolve; he keeps one of the others, the rest are
  discarded.
- Heal cards may be used only while hurt; heals never exceed the character's health.
- Taking from the Psycho is allowed (no_give forbids only his give).
- XP = XP earned for good (monsters eliminated, survivors saved, pickpockets) + the
  symbol cards held.  Leader: after any change, if some seat holds strictly more XP than
  the current leader (0 when there is none), the one with the most XP (ties: lowest seat)
  becomes leader.
- Survivors: every survivor in an area without raiders or infected is saved at the end of
  a round (and after each final-fight exchange).
- Round 10: the final fight's exchange loop starts only while a raider or infected is on
  the table; after stalemate_cap exchanges with enemies left the game is a stalemate.
"""
from __future__ import annotations

from typing import Any, Mapping

from .chance import Chance


class Reference:
    """One game of Until Daylight (see the module docstring)."""

    def __init__(self, rules: Mapping[str, Any], setup: Mapping[str, Any], chance: Chance):
        raise NotImplementedError("skeleton")

    def to_move(self) -> int | None:
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

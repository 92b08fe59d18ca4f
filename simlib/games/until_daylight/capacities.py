"""What the game kernels can hold: every capacity derived from a ruleset, checked at load.

numba does not check array bounds: a ruleset whose numbers overflow one of the kernels'
fixed-size arrays would corrupt memory silently.  So every capacity the kernels assume is
either sized from the ruleset when a game's state is allocated (areas, decks, discard
piles, scratch rows: ``kernels/game_nb.py:new_state_nb``) or fixed in ``codes.py``
(seats, candidates of one decision, dice cap, per-type record fields), and this module
checks, when a ruleset is built, that the fixed ones hold what the ruleset can produce.
It also gives every integer field an allowed range (:data:`INT_RANGES`), so sums and
products in the kernels stay far from int64 overflow and a game's state stays a few MB.

The checks are plain Python (the kernels are not touched) and raise
:class:`~simlib.games.until_daylight.ruleset.RulesetError` naming the file, the key, the value
and the limit.

Capacities (name: what bounds it, where it is used)

* ``MAX_PLAYERS`` (6): seats of every per-seat table and record field;
  ``constants.max_players`` <= 6, and <= the number of characters (a random team draws
  ``players`` different characters).
* ``MAX_DICE_CAP`` (14): ``constants.dice_cap`` (the kill-assignment state set).
* ``MAX_ENEMY_TYPES`` (8): the record's per-type kill counts: horde types <= 8.
* ``MAX_CANDS`` (512): candidates of one decision.  The largest decision is a turn:
  nothing, draw, one per recipe, one per (weapon held, area), one per usable card held,
  give and take of each card type held with each other seat.  A seat holds at most
  ``slots`` card types (each type held takes at least one slot; the limit is enforced
  after every gain), so the bound is
  ``2 + recipes + P * min(weapon types, S) + min(use types, S) + 2 * (P - 1) * S`` with
  ``S = min(card types, max slots + 1)`` and ``P = max_players``; also a draw with
  ``draw_extra`` looks at ``1 + 2 * amount`` cards (the leader's advantage doubles) and a
  discard choice lists every card type.
* areas, horde deck and discard, rubble deck and discard, scratch rows: sized from the
  horde and rubble totals, which are bounded (:data:`MAX_HORDE_TOTAL`,
  :data:`MAX_RUBBLE_TOTAL`) so a game's state stays below ~10 MB.
* event buffer: sized by ``trace_game``; the kernel stops writing events when it is full,
  and ``trace_game`` then replays the game with a larger buffer (default) or warns
  (``TraceTruncatedWarning``, an explicit ``capacity``).
* a step's script (``codes.SCRIPT_CAP``, 4096): the choices already taken in the current
  step (a turn, an area attack, the traps, the horde release), replayed when a step-mode
  game resumes.  This one is *not* derived from the ruleset because the rules give it no
  bound: with reshuffling decks, a turn can chain adrenaline attacks without end (a kill
  draws rubble cards, the spent adrenaline card comes back through the reshuffled discard
  pile, a noise event brings new enemies from the reshuffled horde), each attack with its
  ammo, card and reward choices.  So it is checked where it is used:
  ``apply_action_nb`` refuses a choice that would overflow the script (code -3), leaving
  the game unchanged, and ``step.Game.apply`` raises a ``StepError`` naming the
  capacity.  The batch kernel and the policies' rollouts choose inline and use no script.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from . import codes as K

__all__ = ["INT_RANGES", "MAX_HORDE_TOTAL", "MAX_RUBBLE_TOTAL", "int_range", "check_capacities",
           "turn_candidates_bound"]

MAX_HORDE_TOTAL = 50_000  # horde cards in a game (areas and the horde deck are sized by it)
MAX_RUBBLE_TOTAL = 50_000  # rubble cards in a game (deck + basic weapons)
_BIG = 1_000_000  # generic upper bound of an integer value: no int64 overflow anywhere

# (lowest, highest) allowed value of every integer field, by the field's last key part
# (file-specific entries first); the lowest bound repeats the schema's minimum.
INT_RANGES: dict[str, tuple[int, int]] = {
    # constants.toml
    "constants.rounds": (1, 1000),
    "constants.dice_cap": (1, K.MAX_DICE_CAP),
    "constants.token_limit": (0, 1000),
    "constants.trap_supply": (0, 10_000),
    "constants.barricade_supply": (0, 10_000),
    "constants.barricade_heads": (1, 1000),
    "constants.barricade_bodies": (0, 1000),
    "constants.trap_heads": (0, 1000),
    "constants.collateral_per_x": (0, 1000),
    "constants.wave_per_player": (0, 1000),
    "constants.survivor_xp": (0, 10_000),
    "constants.min_players": (1, K.MAX_PLAYERS),
    "constants.max_players": (1, K.MAX_PLAYERS),
    "constants.stalemate_cap": (1, 10_000),
    "constants.bodies_per_damage": (1, 1000),
    "constants.search_timer.per_player": (0, 100),
    "constants.search_timer.offset": (-1000, 1000),
    "constants.search_timer.spread": (0, 100),
    "constants.search_timer.min": (0, 1000),
    # dice.toml
    "dice.size": (1, 1000),
    "dice.faces": (0, 1000),
    # characters.toml
    "characters.health": (1, 100_000),
    "characters.slots": (1, 1000),
    "characters.amount": (-100, 100),
    # horde.toml
    "horde.count": (0, MAX_HORDE_TOTAL),
    "horde.kill_heads": (1, 1000),
    "horde.kill_bodies": (0, 1000),
    "horde.attack_dice": (0, 1000),
    "horde.reward_cards": (0, 1000),
    "horde.reward_xp": (0, 10_000),
    # rubble.toml
    "rubble.count": (0, MAX_RUBBLE_TOTAL),
    "rubble.dice": (0, 100),
    "rubble.weapon_bonus": (0, 100),
    "rubble.amount": (0, 1000),
}


def _range_key(key: str) -> str:
    p = key.split(".")
    if p[0] == "constants":
        return key
    if p[0] == "dice":
        return "dice.faces" if len(p) > 3 else f"dice.{p[-1]}"
    return f"{p[0]}.{p[-1]}"


def int_range(key: str) -> tuple[int, int] | None:
    """Allowed (lowest, highest) value of an integer field by dotted key (a die face count:
    ``dice.combat.faces.H``), or None if the key holds no integer."""
    return INT_RANGES.get(_range_key(key))


def check_range(file: str, key: str, value: int, err: Callable[..., Exception]) -> None:
    """Raise ``err(file, key, msg, allowed)`` if ``value`` is outside the key's range."""
    r = int_range(key)
    if r is None:
        return
    lo, hi = r
    if value > hi:
        raise err(file, key, f"{value} exceeds the engine's limit {hi}", [f"{lo}..{hi}"])
    if value < lo:
        raise err(file, key, f"{value} is below the lowest allowed value {lo}", [f"{lo}..{hi}"])


def turn_candidates_bound(n_cards: int, n_weapons: int, n_use: int, n_recipes: int,
                          max_slots: int, max_players: int) -> int:
    """Most candidates one turn decision can list (see the module docstring)."""
    s = min(n_cards, max_slots + 1)
    p = max_players
    return 2 + n_recipes + p * min(n_weapons, s) + min(n_use, s) + 2 * (p - 1) * s


def check_capacities(values: Mapping[str, Any], model: Mapping[str, Any],
                     fname: Callable[[str], str], err: Callable[..., Exception]) -> None:
    """Cross-field capacity checks of a validated ruleset (``values``: dotted key -> value,
    ``model``: the names ``ruleset._validate`` built); raise ``err(file, key, msg, allowed)``."""

    def get(key: str, default: Any = 0) -> Any:
        return values.get(key, default)

    fc, fh, fr, fch = fname("constants"), fname("horde"), fname("rubble"), fname("characters")
    # seats
    n_chars = len(model["character_names"])
    maxp = values["constants.max_players"]
    if maxp > n_chars:
        raise err(fc, "constants.max_players",
                  f"{maxp} players need {maxp} different characters; the ruleset has {n_chars}",
                  [f"1..{min(n_chars, K.MAX_PLAYERS)}"])
    # record fields
    n_enemies = len(model["enemy_names"])
    if n_enemies > K.MAX_ENEMY_TYPES:
        raise err(fh, "horde", f"{n_enemies} enemy types exceed the records' capacity "
                  f"{K.MAX_ENEMY_TYPES} (codes.MAX_ENEMY_TYPES)",
                  [f"at most {K.MAX_ENEMY_TYPES} enemy types"])
    # deck sizes
    if model["horde_total"] > MAX_HORDE_TOTAL:
        raise err(fh, "horde", f"{model['horde_total']} horde cards in all exceed the engine's "
                  f"limit {MAX_HORDE_TOTAL}", [f"counts adding up to at most {MAX_HORDE_TOTAL}"])
    rubble_total = model["deck_total"] + len(model["basics"])
    if rubble_total > MAX_RUBBLE_TOTAL:
        raise err(fr, "rubble", f"{rubble_total} rubble cards in all (basic weapons included) "
                  f"exceed the engine's limit {MAX_RUBBLE_TOTAL}",
                  [f"counts adding up to at most {MAX_RUBBLE_TOTAL}"])
    # candidates of one decision
    cards = model["card_names"]
    kinds = [values[f"{model['card_keys'][c]}.kind"] for c in cards]
    n_weapons = sum(k == "weapon" for k in kinds)
    n_use = sum(k in ("heal", "pickpocket") for k in kinds)
    slots = max(values[f"characters.{c}.slots"] for c in model["character_names"])
    if len(cards) > K.MAX_CANDS - 1:
        raise err(fr, "rubble", f"{len(cards)} card types exceed the engine's capacity "
                  f"{K.MAX_CANDS - 1} (codes.MAX_CANDS - 1)",
                  [f"at most {K.MAX_CANDS - 1} card types"])
    bound = turn_candidates_bound(len(cards), n_weapons, n_use, len(model["recipe_names"]),
                                  slots, maxp)
    if bound > K.MAX_CANDS:
        raise err(fr, "rubble", f"{len(cards)} card types with {slots} inventory slots and "
                  f"{maxp} players allow {bound} choices in one turn, over the engine's "
                  f"capacity {K.MAX_CANDS} (codes.MAX_CANDS)",
                  ["fewer card types, fewer slots (characters.<name>.slots) or fewer players"])
    for c in model["character_names"]:
        for part in ("advantage", "drawback"):
            pre = f"characters.{c}.{part}"
            amount = values[f"{pre}.amount"]
            kind = values[f"{pre}.kind"]
            if kind == "draw_extra":
                most = (K.MAX_CANDS - 1) // 2
                if amount > most:
                    raise err(fch, f"{pre}.amount", f"draw_extra {amount}: a draw would look at "
                              f"{1 + 2 * amount} cards (doubled while leader), over the engine's "
                              f"capacity {K.MAX_CANDS} (codes.MAX_CANDS)", [f"at most {most}"])
        # collateral damage per X must not turn into healing
        low = values["constants.collateral_per_x"]
        for part in ("advantage", "drawback"):
            pre = f"characters.{c}.{part}"
            if values[f"{pre}.kind"] == "extra_collateral":
                low += min(values[f"{pre}.amount"], 2 * values[f"{pre}.amount"]) \
                    if part == "advantage" else values[f"{pre}.amount"]
        if low < 0:
            raise err(fch, f"characters.{c}.advantage.amount" if values[
                f"characters.{c}.advantage.kind"] == "extra_collateral"
                else f"characters.{c}.drawback.amount",
                f"collateral damage per X would be {low} for {c} (negative damage)",
                ["extra_collateral amounts >= -constants.collateral_per_x"])

"""Reference engine of Until Daylight (issue #40: a second engine, written from the rules).

STATUS: complete

Plain Python, standard library only, slow and obvious.  Written from
``docs/games/until-daylight.md`` (primary), the game's engine specification and the
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
Scenario keys (optional, for worked examples; each a list with one entry per seat):
``inventories`` ({card: count} added to the seat's basic weapon, taken out of the rubble
deck as far as it holds them), ``areas`` (enemy names placed left to right in the seat's
area before round 1, taken out of the horde deck), ``traps``, ``barricades`` (tokens held,
taken from the supply), ``health`` (current health), ``saved`` (survivors already saved).
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
                                 decisions ``ammo``, ``boost``, ``after_roll``); offered
                                 for every area holding a raider or infected (or a
                                 survivor under survivors_block_attacks); a distance
                                 weapon needs one card of its ammo; no_firearms forbids
                                 firearms; melee into another area only while the
                                 attacker's own area holds no raider or infected
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
{area, weapon, dice, rolled: {"H","B","X"}, lucky_used}), looking (the cards the Hipster
looks at while deciding ``keep``), seats: list per seat of
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

History
-------
``history`` lists what happened, in order, as tuples ``(kind, round, seat, *details)``
(round 0 before the first search phase; seat None where no seat acts):
("round", r, None, first_player, K) a search phase starts; ("caught", r, seat);
("draw", r, seat, card, why) why = "action" | "reward" | "fate"; ("no_card", r, seat) both
rubble piles empty; ("reshuffle", r, None, "rubble" | "horde", cards); ("event", r, seat,
card) a red event resolves; ("discard", r, seat, card, why) why = "chosen" (a discard
decision) | "looked_at" (the Hipster's cards not kept); ("craft", r, seat, recipe);
("give", r, giver, card, taker, k); ("take", r, taker, card, giver, k, pickpocket);
("use", r, seat, card) a heal or pickpocket card; ("heal", r, seat, amount, health) the
heal's amount (the card's, or the Die of Fate's 1) and the health after it, capped;
("nothing", r, seat) a pass; ("fate", r, seat, face, wave size); ("horde", r, None, enemy,
area) a horde card enters an area; ("attack", r, seat, area, weapon, dice, ammo spent);
("played", r, seat, card, H, B, X) a boost or adrenaline card (zeros) or an after-roll card
(the faces after it); ("kill", r, killer (a trap's: the area's owner), enemy, area, by a trap);
("collateral", r, attacker, victim, damage); ("tame", r, attacker, from area, infected
moved); ("trap", r, area, fired, kills) before that area's trap kills;
("survivor_killed", r, area); ("barricade_down", r, seat); ("protection", r, seat, card);
("ignored", r, seat, absorbing seat or None for the seat's own ability); ("sacrifice", r,
seat); ("damage", r, seat, amount, health after) one entry per damage point of the damage
path and of collateral; ("death", r, seat); ("saved", r, seat, survivors);
("leader", r, seat, xp); ("exchange", r, None, n) a final-fight exchange begins;
("end", r, None, won, cause).

Readings (where the docs page and the rulebook leave a choice)
--------------------------------------------------------------
- Inventory slots: every held rubble card counts, basic weapons included; a stack of
  ``stacks`` ammo is one slot.  Over-limit discards are one card per decision.
- The Die of Fate is rolled before the wave is drawn: remove_enemy / add_enemy change the
  number of horde cards drawn (rulebook example: "adds another infected ... the group
  picks the 10 cards"); the other faces act before the wave is placed (the rulebook:
  "rolls the die of fate and adds the effect ... The hordes cards are then disposed").
- The damage path of a character (the Drifter's ignore_damage, then an adjacent Pillar's
  absorb, then -- enemy damage only -- protection cards, then the sacrifice decision, then
  health; the rulebook: "before barricades, special capacities, rubble cards or
  characters") applies to enemy damage, injury
  events and the Die of Fate's damage; collateral alone goes straight to health (docs).
  Ignore/absorb count per round, and each final-fight exchange counts as a round for
  them (the kernel's reading, followed: the docs page is silent, the rulebook calls the
  fight "the final round"; an open rule question).  The Pillar's
  absorb is automatic and cancels the damage.
- A raider's damage discards a card only when it reaches the character's health.
- Protection cards are used automatically, in the data's card order, after the special
  capacities.
- Traps fire one at a time in each area (areas clockwise from the caught player) while
  the area holds a raider or infected: each adds trap_heads to the first one; heads from
  traps of one step add up on an enemy until it dies; a trap left when no enemy remains
  stays with its owner.
- A player's attack: weapon chosen, then ammo, then boost cards, then the roll, then the
  after-roll cards (the rulebook's order: "declare ... choose a weapon and ammunition ...
  roll ... play additional cards").  Ordered damage per the docs page (bodies first on an
  enemy that bodies can kill, else heads).  Then the kills' reward draws, in kill order,
  then collateral, then taming (per attack; the rulebook: rewards on elimination,
  taming "once the attack(s) has been resolved").
- Rewards drawn from the rubble deck and the Fate's draw_card resolve event cards like a
  draw action; the Hipster's extra look applies only to the draw action.  Events among
  the Hipster's looked-at cards resolve; he keeps one of the others, the rest are
  discarded.
- Heal cards may be used only while hurt; heals never exceed the character's health.
- Taking from the Psycho is allowed (no_give forbids only his give).
- XP = XP earned for good (monsters eliminated, survivors saved, pickpockets) + the
  symbol cards held; a sacrificed survivor's point is lost with it.  A card moving from
  one player to another changes the XP once (the leader is judged after the move).  Leader: after any change, if some seat holds strictly more XP than
  the current leader (0 when there is none), the one with the most XP (ties: lowest seat)
  becomes leader.
- Survivors: every survivor in an area without raiders or infected is saved at the end of
  a round (and after each final-fight exchange).
- Round 10: the final fight's exchange loop starts only while a raider or infected is on
  the table; after stalemate_cap exchanges with enemies left the game is a stalemate.  An
  exchange is played to its end (every player's turn, traps, enemies, the save) even after
  its last enemy fell; the win is judged between exchanges.
- A raider's damage discards a card of the player's choice (the rulebook: "of your
  choice"; the docs page's "least useful first" is read as how a bot chooses): a
  ``discard`` decision.
- Fate's discard_card and lost_item ask ``discard`` of the player; with no card, nothing.
"""
from __future__ import annotations

from typing import Any, Mapping

from .chance import Chance

RAIDER, INFECTED, SURVIVOR = "raider", "infected", "survivor"

_CARD_DEFAULTS = {"kind": None, "count": 0, "dice": 0, "ammo": None, "weapon_bonus": 0,
                  "melee": False, "firearm": False, "silent": False, "amount": 0,
                  "needs_action": False, "stacks": False}
_ENEMY_DEFAULTS = {"reward_cards": 0, "reward_xp": 0, "kept": False}


class _End(Exception):
    """The game ends at once (a character died)."""

    def __init__(self, cause: str, seat: int | None = None):
        super().__init__(cause)
        self.cause = cause
        self.seat = seat


def _names(rules: Mapping[str, Any], prefix: str, field: str) -> list[str]:
    """Entity names ``prefix.<name>.field`` in the dict's (file) order."""
    out = []
    for k in rules:
        if k.startswith(prefix + ".") and k.endswith("." + field):
            name = k[len(prefix) + 1:-len(field) - 1]
            if "." not in name and name not in out:
                out.append(name)
    return out


def _faces(table: Mapping[str, int]) -> list[str]:
    return [face for face, n in table.items() for _ in range(int(n))]


class _Seat:
    def __init__(self, char: str, health: int, slots: int):
        self.char = char
        self.health = health
        self.max_health = health
        self.slots = slots
        self.inv: dict[str, int] = {}
        self.traps = 0
        self.barricades = 0
        self.saved = 0
        self.kept: list[str] = []
        self.xp_earned = 0
        self.kills = 0
        self.ignored = 0    # damage ignored this round (ignore_damage)
        self.absorbed = 0   # damage absorbed this round for a neighbour (absorb_adjacent)


class Reference:
    """One game of Until Daylight (see the module docstring)."""

    # ------------------------------------------------------------------ setup
    def __init__(self, rules: Mapping[str, Any], setup: Mapping[str, Any], chance: Chance):
        self.rules = dict(rules)
        self.chance = chance
        # what happened, one entry per event: (kind, round, seat, *details); see History
        self.history: list[tuple] = []
        self.round = 0
        R = self.rules
        c = lambda k: R["constants." + k]  # noqa: E731
        self.rounds = c("rounds")
        self.cap = c("dice_cap")
        self.token_limit = c("token_limit")
        self.barricade_heads = c("barricade_heads")
        self.barricade_bodies = c("barricade_bodies")
        self.trap_heads = c("trap_heads")
        self.collateral_per_x = c("collateral_per_x")
        self.wave_per_player = c("wave_per_player")
        self.survivor_xp = c("survivor_xp")
        self.stalemate_cap = c("stalemate_cap")
        self.bodies_per_damage = R.get("constants.bodies_per_damage", 2)
        self.timer = {k: R["constants.search_timer." + k]
                      for k in ("per_player", "offset", "spread", "min")}
        self.v_block = bool(R["variants.survivors_block_attacks"])
        self.v_raiders_first = bool(R["variants.all_raiders_first"])
        self.v_reshuffle = bool(R["variants.horde_reshuffle"])
        self.v_trap_rewards = bool(R["variants.trap_rewards"])
        self.combat_faces = _faces(R["dice.combat.faces"])
        self.fate_faces = _faces(R["dice.fate.faces"])

        self.char_names = _names(R, "characters", "health")
        self.enemy_names = _names(R, "horde", "kind")
        self.enemies = {}
        for e in self.enemy_names:
            d = dict(_ENEMY_DEFAULTS)
            for f in ("kind", "count", "kill_heads", "kill_bodies", "attack_dice",
                      "reward_cards", "reward_xp", "kept"):
                if f"horde.{e}.{f}" in R:
                    d[f] = R[f"horde.{e}.{f}"]
            self.enemies[e] = d
        deck_cards = [n for n in _names(R, "rubble", "kind") if n != "basic_weapons"]
        basic = _names(R, "rubble.basic_weapons", "kind")
        self.card_names = deck_cards + basic
        self.cards = {}
        for n in deck_cards + basic:
            pre = f"rubble.{n}" if n in deck_cards else f"rubble.basic_weapons.{n}"
            d = dict(_CARD_DEFAULTS)
            for f in _CARD_DEFAULTS:
                if f"{pre}.{f}" in R:
                    d[f] = R[f"{pre}.{f}"]
            self.cards[n] = d
        self.recipes = {n: tuple(R[f"recipes.{n}.ingredients"])
                        for n in _names(R, "recipes", "ingredients")}

        n = int(setup["players"])
        if not c("min_players") <= n <= c("max_players"):
            raise ValueError(f"Until Daylight plays {c('min_players')}-{c('max_players')} "
                             f"players, not {n}")
        chars = list(setup.get("characters") or self.char_names[:n])
        if len(chars) != n or len(set(chars)) != n or any(ch not in self.char_names
                                                           for ch in chars):
            raise ValueError(f"characters {chars!r}: {n} different names of {self.char_names}")
        self.n = n
        self.seats = []
        for ch in chars:
            s = _Seat(ch, R[f"characters.{ch}.health"], R[f"characters.{ch}.slots"])
            s.inv[R[f"characters.{ch}.basic_weapon"]] = 1
            self.seats.append(s)
        self.areas: list[list[str]] = [[] for _ in range(n)]
        self.rubble_deck = {k: self.cards[k]["count"] for k in deck_cards
                            if self.cards[k]["count"] > 0}
        for ch in self.char_names:  # unpicked basic weapons go into the rubble deck (dized)
            if ch not in chars:
                w = R[f"characters.{ch}.basic_weapon"]
                self.rubble_deck[w] = self.rubble_deck.get(w, 0) + 1
        self.rubble_discard: dict[str, int] = {}
        self.horde_deck = {e: self.enemies[e]["count"] for e in self.enemy_names
                           if self.enemies[e]["count"] > 0}
        self.horde_discard: dict[str, int] = {}
        self.trap_supply = c("trap_supply")
        self.barricade_supply = c("barricade_supply")
        self.leader: int | None = None
        self._position(setup)
        self.killed = {e: 0 for e in self.enemy_names}
        self.round = 0
        self.phase = "search"
        self.first_player = 0
        self.caught: int | None = None
        self.search_actions = 0
        self.exchange = 0
        self.attack_state: dict | None = None
        self.looking: list[str] = []  # the Hipster's cards looked at, before he keeps one
        self.result: dict | None = None

        self._pending: tuple[int, str, list[tuple]] | None = None
        self._gen = self._game()
        self._advance(None, first=True)

    def _position(self, setup: Mapping[str, Any]) -> None:
        """The optional scenario keys: cards, enemies and tokens placed before round 1."""
        def per_seat(key):
            v = setup.get(key)
            if v is None:
                return [None] * self.n
            if len(v) != self.n:
                raise ValueError(f"setup[{key!r}] needs one entry per seat")
            return list(v)

        for i, hand in enumerate(per_seat("inventories")):
            for card, k in (hand or {}).items():
                if card not in self.cards:
                    raise ValueError(f"unknown card {card!r}")
                self._add(i, card, k)
                taken = min(k, self.rubble_deck.get(card, 0))
                for _ in range(taken):
                    self._take_from(self.rubble_deck, card)
        for i, line in enumerate(per_seat("areas")):
            for e in line or ():
                if e not in self.enemies:
                    raise ValueError(f"unknown horde card {e!r}")
                self.areas[i].append(e)
                if self.horde_deck.get(e, 0) > 0:
                    self._take_from(self.horde_deck, e)
        for i, k in enumerate(per_seat("traps")):
            if k:
                self.seats[i].traps += k
                self.trap_supply -= k
        for i, k in enumerate(per_seat("barricades")):
            if k:
                self.seats[i].barricades += k
                self.barricade_supply -= k
        for i, k in enumerate(per_seat("health")):
            if k is not None:
                self.seats[i].health = k
        for i, k in enumerate(per_seat("saved")):
            if k:
                self.seats[i].saved += k
                for _ in range(min(k, self.horde_deck.get(self._survivor_name(), 0))):
                    self._take_from(self.horde_deck, self._survivor_name())
        self._update_leader()

    # ------------------------------------------------------------------ interface
    def to_move(self) -> int | None:
        return None if self._pending is None else self._pending[0]

    def legal_actions(self) -> list[tuple]:
        return [] if self._pending is None else list(self._pending[2])

    def apply(self, action: tuple) -> None:
        if self._pending is None:
            raise ValueError("the game is over")
        action = tuple(action)
        if action not in self._pending[2]:
            raise ValueError(f"illegal action {action!r} at {self._pending[1]!r}; "
                             f"legal: {self._pending[2]!r}")
        self._advance(action)

    def is_over(self) -> bool:
        return self._pending is None

    def observation(self) -> dict:
        a = self.attack_state
        return {
            "round": self.round,
            "phase": "over" if self.is_over() else self.phase,
            "decision": None if self._pending is None else self._pending[1],
            "to_move": self.to_move(),
            "first_player": self.first_player,
            "caught": self.caught,
            "leader": self.leader,
            "search_actions": self.search_actions,
            "exchange": self.exchange,
            "trap_supply": self.trap_supply,
            "barricade_supply": self.barricade_supply,
            "rubble_deck": sum(self.rubble_deck.values()),
            "rubble_discard": sum(self.rubble_discard.values()),
            "horde_deck": sum(self.horde_deck.values()),
            "horde_discard": sum(self.horde_discard.values()),
            "looking": list(self.looking),
            "attack": None if a is None else {
                "area": a["area"], "weapon": a["weapon"], "dice": a["dice"],
                "rolled": dict(a["rolled"]), "lucky_used": a["lucky_used"]},
            "seats": [{
                "character": s.char, "health": s.health, "max_health": s.max_health,
                "xp": self.xp(i), "slots": s.slots, "slots_used": self.slots_used(i),
                "inventory": dict(sorted(s.inv.items())), "traps": s.traps,
                "barricades": s.barricades, "saved": s.saved, "kept": list(s.kept),
                "area": list(self.areas[i]),
            } for i, s in enumerate(self.seats)],
        }

    def record(self) -> dict:
        if self.result is None:
            raise ValueError("the game is not over")
        return dict(self.result)

    # ------------------------------------------------------------------ driver
    def _advance(self, action, first: bool = False) -> None:
        try:
            pending = next(self._gen) if first else self._gen.send(action)
            while len(pending[2]) == 1:  # a forced step: the only legal action
                pending = self._gen.send(pending[2][0])
            self._pending = pending
        except StopIteration:
            self._pending = None

    def _ask(self, seat: int, kind: str, actions: list[tuple]):
        """Yield a decision; return the chosen action."""
        self._update_leader()
        action = yield (seat, kind, actions)
        return action

    def _game(self):
        try:
            yield from self._play()
        except _End as end:
            self._finish(end.cause, end.seat)

    def _finish(self, cause: str, seat: int | None = None) -> None:
        self.phase = "over"
        self.attack_state = None
        self._update_leader()
        self._log("end", None, cause == "win", cause)
        self.result = {
            "won": cause == "win",
            "cause": cause,
            "died_seat": seat if cause == "character_died" else None,
            "died_round": self.round if cause == "character_died" else None,
            "rounds_played": self.round,
            "exchanges": self.exchange,
            "characters": [s.char for s in self.seats],
            "health": [s.health for s in self.seats],
            "xp": [self.xp(i) for i in range(self.n)],
            "survivors_saved": [s.saved for s in self.seats],
            "kills": [s.kills for s in self.seats],
            "monsters_kept": [len(s.kept) for s in self.seats],
            "killed": dict(self.killed),
            "leader": self.leader,
            "enemies_left": sum(self._is_enemy(e) for a in self.areas for e in a),
        }

    def _log(self, kind: str, seat: int | None, *details) -> None:
        self.history.append((kind, self.round, seat) + details)

    # ------------------------------------------------------------------ helpers
    def mod(self, seat: int, kind: str) -> int:
        """The seat's character modifier of this kind (advantage doubled while leader)."""
        ch = self.seats[seat].char
        total = 0
        for part in ("advantage", "drawback"):
            if self.rules.get(f"characters.{ch}.{part}.kind") == kind:
                amount = self.rules.get(f"characters.{ch}.{part}.amount", 0)
                if part == "advantage" and self.leader == seat:
                    amount *= 2
                total += amount
        return total

    def xp(self, seat: int) -> int:
        s = self.seats[seat]
        held = sum(cnt * self.cards[c]["amount"] for c, cnt in s.inv.items()
                   if self.cards[c]["kind"] == "symbol")
        return s.xp_earned + held

    def _update_leader(self) -> None:
        bar = 0 if self.leader is None else self.xp(self.leader)
        best = None
        for i in range(self.n):
            if i != self.leader and self.xp(i) > bar and (best is None
                                                         or self.xp(i) > self.xp(best)):
                best = i
        if best is not None:
            self.leader = best
            self._log("leader", best, self.xp(best))

    def slots_used(self, seat: int) -> int:
        return sum(1 if self.cards[c]["stacks"] else cnt
                   for c, cnt in self.seats[seat].inv.items() if cnt > 0)

    def _is_enemy(self, e: str) -> bool:
        return self.enemies[e]["kind"] in (RAIDER, INFECTED)

    def _is_target(self, e: str) -> bool:
        return self._is_enemy(e) or (self.v_block and self.enemies[e]["kind"] == SURVIVOR)

    def _area_has_enemy(self, a: int) -> bool:
        return any(self._is_enemy(e) for e in self.areas[a])

    def _add(self, seat: int, card: str, k: int = 1) -> None:
        inv = self.seats[seat].inv
        inv[card] = inv.get(card, 0) + k
        self._update_leader()  # a symbol card moves XP

    def _remove(self, seat: int, card: str, k: int = 1, update: bool = True) -> None:
        inv = self.seats[seat].inv
        inv[card] -= k
        assert inv[card] >= 0
        if inv[card] == 0:
            del inv[card]
        if update:
            self._update_leader()

    def _discard_card(self, seat: int, card: str, k: int = 1) -> None:
        self._remove(seat, card, k)
        self.rubble_discard[card] = self.rubble_discard.get(card, 0) + k

    def _held_of_kind(self, seat: int, kind: str) -> list[str]:
        return [c for c in self.card_names
                if self.seats[seat].inv.get(c, 0) > 0 and self.cards[c]["kind"] == kind]

    @staticmethod
    def _take_from(pile: dict[str, int], card: str) -> None:
        pile[card] -= 1
        if pile[card] == 0:
            del pile[card]

    # ------------------------------------------------------------------ decks
    def _draw_rubble_card(self, seat: int, why: str) -> str | None:
        if not self.rubble_deck and self.rubble_discard:
            self.rubble_deck, self.rubble_discard = self.rubble_discard, {}
            self._log("reshuffle", None, "rubble", sum(self.rubble_deck.values()))
        if not self.rubble_deck:
            self._log("no_card", seat)
            return None
        options = [c for c in self.card_names for _ in range(self.rubble_deck.get(c, 0))]
        card = self.chance.draw("rubble_deck", options)
        self._take_from(self.rubble_deck, card)
        self._log("draw", seat, card, why)
        return card

    def _draw_horde_card(self, area: int) -> str | None:
        if not self.horde_deck and self.v_reshuffle and self.horde_discard:
            self.horde_deck, self.horde_discard = self.horde_discard, {}
            self._log("reshuffle", None, "horde", sum(self.horde_deck.values()))
        if not self.horde_deck:
            return None
        options = [e for e in self.enemy_names for _ in range(self.horde_deck.get(e, 0))]
        e = self.chance.draw("horde_deck", options)
        self._take_from(self.horde_deck, e)
        self._log("horde", None, e, area)
        return e

    def _to_horde_discard(self, e: str) -> None:
        self.horde_discard[e] = self.horde_discard.get(e, 0) + 1

    def _draw_into(self, seat: int, why: str):
        """One rubble card for the seat: an event resolves at once, else it is kept."""
        card = self._draw_rubble_card(seat, why)
        if card is None:
            return
        if self.cards[card]["kind"].startswith("event_"):
            yield from self._event(seat, card)
        else:
            self._add(seat, card)
            yield from self._check_limit(seat)

    def _event(self, seat: int, card: str):
        info = self.cards[card]
        self._log("event", seat, card)
        self.rubble_discard[card] = self.rubble_discard.get(card, 0) + 1
        if info["kind"] == "event_noise":
            for _ in range(info["amount"]):
                e = self._draw_horde_card(seat)
                if e is not None:
                    self.areas[seat].append(e)
        elif info["kind"] == "event_injury":
            yield from self._damage(seat, info["amount"], raider=False)
        elif info["kind"] == "event_lost_item":
            for _ in range(info["amount"]):
                yield from self._choose_discard(seat)

    def _choose_discard(self, seat: int):
        held = [c for c in self.card_names if self.seats[seat].inv.get(c, 0) > 0]
        if not held:
            return
        a = yield from self._ask(seat, "discard", [("discard", c) for c in held])
        self._discard_card(seat, a[1])
        self._log("discard", seat, a[1], "chosen")

    def _check_limit(self, seat: int):
        while self.slots_used(seat) > self.seats[seat].slots:
            yield from self._choose_discard(seat)

    # ------------------------------------------------------------------ damage
    def _die(self, seat: int) -> None:
        if self.seats[seat].health <= 0:
            self._log("death", seat)
            raise _End("character_died", seat)

    def _collateral(self, seat: int, amount: int) -> None:
        """Straight to health (docs: collateral skips the damage path)."""
        for _ in range(amount):  # logged a point at a time, like the damage path
            self.seats[seat].health -= 1
            self._log("damage", seat, 1, self.seats[seat].health)
        if amount > 0:
            self._die(seat)

    def _damage(self, seat: int, amount: int, raider: bool, protection: bool = False):
        """Damage reaching the character: ignore, a neighbour's absorb, sacrifice, health."""
        s = self.seats[seat]
        prot_left = 0
        for _ in range(amount):
            if s.ignored < self.mod(seat, "ignore_damage"):
                s.ignored += 1
                self._log("ignored", seat, None)
                continue
            pillar = None
            for nb in ((seat - 1) % self.n, (seat + 1) % self.n):
                if nb != seat and self.seats[nb].absorbed < self.mod(nb, "absorb_adjacent"):
                    pillar = nb
                    break
            if pillar is not None:
                self.seats[pillar].absorbed += 1
                self._log("ignored", seat, pillar)
                continue
            # enemy damage: a protection card after the special capacities (rulebook: a
            # survivor "takes damage before barricades, special capacities, rubble cards or
            # characters"), each absorbing its amount
            if protection:
                if prot_left > 0:
                    prot_left -= 1
                    continue
                prot = self._held_of_kind(seat, "protection")
                if prot:
                    self._discard_card(seat, prot[0])
                    self._log("protection", seat, prot[0])
                    prot_left = max(1, self.cards[prot[0]]["amount"]) - 1
                    continue
            if s.saved > 0:
                a = yield from self._ask(seat, "sacrifice", [("sacrifice",), ("endure",)])
                if a == ("sacrifice",):
                    self._log("sacrifice", seat)
                    s.saved -= 1
                    # a saved survivor "is now worth one experience point" and the score
                    # follows "as soon as a player wins or loses an experience point"
                    # (rulebook): discarding it loses the point
                    s.xp_earned -= self.survivor_xp
                    self._to_horde_discard(self._survivor_name())
                    continue
            s.health -= 1
            self._log("damage", seat, 1, s.health)
            self._die(seat)
            if raider:
                yield from self._choose_discard(seat)

    def _survivor_name(self) -> str:
        return next(e for e in self.enemy_names if self.enemies[e]["kind"] == SURVIVOR)

    # ------------------------------------------------------------------ kills
    def _kill(self, area: int, idx: int, credit: int | None, rewards: list,
              by_trap: bool = False) -> str:
        """Eliminate the enemy at areas[area][idx]; rewards (seat, cards) are queued."""
        e = self.areas[area].pop(idx)
        info = self.enemies[e]
        self.killed[e] += 1
        self._log("kill", area if by_trap else credit, e, area, by_trap)
        if info["kind"] == SURVIVOR:  # variant survivors_block_attacks: no reward
            self._to_horde_discard(e)
            if credit is not None:  # the record's kills: every card the seat's attacks removed
                self.seats[credit].kills += 1
        elif credit is not None:
            self.seats[credit].kills += 1
            self.seats[credit].xp_earned += info["reward_xp"]
            if info["kept"]:
                self.seats[credit].kept.append(e)
            else:
                self._to_horde_discard(e)
            if info["reward_cards"]:
                rewards.append((credit, info["reward_cards"]))
        else:
            self._to_horde_discard(e)
        self._update_leader()
        return e

    def _give_rewards(self, rewards: list):
        for seat, k in rewards:
            for _ in range(k):
                yield from self._draw_into(seat, "reward")

    # ------------------------------------------------------------------ game flow
    def _play(self):
        for rnd in range(1, self.rounds + 1):
            self.round = rnd
            for s in self.seats:
                s.ignored = 0
                s.absorbed = 0
            yield from self._search_phase()
            yield from self._horde()
            if rnd < self.rounds:
                yield from self._exchange()
                self.first_player = (self.caught + 1) % self.n
                self.caught = None
            else:
                self.phase = "final"
                while any(self._area_has_enemy(a) for a in range(self.n)):
                    if self.exchange >= self.stalemate_cap:
                        raise _End("stalemate")
                    self.exchange += 1
                    self._log("exchange", None, self.exchange)
                    if self.exchange > 1:
                        # per-round abilities are fresh each exchange: the kernel's reading
                        # (the docs page is silent; the rulebook calls the whole fight "the
                        # final round", and the abilities' texts are assumed) -- an open
                        # rule question, followed here so the rest of the fight is compared
                        for s in self.seats:
                            s.ignored = 0
                            s.absorbed = 0
                    yield from self._exchange()
                self._save_survivors()
                total = sum(s.saved for s in self.seats)
                raise _End("win" if total > 0 else "no_survivor_saved")

    def _search_phase(self):
        self.phase = "search"
        self.caught = None
        t = self.timer
        base = t["per_player"] * self.n + t["offset"]
        k = self.chance.draw("search_timer", [max(t["min"], base + d)
                                              for d in range(-t["spread"], t["spread"] + 1)])
        self.search_actions = 0
        actor = self.first_player
        self._log("round", None, actor, k)
        while self.search_actions < k:
            yield from self._turn(actor, "search")
            self.search_actions += 1
            actor = (actor + 1) % self.n
        self.caught = actor
        self._log("caught", actor)

    def _horde(self):
        self.phase = "combat"
        seat = self.caught
        size = self.wave_per_player * self.n + self.round
        face = self.chance.draw("fate_die", self.fate_faces)
        if face == "remove_enemy":
            size -= 1
        elif face == "add_enemy":
            size += 1
        self._log("fate", seat, face, max(0, size))
        if face == "discard_card":
            yield from self._choose_discard(seat)
        elif face == "draw_card":
            yield from self._draw_into(seat, "fate")
        elif face == "heal":
            s = self.seats[seat]
            s.health = min(s.max_health, s.health + 1)
            self._log("heal", seat, 1, s.health)
        elif face == "damage":
            yield from self._damage(seat, 1, raider=False)
        # the effect is added, "then" the horde cards are disposed (rulebook, The Release of
        # the Hordes Cards): a noise drawn by draw_card enters the area before the wave
        for _ in range(max(0, size)):
            e = self._draw_horde_card(seat)
            if e is None:
                break
            self.areas[seat].append(e)

    def _exchange(self):
        """The characters' attack, the traps, the enemies' attack, the save of survivors."""
        for i in range(self.n):
            yield from self._turn((self.caught + i) % self.n, "combat")
        yield from self._traps()
        yield from self._enemies_attack()
        self._save_survivors()

    def _save_survivors(self) -> None:
        for a in range(self.n):
            if not self._area_has_enemy(a):
                surv = [e for e in self.areas[a] if self.enemies[e]["kind"] == SURVIVOR]
                if surv:
                    self._log("saved", a, len(surv))
                    self.seats[a].saved += len(surv)
                    self.seats[a].xp_earned += self.survivor_xp * len(surv)
                    self.areas[a] = [e for e in self.areas[a]
                                     if self.enemies[e]["kind"] != SURVIVOR]
        self._update_leader()

    def _traps(self):
        for i in range(self.n):
            a = (self.caught + i) % self.n
            owner = self.seats[a]
            rewards: list = []
            hits = 0
            fired = kills = 0
            at = len(self.history)
            while owner.traps > 0 and self._area_has_enemy(a):
                idx = next(j for j, e in enumerate(self.areas[a]) if self._is_enemy(e))
                owner.traps -= 1
                self.trap_supply += 1
                fired += 1
                hits += self.trap_heads
                if hits >= self.enemies[self.areas[a][idx]]["kill_heads"]:
                    self._kill(a, idx, a if self.v_trap_rewards else None, rewards, True)
                    kills += 1
                    hits = 0
            if fired:  # the area's summary, before the kills it made
                self.history.insert(at, ("trap", self.round, a, fired, kills))
            yield from self._give_rewards(rewards)

    def _enemies_attack(self):
        order = [(self.caught + i) % self.n for i in range(self.n)]
        if self.v_raiders_first:
            steps = [(a, RAIDER) for a in order] + [(a, INFECTED) for a in order]
        else:
            steps = [(a, g) for a in order for g in (RAIDER, INFECTED)]
        for a, group in steps:
            dice = sum(self.enemies[e]["attack_dice"] for e in self.areas[a]
                       if self.enemies[e]["kind"] == group)
            while dice > 0:
                k = min(self.cap, dice)
                dice -= k
                rolled = [self.chance.draw("enemy_die", self.combat_faces) for _ in range(k)]
                yield from self._enemy_batch(a, group, rolled)

    def _enemy_batch(self, a: int, group: str, rolled: list[str]):
        h, b, x = rolled.count("H"), rolled.count("B"), rolled.count("X")
        area = self.areas[a]
        owner = self.seats[a]

        def first_survivor():
            return next((j for j, e in enumerate(area) if self.enemies[e]["kind"] == SURVIVOR),
                        None)

        if group == RAIDER:
            for _ in range(x):  # each X a raider rolls kills a survivor of the area
                j = first_survivor()
                if j is not None:
                    self._to_horde_discard(area.pop(j))
                    self._log("survivor_killed", a)
        else:  # infected hit survivors first, heads before bodies
            while True:
                j = first_survivor()
                if j is None:
                    break
                info = self.enemies[area[j]]
                if h >= info["kill_heads"]:
                    h -= info["kill_heads"]
                elif info["kill_bodies"] and b >= info["kill_bodies"]:
                    b -= info["kill_bodies"]
                else:
                    break
                self._to_horde_discard(area.pop(j))
                self._log("survivor_killed", a)
        while owner.barricades > 0 and h >= self.barricade_heads:
            h -= self.barricade_heads
            owner.barricades -= 1
            self.barricade_supply += 1
            self._log("barricade_down", a)
        # damage short of destroying a standing barricade lands on it and stops there: "the
        # barricade will take the first damage (after the survivors), protecting players"
        # (rulebook; equal results with 1 H / 2 B barricades, not with other numbers)
        if owner.barricades > 0:
            h = 0
        while owner.barricades > 0 and self.barricade_bodies and b >= self.barricade_bodies:
            b -= self.barricade_bodies
            owner.barricades -= 1
            self.barricade_supply += 1
            self._log("barricade_down", a)
        if owner.barricades > 0:
            b = 0
        damage = h + b // self.bodies_per_damage  # an odd body is lost with its batch
        if damage > 0:
            yield from self._damage(a, damage, raider=(group == RAIDER), protection=True)

    # ------------------------------------------------------------------ a player's turn
    def _turn(self, seat: int, phase: str):
        free_trades = 0
        while True:
            actions = self._turn_actions(seat, phase)
            a = yield from self._ask(seat, "turn", actions)
            kind = a[0]
            if kind == "draw":
                yield from self._draw_action(seat)
            elif kind == "craft":
                yield from self._craft(seat, a[1])
            elif kind in ("give", "take"):
                giver, taker = (seat, a[2]) if kind == "give" else (a[2], seat)
                # free when made: a symbol the trade brings (the leader's doubled advantage)
                # frees the next trades, not this one
                free = free_trades < self.mod(seat, "free_trades")
                yield from self._trade(seat, a[1], giver, taker)
                if free:
                    free_trades += 1
                    continue
            elif kind == "use":
                card = a[1]
                info = self.cards[card]
                self._discard_card(seat, card)
                self._log("use", seat, card)
                s = self.seats[seat]
                s.health = min(s.max_health, s.health + info["amount"])
                self._log("heal", seat, info["amount"], s.health)
                if not info["needs_action"]:
                    continue
            elif kind == "pickpocket":
                card = self._held_of_kind(seat, "pickpocket")[0]
                self._discard_card(seat, card)
                self._log("use", seat, card)
                self.seats[seat].xp_earned += self.cards[card]["amount"]
                self._update_leader()
                victim, stolen = a[1], a[2]
                k = self.seats[victim].inv[stolen] if self.cards[stolen]["stacks"] else 1
                self._remove(victim, stolen, k, update=False)  # one move: see _trade
                self._add(seat, stolen, k)
                self._log("take", seat, stolen, victim, k, True)
                yield from self._check_limit(seat)
            elif kind == "attack":
                yield from self._attack(seat, a[1], a[2])
                while self._held_of_kind(seat, "adrenaline"):
                    more = self._attack_actions(seat)
                    if not more:
                        break
                    b = yield from self._ask(seat, "adrenaline", more + [("done",)])
                    if b == ("done",):
                        break
                    card = self._held_of_kind(seat, "adrenaline")[0]
                    self._discard_card(seat, card)
                    self._log("played", seat, card, 0, 0, 0)
                    yield from self._attack(seat, b[1], b[2])
            elif kind == "pass":
                self._log("nothing", seat)
            return

    def _turn_actions(self, seat: int, phase: str) -> list[tuple]:
        s = self.seats[seat]
        held = [c for c in self.card_names if s.inv.get(c, 0) > 0]
        others = [o for o in range(self.n) if o != seat]
        out: list[tuple] = []
        if phase == "search":
            out.append(("draw",))
        for r, ingredients in self.recipes.items():
            if self._can_craft(seat, r, ingredients):
                out.append(("craft", r))
        if self.mod(seat, "no_give") <= 0:
            out += [("give", c, o) for c in held for o in others]
        out += [("take", c, o) for o in others for c in self.card_names
                if self.seats[o].inv.get(c, 0) > 0]
        if s.health < s.max_health:
            out += [("use", c) for c in held if self.cards[c]["kind"] == "heal"]
        if self._held_of_kind(seat, "pickpocket"):
            out += [("pickpocket", o, c) for o in others for c in self.card_names
                    if self.seats[o].inv.get(c, 0) > 0]
        if phase != "search":
            out += self._attack_actions(seat)
        out.append(("pass",))
        return out

    def _can_craft(self, seat: int, recipe: str, ingredients) -> bool:
        s = self.seats[seat]
        if s.traps + s.barricades >= self.token_limit:
            return False
        if recipe == "trap" and self.trap_supply <= 0:
            return False
        if recipe == "barricade" and (self.barricade_supply <= 0
                                      or self.mod(seat, "no_barricades") > 0):
            return False
        need: dict[str, int] = {}
        for c in ingredients:
            need[c] = need.get(c, 0) + 1
        return all(s.inv.get(c, 0) >= k for c, k in need.items())

    def _craft(self, seat: int, recipe: str):
        self._log("craft", seat, recipe)
        for c in self.recipes[recipe]:
            self._discard_card(seat, c)
        if recipe == "trap":
            self.seats[seat].traps += 1
            self.trap_supply -= 1
        else:
            self.seats[seat].barricades += 1
            self.barricade_supply -= 1
        return
        yield  # a generator like the other steps

    def _trade(self, actor: int, card: str, giver: int, taker: int):
        have = self.seats[giver].inv[card]
        k = 1
        if self.cards[card]["stacks"] and have >= 2:
            a = yield from self._ask(actor, "move", [("move", m) for m in range(1, have + 1)])
            k = a[1]
        # a card changing hands is one change: the leader is judged once it has arrived
        # (the giver without it and the taker not yet holding it is no position)
        self._remove(giver, card, k, update=False)
        self._add(taker, card, k)
        yield from self._check_limit(taker)
        # logged once the taker is back within the slot limit (after its discards)
        if actor == giver:
            self._log("give", actor, card, taker, k)
        else:
            self._log("take", actor, card, giver, k, False)

    def _draw_action(self, seat: int):
        looks = 1 + max(0, self.mod(seat, "draw_extra"))
        if looks == 1:
            yield from self._draw_into(seat, "action")
            return
        seen = self.looking = []
        for _ in range(looks):
            card = self._draw_rubble_card(seat, "action")
            if card is None:
                break
            if self.cards[card]["kind"].startswith("event_"):
                yield from self._event(seat, card)
            else:
                seen.append(card)
        if not seen:
            return
        options = [("keep", c) for c in self.card_names if c in seen]
        a = yield from self._ask(seat, "keep", options)
        self.looking = []
        seen.remove(a[1])
        for c in seen:
            self.rubble_discard[c] = self.rubble_discard.get(c, 0) + 1
            self._log("discard", seat, c, "looked_at")
        self._add(seat, a[1])
        yield from self._check_limit(seat)

    # ------------------------------------------------------------------ attacks
    def _attack_actions(self, seat: int) -> list[tuple]:
        s = self.seats[seat]
        out = []
        own_busy = self._area_has_enemy(seat)
        for w in self.card_names:
            info = self.cards[w]
            if s.inv.get(w, 0) <= 0 or info["kind"] != "weapon":
                continue
            if info["firearm"] and self.mod(seat, "no_firearms") > 0:
                continue
            if not info["melee"] and s.inv.get(info["ammo"], 0) <= 0:
                continue
            for a in range(self.n):
                if not any(self._is_target(e) for e in self.areas[a]):
                    continue
                if info["melee"] and a != seat and own_busy:
                    continue
                out.append(("attack", a, w))
        return out

    def _attack(self, seat: int, area: int, weapon: str):
        s = self.seats[seat]
        w = self.cards[weapon]
        melee = bool(w["melee"])
        st = {"area": area, "weapon": weapon, "dice": 0, "rolled": {"H": 0, "B": 0, "X": 0},
              "lucky_used": False}
        self.attack_state = st
        if melee:
            st["dice"] = w["dice"] + self.mod(seat, "melee_dice")
        else:
            ammo = w["ammo"]
            per = self.cards[ammo]["dice"]
            base = w["weapon_bonus"] + self.mod(seat, "distance_dice")
            held = s.inv[ammo]
            most = held
            for m in range(1, held + 1):  # spend no ammo beyond what reaches the cap
                if base + m * per >= self.cap:
                    most = m
                    break
            a = yield from self._ask(seat, "ammo", [("ammo", m) for m in range(1, most + 1)])
            self._discard_card(seat, ammo, a[1])
            st["dice"] = base + a[1] * per
            st["ammo"] = a[1]
        while True:
            options = []
            if st["dice"] < self.cap:
                options = [("boost", c) for c in self._held_of_kind(seat, "dice_bonus")
                           if melee or not self.cards[c]["melee"]]
            if not options:
                break
            a = yield from self._ask(seat, "boost", options + [("roll",)])
            if a == ("roll",):
                break
            self._discard_card(seat, a[1])
            self._log("played", seat, a[1], 0, 0, 0)
            st["dice"] += self.cards[a[1]]["dice"]
        st["dice"] = max(0, min(self.cap, st["dice"]))
        self._log("attack", seat, area, weapon, st["dice"], st.get("ammo", 0))
        rolled = st["rolled"]
        for _ in range(st["dice"]):
            rolled[self.chance.draw("attack_die", self.combat_faces)] += 1
        while True:
            options = []
            if rolled["B"] > 0 and self._held_of_kind(seat, "focus"):
                options.append(("focus",))
            if rolled["X"] > 0 and self._held_of_kind(seat, "energy_shot"):
                options.append(("energy_shot",))
            if rolled["X"] > 0 and not st["lucky_used"] and self._held_of_kind(seat, "lucky"):
                options.append(("lucky",))
            if not options:
                break
            a = yield from self._ask(seat, "after_roll", options + [("resolve",)])
            if a == ("resolve",):
                break
            card = self._held_of_kind(seat, a[0])[0]
            self._discard_card(seat, card)
            if a == ("focus",):
                rolled["B"] -= 1
                rolled["H"] += 1
            elif a == ("energy_shot",):
                rolled["X"] -= 1
                rolled["B"] += 1
            else:
                st["lucky_used"] = True
                xs = rolled["X"]
                rolled["X"] = 0
                for _ in range(xs):
                    rolled[self.chance.draw("reroll_die", self.combat_faces)] += 1
            self._log("played", seat, card, rolled["H"], rolled["B"], rolled["X"])
        self.attack_state = None
        # ordered damage: the docs page's rule is "to kill the longest prefix".  Bodies first
        # where bodies can kill is that only while every later target needs a head or a
        # body pair; a survivor in the line (variant survivors_block_attacks) dies to one
        # body or one head, so the prefix is found by trying every split (H, B) left
        line = self.areas[area]
        targets = [j for j, e in enumerate(line) if self._is_target(e)]
        states = {(rolled["H"], rolled["B"])}
        kills = 0
        for j in targets:
            info = self.enemies[line[j]]
            if info["kind"] == SURVIVOR:  # variant survivors_block_attacks: any damage
                heads, bodies = 1, 1
            else:
                heads, bodies = info["kill_heads"], info["kill_bodies"]
            nxt = {(h - heads, b) for h, b in states if h >= heads}
            if bodies:
                nxt |= {(h, b - bodies) for h, b in states if b >= bodies}
            if not nxt:
                break
            states = nxt
            kills += 1
        rewards: list = []
        infected_killed = 0
        for j in reversed(targets[:kills]):  # pop from the back: earlier indices stay valid
            if self.enemies[line[j]]["kind"] == INFECTED:
                infected_killed += 1
        killed_at = targets[:kills]
        for n_done, j in enumerate(killed_at):
            self._kill(area, j - n_done, seat, rewards)
        # the rewards come with the kills ("You draw a rubble card when you eliminate a
        # raider"), the taming "once the attack(s) has been resolved" (rulebook): a noise
        # card among the rewards puts its enemy in the attacker's area before the tamed
        # infected.  Collateral between the two (the kernel's order; no rule orders it)
        yield from self._give_rewards(rewards)
        if area != seat and not melee:
            per_x = self.collateral_per_x + max(0, self.mod(seat, "extra_collateral"))
            if rolled["X"] * per_x > 0:
                self._log("collateral", seat, area, rolled["X"] * per_x)
            self._collateral(area, rolled["X"] * per_x)
        if area != seat and (melee or w["firearm"]) and not w["silent"]:
            moved = 0
            for _ in range(infected_killed):
                k = next((i for i, e in enumerate(self.areas[area])
                          if self.enemies[e]["kind"] == INFECTED), None)
                if k is None:
                    break
                self.areas[seat].append(self.areas[area].pop(k))
                moved += 1
            if moved:
                self._log("tame", seat, area, moved)

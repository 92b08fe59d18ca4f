"""Until Daylight's odds from a position, and positions set up by hand.

>>> from simlib.games.until_daylight.step import Game
>>> from simlib.games.until_daylight.position import action_odds, odds, position
>>> odds(Game(7, 0, players=4), policy="baseline", n=1000)  # win probability (Wilson 95 %)

A designer's position ("round 7, two Monsters in my area, I hold a shotgun and 3 shells")
is built with :func:`position`; :func:`action_odds` gives the odds of every legal action.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from ...core.stats import wilson_interval
from . import codes as K
from .api import STEP_PID, STEP_PP, check_players, flat_rules, team_codes
from .kernels.game_nb import advance_nb, invariant_violation_nb, new_state_nb, setup_nb, snapshot_nb
from .kernels.search_nb import continuations_nb
from .kernels.state_nb import update_leader_nb
from .policies import resolve_policy
from .ruleset import Ruleset, load_ruleset
from .state import GameState
from .step import Game

__all__ = ["Odds", "odds", "action_odds", "continuation_records", "position", "PHASES"]


@dataclass(frozen=True)
class Odds:
    """Win probability from a position: ``wins`` of ``n`` continuations, Wilson 95 %."""
    wins: int
    n: int
    p: float
    ci_low: float
    ci_high: float

    def __str__(self) -> str:
        return f"{self.p:.1%} [{self.ci_low:.1%}, {self.ci_high:.1%}] ({self.wins}/{self.n})"


# =========================================================================== odds
def continuation_records(game: Game, n: int, policy: str = "baseline", params=None,
                         action: int = -1, first: int = 0, peek: bool = False) -> np.ndarray:
    """Records (int64, (n, N_REC)) of ``n`` continuations of ``game`` played by
    ``policy``, each with its own re-keyed streams (continuation ``first + r``)."""
    pid, pp = resolve_policy(policy, params)
    out = np.zeros((int(n), K.N_REC), dtype=np.int64)
    continuations_nb(game.state, game.rs, np.int64(pid), pp, np.int64(action), np.int64(first),
                     np.int64(n), np.int64(bool(peek)), out)
    return out


def odds(game: Game, policy: str = "baseline", n: int = 1000, params=None,
         action: int | None = None) -> Odds:
    """Win probability from ``game``'s position when ``policy`` plays every decision
    (after taking candidate ``action`` of the pending decision, if given): ``n``
    continuations, each re-keyed, with a Wilson 95 % interval.  A finished game gives 0
    or 1 exactly."""
    if int(n) < 1:
        raise ValueError(f"n must be a positive number of continuations; got {n!r}")
    if game.over:
        w = int(game.result["win"]) * int(n)
    else:
        if action is not None:
            m = int(game.state[K.G_PENDING_M])
            if not 0 <= int(action) < m:
                raise ValueError(f"action index must be from 0 to {m - 1}; got {action!r}")
        rec = continuation_records(game, n, policy, params, -1 if action is None else int(action))
        w = int((rec[:, K.REC_OUTCOME] == K.OUT_WIN).sum())
    lo, hi = wilson_interval(w, int(n))
    return Odds(w, int(n), w / int(n), float(lo), float(hi))


def action_odds(game: Game, policy: str = "baseline", n: int = 1000, params=None) -> pd.DataFrame:
    """Odds of each legal action of the pending decision: take it, then ``policy`` plays
    on.  The same continuation keys for every action (common random numbers).  Columns:
    action, wins, n, win_rate, ci_low, ci_high, mean_round (round reached)."""
    rows = []
    for i, text in enumerate(game.legal_actions()):
        rec = continuation_records(game, n, policy, params, i)
        w = int((rec[:, K.REC_OUTCOME] == K.OUT_WIN).sum())
        lo, hi = wilson_interval(w, int(n))
        rows.append({"index": i, "action": text, "wins": w, "n": int(n), "win_rate": w / n,
                     "ci_low": float(lo), "ci_high": float(hi),
                     "mean_round": float(rec[:, K.REC_ROUND_REACHED].mean())})
    return pd.DataFrame(rows).set_index("index")


# =========================================================================== positions
PHASES = ("search", "combat")


def position(players: Sequence[Mapping[str, Any]], round: int, phase: str = "combat",
             ruleset: Ruleset | None = None, seed: int = 0, first: int = 0,
             check: bool = True) -> Game:
    """A game set up from a description, stopped at its first decision.

    Parameters
    ----------
    players : list of dict, one per seat
        ``character`` (name, required); optional ``health``, ``inventory`` (card name ->
        count; replaces the basic weapon, so list it), ``area`` (enemy names, left to
        right), ``traps``, ``barricades``, ``saved`` (survivor name -> count kept).
    round : int
        1 .. rounds.
    phase : "combat" or "search"
        ``combat``: the combat phase of ``round`` starts with seat ``first`` (the
        caught player); ``search``: the round starts, seat ``first`` searches first.
    seed : int
        The randomness of the rest of the game.  The decks hold every card not in play,
        discard piles are empty.

    Raises ``ValueError`` naming what is wrong: an unknown card, enemy or character, more
    copies in play than the ruleset has, health outside 1..max, a round outside the
    night, a token count over the limit.
    """
    rules = load_ruleset(ruleset)
    packed = rules.pack()
    params = packed.params
    n = check_players(len(players), rules)
    rounds = int(params[K.P_ROUNDS])
    if not (isinstance(round, (int, np.integer)) and 1 <= round <= rounds):
        raise ValueError(f"round must be an integer from 1 to {rounds}; got {round!r}")
    if phase not in PHASES:
        raise ValueError(f"phase must be one of {', '.join(PHASES)}; got {phase!r}")
    if not 0 <= int(first) < n:
        raise ValueError(f"first must be a seat from 0 to {n - 1}; got {first!r}")
    names = []
    for s, p in enumerate(players):
        if not isinstance(p, Mapping) or "character" not in p:
            raise ValueError(f"seat {s}: a mapping with at least a 'character' is needed")
        unknown = set(p) - {"character", "health", "inventory", "area", "traps", "barricades", "saved"}
        if unknown:
            raise ValueError(f"seat {s}: unknown keys {sorted(unknown)}; allowed: character, "
                             "health, inventory, area, traps, barricades, saved")
        names.append(str(p["character"]))
    chars = team_codes(names, n, rules)
    rs = flat_rules(rules)
    st = new_state_nb(rs, np.int64(0))
    st[K.G_CHECK] = int(bool(check))
    st[K.G_MODE] = K.MODE_STEP
    setup_nb(st, rs, np.int64(seed), np.int64(0), np.int64(n), chars)
    gs = GameState(st, rules)
    # every card back in its deck, then deal the described position from the decks
    gs.inv[:] = 0
    card_tab = packed.card_tab
    deck = []
    for c in range(card_tab.shape[0]):
        k = int(card_tab[c, K.C_COUNT])
        owner = int(card_tab[c, K.C_BASIC_OF])
        if owner >= 0:
            k = 1  # each basic weapon exists once (its character's)
        deck += [c] * k
    gs.rdeck[:len(deck)] = deck
    st[K.G_RDECK_N] = len(deck)
    token_limit = int(params[K.P_TOKEN_LIMIT])
    for s, p in enumerate(players):
        c = int(chars[s])
        hmax = int(gs.pl[s, K.PL_MAX_HEALTH])
        h = p.get("health", hmax)
        if not (isinstance(h, (int, np.integer)) and 1 <= h <= hmax):
            raise ValueError(f"seat {s} ({names[s]}): health must be from 1 to {hmax}; got {h!r}")
        gs.pl[s, K.PL_HEALTH] = h
        inv = p.get("inventory")
        if inv is None:
            inv = {rules.card_names[int(packed.char_tab[c, K.CH_WEAPON])]: 1}
        for card, k in dict(inv).items():
            if card not in rules.card_names:
                raise ValueError(f"seat {s}: unknown card {card!r}; allowed: {', '.join(rules.card_names)}")
            try:
                gs.give(s, card, int(k))
            except ValueError:
                raise ValueError(f"seat {s}: more {card} in play than the rubble deck has "
                                 f"({int(sum(1 for x in deck if x == rules.card_id(card)))})") from None
        for enemy in p.get("area", ()):
            if enemy not in rules.enemy_names:
                raise ValueError(f"seat {s}: unknown enemy {enemy!r}; allowed: {', '.join(rules.enemy_names)}")
            try:
                gs.add_to_area(s, enemy)
            except ValueError:
                raise ValueError(f"seat {s}: more {enemy} in play than the horde deck has") from None
        for name, k in dict(p.get("saved", {})).items():
            if name not in rules.enemy_names:
                raise ValueError(f"seat {s}: unknown survivor {name!r}")
            t = rules.enemy_id(name)
            for _ in range(int(k)):
                try:
                    gs._take_from_deck(t)
                except ValueError:
                    raise ValueError(f"seat {s}: more {name} in play than the horde deck has") from None
                gs.kept[s, t] += 1
        traps, barrs = int(p.get("traps", 0)), int(p.get("barricades", 0))
        if traps < 0 or barrs < 0 or traps + barrs > token_limit:
            raise ValueError(f"seat {s}: traps + barricades must be from 0 to the token limit "
                             f"{token_limit}; got {traps} + {barrs}")
        gs.pl[s, K.PL_TRAPS] = traps
        gs.pl[s, K.PL_BARRICADES] = barrs
        st[K.G_TRAP_SUPPLY] -= traps
        st[K.G_BARR_SUPPLY] -= barrs
    if st[K.G_TRAP_SUPPLY] < 0 or st[K.G_BARR_SUPPLY] < 0:
        raise ValueError(f"more traps or barricades in play than the supply "
                         f"({int(params[K.P_TRAP_SUPPLY])} traps, {int(params[K.P_BARRICADE_SUPPLY])} barricades)")
    update_leader_nb(st, rs)
    if phase == "search":
        st[K.G_ROUND] = round - 1
        st[K.G_FIRST] = first
        st[K.G_PC] = K.PC_ROUND_BEGIN
    else:
        st[K.G_ROUND] = round
        st[K.G_CAUGHT] = first
        st[K.G_FIRST] = (first + 1) % n
        if round >= rounds:
            st[K.G_PHASE] = K.PHASE_FINAL
            st[K.G_FINAL_E] = 0
        st[K.G_PC] = K.PC_EXCHANGE
    st[K.G_PC_I] = 0
    v = int(invariant_violation_nb(st, rs))
    if v != K.VIOL_NONE:
        raise ValueError(f"the position breaks an invariant: {K.VIOL_NAMES[v]}")
    snapshot_nb(st)
    advance_nb(st, rs, np.int64(STEP_PID), STEP_PP)
    g = Game(seed, 0, seats=[{"character": c} for c in names], ruleset=rules, check=check)
    g.state, g._actions = st, None  # a position has no history: its chance cannot be replayed
    return g

"""Day Night Z's players: names, ids and named parameters (the kernels are
``kernels/policies_nb.py``, which documents what each player does).

``distilled`` is registered from its weights file, ``data/day_night_z/policies/distilled.toml``
(``simlib train-policy --game day-night-z``, ``distil.py``); a missing or broken file makes
the name an error that says why, and the weights are refused on a ruleset other than the
one they were fitted on unless ``any_ruleset`` = 1 (:func:`check_seats_ruleset`).

>>> POLICIES["baseline"].param_names
('heal_at', 'sp_gain', 'sp_reserve', 'noisy_below', 'jump_saves')
"""
from __future__ import annotations

from typing import Mapping

import numpy as np

from ...core.params import PolicySpec
from ...core import seats
from ...core.seats import checked_params
from ...core.weights import DistilledFile
from .kernels import policies_nb as P
from .kernels import search_nb as S
from .ruleset import default_ruleset_dir

__all__ = ["PolicySpec", "POLICIES", "Seat", "param_array", "BASELINE_DOC", "ROLLOUT_DOC", "CLAIRVOYANT_DOC",
           "DISTILLED_PARAMS", "DISTILLED_WEIGHTS", "distilled_path", "read_distilled", "check_ruleset",
           "check_seats_ruleset", "require_available"]


BASELINE_DOC = ("searches the location tiles then walks to an exit; heals below heal_at health; "
                "lowers the threat with SP while holding sp_gain SP or more; spends 1 SP on a roll "
                "while holding more than sp_reserve; hits the engaged enemy likeliest to die; "
                "noisy weapons only while the threat is below noisy_below units; flees at red health; "
                "heading for an exit, jumps from a tile when the jump saves jump_saves moves or more; "
                "with share=1, exchanges with a teammate on its place a supply, ammunition or a battery "
                "unit the other needs more; with combine=1, combines its components into a combined "
                "weapon that deals more than the one it replaces; on a tile with trap_far far enemies "
                "or more (0: never) and none engaged, sets a trap with every trap-combinable weapon "
                "it carries but the one it fights with")
POLICIES: dict[str, PolicySpec] = {
    "random": PolicySpec("random", P.POLICY_RANDOM, (), (),
                         "a uniformly random legal action at every decision (the floor)"),
    # defaults: heal in yellow health's lower half; lower threat only with a cap's worth of
    # SP in hand; keep 2 SP (a lowering's green cost); noisy weapons in green threat only;
    # jump (an Agility check at -2: about an even chance) only where it saves 2 moves;
    # share what a teammate needs more (exchanges, §4.6); a trap as soon as one far enemy is
    # on its tile (§4.4); combine whenever the combined weapon is better (§4.5)
    "baseline": PolicySpec("baseline", P.POLICY_BASELINE,
                           ("heal_at", "sp_gain", "sp_reserve", "noisy_below", "jump_saves", "share",
                            "trap_far", "combine"),
                           (5.0, 8.0, 2.0, 16.0, 2.0, 1.0, 1.0, 1.0), BASELINE_DOC),
}
_BASE = POLICIES["baseline"]
# the search players (``kernels/search_nb.py`` documents the search, its value and its
# no-peeking rule): their own parameters, then the baseline's that play the continuations
_SEARCH_DEFAULTS = {"n": 16.0, "top_k": 0.0, "horizon": 3.0, "threshold": 0.0, "z": 1.0, "w_vp": 0.1,
                    "w_alive": 0.3, "w_search": 0.2, "w_health": 0.1, "w_exit": 0.1}
ROLLOUT_DOC = ("flat Monte Carlo over the baseline: at each decision the baseline's choice and the other "
               "legal actions (top_k in all; 0: every one) are each played out n times by the baseline "
               "(common random numbers; each continuation re-keyed from (seed, game, decision, index) with "
               "every deck's unseen part re-shuffled: no peeking) to the end or `horizon` turns (0: the end); "
               "value 1 + w_vp x VP share for a success, 0 for a loss, a shaped score below 1 at the "
               "horizon (w_alive, w_search, w_health, w_exit); the baseline's choice stands unless a "
               "challenger's mean paired gain exceeds `threshold` and `z` standard errors")
CLAIRVOYANT_DOC = ("the rollout search on the true future (the real deck order and dice): one continuation a "
                   "candidate (n unused), the best one wins when it gains more than `threshold`; an upper "
                   "bound, not a fair player; in a campaign it peeks at each adventure's real dice and decks "
                   "(not at the travel's or the shelter's)")


def _search_spec(name: str, pid: int, doc: str, **over: float) -> PolicySpec:
    d = dict(_SEARCH_DEFAULTS, **over)
    return PolicySpec(name, pid, S.SEARCH_PARAMS + _BASE.param_names,
                      tuple(d[k] for k in S.SEARCH_PARAMS) + _BASE.defaults, doc, search=True)


POLICIES["rollout"] = _search_spec("rollout", S.POLICY_ROLLOUT, ROLLOUT_DOC)
# a named budget (as Until Daylight's rollout-100): 100 continuations a candidate
POLICIES["rollout-100"] = _search_spec("rollout-100", S.POLICY_ROLLOUT, ROLLOUT_DOC, n=100.0)
POLICIES["clairvoyant"] = _search_spec("clairvoyant", S.POLICY_CLAIRVOYANT, CLAIRVOYANT_DOC, horizon=0.0)


# `distilled`: the rollout's judgement in linear scores (``policies_nb.distilled_nb``), its
# weights from data/day_night_z/policies/distilled.toml; its own parameters (``any_ruleset``,
# the weights), then the baseline's, which it plays where it keeps the baseline's choice
DISTILLED_WEIGHTS = tuple(f"w_{a}_{c}" for a in P.ALTERNATIVES for c in P.CONTEXT) + \
    tuple(f"w_order_{f}" for f in P.ORDER_FEATURES)
DISTILLED_PARAMS = ("any_ruleset",) + DISTILLED_WEIGHTS
assert P.N_PARAMS + len(DISTILLED_PARAMS) == P.N_DISTILLED_PARAMS
DISTILLED_DOC = ("the rollout player's judgement at kernel speed: the baseline's choice unless a "
                 "linear score of what the survivors see says an alternative is worth more (ending "
                 "the activation, the other amount of SP, eating, lowering the threat, resting, "
                 "hiding, fleeing, pressing on), and the activation order by a linear score of each "
                 "survivor; weights fitted to the rollout's values by `simlib train-policy --game "
                 "day-night-z` (data/day_night_z/policies/distilled.toml), refused on another "
                 "ruleset unless any_ruleset = 1")


# the distilled player's own parameters, then the baseline's
DISTILLED = DistilledFile.shipped("day-night-z", POLICIES, default_ruleset_dir, DISTILLED_PARAMS,
                                  P.POLICY_DISTILLED, DISTILLED_DOC, any_index=P.DP_ANY_RULESET,
                                  extra=(_BASE.param_names, _BASE.defaults))
distilled_path, read_distilled = DISTILLED.path, DISTILLED.read
_register_distilled = DISTILLED.register
# refuse a distilled kernel vector on another ruleset than its weights' (any_ruleset = 1 plays)
check_ruleset = DISTILLED.check_vector


def check_seats_ruleset(seat_list, rules) -> None:
    """:func:`check_ruleset` for each seat of ``seat_list`` (its kernel vector)."""
    for seat in seat_list:
        check_ruleset(seat.policy, seat.vector(), rules)


def _own(name: str) -> int:
    """How many of policy ``name``'s parameters are its own, before the baseline's (which
    its vector puts first): a search player's and the distilled player's; 0 for the rest."""
    if POLICIES[name].search:
        return len(S.SEARCH_PARAMS)
    return len(DISTILLED_PARAMS) if POLICIES[name].id == P.POLICY_DISTILLED else 0


def require_available(name: str) -> None:
    """``ValueError`` saying why when ``name`` is ``distilled`` and its weights file is
    missing or broken."""
    DISTILLED.unavailable(name)


def param_array(name: str, params: Mapping[str, float] | None = None) -> np.ndarray:
    """Policy ``name``'s full parameter vector (float64, ``N_PARAMS``, longer for a player
    with parameters of its own: the baseline's first, then its own); unknown names and
    non-finite values raise ``ValueError`` naming the allowed ones."""
    require_available(name)
    vec = checked_params(POLICIES, name, params)
    spec = POLICIES[name]
    if spec.id == P.POLICY_DISTILLED:
        ns = len(DISTILLED_PARAMS)
        if vec[0] not in (0.0, 1.0):
            raise ValueError(f"policy 'distilled': any_ruleset must be 0 or 1; got {vec[0]:g}")
        out = np.zeros(P.N_PARAMS + ns, dtype=np.float64)
        out[:len(vec) - ns] = vec[ns:]
        out[P.N_PARAMS:] = vec[:ns]
        return out
    if spec.search:  # the baseline's vector (N_PARAMS), then the search's (SEARCH_PARAMS)
        ns = len(S.SEARCH_PARAMS)
        _check_search(name, dict(zip(S.SEARCH_PARAMS, vec[:ns])))
        out = np.zeros(P.N_PARAMS + ns, dtype=np.float64)
        out[:len(vec) - ns] = vec[ns:]
        out[P.N_PARAMS:] = vec[:ns]
        return out
    out = np.zeros(P.N_PARAMS, dtype=np.float64)
    out[:len(vec)] = vec
    return out


def _check_search(name: str, p: dict) -> None:
    for k, hi in (("n", 10 ** 6), ("top_k", S.MAX_CANDIDATES), ("horizon", 10 ** 4)):
        lo = 1 if k == "n" else 0
        if not lo <= p[k] <= hi or p[k] != int(p[k]):
            raise ValueError(f"policy {name!r}: {k} must be a whole number from {lo} to {hi}; got {p[k]:g}")



class Seat(seats.Seat):
    """The team's player and its parameters (:class:`simlib.core.seats.Seat`); its vector
    is :func:`param_array`'s (a search player's own parameters after the baseline's)."""

    policies = POLICIES
    n_params = P.N_PARAMS
    distilled = DISTILLED
    example = "baseline:heal_at=4"

    @classmethod
    def check(cls, name, values):
        if POLICIES[name].search:
            _check_search(name, values)

    def vector(self) -> np.ndarray:
        return param_array(self.policy, self.params)

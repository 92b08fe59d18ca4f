"""Policy registry: names, ids and parameter vectors of the jitted policies.

A policy is chosen by name from Python; its parameters are a float64 vector whose names
and defaults live here.  The jitted code is in ``kernels/policies_nb.py``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from ...core import seats
from ...core.params import PolicySpec, param_vector
from ...core.weights import read_weights, ruleset_refusal
from . import codes as K
from .kernels import policies_nb as P
from .ruleset import default_ruleset_dir


ROLLOUT_PARAMS = ("budget", "top_k", "threshold", "w_round", "w_health", "w_saved", "peek", "z",
                  "horizon", "first_check", "check_every", "futility_z", "skip_kinds", "short")
# decision kinds where the rollout player keeps the baseline's choice without a search:
# at the decisions of 60 calibrated games where a continuation could win (rollout-100,
# horizon 2), its searches at these kinds changed 6 of 838 choices, with a held-out gain
# of -0.27 wins in all, for 22 % of the continuations there (ammo, a card before the roll,
# discard, keep, sacrifice, an adrenaline attack, how many cards move); on the lighter
# ruleset (horizon 1, seeds 11 and 12, 300 games each) skipping them lost 4 and 0 of the
# search's wins over the baseline (``docs/ci-and-speed.md``, "the search players")
SKIP_KINDS = (K.D_AMMO, K.D_PRE_ROLL, K.D_DISCARD, K.D_KEEP, K.D_SACRIFICE, K.D_EXTRA_ATTACK,
              K.D_AMOUNT)
# the search as it was before 2026-12-02 (searching every decision with 2+ candidates,
# first check after 8 shared continuations, then every 4, no futility bound): the
# clairvoyant bound keeps it, and the ladder cells measured before then used it
FULL_SEARCH = {"first_check": 8.0, "check_every": 4.0, "futility_z": 2.0, "skip_kinds": 0.0,
               "short": 1.0}


POLICIES: dict[str, PolicySpec] = {
    "random": PolicySpec("random", P.POLICY_RANDOM, (), (),
                         "uniformly random legal choice at every decision (the floor)"),
    "baseline": PolicySpec(
        "baseline", P.POLICY_BASELINE,
        ("draw_score", "craft_score", "heal_missing", "collateral_penalty", "sacrifice_at_health"),
        (50.0, 100.0, 1.0, 1.5, 1.0),
        "cooperative heuristic: craft barricades/traps, search, heal when hurt, share ammo "
        "with the matching weapon, attack the most valuable line, avoid collateral, "
        "sacrifice a saved survivor only to avoid dying",
    ),
    "rollout": PolicySpec(
        "rollout", P.POLICY_BASELINE, ROLLOUT_PARAMS,
        (100.0, 4.0, 0.01, 0.02, 0.02, 0.02, 0.0, 2.0, 0.0, 6.0, 2.0, 1.0,
         float(sum(1 << d for d in SKIP_KINDS)), 0.0),
        "flat Monte-Carlo search over the baseline: at each decision the baseline's best "
        "top_k candidates are played out `budget` times in total (successive halving, "
        "common random numbers, each continuation re-keyed: no peeking) by the baseline; "
        "value 1 for a win, else a small shaped score (w_* times the shares of rounds, "
        "health and survivors); the "
        "baseline's choice (always evaluated) stands unless a challenger's paired gain "
        "exceeds `threshold` and `z` standard errors; `horizon` h >= 1 stops each "
        "continuation at the end of its h-th round (the current one first) and values the "
        "position by the same shaped score (0: play to the end); a challenger is first "
        "checked after `first_check` shared continuations, then every `check_every`, and "
        "dropped when its gain + z (from 8 on: `futility_z`) standard errors cannot reach "
        "the threshold; no search at the decision kinds of the bit set `skip_kinds` (bit d: "
        "kind d), nor, unless `short` = 1, where a horizon ends before the night's last "
        "round",
        search=True,
    ),
}
# `distilled`: the baseline's best few candidates re-ranked by a linear score of features
# a player can see, with the weights of data/until_daylight/policies/distilled.toml
# (written by `simlib train-policy`, see distil.py); registered below from that file
def distilled_feature_names() -> tuple[str, ...]:
    """The names of the distilled policy's features, in the kernel's order (``P.F_*``)."""
    acts = list(K.ACTION_NAMES)[:P.N_ACTION_KINDS]
    names = ["gap"] + [f"rank_{r}" for r in range(1, P.MAX_TOP_K)]
    names += [f"base_{d}" for d in list(K.DECISION_NAMES)[:K.N_DECISIONS]]
    for group in ("act", "act_health", "act_team", "act_last", "act_threat"):
        names += [f"{group}_{a}" for a in acts]
    names += ["att_self", "att_melee", "att_dice", "att_target_health", "att_target_threat",
              "heal_missing", "draw_full", "craft_trap"]
    names += [f"gap_{a}" for a in acts]
    names += ["att_kills", "att_prevented", "att_collateral", "att_target_enemies"]
    names += [f"{side}_{kind}" for side in ("give", "take") for kind in ("ammo", "weapon", "heal")]
    names += ["trade_receiver_armed", "trade_giver_armed", "trade_receiver_health",
              "trade_receiver_full"]
    names += [f"pair_{block}_{a0}_{a}" for block in ("search", "search_last", "combat",
                                                      "combat_last")
              for a0 in acts for a in acts]
    if len(names) != P.N_FEATURES:  # pragma: no cover - the layout and the names drifted
        raise RuntimeError(f"distilled features: {len(names)} names for {P.N_FEATURES} features")
    return tuple(names)


DISTILLED_GATE = ("top_k", "skip_kinds", "horizon", "short", "any_ruleset")
DISTILLED_PARAMS = (POLICIES["baseline"].param_names + DISTILLED_GATE
                    + tuple(f"w_{n}" for n in distilled_feature_names()))
DISTILLED_DOC = ("the baseline's best `top_k` candidates re-ranked by a linear score of "
                 "features a player can see (the baseline's scores and ranks, the action "
                 "kind with health, the round and the threat, the attack's target and dice, "
                 "the trade's card), fitted by `simlib train-policy` to the rollout search's "
                 "values of the candidates, where that "
                 "search searched (decision kinds not in `skip_kinds`, the rounds its "
                 "`horizon` reaches the night's end); elsewhere the baseline's choice; "
                 "weights from data/until_daylight/policies/distilled.toml, refused on "
                 "another ruleset unless `any_ruleset` = 1")

# named budgets: a name maps to a policy and parameters (``rollout-100``, ``clairvoyant``)
ALIASES: dict[str, tuple[str, dict[str, float]]] = {
    "rollout-100": ("rollout", {"budget": 100}),
    "rollout-1000": ("rollout", {"budget": 1000}),
    "clairvoyant": ("rollout", {"budget": 100, "peek": 1, **FULL_SEARCH}),
}


# `tuned`: the baseline with the weights of data/until_daylight/policies/tuned.toml
# (written by `simlib tune-policy`, see tune.py); a missing or broken file makes the name
# an error that says why, never a failed import
_TUNED_ERROR: str | None = None


def _register_tuned() -> None:
    global _TUNED_ERROR
    try:
        ALIASES["tuned"] = ("baseline", read_tuned()["params"])
        _TUNED_ERROR = None
    except ValueError as exc:
        ALIASES.pop("tuned", None)
        _TUNED_ERROR = str(exc)


_DISTILLED_ERROR: str | None = None
_DISTILLED_FINGERPRINT: str | None = None


def _register_distilled() -> None:
    """Register `distilled` from its weights file; a missing or broken file makes the name
    an error that says why (``resolve_policy``), never a failed import."""
    global _DISTILLED_ERROR, _DISTILLED_FINGERPRINT
    try:
        data = read_distilled()
    except ValueError as exc:
        POLICIES.pop("distilled", None)
        _DISTILLED_ERROR = str(exc)
        _DISTILLED_FINGERPRINT = None
        return
    POLICIES["distilled"] = PolicySpec(
        "distilled", P.POLICY_DISTILLED, DISTILLED_PARAMS,
        tuple(data["params"][n] for n in DISTILLED_PARAMS), DISTILLED_DOC)
    _DISTILLED_ERROR = None
    _DISTILLED_FINGERPRINT = data["provenance"].get("ruleset_fingerprint")


def check_policy_ruleset(policy: str, params, rules) -> None:
    """Refuse ``distilled`` on a ruleset other than the one its weights were fitted on
    (``ValueError`` naming the file and both fingerprints), unless ``any_ruleset`` = 1."""
    if ALIASES.get(policy, (policy,))[0] != "distilled" or "distilled" not in POLICIES:
        return
    _, vec = resolve_policy(policy, params)
    if vec[P.DP_ANY_RULESET] == 1:
        return
    fp = rules.fingerprint()
    if _DISTILLED_FINGERPRINT is not None and fp != _DISTILLED_FINGERPRINT:
        raise ValueError(ruleset_refusal("distilled", distilled_path(), _DISTILLED_FINGERPRINT,
                                         fp, "until-daylight"))


def policy_names() -> list[str]:
    """Every name a policy can be chosen by (policies and named budgets)."""
    return list(POLICIES) + list(ALIASES)


def resolve_search(name: str, params=None):
    """For a search policy: ``(base id, base params, search params)``; ``None`` otherwise."""
    base_name, alias_params = ALIASES.get(name, (name, {}))
    if base_name not in POLICIES or not POLICIES[base_name].search:
        return None
    merged = dict(alias_params)
    if params is not None:
        if not isinstance(params, Mapping):
            vals = list(np.asarray(params, dtype=np.float64))
            if len(vals) != len(ROLLOUT_PARAMS):
                raise ValueError(f"policy {name!r} takes {len(ROLLOUT_PARAMS)} parameters "
                                 f"({', '.join(ROLLOUT_PARAMS)}), got {len(vals)}")
            params = dict(zip(ROLLOUT_PARAMS, vals))
        merged.update(params)
    _, rp = resolve_policy(base_name, merged)
    if not rp[0] >= 1 or rp[0] != int(rp[0]) or rp[0] > 10 ** 7:
        raise ValueError(f"policy {name!r}: budget must be a whole number of continuations "
                         f"from 1 to 10^7; got {rp[0]:g}")
    if rp[1] < 0 or rp[1] != int(rp[1]):
        raise ValueError(f"policy {name!r}: top_k must be 0 (all) or a positive whole number; got {rp[1]:g}")
    named = dict(zip(ROLLOUT_PARAMS, rp))
    for key, lo in (("first_check", 2), ("check_every", 1)):
        if not lo <= named[key] <= 10 ** 7 or named[key] != int(named[key]):
            raise ValueError(f"policy {name!r}: {key} must be a whole number of continuations "
                             f"from {lo} to 10^7; got {named[key]:g}")
    if not named["futility_z"] >= 0:
        raise ValueError(f"policy {name!r}: futility_z must be >= 0 standard errors; "
                         f"got {named['futility_z']:g}")
    sk = named["skip_kinds"]
    if not 0 <= sk < 2 ** K.N_DECISIONS or sk != int(sk):
        raise ValueError(f"policy {name!r}: skip_kinds must be a bit set of decision kinds, "
                         f"a whole number from 0 to {2 ** K.N_DECISIONS - 1}; got {sk:g}")
    if named["short"] not in (0.0, 1.0):
        raise ValueError(f"policy {name!r}: short must be 0 or 1; got {named['short']:g}")
    h = named["horizon"]
    if not 0 <= h <= 1000 or h != int(h):
        raise ValueError(f"policy {name!r}: horizon must be 0 (play to the end) or a whole "
                         f"number of rounds from 1 to 1000; got {h:g}")
    bid, bpp = resolve_policy("baseline")
    return bid, bpp, rp


def resolve_policy(name: str, params: Mapping[str, float] | Sequence[float] | None = None):
    """Return ``(policy id, float64 parameter vector)`` for a policy name and parameters.

    ``params`` may be a mapping of parameter names (others keep their defaults) or a full
    sequence.  Unknown names raise ``ValueError`` naming the allowed ones.
    """
    if name in ALIASES:
        base, alias_params = ALIASES[name]
        merged = dict(alias_params)
        if isinstance(params, Mapping):
            merged.update(params)
        elif params is not None:
            raise ValueError(f"policy {name!r} is a named budget: give parameters by name")
        return resolve_policy(base, merged)
    if name not in POLICIES:
        if name == "tuned" and _TUNED_ERROR is not None:
            raise ValueError(f"policy 'tuned' is not available: {_TUNED_ERROR}")
        if name == "distilled" and _DISTILLED_ERROR is not None:
            raise ValueError(f"policy 'distilled' is not available: {_DISTILLED_ERROR}")
        raise ValueError(f"unknown policy {name!r}; allowed: {', '.join(policy_names())}")
    spec = POLICIES[name]
    vec = param_vector(name, spec.param_names, spec.defaults, params)
    if vec.size == 0:
        vec = np.zeros(1, dtype=np.float64)  # one array type for every policy: one compile
    return spec.id, vec


# =========================================================================== the tuned weights' file
def tuned_path() -> Path:
    """``data/until_daylight/policies/tuned.toml`` (shipped in the package)."""
    return default_ruleset_dir() / "policies" / "tuned.toml"


def read_tuned(path: str | Path | None = None) -> dict:
    """``{"params": {...}, "provenance": {...}, "check": {...}}`` of a tuned-weights file;
    raises ``ValueError`` naming the file and what is wrong."""
    path = tuned_path() if path is None else Path(path)
    got = read_weights(path, POLICIES["baseline"].param_names, "the tuned weights")
    return {"params": got["params"], "provenance": got["provenance"],
            "check": got["data"].get("check", {})}


_register_tuned()


# =========================================================================== the distilled weights' file
def distilled_path() -> Path:
    """``data/until_daylight/policies/distilled.toml`` (shipped in the package)."""
    return default_ruleset_dir() / "policies" / "distilled.toml"


def read_distilled(path: str | Path | None = None) -> dict:
    """``{"params": {name: value}, "provenance": {...}, "check": {...}}`` of a distilled
    weights file (every name of ``DISTILLED_PARAMS`` but ``any_ruleset``, which is 0);
    raises ``ValueError`` naming the file and what is wrong."""
    path = distilled_path() if path is None else Path(path)
    got = read_weights(path, [n for n in DISTILLED_PARAMS if n != "any_ruleset"],
                       "the distilled policy")
    params = {"any_ruleset": 0.0, **got["params"]}
    if not 2 <= params["top_k"] <= P.MAX_TOP_K or params["top_k"] != int(params["top_k"]):
        raise ValueError(f"{path}: params.top_k.value must be a whole number from 2 to "
                         f"{P.MAX_TOP_K}; got {params['top_k']:g}")
    return {"params": params, "provenance": got["provenance"],
            "check": got["data"].get("check", {})}


_register_distilled()


def _seat_policies() -> dict[str, PolicySpec]:
    table = dict(POLICIES)
    for alias, (base, params) in ALIASES.items():
        b = POLICIES[base]
        defaults = tuple(float(params.get(n, d)) for n, d in zip(b.param_names, b.defaults))
        shown = ", ".join(f"{k}={v:g}" for k, v in params.items())
        table[alias] = PolicySpec(alias, b.id, b.param_names, defaults,
                                  f"{base} with {shown}" if shown else base, b.search)
    return table


# every name a seat's player can be chosen by (the declaration's ``policies``): the
# policies, then the named budgets (``rollout-100``, ``tuned``) with their parameters filled in
SEAT_POLICIES = _seat_policies()


class Seat(seats.Seat):
    """The table's player and its full parameter vector (:class:`simlib.core.seats.Seat`);
    a named budget (``rollout-100``, ``tuned``) is its base policy with those parameters."""

    policies = SEAT_POLICIES
    n_params = max(len(s.param_names) for s in POLICIES.values())
    example = "rollout:budget=50"

    @classmethod
    def check(cls, name, values):
        if cls.policies[name].search:
            resolve_search(name, values)  # the search's own limits (ValueError)

    def resolved(self):
        """``(policy id, params)``, or for a search ``resolve_search``'s triple."""
        base = ALIASES.get(self.policy, (self.policy,))[0]
        return resolve_search(base, self.params) or resolve_policy(base, self.params)

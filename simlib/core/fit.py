"""The fits every distilled player's training shares: a weighted logistic regression and a
conditional logit on standardised features, with an L2 penalty, by L-BFGS from zero
(deterministic: the same data, the same weights).  A game's ``distil`` module builds the
features, the labels and the weights, standardises, and folds the result back to its raw
features; these functions are the optimisation alone.
"""
from __future__ import annotations

import numpy as np

__all__ = ["weighted_logistic", "conditional_logit", "check_int", "check_training"]

_OPTIONS = {"maxiter": 5000, "gtol": 1e-10}


def weighted_logistic(z: np.ndarray, y: np.ndarray, w: np.ndarray, pen: np.ndarray,
                      l2: float) -> np.ndarray:
    """The coefficients minimising ``-sum(w * log sigmoid(y * z @ beta)) + l2 / 2 *
    sum(pen * beta**2)`` (``z``: rows by standardised features; ``y``: +1 or -1 a row;
    ``w``: row weights; ``pen``: 1 for a penalised coefficient, 0 for the bias)."""
    from scipy.optimize import minimize
    from scipy.special import expit, log_expit

    def loss(beta):
        m = y * (z @ beta)
        val = -np.sum(w * log_expit(m)) + 0.5 * l2 * np.sum(pen * beta ** 2)
        g = -(z.T @ (w * y * expit(-m))) + l2 * pen * beta
        return val, g

    return minimize(loss, np.zeros(z.shape[1]), jac=True, method="L-BFGS-B",
                    options=_OPTIONS).x


def conditional_logit(z: np.ndarray, legal: np.ndarray, label: np.ndarray, w: np.ndarray,
                      l2: float) -> np.ndarray:
    """The coefficients minimising ``-sum(w * log softmax(z @ beta)[label])`` over each
    decision's legal options plus ``l2 / 2 * sum(beta**2)`` (``z``: decisions by options by
    standardised features; ``legal``: decisions by options; ``label``: the chosen option
    a decision; ``w``: decision weights)."""
    from scipy.optimize import minimize
    from scipy.special import logsumexp

    rows = np.arange(z.shape[0])

    def loss(beta):
        u = np.where(legal, z @ beta, -np.inf)
        lse = logsumexp(u, axis=1)
        p = np.exp(u - lse[:, None])
        val = -np.sum(w * (u[rows, label] - lse)) + 0.5 * l2 * float(beta @ beta)
        expected = np.einsum("nk,nkf->nf", p, z)
        g = -((z[rows, label] - expected) * w[:, None]).sum(axis=0) + l2 * beta
        return val, g

    return minimize(loss, np.zeros(z.shape[2]), jac=True, method="L-BFGS-B",
                    options=_OPTIONS).x


def check_int(name: str, v, lo: int) -> None:
    """``ValueError`` unless ``v`` is an integer (not a bool) of at least ``lo``."""
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < lo:
        raise ValueError(f"{name} must be an integer >= {lo}; got {v!r}")


def check_training(games, heldout, seed, l2, check_games, check_min: int = 1) -> int:
    """The arguments every ``train_distilled`` takes, checked before any game
    (``ValueError`` naming the first bad one); returns the held-out games (default: a
    quarter of ``games``, at least 1)."""
    check_int("games", games, 1)
    check_int("check_games", check_games, check_min)
    check_int("seed", seed, 0)
    heldout = max(1, games // 4) if heldout is None else heldout
    check_int("heldout", heldout, 1)
    if isinstance(l2, bool) or not isinstance(l2, (int, float)) or not l2 > 0:
        raise ValueError(f"l2 must be a positive number; got {l2!r}")
    return heldout

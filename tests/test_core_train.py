"""The pieces every game's distilled-player training shares (``simlib.core.train``,
``simlib.core.fit``), against oracles worked by hand or by a different method."""
from __future__ import annotations

import math

import numpy as np
import pytest

from simlib.core.fit import check_training, conditional_logit, weighted_logistic
from simlib.core.train import count, count_list, versus, versus_sentence


def _pairs(a_only: int, b_only: int, both: int, neither: int):
    """Outcome vectors with the given 2 x 2 paired table (A = base, B = distilled)."""
    wa = [True] * a_only + [False] * b_only + [True] * both + [False] * neither
    wb = [False] * a_only + [True] * b_only + [True] * both + [False] * neither
    return np.array(wa), np.array(wb)


def test_versus_counts_difference_and_standard_error_by_hand():
    # 3 games only the base won, 7 only distilled, 6 both, 4 neither: n = 20
    wa, wb = _pairs(3, 7, 6, 4)
    r = versus(wa, wb, base_seconds=2.0, distilled_seconds=4.0)
    assert r["wins_baseline"] == 9 and r["wins_distilled"] == 13
    assert r["rate_baseline"] == pytest.approx(0.45) and r["rate_distilled"] == pytest.approx(0.65)
    assert r["diff"] == pytest.approx(0.2)
    # the paired SE: sqrt(((b + c) - (c - b)^2 / n)) / n = sqrt(10 - 16/20) / 20
    se = math.sqrt(9.2) / 20
    assert r["paired_se"] == pytest.approx(se)
    assert r["diff_se"] == pytest.approx(0.2 / se)
    # exact McNemar: 2 * P(X <= 3), X ~ Binomial(10, 1/2) = 2 * (1 + 10 + 45 + 120) / 1024
    assert r["mcnemar_p"] == pytest.approx(352 / 1024)
    assert r["diff_low"] < 0.2 < r["diff_high"]
    from simlib.core.train import paired_difference
    assert paired_difference(wa, wb) == pytest.approx((0.2, se))
    assert r["games_per_s_baseline"] == pytest.approx(10.0)
    assert r["games_per_s_distilled"] == pytest.approx(5.0)


def test_versus_names_the_default_player_and_the_sentence_reads_the_prefix():
    wa, wb = _pairs(1, 4, 2, 3)
    r = {f"killer_{k}": v for k, v in versus(wa, wb, 1.0, 1.0, "heuristic").items()}
    assert "killer_wins_heuristic" in r and "killer_games_per_s_heuristic" in r
    text = versus_sentence(r, "heuristic", prefix="killer_")
    assert text.startswith("distilled 6 wins (60.00%), heuristic 3 (30.00%); difference +30.00%")
    assert "McNemar p = 0.375" in text  # 2 * (1 + 5) / 32: b = 1, c = 4
    assert versus_sentence(versus(wa, wb, 1.0, 1.0), label="greedy").count("greedy") == 2


def test_versus_with_no_discordant_game_has_no_standard_errors():
    wa, wb = _pairs(0, 0, 5, 5)
    r = versus(wa, wb, 1.0, 1.0)
    assert r["diff"] == 0.0 and r["paired_se"] == 0.0 and math.isnan(r["diff_se"])


@pytest.mark.parametrize("text, value", [("2000", 2000), ("2e3", 2000), (" 7", 7)])
def test_count_reads_integers_written_any_way(text, value):
    assert count(text, "--games") == value


@pytest.mark.parametrize("text, message", [("2.5", "--games must be a positive integer"),
                                           ("0", "--games must be a positive integer"),
                                           ("inf", "--games must be a positive integer"),
                                           ("many", "--games: 'many' is not a number")])
def test_count_refuses_naming_the_option(text, message):
    with pytest.raises(ValueError, match=message):
        count(text, "--games")


def test_count_list_default_and_each_item_checked():
    assert count_list(None, "--players", (3, 4)) == [3, 4]
    assert count_list("2,5", "--players", (3, 4)) == [2, 5]
    with pytest.raises(ValueError, match="--players"):
        count_list("2,x", "--players", (3,))


def test_check_training_names_the_first_bad_argument_and_defaults_the_heldout_games():
    assert check_training(100, None, 0, 1.0, 10) == 25
    assert check_training(3, None, 0, 1.0, 10) == 1
    for args, name in [((0, None, 0, 1.0, 10), "games"), ((10, 0, 0, 1.0, 10), "heldout"),
                       ((10, None, -1, 1.0, 10), "seed"), ((10, None, 0, 0.0, 10), "l2"),
                       ((10, None, 0, True, 10), "l2"), ((10, None, 0, 1.0, 0), "check_games")]:
        with pytest.raises(ValueError, match=name):
            check_training(*args)


def _newton_logistic(z, y, w, pen, l2, steps=60):
    """An independent fit: Newton's method on the same penalised loss."""
    beta = np.zeros(z.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-y * (z @ beta)))
        g = -(z.T @ (w * y * (1.0 - p))) + l2 * pen * beta
        h = (z * (w * p * (1.0 - p))[:, None]).T @ z + np.diag(l2 * pen)
        beta -= np.linalg.solve(h, g)
    return beta


def test_weighted_logistic_agrees_with_newtons_method():
    rng = np.random.default_rng(3)
    z = np.column_stack([np.ones(400), rng.normal(size=(400, 3))])
    y = np.where(rng.random(400) < 1 / (1 + np.exp(-(z @ [0.3, 1.0, -0.5, 0.0]))), 1.0, -1.0)
    w = rng.uniform(0.5, 2.0, size=400)
    pen = np.array([0.0, 1.0, 1.0, 1.0])
    got = weighted_logistic(z, y, w, pen, 2.0)
    assert np.allclose(got, _newton_logistic(z, y, w, pen, 2.0), atol=1e-6)
    assert np.array_equal(got, weighted_logistic(z, y, w, pen, 2.0))  # deterministic


def test_conditional_logit_with_two_options_is_the_logistic_regression_of_their_difference():
    # P(option 1) = sigmoid((z1 - z0) @ beta): the two fits must give the same coefficients
    rng = np.random.default_rng(5)
    n = 300
    z = rng.normal(size=(n, 2, 3))
    diff = z[:, 1] - z[:, 0]
    label = (rng.random(n) < 1 / (1 + np.exp(-(diff @ [0.8, -0.4, 0.2])))).astype(np.int64)
    w = rng.uniform(0.5, 1.5, size=n)
    legal = np.ones((n, 2), dtype=bool)
    got = conditional_logit(z, legal, label, w, 1.5)
    want = _newton_logistic(diff, np.where(label == 1, 1.0, -1.0), w, np.ones(3), 1.5)
    assert np.allclose(got, want, atol=1e-6)


def test_conditional_logit_ignores_illegal_options():
    rng = np.random.default_rng(8)
    n = 200
    z = rng.normal(size=(n, 3, 2))
    legal = np.ones((n, 3), dtype=bool)
    legal[:, 2] = False
    label = rng.integers(0, 2, size=n)
    w = np.ones(n)
    a = conditional_logit(z, legal, label, w, 1.0)
    z2 = z.copy()
    z2[:, 2] = rng.normal(size=(n, 2)) * 50  # whatever an illegal option holds
    assert np.allclose(a, conditional_logit(z2, legal, label, w, 1.0), atol=1e-9)


def test_training_result_writes_the_weights_file_and_reads_back(tmp_path):
    import tomllib

    from simlib.core.train import TrainingResult

    r = TrainingResult(params={"any_ruleset": 0.0, "w_a": 1.5, "w_b": -2.0},
                       settings={"teacher": "rollout", "seed": 3},
                       training={"fit_seconds": 1.25, "agree": 0.5},
                       check={"diff": 0.01, "games_per_s_distilled": 900.0})
    with pytest.raises(NotImplementedError):
        r.summary()
    p = r.write(tmp_path / "w.toml", header=["a header"], command="simlib train-policy",
                fit="a fit", features=4, source=lambda k: "tuned" if k == "w_b" else "fit")
    got = tomllib.loads(p.read_text())
    assert got["params"] == {"w_a": {"value": 1.5, "source": "fit"},
                             "w_b": {"value": -2.0, "source": "tuned"}}  # no any_ruleset
    assert list(got["provenance"])[:4] == ["command", "date", "fit", "features"]
    assert got["provenance"]["teacher"] == "rollout" and got["provenance"]["seed"] == 3
    assert got["training"]["fit_seconds"] == 1.25 and got["check"]["games_per_s_distilled"] == 900
    assert not (tmp_path / "w.toml.tmp").exists()
    # undated: no date, no times or speeds, and the same bytes twice
    q = r.write(tmp_path / "u.toml", header=["h"], command="c", fit="f", features=1,
                names=["w_b"], dated=False)
    undated = tomllib.loads(q.read_text())
    assert "date" not in undated["provenance"] and list(undated["params"]) == ["w_b"]
    assert undated["training"] == {"agree": 0.5} and undated["check"] == {"diff": 0.01}
    first = q.read_bytes()
    r.write(q, header=["h"], command="c", fit="f", features=1, names=["w_b"], dated=False)
    assert q.read_bytes() == first


def test_rotation_turns_the_focal_seat_once_every_round_of_player_counts():
    from simlib.core.train import rotation

    npl, seat = rotation([3, 4], 8, 0)
    assert npl.tolist() == [3, 4, 3, 4, 3, 4, 3, 4]
    assert seat.tolist() == [0, 0, 1, 1, 2, 2, 0, 3]
    npl2, seat2 = rotation([3, 4], 4, 4)  # a later start continues the same tables
    assert npl2.tolist() == npl[4:].tolist() and seat2.tolist() == seat[4:].tolist()


def test_teacher_games_keep_the_order_and_report_progress():
    import time as _time

    from simlib.core.train import teacher_games

    def one(i):
        _time.sleep(0.002 * (5 - i % 5))  # later games finish first on two threads
        return i * i

    lines = []
    got = teacher_games(one, range(10), 2, lines.append, every=4, label="games (killer)")
    assert got == [i * i for i in range(10)]
    assert [ln.split(" (")[0] for ln in lines] == ["games"] * 3
    assert [ln.split()[2] for ln in lines] == ["4/10", "8/10", "10/10"]
    assert teacher_games(one, [], None, None) == []

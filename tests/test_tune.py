"""The `tuned` policy: the shipped weights load and reproduce their recorded check, a tuning
run is a pure function of its arguments, bad input is a one-line error."""
from __future__ import annotations

import numpy as np
import pytest

from simlib.cli import main
from simlib.games.until_daylight import codes as K
from simlib.games.until_daylight import policies
from simlib.games.until_daylight.api import play_games
from simlib.games.until_daylight.policies import resolve_policy
from simlib.games.until_daylight.ruleset import load_ruleset as _ruleset
from simlib.games.until_daylight.tune import SPACE, read_tuned, tune_policy, tuned_path, write_tuned

pytest.importorskip("optuna", reason="optuna is a core dependency (pip install .)")


def test_the_shipped_weights_load_and_reproduce_their_recorded_check():
    """The `tuned` policy is the baseline with the file's weights; on the file's check
    seeds it wins exactly the games the file records (a game is a pure function of its
    seed and index), and its provenance says how to re-create it."""
    data = read_tuned()
    pid, pp = resolve_policy("tuned")
    bid, _ = resolve_policy("baseline")
    assert pid == bid
    names = policies.POLICIES["baseline"].param_names
    assert list(pp) == [data["params"][k] for k in names]
    prov, check = data["provenance"], data["check"]
    assert prov["command"].startswith("simlib tune-policy") and prov["optimiser"].startswith("optuna")
    rules = _ruleset(prov["ruleset"])
    assert rules.fingerprint() == prov["ruleset_fingerprint"]
    rec = play_games(check["games"], players=prov["players"], seed=check["seed"],
                     policy="tuned", ruleset=rules)
    assert int((rec["outcome"] == K.OUT_WIN).sum()) == check["wins_tuned"]
    # the winner was the best training trial, and the baseline itself was trial 0
    assert prov["train_win_rate"] >= prov["baseline_train_win_rate"]


SMALL = dict(players=4, trials=3, block_games=30, blocks=2, check_games=60, threads=1)


def test_a_tuning_run_is_a_pure_function_of_its_arguments(tmp_path):
    a = tune_policy("calibrated", **SMALL)
    b = tune_policy("calibrated", **SMALL)
    assert a.params == b.params and a.check == b.check and a.trials == b.trials == 3
    for k, (lo, hi) in SPACE.items():
        assert lo <= a.params[k] <= hi
    assert a.train_win_rate >= a.baseline_train_win_rate  # trial 0 is the baseline
    assert a.check["games"] == 60 and 0 <= a.check["wins_tuned"] <= 60
    path = write_tuned(a, tmp_path / "t.toml", command="simlib tune-policy --trials 3")
    back = read_tuned(path)
    assert back["params"] == a.params and back["check"] == a.check
    assert back["provenance"]["trials"] == 3 and back["provenance"]["block_games"] == 30
    # the check's wins are the policy's wins on those games
    rec = play_games(60, players=4, seed=a.check["seed"], policy="baseline",
                     policy_params=a.params, ruleset=_ruleset("calibrated"))
    assert int((rec["outcome"] == K.OUT_WIN).sum()) == a.check["wins_tuned"]


@pytest.mark.parametrize("kw, match", [
    (dict(trials=0), "trials must be an integer >= 1"),
    (dict(blocks=1), "blocks must be an integer >= 2"),
    (dict(players=2), "players"),
    (dict(check_seed=1001), "reuses a training seed"),
])
def test_bad_arguments(kw, match):
    with pytest.raises(ValueError, match=match):
        tune_policy("calibrated", **{**SMALL, **kw})


def test_cli_errors_are_one_line_and_write_nothing(capsys, tmp_path):
    out = tmp_path / "w.toml"
    for argv, msg in [(["--trials", "0"], "--trials must be a positive integer"),
                      (["--out", str(tmp_path / "w.txt")], "must name a .toml file"),
                      (["--out", str(tmp_path / "no" / "w.toml")], "no such folder"),
                      (["--rules", "nonsense"], "nonsense")]:
        code = main(["tune-policy", "--out", str(out), *argv])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and msg in err, err
    assert not out.exists()
    out.write_text("keep")
    assert main(["tune-policy", "--out", str(out)]) == 2
    assert "--force" in capsys.readouterr().err and out.read_text() == "keep"


def test_a_broken_weights_file_is_a_clear_error(tmp_path, monkeypatch):
    bad = tmp_path / "tuned.toml"
    bad.write_text("[params]\ndraw_score = { value = 1.0, source = \"fit\" }\n")
    with pytest.raises(ValueError, match="must hold exactly"):
        read_tuned(bad)
    bad.write_text("[params\n")
    with pytest.raises(ValueError, match="cannot read"):
        read_tuned(bad)

    monkeypatch.setattr(policies, "tuned_path", lambda: bad)
    try:
        policies._register_tuned()
        with pytest.raises(ValueError, match="policy 'tuned' is not available: .*tuned.toml"):
            resolve_policy("tuned")
        assert "tuned" not in policies.policy_names()
    finally:
        monkeypatch.undo()
        policies._register_tuned()
    assert "tuned" in policies.policy_names() and tuned_path().is_file()
    assert np.isfinite(resolve_policy("tuned")[1]).all()

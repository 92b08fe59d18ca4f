"""The ``simlib`` command, called in-process: ``main(argv)`` returns the exit status."""
from __future__ import annotations

import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from simlib.cli import main
from simlib.games.until_daylight import load_result, simulate

SMALL = ["--games", "120", "--seed", "3", "--no-progress"]


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


BAD = [
    (["--players", "2"], "players must be an integer from 3 to 6; got 2"),
    (["--players", "3,7"], "got 7"),
    (["--players", "four"], "'four' is not an integer"),
    (["--players", "4,4"], "duplicate player count"),
    (["--characters", "pillar,bob,trigger"], "'bob' is no character; allowed: pillar"),
    (["--characters", "pillar,foo"], "'foo' is no character; allowed: pillar, hipster"),
    (["--characters", "pillar,trigger"], "team pillar,trigger has 2 characters; a team has 3 to 6"),
    (["--characters", "pillar,pillar,trigger"], "duplicate characters"),
    (["--characters", "pillar,trigger,psycho", "--players", "4"], "has 3 players, not one of"),
    (["--characters", "all", "--characters", "pillar,trigger,psycho"], "cannot be combined"),
    (["--games", "0"], "argument --games: must be positive, got 0"),
    (["--games", "-5"], "must be positive"),
    (["--games", "many"], "argument --games"),
    (["--seed", "-1"], "seed must be an integer"),
    (["--policy", "genius"], "unknown policy 'genius'"),
    (["--policy-param", "draw_score"], "expected name=value"),
    (["--policy-param", "nope=1"], "has no parameter 'nope'"),
    (["--policy-param", "draw_score=high"], "is not a number"),
    (["--rules", "{tmp}/missing.toml"], "no such ruleset directory or .toml file"),
    (["--rules", "{tmp}/broken.toml"], "malformed TOML"),
    (["--rules", "{tmp}/invalid.toml"], "characters.pillar.health"),
    (["--scheduler", "tcp://127.0.0.1:{port}", "--connect-timeout", "1"],
     "cannot reach the Dask scheduler"),
    (["--backend", "spark"], "invalid choice: 'spark'"),
    (["--backend", "local", "--scheduler", "tcp://127.0.0.1:1"], "--scheduler needs --backend dask"),
    (["--chunk-size", "0"], "argument --chunk-size"),
    (["--threads", "0"], "argument --threads"),
    (["--out", "{tmp}/results.csv"], "expected a .parquet file name"),
    (["--bogus"], "unrecognized arguments: --bogus"),
]


@pytest.mark.parametrize("argv, message", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_arguments_exit_2_with_one_line_and_write_nothing(capsys, tmp_path, argv, message):
    (tmp_path / "broken.toml").write_text("[characters.pillar\nhealth = ")
    (tmp_path / "invalid.toml").write_text("[characters.pillar]\nhealth = -3\n")
    before = sorted(p.name for p in tmp_path.iterdir())
    argv = [a.format(tmp=tmp_path, port=free_port()) for a in argv]
    out_args = [] if "--out" in argv else ["--out", str(tmp_path / "r.parquet")]
    code, out, err = run_cli(capsys, "simulate", *SMALL, *out_args, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("simlib")
    assert message in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_report_and_trace_errors(capsys, tmp_path):
    code, _, err = run_cli(capsys, "report", str(tmp_path / "none.parquet"))
    assert code == 2 and "no such file" in err and err.count("\n") == 1
    code, _, err = run_cli(capsys, "trace", "--game", "-1")
    assert code == 2 and "--game must be >= 0" in err
    code, _, err = run_cli(capsys, "trace", "--index", "-1")
    assert code == 2 and "--index must be >= 0; got -1" in err and "--game" not in err
    code, _, err = run_cli(capsys, "trace", "--players", "7")
    assert code == 2 and "got 7" in err


def test_simulate_prints_tables_writes_and_reports(capsys, tmp_path):
    out = tmp_path / "r.parquet"
    code, text, err = run_cli(capsys, "simulate", *SMALL, "--players", "3,4", "--out", str(out),
                              "--chunk-size", "50")
    assert code == 0 and err == ""
    for title in ["== overall ==", "== by players ==", "== by character ==",
                  "win % by character and players", "== by team ==", "loss causes by players",
                  "deaths by character", "not of human players", "wrote"]:
        assert title in text
    saved = load_result(out)
    same = simulate(120, [3, 4], seed=3, progress=False)
    assert saved.tables.equals(same.tables)
    # the default study plays the calibrated preset, where games are won: the printed
    # win column carries the wins of the tables
    wins = int(saved.tables.overall["wins"].iloc[0])
    assert 0 < wins < 120
    from simlib.games.until_daylight.ruleset import load_ruleset
    assert saved.provenance["ruleset_fingerprint"] == load_ruleset("calibrated").fingerprint()
    assert saved.provenance["ruleset_lineage"] == "calibrated"
    code, report, _ = run_cli(capsys, "report", str(out))
    assert code == 0
    # the report prints the very tables (the header's timing line aside)
    assert report.split("\n", 1)[1].strip() == text.split("\nwrote")[0].split("\n", 1)[1].strip()
    code, full, _ = run_cli(capsys, "report", str(out), "--all-tables")
    assert code == 0 and "deaths by team" in full

    stamp = out.stat().st_mtime_ns
    code, _, err = run_cli(capsys, "simulate", *SMALL, "--players", "3,4", "--out", str(out))
    assert code == 2 and "exists" in err and "--force" in err
    assert out.stat().st_mtime_ns == stamp
    code, _, _ = run_cli(capsys, "simulate", *SMALL, "--players", "5", "--out", str(out), "--force")
    assert code == 0 and load_result(out).provenance["players"] == [5]


def test_simulate_counts_only_and_teams(capsys, tmp_path):
    out = tmp_path / "c.parquet"
    code, text, _ = run_cli(capsys, "simulate", *SMALL, "--characters", "pillar,trigger,psycho",
                            "--characters", "hipster,haggler,drifter,pillar", "--no-records",
                            "--out", str(out), "--policy", "random")
    assert code == 0 and "counts of 120 games" in text
    res = load_result(out)
    assert res.records is None
    assert sorted(res.tables.by_team.index) == ["drifter+haggler+hipster+pillar",
                                                "pillar+psycho+trigger"]
    assert res.provenance["players"] == [3, 4] and res.provenance["policy"] == "random"


def test_default_study(capsys, monkeypatch):
    # the real default is 40 000 games per player count; shrink it, keep every other default
    from simlib.games.until_daylight import study as sim

    monkeypatch.setattr(sim, "GAMES_PER_PLAYER_COUNT", 25)
    code, text, _ = run_cli(capsys, "simulate", "--no-progress")
    assert code == 0
    assert text.startswith("Until Daylight: 100 games, seed 0, players 3,4,5,6, teams random, "
                           "policy baseline")


def test_trace_prints_a_game_of_the_study(capsys):
    code, text, err = run_cli(capsys, "trace", "--seed", "3", "--players", "3,4,5,6", "--game", "6")
    assert code == 0 and err == ""
    assert text.startswith("Until Daylight, game 6: 5 players")
    team = text.split("\n", 1)[0].split("— ", 1)[1]
    row = simulate(8, [3, 4, 5, 6], seed=3, progress=False).records.iloc[6]
    for s in range(5):
        assert f"{row[f'character_{s}'].capitalize()} (seat {s})" in team
    code, text, _ = run_cli(capsys, "trace", "--characters", "pillar,trigger,psycho")
    assert code == 0 and "Pillar (seat 0), Trigger (seat 1), Psycho (seat 2)" in text


def test_help_and_no_command(capsys):
    assert main([]) == 0
    assert "simulate" in capsys.readouterr().out
    assert main(["simulate", "--help"]) == 0
    assert "--scheduler" in capsys.readouterr().out


def test_bench_is_handed_its_own_flags(capsys):
    assert main(["bench", "--help"]) == 0
    assert "simlib bench" in capsys.readouterr().out


def test_version_and_help_without_format_escapes(capsys):
    from simlib import __version__

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"simlib {__version__}"
    assert main(["simulate", "--help"]) == 0
    out = capsys.readouterr().out
    assert "95 % Wilson" in out and "%%" not in out


@pytest.mark.parametrize("command", ["compare", "sweep", "calibrate", "sensitivity", "skill",
                                     "exact"])
def test_every_instrument_s_help_reads_without_format_escapes(capsys, command):
    """A description prints as written, a help string through %-formatting: a literal
    "%%" in the one or a lone "%" in the other shows up (or fails) only in --help."""
    try:
        code = main([command, "--help"])
    except SystemExit as exc:  # argparse exits 0 after printing the help
        code = exc.code
    out = capsys.readouterr().out
    assert code == 0 and "usage:" in out
    assert "%%" not in out and "PATH|calibrated|reference" not in out


def test_pyproject_declares_the_console_script():
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib
    root = Path(__file__).resolve().parents[1]
    with open(root / "pyproject.toml", "rb") as f:
        scripts = tomllib.load(f)["project"]["scripts"]
    assert scripts == {"simlib": "simlib.cli:main"}


def test_every_package_ships_in_the_wheel():
    """pyproject lists the packages by hand (data/ maps to simlib._data): a new game's
    ``kernels`` package left out of the list imports from a clone but not from the wheel."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib
    root = Path(__file__).resolve().parents[1]
    with open(root / "pyproject.toml", "rb") as f:
        listed = set(tomllib.load(f)["tool"]["setuptools"]["packages"])
    code = {".".join(d.relative_to(root).parts) for d in (root / "simlib").rglob("*")
            if d.is_dir() and (d / "__init__.py").is_file()}
    data = {"simlib._data." + d.name for d in (root / "data").iterdir()
            if d.is_dir() and (d / "__init__.py").is_file()} | {"simlib._data"}
    assert code | data <= listed, sorted((code | data) - listed)


def test_console_script_entry_point():
    """When simlib is installed, its ``simlib`` script is simlib.cli:main and runs."""
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        dist = distribution("simlib")
    except PackageNotFoundError:
        pytest.skip("simlib is not installed (pip install -e .): no console script to check")
    eps = [e for e in dist.entry_points if e.group == "console_scripts" and e.name == "simlib"]
    assert len(eps) == 1, f"installed simlib declares no single 'simlib' script: {eps}"
    assert eps[0].value == "simlib.cli:main"
    assert eps[0].load() is main
    exe = shutil.which("simlib")
    if exe is None:
        pytest.skip("simlib is installed but its script is not on PATH")
    done = subprocess.run([exe, "--help"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "simulate" in done.stdout and done.stdout.startswith("usage: simlib")


def test_builtin_games_are_entry_points_as_outside_games_are():
    """simlib's five games come from its ``simlib.games`` entry points (pyproject.toml,
    hence the wheel's metadata), not from a list in the core; ``simlib games`` lists them
    by their declared position, the default first."""
    import tomllib
    from importlib.metadata import PackageNotFoundError, distribution

    from simlib.core import games as registry

    root = Path(__file__).resolve().parents[1]
    declared = tomllib.loads((root / "pyproject.toml").read_text())["project"]["entry-points"][
        registry.ENTRY_POINT_GROUP]
    assert len(declared) == 5
    core = (root / "simlib" / "core" / "games.py").read_text()
    for name, ref in declared.items():
        assert ref.split(":")[0] not in core, f"the core's registry names {name}"
    try:
        dist = distribution(registry.OWN_DIST)
    except PackageNotFoundError:
        pytest.skip("simlib is not installed (pip install -e .): no entry points to check")
    installed = {e.name: e.value for e in dist.entry_points if e.group == registry.ENTRY_POINT_GROUP}
    assert installed == declared, "installed metadata is stale: pip install -e . --no-deps"
    names = registry.game_names()
    own = [registry.get_game(n) for n in names if n in declared]
    assert [g.position for g in own] == sorted(g.position for g in own)
    assert names[:len(declared)] == [g.name for g in own]
    assert registry.default_game() == names[0] == "until_daylight"


def test_out_refusal_names_the_flag_on_the_command_line_and_the_argument_in_python(
        capsys, tmp_path):
    """The command line says --force, Python says overwrite=True; neither names the other."""
    import pandas as pd

    from simlib.core.instruments import InstrumentError, write_frame
    from simlib.core.runner import OutputExistsError

    out = tmp_path / "r.parquet"
    out.write_bytes(b"")
    code, _, err = run_cli(capsys, "simulate", *SMALL, "--out", str(out))
    assert code == 2 and "--force" in err and "overwrite=True" not in err
    code, _, err = run_cli(capsys, "compare", "--set", "horde.survivor.count=200", "--games",
                           "10", "--no-progress", "--out", str(out))
    assert code == 2 and "--force" in err and "overwrite=True" not in err
    with pytest.raises(OutputExistsError) as exc:
        simulate(20, players=4, out=out, progress=False)
    assert "overwrite=True" in str(exc.value) and "--force" not in str(exc.value)
    with pytest.raises(InstrumentError) as exc:
        write_frame(pd.DataFrame({"a": [1]}), out, {}, "compare")
    assert "overwrite=True" in str(exc.value) and "--force" not in str(exc.value)


@pytest.mark.parametrize("typo, meant", [("till-dwan", "till-dawn"),
                                         ("untildaylight", "until-daylight"),
                                         ("day-night", "day-night-z")])
def test_a_misspelt_game_gets_a_suggestion(capsys, typo, meant):
    code, _, err = run_cli(capsys, "simulate", "--game", typo, *SMALL)
    assert code == 2 and f"did you mean '{meant}'?" in err and "allowed: until-daylight" in err
    code, _, err = run_cli(capsys, "sweep", "--game", typo, "--set", "x=1:2:1")
    assert code == 2 and f"did you mean '{meant}'?" in err

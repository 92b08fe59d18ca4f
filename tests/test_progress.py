"""Progress a person can trust: a log (stderr not a terminal) gets a line at most every 10 s,
the compile is announced before the bar starts, and ``--no-progress`` is silent."""
from __future__ import annotations

import io

import pytest

from simlib.core import runner
from simlib.core.runner import LineProgress


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_a_line_at_most_every_ten_seconds():
    clock, out = Clock(), io.StringIO()
    bar = LineProgress(100_000, 0, "till dawn", clock=clock, file=out)
    for _ in range(40):  # 10,000 games every 3 s: lines at 12, 24 and 36 s (>= 10 s apart)
        clock.t += 3
        bar.update(2_500)
    bar.close()
    lines = out.getvalue().splitlines()
    assert lines[0] == "till dawn: 100,000 games to play"
    assert lines[1:4] == ["till dawn: 10,000 of 100,000 games (10 %), 12 s",
                          "till dawn: 20,000 of 100,000 games (20 %), 24 s",
                          "till dawn: 30,000 of 100,000 games (30 %), 36 s"]
    assert lines[-1] == "till dawn: 100,000 of 100,000 games done in 120 s"
    assert len(lines) == 2 + 120 // 12


def test_a_resumed_run_and_an_open_total():
    out = io.StringIO()
    LineProgress(50, 20, "sweep", clock=Clock(), file=out)
    LineProgress(None, 0, "calibrate", clock=Clock(), file=out)
    assert out.getvalue().splitlines() == ["sweep: resuming at 20 of 50 games",
                                           "calibrate: some games to play"]


def test_what_the_command_line_asks_for(monkeypatch):
    from simlib import cli_args

    class Err(io.StringIO):
        def __init__(self, tty):
            super().__init__()
            self.tty = tty

        def isatty(self):
            return self.tty

    monkeypatch.setattr(cli_args.sys, "stderr", Err(False))
    assert cli_args.progress(False) == "lines" and cli_args.progress(True) is False
    monkeypatch.setattr(cli_args.sys, "stderr", Err(True))
    assert cli_args.progress(False) is None  # the runner's default: a bar on a terminal
    assert runner.show_progress("lines") == "lines" and runner.show_progress(False) is False


def test_a_study_to_a_log_prints_its_lines_and_the_same_tables(capsys):
    """``progress="lines"`` plays chunk by chunk (never grouped) and changes no count."""
    import simlib

    quiet = simlib.simulate(3_000, game="till_dawn", players=3, seed=4, progress=False,
                            chunk_size=1_000)
    capsys.readouterr()
    logged = simlib.simulate(3_000, game="till_dawn", players=3, seed=4, progress="lines",
                             chunk_size=1_000)
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "till dawn: 3,000 games to play" or "compiling the till dawn" in err[0]
    assert err[-1].startswith("till dawn: 3,000 of 3,000 games done in ")
    for name in quiet.tables:
        assert quiet.tables[name].equals(logged.tables[name]), name


@pytest.mark.parametrize("cached, said", [(False, True), (True, False)])
def test_the_compile_is_announced_before_the_first_chunk(monkeypatch, capsys, cached, said):
    from simlib.core import jit

    calls = []

    class Adapter:
        game = "till_dawn"

        def compile_notice(self):  # pragma: no cover - a game inside simlib is checked by core
            raise AssertionError("the core decides for simlib's own games")

        def run_chunk_counts(self, start, count, threads=None):
            calls.append((start, count))

    monkeypatch.setattr(jit, "kernels_cached", lambda game: cached)
    runner._warm_up(Adapter(), None)
    err = capsys.readouterr().err
    assert calls == [(0, 1)]
    assert ("compiling the till dawn kernels" in err) is said and ("compiled in" in err) is said

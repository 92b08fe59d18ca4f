"""Command line: ``simlib simulate``, ``simlib report``, ``simlib trace``, ``simlib games``
(and ``simlib bench``, handed to :mod:`simlib.core.bench`).

``simlib simulate`` with no arguments runs the default study of the default game (Until
Daylight: every player count, random teams, 40 000 games per player count) and prints the
win-rate tables; ``--game till-dawn`` picks another registered game
(:mod:`simlib.core.games`).  Bad arguments give a one-line error on stderr and exit
status 2, before anything is written.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Sequence

from .cli_args import Parser as _Parser, game_arg
from .cli_args import UsageError, characters as _characters, \
    int_list as _int_list, policy_params as _policy_params, positive as _positive, \
    progress as cli_progress, ruleset_arg as _ruleset_arg, seats as _seats, \
    with_changes as _with_changes

USAGE_EXAMPLES = """\
examples:
  simlib simulate                                   # default study, prints the tables
  simlib simulate --players 4 --games 20000 --seed 7 --out d4.parquet
  simlib simulate --characters pillar,trigger,psycho --games 5000
  simlib simulate --characters all --players 3,4
  simlib simulate --backend dask --scheduler tcp://10.0.0.5:8786 --games 10000000 --out big.parquet
  simlib simulate --players 4 --games 20000 --html report.html   # a report to open in a browser
  simlib report big.parquet
  simlib report big.parquet --html big.html
  simlib trace --seed 7 --players 4 --game 12
  simlib games                                      # the games simlib knows
  simlib simulate --game till-dawn --games 20000
  simlib simulate --game till-dawn --seats optimal,threshold:t=8,threshold:t=14 --games 3000
  simlib trace --game till-dawn --players 3 --index 5
  simlib simulate --players 4 --precision 0.005 --max-games 400000
  simlib compare --rules reference --rules calibrated --players 4 --games 20000
  simlib compare --set horde.monster.count=4 --games 20000
  simlib compare --policy baseline --policy random --players 4
  simlib sweep --set horde.monster.count=0:12:2 --players 4 --plot monsters.png
  simlib calibrate --param horde.survivor.count --target 0.30 --players 4 --range 100:300
  simlib sensitivity --games 500 --plot sensitivity.png
"""


def _game_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", default=None, metavar="N[,N...]",
                   help="player counts, e.g. 3,4,5,6 (default: every count the rules allow, "
                        "or the sizes of the teams given)")
    p.add_argument("--characters", action="append", metavar="TEAM|all|random",
                   help="a team (comma-separated names; repeat for several teams), 'all' "
                        "(every team in turn) or 'random' (default); Mort: the side of a "
                        "compare of players (killer or survivors); Day Night Z: start hours "
                        "(e.g. 8,14,20)")
    p.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    p.add_argument("--policy", default=None,
                   help="bot policy of every seat (default: the game's own; simlib games "
                        "lists each game's policies)")
    p.add_argument("--seats", action="append", metavar="POLICY[:P=V...],...",
                   help="a mixed table, one policy per seat, e.g. optimal,threshold:t=8,random "
                        "(repeat for several tables; competitive games only)")
    p.add_argument("--policy-param", action="append", metavar="NAME=VALUE",
                   help="a policy parameter (repeatable)")
    p.add_argument("--rules", metavar="RULESET",
                   help="a preset name (default: the game's declared default, e.g. "
                        "calibrated for until-daylight), a ruleset folder, a tweak .toml "
                        "(over the ruleset its `base = ...` line names, else the default), or "
                        "BASE+TWEAK.toml")
    p.add_argument("--set", action="append", metavar="KEY=VALUE", dest="sets",
                   help="change one value of that ruleset (repeatable), e.g. nights.count=2")


_HTML_HELP = ("also write a self-contained HTML report (figures, sortable team table, "
              "provenance) to open in a browser; replaces an existing file")


def _check_html(a) -> None:
    """Refuse a report path that cannot be written, before any game is played."""
    if not getattr(a, "html", None):
        return
    from .core.report import check_output_path

    check_output_path(a.html)
    for other in (getattr(a, "out", None), getattr(a, "path", None)):
        if other and Path(other).resolve() == Path(a.html).resolve():
            raise UsageError(f"--html {a.html}: that is the results file; give another name")


def _write_html(a, result) -> None:
    if getattr(a, "html", None):
        from .core.report import write_study_report

        write_study_report(result, a.html, command=getattr(a, "command_line", None))
        sys.stdout.write(f"wrote {a.html} (HTML report)\n")


def build_parser() -> argparse.ArgumentParser:
    from .core.version import __version__
    from .core.games import game_names, get_game

    parser = _Parser(prog="simlib", description="Monte-Carlo studies of survival card games "
                     "(simlib games lists them; Until Daylight is the default).",
                     epilog=USAGE_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"simlib {__version__}")
    from .cli_train import COMMAND as TRAIN

    game_commands, trainers = {}, {}
    for n in game_names():
        for cname, cmd in get_game(n).command_table().items():
            if cname == TRAIN:  # one command for every game that has one (cli_train)
                trainers[n] = cmd
            else:
                game_commands[cname] = (n, cmd)
    sub = parser.add_subparsers(
        dest="command",
        metavar="{" + ",".join(["simulate", "report", "trace", "games", "rules", "compare", "sweep",
                                "calibrate", "sensitivity", "skill"]
                               + sorted(list(game_commands) + ([TRAIN] if trainers else []))
                               + ["bench", "serve"]) + "}",
        parser_class=_Parser)

    s = sub.add_parser("simulate", help="play many games and print the win-rate tables",
                       description="Play many games and print the win-rate tables (95 % "
                                   "Wilson intervals).", epilog=USAGE_EXAMPLES,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    game_arg(s)
    _game_args(s)
    s.add_argument("--games", type=_positive, default=None,
                   help="games to play in all, shared out over the player counts and tables "
                        "(default: the game's default study, e.g. Until Daylight 40000 per "
                        "player count; its header says how many)")
    s.add_argument("--backend", choices=("local", "dask"), default=None,
                   help="local numba threads (default) or a Dask cluster")
    s.add_argument("--scheduler", metavar="ADDR",
                   help="Dask scheduler address, e.g. tcp://10.0.0.5:8786 (implies --backend dask; "
                        "default: start a local cluster on 127.0.0.1)")
    s.add_argument("--workers", type=_positive, help="workers of the local Dask cluster")
    s.add_argument("--threads", type=_positive, help="numba threads per chunk")
    s.add_argument("--chunk-size", type=_positive, default=None,
                   help="games per chunk (default 10000; never changes the results)")
    s.add_argument("--connect-timeout", type=float, default=5.0,
                   help="seconds to wait for the Dask scheduler (default 5)")
    s.add_argument("--out", metavar="FILE.parquet",
                   help="write the per-game records (or the counts) here; chunks are saved "
                        "as they finish in FILE.parquet.parts/ and the same command resumes")
    rec = s.add_mutually_exclusive_group()
    rec.add_argument("--records", dest="keep_records", action="store_true", default=None,
                     help="keep one row per game (default up to 1000000 games)")
    rec.add_argument("--no-records", dest="keep_records", action="store_false",
                     help="keep only the counts (bounded memory)")
    s.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    s.add_argument("--no-progress", action="store_true", help="no progress bar")
    s.add_argument("--all-tables", action="store_true", help="print every table")
    s.add_argument("--campaign", type=_positive, metavar="N", default=None,
                   help="play campaigns of N adventures in a row (travel and shelter between "
                        "them; games that have a campaign: day-night-z); --games counts campaigns")
    s.add_argument("--shelter", action="append", metavar="NAME=VALUE",
                   help="a shelter player's parameter in a campaign (repeatable)")
    from .cli_instruments import add_parsers, add_precision_args

    add_precision_args(s)
    s.add_argument("--html", metavar="FILE.html", help=_HTML_HELP)

    r = sub.add_parser("report", help="print the tables of a saved run")
    r.add_argument("path", help="parquet file written by simlib simulate --out")
    r.add_argument("--all-tables", action="store_true", help="print every table")
    r.add_argument("--html", metavar="FILE.html", help=_HTML_HELP)

    t = sub.add_parser("trace", help="print one game, action by action")
    _game_args(t)  # the defaults of simulate: game I is game I of that study
    t.add_argument("--game", action="append", default=None, metavar="I|NAME",
                   help="game index (the same game as in 'simlib simulate' with these "
                        "arguments) or the game's name (till-dawn); repeat for both")
    t.add_argument("--index", type=int, default=None, help="game index (same as --game I)")

    gp = sub.add_parser("games", help="list the games simlib can simulate, with their players")
    gp.add_argument("--verbose", "-v", action="store_true",
                    help="each game's summary, players and their parameters")
    from .cli_rules import add_parser as add_rules_parser

    add_rules_parser(sub)

    add_parsers(sub)
    from .cli_skill import add_parser as add_skill_parser

    add_skill_parser(sub)
    for cname, (gname, cmd) in sorted(game_commands.items()):
        g = sub.add_parser(cname, help=f"{cmd.help} ({gname.replace('_', '-')})")
        cmd.add_arguments(g)
        g.set_defaults(game_command=cmd)
    if trainers:
        from .cli_train import add_parser as add_train_parser

        add_train_parser(sub, trainers)
    sub.add_parser("bench", help="speed of the kernels (simlib bench --help)", add_help=False)
    from .serve.main import DESCRIPTION as _serve_doc, add_arguments as _serve_arguments

    _serve_arguments(sub.add_parser("serve", help="a local what-if page (simlib serve --help)",
                                    description=_serve_doc))
    return parser


# =========================================================================== commands
def _cmd_simulate(a) -> int:
    from .core.games import get_game

    game = get_game(a.game_name)
    if a.precision is not None or a.max_games is not None:
        from .cli_instruments import cmd_simulate_precise

        if a.precision is None:
            raise UsageError("--max-games goes with --precision")
        return cmd_simulate_precise(a)
    players = _int_list(a.players, "--players") if a.players else None
    characters = _characters(a.characters)
    params = _policy_params(a.policy_param)
    seats = _seats(a.seats)
    policy = a.policy or game.default_policy
    if seats is not None and (a.policy or params):
        raise UsageError("--seats gives every seat its policy; drop --policy/--policy-param")
    if seats is not None and not game.competitive:
        raise UsageError(f"{game.display_name} is cooperative: every seat plays the one "
                         "--policy (--seats is for competitive games)")
    backend = a.backend or ("dask" if a.scheduler else "local")
    if a.scheduler and backend != "dask":
        raise UsageError("--scheduler needs --backend dask")
    if a.workers and (backend != "dask" or a.scheduler):
        raise UsageError("--workers sets the size of a local Dask cluster (--backend dask "
                         "without --scheduler)")
    if a.out and Path(a.out).suffix != ".parquet":
        raise UsageError(f"--out {a.out}: expected a .parquet file name")
    if a.connect_timeout <= 0:
        raise UsageError("--connect-timeout must be positive")
    _check_html(a)
    from .core.runner import DEFAULT_CHUNK_SIZE

    rules = _ruleset_arg(game, a)
    if a.campaign is not None or a.shelter:
        return _cmd_campaign(a, game, rules, players, characters, policy, params)
    game.adapter(players, characters, seed=a.seed, policy=policy, policy_params=params,
                 ruleset=rules, seats=seats)  # validate before any banner
    result = game.simulate(a.games, players, characters, seed=a.seed, policy=policy,
                           policy_params=params, ruleset=rules, seats=seats, backend=backend,
                           scheduler=a.scheduler, workers=a.workers, threads=a.threads,
                           chunk_size=a.chunk_size or DEFAULT_CHUNK_SIZE,
                           keep_records=a.keep_records, out=a.out, overwrite=a.force,
                           progress=cli_progress(a.no_progress),
                           connect_timeout=a.connect_timeout)
    sys.stdout.write(_with_changes(game.render(result, a.all_tables), result.provenance,
                                   game.success))
    if a.out:
        what = "records" if result.has_records else "counts"
        sys.stdout.write(f"\nwrote {a.out} ({what} of {result.games} games)\n")
    _write_html(a, result)
    return 0


def _cmd_campaign(a, game, rules, players, characters, policy, params) -> int:
    """``simulate --campaign N``: the game's campaign command (games that declare one)."""
    from .core.games import game_names, get_game

    if game.campaign is None:
        have = [get_game(n).cli_name for n in game_names() if get_game(n).campaign is not None]
        raise UsageError(f"--campaign: {game.display_name} has no campaign; games with one: "
                         f"{', '.join(have) or 'none'}")
    if a.campaign is None:
        raise UsageError("--shelter sets a campaign's shelter player: give --campaign N")
    unsupported = [f for f, v in (("--out", a.out), ("--seats", a.seats),
                                  ("--backend dask", a.backend == "dask" or a.scheduler))
                   if v]
    if unsupported:
        raise UsageError(f"--campaign does not take {', '.join(unsupported)} yet")
    shelter = _policy_params(a.shelter, "--shelter") if a.shelter else None
    sys.stdout.write(game.campaign(
        adventures=a.campaign, games=a.games, players=players, characters=characters,
        seed=a.seed, policy=policy, params=params, shelter=shelter, ruleset=rules,
        threads=a.threads, progress=not a.no_progress, command=a.command_line, html=a.html))
    return 0


def _cmd_report(a) -> int:
    from .core.games import get_game, normalize
    from .core.runner import read_output

    _check_html(a)
    _, _, meta = read_output(a.path)
    name = meta.get("identity", {}).get("game")
    try:
        game = get_game(name)
    except ValueError:
        raise UsageError(f"{a.path}: a run of game {name!r}, which this simlib does not know") from None
    if normalize(game.name) != normalize(str(name)):  # pragma: no cover - registry mismatch
        raise UsageError(f"{a.path}: a run of game {name!r}")
    result = game.load_result(a.path)
    sys.stdout.write(_with_changes(game.render(result, a.all_tables), result.provenance,
                                   game.success))
    _write_html(a, result)
    return 0


def _cmd_trace(a) -> int:
    from .core.games import get_game

    name, index = None, a.index
    flag = "--index"  # the flag that gave the index, named by its error
    for v in a.game or []:
        try:
            i = int(v)
        except ValueError:
            name = v
            continue
        if index is not None and index != i:
            raise UsageError(f"two game indices: {index} and {i}")
        index, flag = i, "--game"
    index = 0 if index is None else index
    if index < 0:
        raise UsageError(f"{flag} must be >= 0; got {index}")
    game = get_game(name)
    players = _int_list(a.players, "--players") if a.players else None
    characters = _characters(a.characters)
    params = _policy_params(a.policy_param)
    seats = _seats(a.seats)
    ad = game.adapter(players, characters, seed=a.seed, policy=a.policy,
                      policy_params=params, ruleset=_ruleset_arg(game, a), seats=seats)
    sys.stdout.write(game.trace(ad, index) + "\n")
    return 0


def _cmd_games(a) -> int:
    from .cli_rules import games_lines

    sys.stdout.write("\n".join(games_lines(a.verbose)) + "\n")
    return 0


def _cmd_bench(argv: list[str]) -> int:
    try:
        from .core.bench import main as bench_main
    except ImportError as exc:
        sys.stderr.write(f"simlib bench: error: the benchmarks are not available ({exc})\n")
        return 2
    try:
        return int(bench_main(argv) or 0)
    except SystemExit as exc:  # its argparse: --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``simlib`` command; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["bench"]:  # the speed benchmarks parse their own flags
        return _cmd_bench(argv[1:])
    if argv[:1] == ["serve"]:  # the what-if page's server (simlib.serve) parses its own flags
        from .serve import main as serve_main

        return serve_main(argv[1:])
    parser = build_parser()
    try:
        a = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return int(exc.code or 0)
    if a.command is None:
        parser.print_help()
        return 0
    prog = f"simlib {a.command}"
    import shlex

    a.command_line = shlex.join(["simlib"] + argv)
    from .core.runner import RunError

    try:
        if a.command == "simulate":
            return _cmd_simulate(a)
        if a.command == "report":
            return _cmd_report(a)
        if a.command == "games":
            return _cmd_games(a)
        if a.command == "rules":
            from .cli_rules import run as run_rules

            return run_rules(a)
        if a.command == "skill":
            from .cli_skill import run as run_skill

            return run_skill(a)
        if getattr(a, "train_commands", None) is not None:  # simlib train-policy
            from .cli_train import run as run_train

            return run_train(a)
        from .cli_instruments import COMMANDS

        if a.command in COMMANDS:
            return COMMANDS[a.command](a)
        if getattr(a, "game_command", None) is not None:
            return int(a.game_command.run(a) or 0)
        return _cmd_trace(a)
    except BrokenPipeError:  # `simlib simulate | head`: the reader left, not an error of ours
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return 0
    except (UsageError, RunError, ValueError, OSError) as exc:
        msg = " ".join(str(exc).split())  # one line
        # the library's errors name its Python argument; the command line's flag is --force
        msg = msg.replace("overwrite=True", "--force")
        sys.stderr.write(f"{prog}: error: {msg}\n")
        return 2
    except KeyboardInterrupt:
        out = getattr(a, "out", None)
        hint = (f"; finished chunks are saved in {out}.parts/ - run the same command to resume"
                if out else "")
        sys.stderr.write(f"{prog}: interrupted{hint}\n")
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

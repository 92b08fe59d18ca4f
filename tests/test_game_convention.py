"""The game declaration's module map by convention (simlib.core.games.CONVENTION): a game
names its package and only what differs; the rest is found by module name."""
from __future__ import annotations

import importlib
import importlib.util

import pytest

from simlib.core.games import CONVENTION, GameCommand, GameInfo, game_names, get_game

PLAIN = dict(display_name="X", summary="x", kind="competitive", presets=("reference",),
             default_ruleset="reference", default_policy="p", success="s", measure="m",
             measure_short="m", measure_unit="m")


def test_every_builtin_reference_not_named_is_found_by_its_module_name():
    for name in game_names():
        info = get_game(name)
        for ref, (modules, attr) in CONVENTION.items():
            if object.__getattribute__(info, ref) is not None:
                continue  # named in the declaration
            module = next(f"{info.package}.{m}" for m in modules
                          if importlib.util.find_spec(f"{info.package}.{m}"))
            assert getattr(info, ref) is getattr(importlib.import_module(module), attr), \
                (name, ref)


def test_a_relative_reference_is_read_in_the_package():
    info = GameInfo(name="conv_test", package="simlib.games.till_dawn",
                    render=".trace:format_trace", **PLAIN)
    from simlib.games.till_dawn.trace import format_trace

    assert info.render is format_trace


def test_without_a_package_every_reference_must_be_named():
    with pytest.raises(ValueError, match="without a package"):
        GameInfo(name="conv_test", **PLAIN)


def test_a_command_named_by_reference_is_imported_only_when_run():
    info = GameInfo(name="conv_test", package="simlib.games.till_dawn", **PLAIN,
                    commands={"c": GameCommand("help", ".no_such_module:f", ".no_such_module:g")})
    cmd = info.command_table()["c"]  # building the table imports nothing
    with pytest.raises(ModuleNotFoundError):
        cmd.run(None)

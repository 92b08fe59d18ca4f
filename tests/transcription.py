"""The shared shape of the data tests (``tests/test_data_<game>.py``): a game's reference
values transcribed apart from its data files, compared key by key.

``transcription_tests(game, preset, expected, same=...)`` returns the module's ``rules``
fixture and its two tests: each key's value (``same(shipped, expected, rules)`` decides
equality; the default compares lists and tuples alike), and that every transcribed key
exists. ``open_questions`` ({key: reason}) marks keys whose disagreement is known and
unsettled (strict xfail: the test fails once data and transcription agree).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

import pytest

from simlib.core.games import get_game


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, (list, tuple)) else value


def equal(got: Any, want: Any, rules=None) -> bool:
    return _plain(got) == _plain(want)


def transcription_tests(game: str, preset: str | None, expected: Mapping[str, Any],
                        same: Callable[[Any, Any, Any], bool] = equal,
                        open_questions: Mapping[str, str] | None = None):
    open_questions = dict(open_questions or {})

    @pytest.fixture(scope="module")
    def rules():
        return get_game(game).load_ruleset(preset)

    params = [pytest.param(k, marks=pytest.mark.xfail(strict=True, reason=open_questions[k]))
              if k in open_questions else k for k in sorted(expected)]

    @pytest.mark.parametrize("key", params)
    def test_reference_value(rules, key):
        got, want = rules.get(key), expected[key]
        assert same(got, want, rules), f"{key}: the data says {got!r}, the transcription {want!r}"

    def test_every_key_exists(rules):
        shipped = set(rules.keys())
        missing = sorted(k for k in expected if k not in shipped)
        assert not missing, f"keys not in the shipped {preset or 'reference'} ruleset: {missing}"

    return rules, test_reference_value, test_every_key_exists

"""The shared shape of the data tests (``tests/test_data_<game>.py``): a game's reference
values transcribed apart from its data files, compared key by key.

``transcription_tests(game, preset, expected, same=..., open_questions=...,
untranscribed=...)`` returns the module's ``rules`` fixture and its three tests: each key's
value (``same(shipped, expected, rules)`` decides equality; the default compares lists and
tuples alike), that every transcribed key exists, and that every key of the shipped ruleset
is transcribed (``test_every_shipped_key_is_transcribed``): a data value nobody transcribed
is a value nothing checks.  ``untranscribed`` ({key: why}) lists the keys neither the
rulebook nor the game's docs page states (a pure engine bound, a layout detail, a value the
docs call assumed without printing it), each with its reason; free-text keys (``*.text``)
are exempt.  ``open_questions`` ({key: reason}) marks keys whose disagreement is known and
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


def _is_text(rules, key: str) -> bool:
    """A free-text key (``*.text``, or one the ruleset tags ``text``): not a value to check."""
    if key.rsplit(".", 1)[-1] == "text":
        return True
    source = getattr(rules, "source", None)
    return source is not None and source(key) == "text"


def transcription_tests(game: str, preset: str | None, expected: Mapping[str, Any],
                        same: Callable[[Any, Any, Any], bool] = equal,
                        open_questions: Mapping[str, str] | None = None,
                        untranscribed: Mapping[str, str] | None = None):
    open_questions = dict(open_questions or {})
    untranscribed = dict(untranscribed or {})
    name = preset or "reference"

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
        assert not missing, f"keys not in the shipped {name} ruleset: {missing}"

    def test_every_shipped_key_is_transcribed(rules):
        shipped = [k for k in rules.keys() if not _is_text(rules, k)]
        problems = []
        missing = sorted(k for k in shipped if k not in expected and k not in untranscribed)
        if missing:
            problems.append(f"keys of the shipped {name} ruleset neither transcribed nor listed "
                            f"as untranscribed (with the reason): {missing}")
        both = sorted(k for k in untranscribed if k in expected)
        if both:
            problems.append(f"keys both transcribed and listed as untranscribed: {both}")
        unknown = sorted(k for k in untranscribed if k not in set(shipped))
        if unknown:
            problems.append(f"untranscribed keys not in the shipped {name} ruleset: {unknown}")
        unexplained = sorted(k for k, why in untranscribed.items()
                             if not isinstance(why, str) or not why.strip())
        if unexplained:
            problems.append(f"untranscribed keys without a reason: {unexplained}")
        assert not problems, "; ".join(problems)

    return rules, test_reference_value, test_every_key_exists, test_every_shipped_key_is_transcribed

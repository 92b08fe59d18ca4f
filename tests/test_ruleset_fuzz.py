"""Malformed ruleset files: random mutations of the reference TOML files (bytes and
structure) give either a valid ruleset or a RulesetError naming the file and the key,
never another exception and never a half-loaded ruleset."""
from __future__ import annotations

import json
import math
import re
import shutil
import tomllib
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from simlib.games.until_daylight.ruleset import (  # noqa: E402
    FILES,
    Ruleset,
    RulesetError,
    default_ruleset_dir,
    load_ruleset,
)

REF_DIR = default_ruleset_dir()
REF = {f: (REF_DIR / f"{f}.toml").read_bytes() for f in FILES}
REF_DOC = {f: tomllib.loads(REF[f].decode()) for f in FILES}
FINGERPRINT = load_ruleset("reference").fingerprint()
N_EXAMPLES = int(__import__("os").environ.get("SIMLIB_FUZZ_EXAMPLES", "60"))
SETTINGS = settings(max_examples=N_EXAMPLES, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


# --------------------------------------------------------------------------- a TOML writer
def _key(k: str) -> str:
    return json.dumps(k)


def _inline(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_inline(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_inline(x)}" for k, x in v.items()) + " }"
    raise TypeError(type(v))


def dumps(doc: dict) -> str:
    """Any nested dict as TOML: one dotted-key line per leaf (empty tables inline)."""
    lines: list[str] = []

    def walk(node: dict, path: list[str]) -> None:
        for k, v in node.items():
            if isinstance(v, dict) and v:
                walk(v, path + [k])
            else:
                lines.append(".".join(_key(p) for p in path + [k]) + " = " + _inline(v))

    walk(doc, [])
    return "\n".join(lines) + "\n"


def test_writer_round_trips_the_reference():
    for f in FILES:
        assert tomllib.loads(dumps(REF_DOC[f])) == REF_DOC[f]


# --------------------------------------------------------------------------- mutations
def _paths(node, prefix=()):
    """Every (path) to a value or table in a parsed document."""
    out = []
    if isinstance(node, dict):
        for k, v in node.items():
            out.append(prefix + (k,))
            out.extend(_paths(v, prefix + (k,)))
    return out


# st.builds(dict), not st.just({}): one shared empty table, drawn twice, could be put inside
# itself by a later mutation (a cycle, then a RecursionError that hypothesis calls flaky)
ODD_VALUES = st.one_of(
    st.integers(-10 ** 20, 10 ** 20), st.integers(-3, 60), st.floats(allow_nan=True),
    st.booleans(), st.text(max_size=12), st.just(""), st.lists(st.integers(0, 5), max_size=3),
    st.lists(st.text(max_size=4), max_size=3), st.builds(dict), st.dictionaries(
        st.sampled_from(["value", "source", "H", "X", "B", "kind", "x"]),
        st.one_of(st.integers(-2, 9), st.text(max_size=6), st.booleans()), max_size=3),
    st.sampled_from(["rulebook", "assumed", "weapon", "ammo", "infected", "pistol", "bow",
                     "draw_extra", "remove_enemy", "none"]),
)


@st.composite
def structural_mutation(draw):
    f = draw(st.sampled_from(FILES))
    doc = json.loads(json.dumps(REF_DOC[f]))  # deep copy
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = doc
        for p in path[:-1]:
            parent = parent[p]
        op = draw(st.sampled_from(["delete", "replace", "rename", "add", "value"]))
        if op == "delete":
            del parent[path[-1]]
        elif op == "replace":
            parent[path[-1]] = draw(ODD_VALUES)
        elif op == "rename":
            new = draw(st.one_of(st.sampled_from(["value", "source", "count", "kind", "Bad Name",
                                                  "basic_weapons", "variants", "x-y", "é"]),
                                 st.text(min_size=1, max_size=8)))
            if new not in parent:
                parent[new] = parent.pop(path[-1])
        elif op == "add":
            target = parent[path[-1]] if isinstance(parent[path[-1]], dict) else parent
            name = draw(st.text(min_size=1, max_size=8))
            if name not in target:
                target[name] = draw(ODD_VALUES)
        else:  # change the value of a {value, source} leaf
            leaf = parent[path[-1]]
            if isinstance(leaf, dict) and "value" in leaf:
                leaf["value"] = draw(ODD_VALUES)
    return f, dumps(doc).encode()


@st.composite
def byte_mutation(draw):
    f = draw(st.sampled_from(FILES))
    data = bytearray(REF[f])
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["flip", "insert", "delete", "truncate"]))
        i = draw(st.integers(0, max(0, len(data) - 1)))
        if op == "flip" and data:
            data[i] = draw(st.integers(0, 255))
        elif op == "insert":
            data[i:i] = draw(st.binary(min_size=1, max_size=4)) if draw(st.booleans()) else \
                draw(st.sampled_from([b"=", b"[", b"]", b"{", b"}", b'"', b"\n", b"#", b".",
                                      b"-", b"0", b"9999999999999999999999", b"\xff", b"\x00"]))
        elif op == "delete" and data:
            del data[i:i + draw(st.integers(1, 20))]
        elif op == "truncate":
            del data[i:]
    return f, bytes(data)


FILE_MSG = re.compile(r"^(?P<file>.+?\.toml): (?P<rest>.+)$", re.S)


def _check(tmp_path: Path, f: str, data: bytes) -> None:
    d = tmp_path / "rules"
    if d.exists():
        shutil.rmtree(d)
    d.mkdir()
    for g in FILES:
        (d / f"{g}.toml").write_bytes(data if g == f else REF[g])
    try:
        rs = load_ruleset(d)
    except RulesetError as exc:
        msg = str(exc)
        m = FILE_MSG.match(msg)
        assert m, f"error does not name a file: {msg!r}"
        assert Path(m["file"]).parent == d, msg
        rest = m["rest"]
        # a key (dotted, or the file's section) or the TOML syntax error with its position
        assert re.match(r"^(malformed TOML: .*\((at line \d+, column \d+|at end of document)\)|not UTF-8 text.*|"
                        r"(constants|variants|dice|characters|horde|rubble|recipes)[.:].*)$",
                        rest, re.S), msg
        assert "\n" not in msg or rest.startswith("malformed TOML"), msg
    else:
        # a whole ruleset: every part usable
        assert isinstance(rs, Ruleset)
        rs.pack()
        rs.fingerprint()
        rs.describe()
        assert rs.override({}) == rs
    # nothing half-loaded: the reference ruleset is untouched
    assert load_ruleset("reference").fingerprint() == FINGERPRINT


@SETTINGS
@given(mut=structural_mutation())
def test_structural_mutations(tmp_path, mut):
    _check(tmp_path, *mut)


@SETTINGS
@given(mut=byte_mutation())
def test_byte_mutations(tmp_path, mut):
    _check(tmp_path, *mut)


@settings(max_examples=40, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mut=structural_mutation())
def test_mutated_override_files(tmp_path, mut):
    """The same mutations as a single override file (``load_ruleset("horde.toml")``)."""
    f, data = mut
    p = tmp_path / f"{f}.toml"
    p.write_bytes(data)
    try:
        rs = load_ruleset(p)
    except RulesetError as exc:
        msg = str(exc)
        assert msg.startswith(f"{p}: "), msg
    else:
        rs.pack()
    assert load_ruleset("reference").fingerprint() == FINGERPRINT

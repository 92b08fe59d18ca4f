"""A competitive game's seats: one player (a policy with its parameters) per seat.

A *seat spec* is written ``name`` or ``name:param=value:param=value`` (``threshold:t=8``,
``greedy:end_margin=10``); its label in tables is the name with the parameters that differ
from the defaults (and any a game always shows, as Till Dawn's threshold ``t``).

A game subclasses :class:`Seat` once, naming its players and where their parameters go in
the kernels' vector; parsing, checking and labelling are the same for every game::

    class Seat(seats.Seat):
        policies = POLICIES            # {name: PolicySpec}
        n_params = P.N_PARAMS          # length of the kernels' parameter vector
        example = "threshold:t=8"      # shown in the error of a malformed spec
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Mapping, Sequence

import numpy as np

from .params import PolicySpec, param_vector

__all__ = ["Seat", "checked_params", "focal_arm", "check_seed", "check_players", "check_games", "one_table",
           "seat_arrays", "params_width", "team_row", "player_counts", "seat_tables", "study_tables", "tables_cycle",
           "table_seats", "table_focal_seats", "split_spec"]


def checked_params(policies: Mapping[str, PolicySpec], name: str,
                   params: Mapping[str, float] | Sequence[float] | None = None) -> list[float]:
    """Policy ``name``'s parameters in ``param_names`` order: the defaults with ``params``
    applied; an unknown policy or parameter, or a value that is not a finite number, raises
    ``ValueError`` naming what is allowed."""
    if name not in policies:
        raise ValueError(f"unknown policy {name!r}; allowed: {', '.join(policies)}")
    spec = policies[name]
    vec = [float(v) for v in param_vector(name, spec.param_names, spec.defaults, params)]
    for n, v in zip(spec.param_names, vec):
        if not np.isfinite(v):
            raise ValueError(f"policy {name!r}: parameter {n} must be a finite number; got {v}")
    return vec


def whole(name: str, param: str, v: float, lo: float, hi: float, note: str = "") -> None:
    """Refuse ``v`` unless it is a whole number from ``lo`` to ``hi`` (a count of rollouts,
    a horizon): the kernels read it as an integer."""
    if not (lo <= v <= hi and float(v).is_integer()):
        raise ValueError(f"policy {name!r}: {param} must be an integer from {lo:g} to {hi:g}"
                         f"{note}; got {v:g}")


@dataclass(frozen=True)
class Seat:
    """One seat's policy and its parameters (in ``policies[policy].param_names`` order)."""

    policy: str
    params: tuple[float, ...]

    policies: ClassVar[Mapping[str, PolicySpec]] = {}
    n_params: ClassVar[int] = 0
    always_shown: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    example: ClassVar[str] = "policy:name=value"
    # the game's ``distilled`` weights file (:class:`simlib.core.weights.DistilledFile`), if
    # it has one: a broken file makes the name an error that says why
    distilled: ClassVar[Any] = None

    @property
    def label(self) -> str:
        spec = self.policies[self.policy]
        shown = self.always_shown.get(self.policy, ())
        diff = [f"{n}={_fmt(v)}" for n, v, d in zip(spec.param_names, self.params, spec.defaults)
                if v != d or n in shown]
        return self.policy + (f"({','.join(diff)})" if diff else "")

    def vector(self) -> np.ndarray:
        """The kernels' parameter vector (float64, ``n_params``, or as long as the parameters
        when a player has more, as Till Dawn's distilled player's weights): the parameters
        first."""
        out = np.zeros(max(self.n_params, len(self.params)), dtype=np.float64)
        out[:len(self.params)] = self.params
        return out

    @classmethod
    def check(cls, name: str, values: Mapping[str, float]) -> None:
        """A game's own limits on its players' parameters (``ValueError``); none by default."""

    @classmethod
    def make(cls, name: str, params: Mapping[str, float] | Sequence[float] | None = None) -> "Seat":
        """A seat from a policy name and parameters (a mapping of names or a full
        sequence); unknown names and bad values raise ``ValueError`` naming the allowed ones.
        A distilled player's ``any_ruleset`` is 0 or 1."""
        if cls.distilled is not None:
            cls.distilled.unavailable(name)
        vec = checked_params(cls.policies, name, params)
        values = dict(zip(cls.policies[name].param_names, vec))
        if name == "distilled" and values.get("any_ruleset", 0.0) not in (0.0, 1.0):
            raise ValueError(f"policy 'distilled': any_ruleset must be 0 or 1; got "
                             f"{values['any_ruleset']:g}")
        cls.check(name, values)
        return cls(name, tuple(vec))

    @classmethod
    def of(cls, x: Any) -> "Seat":
        """A seat from a seat, a spec string (``"threshold:t=8"``) or ``(name, params)``."""
        if isinstance(x, cls):
            return x
        if isinstance(x, str):
            return cls.parse(x)
        name, params = x
        return cls.make(name, params)

    @classmethod
    def parse(cls, text: Any) -> "Seat":
        """``"name:param=value:..."`` -> a seat (``ValueError`` with one clear line)."""
        return cls.make(*split_spec(text, cls.example))


def split_spec(text: Any, example: str = "threshold:t=8") -> tuple[str, dict[str, float]]:
    """``"name:param=value:..."`` -> ``(name, {param: value})`` (``ValueError`` with one
    clear line); the grammar of a seat and of a player named with its parameters."""
    parts = [p.strip() for p in str(text).split(":")]
    name, params = parts[0], {}
    for p in parts[1:]:
        k, sep, v = p.partition("=")
        if not sep or not k.strip():
            raise ValueError(f"seat {text!r}: expected policy[:name=value...], e.g. {example}")
        try:
            params[k.strip()] = float(v)
        except ValueError:
            raise ValueError(f"seat {text!r}: {v!r} is not a number") from None
    return name, params


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def focal_arm(make_adapter: Callable, seat_type: type[Seat], policy, params, *, field_policy,
              field_params, players=None, characters=None, seed=0, ruleset=None):
    """One arm of ``compare(policies=[a, b])`` in a competitive game of equal seats: the focal
    seat (table seat 0) plays ``policy``, every other seat ``field_policy``, at each player
    count the study with the field alone would play (``make_adapter``: the game's)."""
    base = make_adapter(players, characters, seed=seed, policy=field_policy,
                        policy_params=field_params, ruleset=ruleset)
    focal = seat_type.make(policy, params)
    other = seat_type.make(field_policy, field_params)
    tables = [[focal] + [other] * (p - 1) for p in base.players]
    return make_adapter(None, characters, seed=seed, seats=tables, ruleset=ruleset)


def check_seed(seed) -> int:
    """A study's root seed (``ValueError`` unless an integer from 0 to 2**63 - 1)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2 ** 63:
        raise ValueError(f"seed must be an integer from 0 to 2**63 - 1; got {seed!r}")
    return int(seed)


def check_players(players, rules) -> int:
    """A table's size, checked against the ruleset's ``min_players()``..``max_players()``."""
    lo, hi = rules.min_players(), rules.max_players()
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or not lo <= players <= hi:
        raise ValueError(f"players must be an integer from {lo} to {hi}; got {players!r}")
    return int(players)


def check_games(n_games) -> int:
    """A batch's game count (``ValueError`` unless positive)."""
    n = int(n_games)
    if n <= 0:
        raise ValueError(f"n_games must be positive; got {n_games}")
    return n


def one_table(seats, players, default: str, as_seat: Callable[[Any], Seat],
              check_players: Callable[[int], int], default_players: int = 4) -> list[Seat]:
    """One table's seats: ``seats`` (seat specs) or ``default`` in each of ``players`` seats
    (``default_players`` if neither is given); the size through the game's
    ``check_players`` and, when both are given, the same."""
    if seats is None:
        seats = [default] * (default_players if players is None else int(players))
    seats = [as_seat(x) for x in seats]
    p = check_players(len(seats) if players is None else players)
    if p != len(seats):
        raise ValueError(f"{len(seats)} seats given for {p} players")
    return seats


def seat_arrays(seats: Sequence[Seat], n: int, width: int | None = None,
                n_params: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The same seats in each of ``n`` games: policy ids ``(n, width)`` and parameter vectors
    ``(n, width, n_params)``; ``width`` the kernels' seat columns (default: the seats given),
    ``n_params`` the seats' (given when there may be no seat yet; a seat with a longer
    vector widens it: :func:`params_width`)."""
    width = len(seats) if width is None else int(width)
    n_params = params_width(seats, type(seats[0]).n_params if n_params is None else n_params)
    pol = np.zeros((n, width), dtype=np.int64)
    par = np.zeros((n, width, n_params), dtype=np.float64)
    for s, seat in enumerate(seats):
        pol[:, s] = seat.policies[seat.policy].id
        vec = seat.vector()
        par[:, s, :len(vec)] = vec
    return pol, par


def params_width(seats: Sequence[Seat], n_params: int) -> int:
    """The parameter vectors' length for a batch of these seats: ``n_params`` (the game's
    shortest), or the longest seat's vector when longer (zeros pad the others).  The
    kernels' arrays keep one type whatever their length, so a player with many weights
    costs no new compile, and tables without it keep their short vectors."""
    return max([int(n_params)] + [len(s.vector()) for s in seats])


def team_row(names: Sequence[str] | None, players: int, rules, width: int) -> np.ndarray:
    """Character ids of a team in seat order (a row of ``width``, -1 padded); ``None``: a
    random team (all -1). Each character at most once, known to ``rules``."""
    row = np.full(width, -1, dtype=np.int64)
    if names is None:
        return row
    names = list(names)
    if len(names) != players:
        raise ValueError(f"a team of {players} players needs {players} characters; got "
                         f"{len(names)} ({', '.join(names)})")
    if len(set(names)) != len(names):
        raise ValueError(f"duplicate characters in team {', '.join(names)}; each character "
                         "plays at most once")
    for i, n in enumerate(names):
        if n not in rules.character_names:
            raise ValueError(f"unknown character {n!r}; allowed: {', '.join(rules.character_names)}")
        row[i] = rules.character_id(n)
    return row


def player_counts(players, check_players: Callable[[int], int]) -> list[int] | None:
    """A study's player counts (``players``: one count or several; ``None`` stays ``None``),
    each through the game's ``check_players``; none twice."""
    if players is None:
        return None
    seq = [players] if isinstance(players, (int, np.integer)) else list(players)
    if not seq:
        raise ValueError("players must name at least one player count")
    counts = [check_players(p) for p in seq]
    if len(set(counts)) != len(counts):
        raise ValueError(f"duplicate player count in {counts}")
    return counts


def seat_tables(seats, counts: Sequence[int] | None, as_seat: Callable[[Any], Seat],
                check_players: Callable[[int], int]) -> list[tuple[Seat, ...]]:
    """A study's tables from ``seats``: one table (seat specs, or ``"a,b,c"``) or a list of
    tables; each seat through the game's ``as_seat``, each table's size through
    ``check_players`` and, when the study names player counts, one of ``counts``."""
    given = [seats] if isinstance(seats, str) else list(seats)
    if given and all(isinstance(x, (str, Seat)) for x in given) and not \
            any(isinstance(x, str) and "," in x for x in given):
        given = [given]
    tables = []
    for t in given:
        t = [x.strip() for x in t.split(",")] if isinstance(t, str) else list(t)
        tables.append(tuple(as_seat(x) for x in t))
    for t in tables:
        check_players(len(t))
    for t in tables if counts is not None else ():
        if len(t) not in counts:
            raise ValueError(f"table {'+'.join(s.label for s in t)} has {len(t)} seats, "
                             f"not one of the player counts {counts}")
    return tables


def study_tables(players, seats, policy, policy_params, *, seat_type: type[Seat],
                 check_players: Callable[[int], int],
                 default_counts: Sequence[int]) -> list[tuple[Seat, ...]]:
    """A competitive study's tables: ``seats`` as :func:`seat_tables` reads them, or else
    one table per player count (``players``, default ``default_counts``) with every seat
    playing ``policy`` with ``policy_params``."""
    counts = player_counts(players, check_players)
    if seats is not None:
        return seat_tables(seats, counts, seat_type.of, check_players)
    seat = seat_type.make(policy, policy_params)
    return [tuple([seat] * p) for p in (counts or default_counts)]


# ---------------------------------------------------------------- rotating tables
# A competitive study plays its tables in turn (game g: table g % T) and turns each table's
# seats one place a round (round g // T): seat s plays table seat (s + r) % p, so every
# player sits in every seat equally often.
def tables_cycle(tables: Sequence[Sequence[Seat]]) -> int:
    """Games after which every table has been played in every seat rotation."""
    per = 1
    for t in tables:
        per = np.lcm(per, len(t))
    return int(per) * len(tables)


def table_seats(tables: Sequence[Sequence[Seat]], start: int, count: int,
                policies: Mapping[str, PolicySpec], *, seats: int, n_params: int,
                label_seats: int | None = None):
    """Players ``(count,)``, seat policy ids ``(count, seats)``, parameter vectors
    ``(count, seats, n_params)`` and labels ``(count, label_seats)`` of games
    ``start .. start + count - 1``, each table's seats rotated."""
    idx = np.arange(start, start + count, dtype=np.int64)
    nt = len(tables)
    which = idx % nt
    rot_base = idx // nt
    npl = np.array([len(tables[w]) for w in which], dtype=np.int64)
    n_params = params_width([s for t in tables for s in t], n_params)
    pol = np.zeros((count, seats), dtype=np.int64)
    par = np.zeros((count, seats, n_params), dtype=np.float64)
    labels = np.full((count, label_seats or seats), None, dtype=object)
    for w, table in enumerate(tables):
        sel = np.flatnonzero(which == w)
        if len(sel) == 0:
            continue
        p = len(table)
        ids = np.array([policies[s.policy].id for s in table], dtype=np.int64)
        vec = np.zeros((p, n_params), dtype=np.float64)
        for i, s in enumerate(table):
            v = s.vector()
            vec[i, :len(v)] = v
        lab = np.array([s.label for s in table], dtype=object)
        r = rot_base[sel] % p
        src = (np.arange(p)[None, :] + r[:, None]) % p  # seat s plays table seat (s + r) % p
        pol[sel, :p] = ids[src]
        par[sel, :p, :] = vec[src]
        labels[sel, :p] = lab[src]
    return npl, pol, par, labels


def table_focal_seats(tables: Sequence[Sequence[Seat]], games) -> np.ndarray:
    """Seat of the player of table seat 0 (its table's first player) in each game."""
    games = np.asarray(games, dtype=np.int64)
    nt = len(tables)
    p = np.array([len(t) for t in tables], dtype=np.int64)[games % nt]
    r = (games // nt) % p
    return (p - r) % p  # seat s plays table seat (s + r) % p

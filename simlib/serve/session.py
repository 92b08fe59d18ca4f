"""What a what-if page holds, apart from HTTP: its setup, its changed values, its run.

A :class:`Page` is one open browser page: the game, the base ruleset, the players and
policy (or a competitive game's seats), the seed, the values the designer changed (kept
only when the ruleset's own validator accepts them, with the message a tweak file would
get) and at most one :class:`Run`.  A run plays the base and the changed ruleset on the
same games (``adapter.outcomes``: game ``i`` is a pure function of the seed and ``i``,
so the two variants share every draw) in chunks on a background thread, and keeps the
paired counts (:func:`simlib.core.paired.paired_counts`, the counts ``simlib.compare``
adds up) after each chunk.  The figures shown are those counts, the rates, and the
anytime-valid interval of :mod:`simlib.serve.stats`.

Every run's chunks go through one lock: two pages share the machine's cores rather than
fight over them, and a kernel is never entered by two runs at once.
"""
from __future__ import annotations

import re
import secrets
import threading
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..core.games import game_names, get_game
from ..core.instruments import change_notice, games_differ
from ..core.paired import paired_counts, paired_summary
from ..core.ruleset import RulesetError, toml_value
from .stats import paired_difference_cs

__all__ = ["Page", "Run", "Pages", "SetupError", "TWEAK_FILE", "KERNEL_LOCK", "inside_folder",
           "field_rows", "parse_text", "tweak_toml"]

TWEAK_FILE = "whatif.toml"  # the name a changed value is validated under (and downloaded as)
KERNEL_LOCK = threading.Lock()
FIRST_CHUNK = 200  # games per variant of the first chunk: figures in well under a second
MIN_CHUNK, MAX_CHUNK = 100, 20_000
CHUNK_SECONDS = 0.5  # later chunks aim at this long, so the page updates about twice a second
ORPHAN_SECONDS = 60.0  # a run whose page has not asked for news this long is stopped
HISTORY = 400  # points of the plot kept per run


class SetupError(ValueError):
    """A setup the page cannot run (one line, shown beside the form)."""


# =========================================================================== files
def inside_folder(path: str, folder: Path) -> Path:
    """``path`` resolved, when it lies inside ``folder`` (symbolic links followed); else
    :class:`SetupError`.  The page reads rulesets only from the folder it was started in."""
    p = Path(path)
    full = (p if p.is_absolute() else folder / p).resolve()
    root = folder.resolve()
    if full != root and root not in full.parents:
        raise SetupError(f"{path}: outside the folder simlib serve was started in ({root}); "
                         "copy the ruleset into it")
    return full


def check_base_spec(info, spec: str, folder: Path) -> None:
    """Refuse a base that names a path outside ``folder`` (each part of ``a+b.toml``, and
    the ``base = ...`` a tweak file names)."""
    for part in spec.split("+"):
        part = part.strip()
        if not part:
            raise SetupError(f"{spec!r}: an empty part")
        if part in info.presets and not (folder / part).exists():
            continue
        full = inside_folder(part, folder)
        if full.is_file():
            try:
                named = tomllib.loads(full.read_text(encoding="utf-8")).get("base")
            except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
                named = None  # the loader reports a bad file with its own message
            if isinstance(named, str) and named.strip():
                check_base_spec(info, named.strip(), folder)


def local_rulesets(folder: Path, limit: int = 200) -> list[str]:
    """Ruleset files and folders of ``folder`` to suggest (``.toml`` files, folders holding
    ``.toml`` files), names relative to it."""
    out = []
    try:
        for p in sorted(folder.iterdir()):
            if p.name.startswith("."):
                continue
            if p.is_file() and p.suffix == ".toml":
                out.append(p.name)
            elif p.is_dir() and any(p.glob("*.toml")):
                out.append(p.name)
            if len(out) >= limit:
                break
    except OSError:
        pass
    return out


# =========================================================================== values
def value_text(v: Any) -> str:
    """A value as the designer types it: TOML, without quotes around a lone string."""
    if isinstance(v, str):
        return v
    try:
        return toml_value(v)
    except TypeError:
        return str(v)


def parse_text(text: str, ftype: str) -> Any:
    """The value a field's text means: a string for string fields; otherwise a TOML value
    (``3``, ``true``, ``["a", "b"]``, ``{ a = 1 }``), or the bare text as a string (names
    typed without quotes); the ruleset's validator then judges it."""
    text = text.strip()
    if ftype in ("str", "choice", "text"):
        return text
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        if text[:1] in "[{\"'":
            raise RulesetError(f"{TWEAK_FILE}: not a TOML value: {text!r} (a name inside a list "
                               "or table needs quotes)") from None
        return text


def field_rows(rules, reference=None, changes: dict | None = None) -> list[dict]:
    """One row per value of ``rules`` for the page: key, file, value, type, range, choices,
    source tag, the reference ruleset's value and note."""
    changes = changes or {}
    rows = []
    for r in rules.describe().itertuples(index=False):
        f = rules.field(r.key)
        base_value = rules.get(r.key)
        ref = None
        if reference is not None:
            try:
                ref = value_text(reference.get(r.key))
            except (RulesetError, KeyError):
                ref = None
        v = changes.get(r.key, base_value)
        rng = ""
        if f.min is not None or f.max is not None:
            rng = f"{'' if f.min is None else f.min} .. {'' if f.max is None else f.max}"
        choices = list(f.choices) if f.type == "choice" else []
        rows.append({"key": r.key, "file": r.file, "type": f.type, "min": f.min, "max": f.max,
                     "range": rng, "choices": choices, "source": r.source,
                     "base": value_text(base_value), "value": value_text(v),
                     "reference": ref, "changed": r.key in changes, "note": r.note or f.doc})
    return rows


def tweak_toml(info, base_spec: str, base_rules, changes: dict) -> str:
    """The changed values as a tweak file over ``base_spec`` (loadable by ``--rules``)."""
    lines = [f"# What-if tweak of {info.display_name}, written by simlib serve.",
             f"# Load it with: simlib simulate --game {info.cli_name} --rules {TWEAK_FILE}",
             "# (a base given as a path is read relative to the folder the command runs in)",
             f"base = {toml_value(base_spec)}", ""]
    for key, v in changes.items():
        was = f"{value_text(base_rules.get(key))} ({base_rules.source(key)})"
        lines.append(f'{key} = {{ value = {toml_value(v)}, source = "assumed" }}  # base: {was}')
    return "\n".join(lines) + "\n"


# =========================================================================== the run
@dataclass
class Groups:
    """The rows a run reports: player counts, then a competitive game's seats."""

    names: list[str]           # "players" or "seat" for each row
    keys: list[Any]            # the player count or the seat
    players: tuple[int, ...]
    seat_labels: tuple = ()


class Run:
    """Base against changed on the same games, chunk after chunk, on a thread of its own.

    ``counts`` (rows x 4) are the paired tables in ``simlib.compare``'s orientation (A the
    base, B the changed ruleset): both won, only the base won, only the changed one won,
    neither.
    """

    def __init__(self, adapters, *, cap: int, groups: Groups, seen, label: str,
                 confidence: float = 0.95, start: bool = True):
        self.adapters = adapters
        self.cap = int(cap)
        self.groups = groups
        self.seen = seen  # () -> monotonic time the page last asked for news
        self.label = label
        self.confidence = confidence
        self.counts = np.zeros((len(groups.keys), 4), np.int64)
        self.games = 0
        self.altered = 0  # games whose result differs at all (games_differ, as compare counts)
        self.history: list[dict] = []
        self.state = "running"
        self.message = ""
        self.started = time.monotonic()
        self.first_figures_s: float | None = None
        self.kernel_s = 0.0
        self.cancel = threading.Event()
        self.lock = threading.Lock()
        self.id = secrets.token_hex(4)
        self.thread = threading.Thread(target=self._loop, name=f"simlib-serve-run-{self.id}",
                                       daemon=True)
        if start:
            self.thread.start()

    def stop(self, why: str = "stopped") -> None:
        if self.state == "running":
            self.message = why
        self.cancel.set()

    def join(self, timeout: float | None = None) -> None:
        if self.thread.is_alive():
            self.thread.join(timeout)

    def _chunk(self, start: int, count: int) -> tuple[np.ndarray, int]:
        base, changed = self.adapters
        oa = base.outcomes(start, count, None)
        ob = changed.outcomes(start, count, None)
        if not (np.array_equal(oa.match, ob.match) and np.array_equal(oa.players, ob.players)):
            raise RuntimeError("the two rulesets dealt different teams to the same games; they "
                               "cannot be compared game by game (change the players or the rules "
                               "that choose the teams)")
        g = self.groups
        out = np.zeros_like(self.counts)
        n_pl = len(g.players)
        pidx = np.searchsorted(np.asarray(g.players), oa.players)
        out[:n_pl] = paired_counts(oa.success, ob.success, pidx, n_pl)
        if g.seat_labels:
            _, rows, idx, wa = oa.groupings["seat"]
            _, rows_b, idx_b, wb = ob.groupings["seat"]
            if not (np.array_equal(rows, rows_b) and np.array_equal(idx, idx_b)):
                raise RuntimeError("the two rulesets seat different players in the same games")
            out[n_pl:] = paired_counts(wa, wb, idx, len(g.seat_labels))
        return out, int(games_differ(oa, ob).sum())

    def _loop(self) -> None:
        size = FIRST_CHUNK
        try:
            while self.games < self.cap and not self.cancel.is_set():
                if time.monotonic() - self.seen() > ORPHAN_SECONDS:
                    self.message = "stopped: the page was closed"
                    break
                count = min(size, self.cap - self.games)
                with KERNEL_LOCK:
                    if self.cancel.is_set():
                        break
                    t = time.perf_counter()
                    add, altered = self._chunk(self.games, count)
                    dt = time.perf_counter() - t
                with self.lock:
                    self.counts = self.counts + add
                    self.games += count
                    self.altered += altered
                    self.kernel_s += dt
                    if self.first_figures_s is None:
                        self.first_figures_s = time.monotonic() - self.started
                    self._record()
                size = int(min(MAX_CHUNK, max(MIN_CHUNK, count * CHUNK_SECONDS / max(dt, 1e-3))))
                size = max(MIN_CHUNK, size // 100 * 100)
            with self.lock:
                if self.cancel.is_set() or self.message:
                    self.state = "stopped"
                    self.message = self.message or "stopped"
                else:
                    self.state = "done"
                    self.message = f"reached the cap of {self.cap:,} games per variant"
        except Exception as exc:  # shown on the page; the server goes on
            with self.lock:
                self.state = "error"
                self.message = " ".join(f"{type(exc).__name__}: {exc}".split())

    def _record(self) -> None:
        diff, low, high = self.interval(self.counts)
        self.history.append({"games": self.games, "diff": diff.tolist(), "low": low.tolist(),
                             "high": high.tolist()})
        if len(self.history) > HISTORY:  # keep the first figures and every other later one
            self.history = self.history[:1] + self.history[1::2][1:] + self.history[-1:]

    def interval(self, counts: np.ndarray):
        return paired_difference_cs(counts[:, 2], counts[:, 1], counts.sum(axis=1), self.confidence)

    def snapshot(self) -> dict:
        """Everything the page shows, consistent (taken under the run's lock)."""
        with self.lock:
            counts = self.counts.copy()
            games, history, altered = self.games, list(self.history), self.altered
            state, message, first = self.state, self.message, self.first_figures_s
            kernel_s = self.kernel_s
        diff, low, high = self.interval(counts)
        rows = []
        for i, (name, key) in enumerate(zip(self.groups.names, self.groups.keys)):
            a, b, c, d = (int(x) for x in counts[i])
            n = a + b + c + d
            rows.append({"group": name, "key": key, "games": n, "both": a, "only_base": b,
                         "only_changed": c, "neither": d, "base_wins": a + b,
                         "changed_wins": a + c,
                         "base_rate": (a + b) / n if n else None,
                         "changed_rate": (a + c) / n if n else None,
                         "diff": float(diff[i]) if n else None,
                         "cs_low": float(low[i]), "cs_high": float(high[i]),
                         "differ_share": (b + c) / n if n else None})
        return {"run": self.id, "state": state, "message": message, "games": games,
                "cap": self.cap, "first_figures_s": first, "label": self.label,
                "elapsed_s": round(time.monotonic() - self.started, 3),
                "games_per_s": round(2 * games / kernel_s, 1) if kernel_s > 0 else None,
                "confidence": self.confidence, "rows": rows, "history": history,
                "altered": altered,
                # the one line compare prints when the change alters no game (so far)
                "notice": change_notice(altered, games, "compare") if games else ""}

    def newcombe(self):
        """The fixed-n view of the same counts (``simlib compare``'s columns: A = base,
        B = changed, diff = B - A = changed - base)."""
        with self.lock:
            counts = self.counts.copy()
        return paired_summary(counts, self.confidence)


# =========================================================================== the page
_PLAYERS_RE = re.compile(r"^\s*\d+(\s*,\s*\d+)*\s*$")


def parse_players(text: str):
    text = (text or "").strip()
    if not text:
        return None
    if not _PLAYERS_RE.match(text):
        raise SetupError(f"players: expected a count or counts such as 4 or 3,4; got {text!r}")
    counts = [int(x) for x in text.split(",")]
    return counts[0] if len(counts) == 1 else counts


@dataclass
class Page:
    """One open page: its setup, its changes and its run (see the module docstring)."""

    id: str
    folder: Path
    cap: int
    game: str = ""
    base_spec: str = ""
    players_text: str = ""
    policy: str = ""
    seats: str = ""
    seed: int = 0
    changes: dict = field(default_factory=dict)
    errors: dict = field(default_factory=dict)
    setup_error: str = ""
    run: Run | None = None
    last_seen: float = field(default_factory=time.monotonic)
    _base: Any = None
    _reference: Any = None

    # ------------------------------------------------------------------ setup
    @property
    def info(self):
        return get_game(self.game)

    def setup(self, game: str | None = None, base: str | None = None, players: str | None = None,
              policy: str | None = None, seats: str | None = None, seed: str | int | None = None) -> None:
        """Change the setup; raises :class:`SetupError` (the page keeps its old setup)."""
        info = self._game(game if game is not None else self.game)
        same_game = info.name == self.game
        if not same_game:  # another game: its own defaults, whatever the old form held
            base = players = policy = seats = None
        spec = (base if base is not None else self.base_spec if same_game else "").strip() \
            or info.default_ruleset
        check_base_spec(info, spec, self.folder)
        try:
            rules = info.load_ruleset(spec if spec in info.presets else
                                      "+".join(str(inside_folder(p, self.folder))
                                               if p not in info.presets else p
                                               for p in spec.split("+")))
        except (RulesetError, ValueError, OSError) as exc:
            raise SetupError(" ".join(str(exc).split())) from None
        ptext = players if players is not None else (self.players_text if same_game else "")
        pcount = parse_players(ptext)
        pol = (policy if policy is not None else self.policy if same_game else "") or info.default_policy
        if pol not in info.policy_names():
            raise SetupError(f"unknown policy {pol!r} for {info.display_name}; allowed: "
                             f"{', '.join(info.policy_names())}")
        st = (seats if seats is not None else self.seats if same_game else "").strip()
        if st and not info.competitive:
            raise SetupError(f"{info.display_name} is cooperative: every seat plays the one policy")
        try:
            sd = int(seed if seed is not None and str(seed).strip() != "" else self.seed)
        except ValueError:
            raise SetupError(f"seed: expected an integer; got {seed!r}") from None
        try:
            info.adapter(pcount, None, seed=sd, policy=None if st else pol,
                         ruleset=rules, seats=st or None)
        except (ValueError, KeyError) as exc:
            raise SetupError(" ".join(str(exc).split())) from None
        self.setup_error = ""
        changes = dict(self.changes) if same_game else {}
        if changes:
            try:
                rules.override(changes, file=TWEAK_FILE)
            except RulesetError as exc:
                changes = {}
                self.setup_error = (f"the changed values were dropped: they do not fit the new "
                                    f"base ({' '.join(str(exc).split())})")
        self.game, self.base_spec, self.players_text, self.policy = info.name, spec, ptext.strip(), pol
        self.seats, self.seed, self._base, self.changes = st, sd, rules, changes
        if not same_game:
            self._reference = None
        self.errors = {}
        try:
            self.restart()
        except ValueError as exc:
            self.changes = {}
            self.restart()
            self.setup_error = ("the changed values were dropped: the study refuses them ("
                                + " ".join(str(exc).split()) + ")")

    @staticmethod
    def _game(name: str):
        try:
            return get_game(name or None)
        except ValueError as exc:
            raise SetupError(str(exc)) from None

    @property
    def base(self):
        return self._base

    @property
    def reference(self):
        """The game's ``reference`` preset, when it has one (shown beside each value)."""
        if self._reference is None and "reference" in self.info.presets:
            self._reference = self.info.load_ruleset("reference")
        return self._reference

    def adapter_kw(self) -> dict:
        kw = {"players": parse_players(self.players_text), "characters": None, "seed": self.seed}
        if self.seats:
            kw["seats"] = self.seats
        else:
            kw["policy"] = self.policy
        return kw

    # ------------------------------------------------------------------ values
    def set_value(self, key: str, text: str) -> str | None:
        """Set one value from the page's text; returns the validator's message (the value is
        then not taken, no run starts) or ``None``.  A value equal to the base's is no
        change; any accepted change restarts the comparison."""
        base = self.base
        try:
            f = base.field(key)
            value = parse_text(text, f.type)
            candidate = base.override({key: value}, file=TWEAK_FILE)
            same = candidate.get(key) == base.get(key)
            changes = {k: v for k, v in self.changes.items() if k != key}
            if not same:
                changes[key] = value
            if changes:
                base.override(changes, file=TWEAK_FILE)  # the cross-value checks, all together
        except RulesetError as exc:
            msg = " ".join(str(exc).split())
            if msg.startswith("override:"):  # an unknown key: named as a tweak file names it
                msg = TWEAK_FILE + ":" + msg[len("override:"):]
            self.errors[key] = msg
            return msg
        self.errors.pop(key, None)
        if changes != self.changes:
            old, self.changes = self.changes, changes
            try:
                self.restart()
            except ValueError as exc:  # the study refuses the changed rules (player counts...)
                self.changes = old
                self.restart()
                msg = " ".join(str(exc).split())
                self.errors[key] = msg
                return msg
        return None

    def changed_rules(self):
        return self.base.override(self.changes, file=TWEAK_FILE) if self.changes else self.base

    # ------------------------------------------------------------------ runs
    def stop(self) -> None:
        if self.run is not None:
            self.run.stop()

    def restart(self) -> Run | None:
        """Cancel the page's run and, when values are changed, start a new one."""
        if self.run is not None:
            self.run.stop("replaced by a new change")
        self.run = None
        if not self.changes:
            return None
        info = self.info
        kw = self.adapter_kw()
        adapters = [info.adapter(ruleset=r, **kw) for r in (self.base, self.changed_rules())]
        players = tuple(int(p) for p in adapters[0].players)
        names, keys = ["players"] * len(players), list(players)
        seat_labels: tuple = ()
        if info.competitive:
            # the seats of a table: every seat's success, when the study has one table size
            if len(players) == 1:
                seat_labels = tuple(range(players[0]))
                names += ["seat"] * len(seat_labels)
                keys += list(seat_labels)
        label = ", ".join(f"{k} = {value_text(v)}" for k, v in self.changes.items())
        self.run = Run(adapters, cap=self.cap, groups=Groups(names, keys, players, seat_labels),
                       seen=lambda: self.last_seen, label=label)
        return self.run


class Pages:
    """The server's open pages (the oldest idle ones forgotten past ``limit``)."""

    def __init__(self, folder: Path, cap: int, limit: int = 32):
        self.folder = folder
        self.cap = cap
        self.limit = limit
        self.pages: dict[str, Page] = {}
        self.lock = threading.Lock()

    def new(self, game: str | None = None) -> Page:
        page = Page(secrets.token_urlsafe(12), self.folder, self.cap)
        page.setup(game=game or game_names()[0])
        with self.lock:
            self.pages[page.id] = page
            if len(self.pages) > self.limit:
                idle = sorted((p for p in self.pages.values() if p.id != page.id),
                              key=lambda p: p.last_seen)
                for old in idle[:len(self.pages) - self.limit]:
                    old.stop()
                    del self.pages[old.id]
        return page

    def get(self, page_id: str) -> Page | None:
        with self.lock:
            page = self.pages.get(page_id)
        if page is not None:
            page.last_seen = time.monotonic()
        return page

    def shutdown(self, timeout: float = 10.0) -> None:
        """Stop every run and wait for its thread (a chunk in flight finishes first)."""
        with self.lock:
            pages = list(self.pages.values())
        for p in pages:
            p.stop()
        deadline = time.monotonic() + timeout
        for p in pages:
            if p.run is not None:
                p.run.join(max(0.0, deadline - time.monotonic()))

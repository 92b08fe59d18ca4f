"""Reproducible batch runner: chunk plan, local and Dask backends, progress, resumable store.

The runner knows nothing about any game.  A game plugs in through a :class:`GameAdapter`
that plays a *chunk* (a range of consecutive game indices) and counts its records.
Because each game's configuration and randomness are pure functions of the root seed and
the game index, the run's tables do not depend on the chunk size, the number of numba
threads, the backend or the number of workers: only *which* games are played matters.

Execution
---------
* ``backend="local"``: Python loops over chunks; the adapter's kernel spreads the games
  of a chunk over numba threads.
* ``backend="dask"``: chunks are tasks on a ``dask.distributed`` cluster, either the
  scheduler address given or a :class:`~distributed.LocalCluster` started on 127.0.0.1.
  The driver sums the counts and writes chunk files as results arrive.

Memory
------
With ``keep_records=False`` (automatic above ``record_limit`` games) only the counts of
:mod:`simlib.core.tables` are kept; they add across chunks, so any number of games runs
in bounded memory and gives the tables the rows would have given.

Store and resume
----------------
With ``out="results.parquet"``, every finished chunk is written at once to
``results.parquet.parts/chunk-000123.parquet`` (records or counts) next to a
``manifest.json`` holding the run's identity (game parameters, games, chunk size, records
or counts), its sha256, and the sha256 of every finished chunk file; each chunk file is
stamped with the identity hash.  Every write is atomic and durable (temporary file,
fsync, rename).  Running the same call again skips the chunks the manifest lists with a
matching checksum and recomputes the rest; a different call on the same output is
refused.  :func:`read_output` verifies all of it (and the final file's checksum).  When all chunks are done the final file is written
atomically (parquet, with the provenance in its key-value metadata under ``simlib``) and
the parts directory is removed.  An existing final file is only replaced with
``overwrite=True``.
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import shutil
import socket
import sys
import time
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Mapping

import pandas as pd

from .adapter import DeferredRecords, StudyAdapter, records_frame_of
from .tables import Counts, TableSpec, Tables, count_records, make_tables

__all__ = [
    "GameAdapter", "ChunkPlan", "RunResult", "RunError", "BackendError", "OutputExistsError",
    "run", "read_output", "DEFAULT_CHUNK_SIZE", "RECORD_LIMIT", "FORMAT",
]

DEFAULT_CHUNK_SIZE = 10_000
# Without a store or a progress bar a chunk is only a unit of work, and the local backend
# plays consecutive chunks in one kernel call of up to this many games: counting a chunk
# has a fixed cost (a few pandas frames per grouping, about 10 ms) as large as its
# per-game cost at 10,000 games (issue #33: simulate within 5 % of its kernel)
GROUP_GAMES = 50_000
RECORD_LIMIT = 1_000_000  # above this many games, keep counts only (unless told otherwise)
FORMAT = 1  # version of the stored layout (manifest, chunk files, final file metadata)
META_KEY = b"simlib"


class RunError(ValueError):
    """A run cannot start as asked (bad plan, output conflict...); nothing was written."""


class BackendError(RunError):
    """The execution backend is unusable (unknown name, unreachable scheduler...)."""


class OutputExistsError(RunError):
    """The output exists, or holds parts of a different run, and overwriting was not allowed."""


# What a game provides to the runner: the study adapter protocol of the game contract
# (every method required; see simlib.core.games).
GameAdapter = StudyAdapter


# =========================================================================== plan
@dataclass(frozen=True)
class ChunkPlan:
    """Games ``0 .. n_games - 1`` cut into chunks of ``chunk_size`` (the last may be shorter)."""

    n_games: int
    chunk_size: int

    def __post_init__(self) -> None:
        if int(self.n_games) != self.n_games or self.n_games <= 0:
            raise RunError(f"games must be a positive integer; got {self.n_games!r}")
        if int(self.chunk_size) != self.chunk_size or self.chunk_size <= 0:
            raise RunError(f"chunk size must be a positive integer; got {self.chunk_size!r}")

    @property
    def n_chunks(self) -> int:
        return -(-self.n_games // self.chunk_size)

    def chunk(self, i: int) -> tuple[int, int]:
        """``(start, count)`` of chunk ``i``."""
        start = i * self.chunk_size
        return start, min(self.chunk_size, self.n_games - start)

    def __iter__(self):
        return (self.chunk(i) for i in range(self.n_chunks))


def _units(plan: ChunkPlan, chunks: list[int], max_games: int) -> list[tuple[int, ...]]:
    """``chunks`` (in order) as units played by one kernel call each: runs of consecutive
    chunks of up to ``max_games`` games, shrinking to half of the games left so that the
    last unit, counted while no kernel runs, is small; one chunk a unit when
    ``max_games`` is at most the chunk size (a store or a progress bar needs chunks)."""
    if max_games <= plan.chunk_size:
        return [(i,) for i in chunks]
    left = sum(plan.chunk(i)[1] for i in chunks)
    units: list[tuple[int, ...]] = []
    cur: list[int] = []
    games = 0
    for i in chunks:
        n = plan.chunk(i)[1]
        if cur and (i != cur[-1] + 1 or games + n > max(plan.chunk_size,
                                                       min(max_games, (left + games) // 2))):
            units.append(tuple(cur))
            cur, games = [], 0
        cur.append(i)
        games += n
        left -= n
    if cur:
        units.append(tuple(cur))
    return units


def _span(plan: ChunkPlan, unit: tuple[int, ...] | int) -> tuple[int, int]:
    """``(start, count)`` of a unit of consecutive chunks (or of one chunk's index)."""
    if not isinstance(unit, tuple):
        return plan.chunk(unit)
    start = plan.chunk(unit[0])[0]
    last_start, last_count = plan.chunk(unit[-1])
    return start, last_start + last_count - start


# =========================================================================== result
class RecordParts:
    """A run's records as its chunks' parts in game order (frames, or
    :class:`~simlib.core.games.DeferredRecords` still to be made into frames), joined
    into one frame the first time :attr:`RunResult.records` is read (then the parts are
    let go)."""

    def __init__(self, parts: "list[pd.DataFrame | DeferredRecords]"):
        self._parts = parts
        self._frame: pd.DataFrame | None = None

    def frame(self) -> pd.DataFrame:
        if self._frame is None:
            frames = [records_frame_of(p) for p in self._parts]
            self._frame = pd.concat(frames, ignore_index=True)
            self._parts = []
        return self._frame


@dataclass(frozen=True, eq=False)
class RunResult:
    """Outcome of a run.

    Attributes
    ----------
    counts : Counts
        Additive counts of every game played (all chunks, resumed ones included).
    records : pandas.DataFrame or None
        One row per game in game order (``None`` when only counts were kept).  A run
        keeps its chunks' records and makes them into one frame on the first access (the
        tables need only the counts): a game may keep its kernel's records and decode
        them into names only then (Until Daylight: about 1.2 s per 100,000 games on the
        first read), and the join is a one-off copy of every record.
    provenance : dict
        Seed, games, game parameters, versions, backend, chunk size, times.
    complete : bool
        False when the run stopped early (``max_chunks``); resume it with the same call.
    """

    counts: Counts
    _records: "pd.DataFrame | RecordParts | None"
    provenance: Mapping[str, Any] = field(repr=False)
    complete: bool = True

    @property
    def records(self) -> pd.DataFrame | None:
        r = self._records  # RecordParts joins once and keeps the frame
        return r.frame() if isinstance(r, RecordParts) else r

    @property
    def has_records(self) -> bool:
        """Whether per-game records were kept (without joining them)."""
        return self._records is not None

    @cached_property
    def tables(self) -> Tables:
        """Win rates, loss causes and deaths with 95 % Wilson intervals."""
        return make_tables(self.counts)

    @cached_property
    def effects(self):
        """Character (and strategy) effects with the rest of the table held fixed, from
        the counts (:func:`simlib.core.effects.effects`): ``character_effects``,
        ``pair_synergy`` (co-operative), ``strategy_effects`` (competitive)."""
        from .effects import effects

        return effects(self)

    @property
    def games(self) -> int:
        return self.counts.games

    @property
    def plot(self):
        """The standard figures: ``res.plot.win_rates()``, ``.heatmap()``, ``.survival()``,
        ``.loss_causes()``, ``.deaths()``, ``.game_length()`` (each returns its Axes)."""
        from .plots import ResultPlots

        return ResultPlots(self)

    def __repr__(self) -> str:
        p = self.provenance
        return (f"<RunResult {p.get('game', '?')}: {self.games} games"
                f"{'' if self.complete else ' (incomplete)'}, seed {p.get('seed')}, "
                f"records {'kept' if self.records is not None else 'not kept'}>")


# =========================================================================== store
# Durability: every file is written to a temporary name in the same folder, flushed and
# fsync'ed, then renamed over its final name (os.replace is atomic) and the folder is
# fsync'ed; so a file under its final name is always whole.  A chunk counts as done only
# when the manifest lists it with the sha256 of its bytes, and the manifest is updated (the
# same way) only after the chunk's rename: a run killed at any moment leaves whole chunks
# listed in the manifest, perhaps one whole chunk not yet listed (recomputed), and
# temporary files (deleted on resume).  Nothing is pickled: parquet and JSON only.
FAULT_ENV = "SIMLIB_FAULT"  # test hook: "<point>:<chunk>[:<action>]", see _fault()


def _fault(point: str, chunk: int) -> None:
    """Test hook: ``SIMLIB_FAULT=chunk-half:3`` SIGKILLs this process half-way through
    writing chunk 3 (points: ``chunk-half``, ``chunk-renamed``, ``manifest-half``; chunk
    ``*``: every chunk; action ``kill`` (default) or ``sleep<seconds>``, e.g.
    ``chunk-half:*:sleep0.05`` slows every chunk write down so that a kill at a random
    moment often lands inside one)."""
    spec = os.environ.get(FAULT_ENV)
    if not spec:
        return
    parts = spec.split(":")
    if parts[0] != point or (parts[1] != "*" and int(parts[1]) != chunk):
        return
    action = parts[2] if len(parts) > 2 else "kill"
    if action.startswith("sleep"):
        time.sleep(float(action[5:]))
        return
    import signal

    os.kill(os.getpid(), signal.SIGKILL)


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory fds
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def _atomic_write_bytes(path: Path, data: bytes, fault: tuple[str, int] | None = None) -> None:
    """Write ``data`` to ``path`` atomically and durably (temporary file, fsync, rename)."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "wb") as fh:
            half = len(data) // 2
            fh.write(data[:half])
            if fault is not None:
                fh.flush()
                _fault(*fault)
            fh.write(data[half:])
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        _fsync_dir(path.parent)
    finally:
        if tmp.exists():
            tmp.unlink()


def _canonical_json(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str).encode()


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def identity_hash(identity: Mapping) -> str:
    """sha256 of a run's identity (canonical JSON): what every chunk file is stamped with."""
    return _sha256(_canonical_json(identity))


def frame_hash(df: pd.DataFrame) -> str:
    """sha256 of a frame's column names and values (dtype-independent for text columns, so
    it survives a parquet round trip)."""
    import numpy as np

    h = hashlib.sha256()
    h.update(_canonical_json([str(c) for c in df.columns]))
    h.update(str(len(df)).encode())
    for c in df.columns:
        col = df[c]
        arr = col.to_numpy()
        if arr.dtype.kind in "iu":
            h.update(b"i" + np.ascontiguousarray(arr, dtype="<i8").tobytes())
        elif arr.dtype.kind == "b":
            h.update(b"b" + np.ascontiguousarray(arr, dtype="|b1").tobytes())
        elif arr.dtype.kind == "f":
            h.update(b"f" + np.ascontiguousarray(arr, dtype="<f8").tobytes())
        else:
            miss = pd.isna(col).to_numpy()
            h.update(b"s" + "\x1f".join("\x00" if m else str(v)
                                         for v, m in zip(arr, miss)).encode())
    return h.hexdigest()


def _parquet_bytes(df: pd.DataFrame, meta: Mapping | None = None) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(df, preserve_index=False)
    if meta is not None:
        md = dict(table.schema.metadata or {})
        md[META_KEY] = json.dumps(meta, sort_keys=True, default=str).encode()
        table = table.replace_schema_metadata(md)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return sink.getvalue().to_pybytes()


def write_parquet(path: Path, df: pd.DataFrame, meta: Mapping | None = None) -> None:
    """Write ``df`` to ``path`` atomically (temporary file, fsync, then rename)."""
    _atomic_write_bytes(path, _parquet_bytes(df, meta))


def _read_parquet(path: Path, data: bytes | None = None):
    """``(frame, simlib meta or None)`` of a parquet file; RunError if unreadable."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(pa.BufferReader(data) if data is not None else path)
    except Exception as exc:  # pyarrow raises several types for broken files
        raise RunError(f"{path}: cannot read parquet: {' '.join(str(exc).split())}") from None
    md = table.schema.metadata or {}
    meta = None
    if META_KEY in md:
        try:
            meta = json.loads(md[META_KEY])
        except ValueError:
            raise RunError(f"{path}: corrupt simlib metadata (not JSON)") from None
        if not isinstance(meta, dict):
            raise RunError(f"{path}: corrupt simlib metadata (not a JSON object)")
    return table.to_pandas(), meta


def _final_checksum(meta: Mapping, data_hash: str) -> str:
    body = {k: v for k, v in meta.items() if k != "checksum"}
    return _sha256(_canonical_json(body) + data_hash.encode())


def read_output(path: str | Path) -> tuple[str, pd.DataFrame, dict]:
    """Read a run's output: ``(kind, frame, meta)``, kind ``"records"`` or ``"counts"``.

    ``path`` is the final parquet file, or (while a run is unfinished) the ``.parquet``
    name whose ``.parts/`` folder holds finished chunks: then ``meta["complete"]`` is
    False and the frame holds the verified chunks only.  Everything read is verified: the
    final file's checksum (over its metadata and its data), the manifest's identity hash,
    each chunk's sha256 and identity stamp.

    Raises
    ------
    RunError
        The file is missing, unreadable, not a simlib output, tampered with, or holds
        parts of another study; the message says which file and why.
    """
    path = Path(path)
    if not path.is_file():
        parts = path.with_name(path.name + ".parts")
        if parts.is_dir():
            return _ChunkStore(path).read_verified()
        raise RunError(f"{path}: no such file")
    df, meta = _read_parquet(path)
    if meta is None:
        raise RunError(f"{path}: not a simlib output (no 'simlib' metadata)")
    kind = meta.get("kind")
    if kind not in ("records", "counts"):
        if isinstance(kind, str) and kind:  # an instrument's table (compare, sweep, ...)
            raise RunError(f"{path}: a `simlib {kind}` table, not a study's results: `simlib "
                           "report` reads what `simlib simulate --out` writes; read this one "
                           "with pandas.read_parquet (its provenance is in the file's "
                           "'simlib' metadata)")
        raise RunError(f"{path}: unknown simlib output kind {kind!r}")
    if "checksum" in meta:  # files of format 1 written before checksums have none
        if meta["checksum"] != _final_checksum(meta, frame_hash(df)):
            raise RunError(f"{path}: checksum mismatch: its data or metadata changed after "
                           "simlib wrote it (re-run the study)")
        ident = meta.get("identity")
        if not isinstance(ident, dict) or meta.get("identity_hash") != identity_hash(ident):
            raise RunError(f"{path}: identity hash mismatch: the metadata was edited")
    meta.setdefault("complete", True)
    return kind, df, meta


class _ChunkStore:
    """``<out>.parts/``: manifest plus one parquet file per finished chunk."""

    def __init__(self, out: str | Path):
        self.out = Path(out)
        self.parts = self.out.with_name(self.out.name + ".parts")
        self.manifest = self.parts / "manifest.json"
        self._man: dict | None = None

    def check(self, identity: dict, overwrite: bool) -> None:
        """Refuse conflicts before anything is written."""
        if self.out.exists() and not overwrite:
            raise OutputExistsError(f"{self.out} exists; refusing to overwrite it "
                                    "(pass overwrite=True)")
        if self.out.is_dir():
            raise OutputExistsError(f"{self.out} is a directory")
        if self.parts.exists():
            stored = self._read_manifest()
            if stored is None or stored.get("identity") != identity:
                if not overwrite:
                    diff = _describe_diff(None if stored is None else stored.get("identity"), identity)
                    raise OutputExistsError(
                        f"{self.parts} holds parts of a different run ({diff}); refusing to mix "
                        "them (run the original command to resume, or pass overwrite=True "
                        "to discard them)")
        if not self.out.parent.exists():
            raise RunError(f"{self.out}: directory {self.out.parent} does not exist")

    def _read_manifest(self) -> dict | None:
        try:
            man = json.loads(self.manifest.read_text())
        except (OSError, ValueError):
            return None
        return man if isinstance(man, dict) else None

    def _write_manifest(self, fault_chunk: int | None = None) -> None:
        _atomic_write_bytes(self.manifest, json.dumps(self._man, indent=1, sort_keys=True,
                                                      default=str).encode(),
                            None if fault_chunk is None else ("manifest-half", fault_chunk))

    def open(self, identity: dict) -> None:
        stored = self._read_manifest() if self.parts.exists() else None
        if stored is not None and stored.get("identity") == identity:
            stored.setdefault("chunks", {})
            stored["identity_hash"] = identity_hash(identity)
            self._man = stored
            return
        if self.parts.exists():  # stale parts, overwrite was allowed by check()
            shutil.rmtree(self.parts)
        self.parts.mkdir()
        _fsync_dir(self.parts.parent)
        self._man = {"format": FORMAT, "identity": identity,
                     "identity_hash": identity_hash(identity), "created": utc_now(), "chunks": {}}
        self._write_manifest()

    def path(self, i: int) -> Path:
        return self.parts / f"chunk-{i:06d}.parquet"

    def done(self, n_chunks: int) -> set[int]:
        """Chunks listed in the manifest whose file is there with the recorded sha256.  A
        chunk file the manifest does not list (the run died between the two renames) or
        whose bytes changed is removed, and so recomputed."""
        for stale in self.parts.glob(".*.tmp-*"):
            stale.unlink()
        listed = self._man.get("chunks", {})
        done = set()
        for i in range(n_chunks):
            p = self.path(i)
            entry = listed.get(str(i))
            if entry is None:
                if p.exists():
                    p.unlink()
                continue
            ok = p.is_file() and _sha256(p.read_bytes()) == entry.get("sha256")
            if ok:
                done.add(i)
            else:
                if p.exists():
                    sys.stderr.write(f"simlib: {p}: checksum mismatch with the manifest; "
                                     "recomputing this chunk\n")
                    p.unlink()
                del listed[str(i)]
        return done

    def write(self, i: int, df: pd.DataFrame) -> None:
        meta = {"format": FORMAT, "identity_hash": self._man["identity_hash"], "chunk": i,
                "rows": len(df)}
        data = _parquet_bytes(df, meta)
        _atomic_write_bytes(self.path(i), data, ("chunk-half", i))
        _fault("chunk-renamed", i)
        self._man["chunks"][str(i)] = {"sha256": _sha256(data), "bytes": len(data),
                                       "rows": len(df)}
        self._write_manifest(fault_chunk=i)

    def read(self, i: int) -> pd.DataFrame:
        df, _ = _read_parquet(self.path(i))
        return df

    def read_verified(self) -> tuple[str, pd.DataFrame, dict]:
        """The finished chunks of an unfinished run, each verified (see ``read_output``)."""
        man = self._read_manifest()
        if man is None:
            raise RunError(f"{self.manifest}: missing or not a JSON manifest")
        ident = man.get("identity")
        if not isinstance(ident, dict) or man.get("identity_hash") != identity_hash(ident):
            raise RunError(f"{self.manifest}: identity does not match its identity hash: the "
                           "manifest was edited")
        kind = ident.get("stored")
        if kind not in ("records", "counts"):
            raise RunError(f"{self.manifest}: unknown stored kind {kind!r}")
        chunks = man.get("chunks")
        if not isinstance(chunks, dict):
            raise RunError(f"{self.manifest}: no chunk list")
        frames = []
        for key in sorted(chunks, key=lambda k: int(k) if str(k).isdigit() else -1):
            if not str(key).isdigit():
                raise RunError(f"{self.manifest}: bad chunk index {key!r}")
            i = int(key)
            p = self.path(i)
            if not p.is_file():
                raise RunError(f"{p}: listed in the manifest but missing")
            data = p.read_bytes()
            if _sha256(data) != chunks[key].get("sha256"):
                raise RunError(f"{p}: checksum mismatch with {self.manifest.name}: the file "
                               "changed after it was written (or the manifest was edited)")
            df, meta = _read_parquet(p, data)
            if meta is None or meta.get("identity_hash") != man["identity_hash"]:
                raise RunError(f"{p}: a part of another study (its identity hash differs from "
                               f"{self.manifest.name}'s)")
            if meta.get("chunk") != i or meta.get("rows") != len(df):
                raise RunError(f"{p}: stamped as chunk {meta.get('chunk')!r} of "
                               f"{meta.get('rows')!r} rows; expected chunk {i} of {len(df)}")
            frames.append(df)
        df = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
        meta = {"format": man.get("format"), "kind": kind, "identity": ident,
                "identity_hash": man["identity_hash"], "complete": False,
                "chunks_done": len(frames), "chunk_rows": [len(f) for f in frames],
                "provenance": {"game": ident.get("game"), **ident, "complete": False,
                               "chunks_done": len(frames)}}
        return kind, df, meta

    def finish(self, df: pd.DataFrame, meta: dict) -> None:
        meta = dict(meta, identity_hash=identity_hash(meta["identity"]))
        meta["checksum"] = _final_checksum(meta, frame_hash(df))
        write_parquet(self.out, df, meta)
        shutil.rmtree(self.parts)
        _fsync_dir(self.out.parent)


def _describe_diff(old: dict | None, new: dict) -> str:
    if old is None:
        return "no readable manifest"
    keys = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
    return "differs in " + ", ".join(f"{k}: {old.get(k)!r} != {new.get(k)!r}" for k in keys[:3])


def _command_line() -> str:
    """The command line of this process (``simlib ...`` for the console script)."""
    import shlex

    argv = list(sys.argv) or [""]
    if os.path.basename(argv[0]) == "simlib":
        return shlex.join(["simlib"] + argv[1:])
    return shlex.join([os.path.basename(sys.executable or "python")] + argv)


def utc_now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


# =========================================================================== progress
def _in_notebook() -> bool:
    shell = sys.modules.get("IPython")
    if shell is None:
        return False
    try:
        ip = shell.get_ipython()
    except Exception:  # pragma: no cover - odd IPython states
        return False
    return ip is not None and "IPKernelApp" in getattr(ip, "config", {})


PROGRESS_EVERY = 10.0  # seconds between two progress lines written to a log (not a terminal)


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def show_progress(progress: "bool | str | None") -> "bool | str":
    """``True`` (a bar), ``False`` (nothing) or ``"lines"`` (a line at most every
    :data:`PROGRESS_EVERY` seconds, for a log); ``None``: a bar on a terminal or in a
    notebook, else nothing (the command line asks for ``"lines"`` there)."""
    if progress == "lines":
        return "lines"
    if progress is not None:
        return bool(progress)
    return _stderr_is_terminal() or _in_notebook()


class LineProgress:
    """A progress bar's ``update``/``close`` for a log: a line on stderr when work starts, at
    most one every ``every`` seconds while it goes on, and one when it ends (a terminal
    bar redraws in place; written to a file it is one unreadable line, or nothing)."""

    def __init__(self, total: int | None, initial: int, desc: str, every: float = PROGRESS_EVERY,
                 clock=time.monotonic, file=None):
        self.total, self.n, self.desc, self.every = total, int(initial), desc, every
        self._clock, self._file = clock, file
        self._t0 = self._last = clock()
        self._say(f"{self.desc}: {'some' if total is None else f'{total:,}'} games to play"
                  if initial == 0 else f"{self.desc}: resuming at {self._of()} games")

    def _of(self) -> str:
        return f"{self.n:,}" + ("" if self.total is None else f" of {self.total:,}")

    def _say(self, text: str) -> None:
        print(text, file=self._file or sys.stderr, flush=True)

    def update(self, n: int = 1) -> None:
        self.n += int(n)
        now = self._clock()
        if now - self._last >= self.every:
            self._last = now
            el = now - self._t0
            pct = "" if not self.total else f" ({100 * self.n / self.total:.0f} %)"
            self._say(f"{self.desc}: {self._of()} games{pct}, {el:.0f} s")

    def close(self) -> None:
        self._say(f"{self.desc}: {self._of()} games done in {self._clock() - self._t0:.0f} s")


def progress_bar(total: int, initial: int, show: "bool | str", desc: str):
    if not show:
        return None
    if show == "lines":
        return LineProgress(total, initial, desc)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tqdm.auto warns when ipywidgets is missing
        from tqdm.auto import tqdm

        return tqdm(total=total, initial=initial, unit="game", unit_scale=True, desc=desc,
                    smoothing=0.05, dynamic_ncols=True, file=sys.stderr)


def _warm_up(adapter: GameAdapter, threads: int | None) -> None:
    """Compile (or load from the cache) the study's kernels before the bar starts, saying so:
    otherwise the bar waits at 0 % through the compile and then leaps.  Playing game 0
    alone is what the first chunk does first; its result is thrown away (a game is a pure
    function of its index)."""
    from .jit import compile_notice, kernels_cached  # here: importing the runner imports no numba

    if kernels_cached(adapter.game) is None:  # not a package of simlib's: the game says it
        line = adapter.compile_notice()
    else:
        line = compile_notice(adapter.game, adapter.game.replace("_", " "))
    t = time.perf_counter()
    if line:
        print(line, file=sys.stderr, flush=True)
    adapter.run_chunk_counts(0, 1, threads)
    took = time.perf_counter() - t
    if line:
        print(f"compiled in {took:.0f} s", file=sys.stderr, flush=True)


# =========================================================================== backends
def _chunk_task(adapter: GameAdapter, start: int, count: int, threads: int | None,
                keep_records: bool, defer: bool = False):
    """Play one chunk; return ``(records or None, counts)``; records as a frame unless
    ``defer`` (then possibly :class:`DeferredRecords`, made into a frame when read)."""
    if not keep_records:
        return None, adapter.run_chunk_counts(start, count, threads)
    records, counts = adapter.run_chunk_with_counts(start, count, threads)
    return (records if defer else records_frame_of(records)), counts


class _LocalBackend:
    name = "local"

    def __init__(self, threads: int | None, defer: bool = False):
        self.threads = threads
        self.defer = defer  # records may stay DeferredRecords (no store to write them to)
        self.description = "local"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    IN_FLIGHT = 2  # chunks played at once: one is counted while the next one plays

    def map(self, adapter, plan: ChunkPlan, chunks: list[tuple[int, ...]], keep_records: bool):
        """Units of consecutive chunks (:func:`_units`) in order, two in flight: counting
        a unit (pandas, mostly under the GIL) used to leave the cores idle between kernels;
        now the next unit's kernel (which releases the GIL) runs meanwhile.  A unit's result
        depends only on its games, so the tables are the same as one chunk at a time;
        results are yielded (and written) in chunk order."""
        from collections import deque
        from concurrent.futures import ThreadPoolExecutor
        from itertools import islice

        def task(unit):
            start, count = _span(plan, unit)
            return _chunk_task(adapter, start, count, self.threads, keep_records, self.defer)

        todo = iter(chunks)
        with ThreadPoolExecutor(max_workers=self.IN_FLIGHT,
                                thread_name_prefix="simlib-chunk") as pool:
            pending = deque((i, pool.submit(task, i)) for i in islice(todo, self.IN_FLIGHT))
            try:
                while pending:
                    i, fut = pending.popleft()
                    result = fut.result()
                    nxt = next(todo, None)
                    if nxt is not None:
                        pending.append((nxt, pool.submit(task, nxt)))
                    yield i, result
            finally:  # an error or a stopped run: start nothing new
                for _, fut in pending:
                    fut.cancel()


class _DaskBackend:
    name = "dask"

    def __init__(self, scheduler: str | None, workers: int | None, threads: int | None,
                 connect_timeout: float):
        try:
            import distributed  # noqa: F401
        except ImportError:  # pragma: no cover - dask is an optional extra
            raise BackendError("the dask backend needs dask[distributed]: "
                               "pip install 'simlib[dask]'") from None
        self.scheduler = scheduler
        self.workers = workers
        self.threads = 1 if threads is None else threads  # parallelism comes from the workers
        self.connect_timeout = connect_timeout
        self.cluster = None
        self.client = None
        self.description = ""

    def __enter__(self):
        from distributed import Client, LocalCluster

        if self.scheduler:
            try:
                self.client = Client(self.scheduler, timeout=f"{self.connect_timeout}s",
                                     set_as_default=False)
            except (OSError, TimeoutError, ValueError, TypeError) as exc:
                raise BackendError(f"cannot reach the Dask scheduler at {self.scheduler} "
                                   f"within {self.connect_timeout:g} s: {exc}") from None
            self.description = f"dask scheduler {self.scheduler}"
        else:
            n = self.workers or os.cpu_count() or 1
            try:
                self.cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                            host="127.0.0.1", dashboard_address="127.0.0.1:0")
                self.client = Client(self.cluster, set_as_default=False)
            except (OSError, RuntimeError, TimeoutError) as exc:
                self.__exit__()
                raise BackendError(f"cannot start a local Dask cluster: {exc}") from None
            self.description = f"dask LocalCluster ({n} workers on 127.0.0.1)"
        return self

    def __exit__(self, *exc):
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()
        return False

    def map(self, adapter, plan: ChunkPlan, chunks: list[tuple[int, ...]], keep_records: bool):
        from distributed import as_completed

        client = self.client
        info = client.scheduler_info()
        slots = max(1, sum(w.get("nthreads", 1) for w in info.get("workers", {}).values()))
        window = 2 * slots + 2  # bounded in-flight results: bounded driver memory
        [adapter_f] = client.scatter([adapter], broadcast=True)
        todo = list(chunks)
        futures = {}

        def submit(i):
            start, count = _span(plan, i)
            fut = client.submit(_chunk_task, adapter_f, start, count, self.threads, keep_records,
                                pure=False)
            futures[fut] = i
            return fut

        for i in todo[:window]:
            submit(i)
        nxt = window
        ac = as_completed(list(futures), loop=client.loop)
        try:
            for fut in ac:
                i = futures.pop(fut)
                try:
                    out = fut.result()
                except Exception as exc:
                    cluster_error = type(exc).__name__ in ("CancelledError",
                                                           "FutureCancelledError",
                                                           "KilledWorker", "CommClosedError")
                    # a killed scheduler can reset the result's connection before the
                    # client has seen its own connection close: give a cluster error a
                    # moment to show whether the scheduler itself is gone
                    if self._scheduler_lost(wait=5.0 if cluster_error else 0.0):
                        raise BackendError(self._lost_message()) from None
                    if cluster_error:
                        raise BackendError(f"Dask chunk {i} failed on the cluster: "
                                           f"{type(exc).__name__}: {exc}; finished chunks "
                                           "are saved: run the same command to resume") from None
                    raise
                fut.release()
                if nxt < len(todo):
                    ac.add(submit(todo[nxt]))
                    nxt += 1
                yield i, out
        finally:
            if not self._scheduler_lost():
                for fut in list(futures):
                    fut.cancel()

    def _scheduler_lost(self, wait: float = 0.0) -> bool:
        """Whether the client has lost its scheduler, polling up to ``wait`` seconds.

        Lost means: the client left its running state, its connection to the scheduler
        is closed, or the scheduler's address refuses connections.
        """
        deadline = time.monotonic() + wait
        while True:
            status = getattr(self.client, "status", "running")
            if status not in ("running", "newly-created"):
                return True
            batched = getattr(self.client, "scheduler_comm", None)
            comm = getattr(batched, "comm", None)
            if batched is None or (comm is not None and comm.closed()):
                return True
            if wait and self._scheduler_refuses():
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)

    def _scheduler_refuses(self) -> bool:
        addr = self.scheduler or getattr(self.cluster, "scheduler_address", None)
        if not addr or not addr.startswith("tcp://"):
            return False
        host, _, port = addr[len("tcp://"):].rpartition(":")
        try:
            socket.create_connection((host.strip("[]"), int(port)), timeout=1.0).close()
        except ConnectionRefusedError:
            return True
        except (OSError, ValueError):
            return False
        return False

    def _lost_message(self) -> str:
        where = self.scheduler or "the local cluster"
        return (f"lost the Dask scheduler at {where} (status {self.client.status}); "
                "finished chunks are saved: run the same command to resume")


# =========================================================================== run
def run(adapter: GameAdapter, n_games: int, *, chunk_size: int = DEFAULT_CHUNK_SIZE,
        backend: str = "local", scheduler: str | None = None, workers: int | None = None,
        threads: int | None = None, keep_records: bool | None = None,
        out: str | Path | None = None, overwrite: bool = False, progress: bool | None = None,
        max_chunks: int | None = None, connect_timeout: float = 5.0,
        record_limit: int = RECORD_LIMIT) -> RunResult:
    """Play games ``0 .. n_games - 1`` of ``adapter`` chunk by chunk.

    Parameters
    ----------
    adapter : GameAdapter
        The game, its parameters and its table spec.
    n_games : int
        Games to play.
    chunk_size : int
        Games per chunk (a unit of work, progress and storage; never changes results).
    backend : {"local", "dask"}
        Where chunks run.
    scheduler : str, optional
        Dask scheduler address (``tcp://host:8786``); default: start a LocalCluster.
    workers : int, optional
        Workers of the LocalCluster started when no scheduler is given (default: CPUs).
    threads : int, optional
        numba threads per chunk (local default: numba's setting; Dask default: 1).
    keep_records : bool, optional
        Keep one row per game; default: only when ``n_games <= record_limit``.
    out : path, optional
        Final parquet file; chunks are stored in ``<out>.parts/`` as they finish and an
        interrupted run resumes from them.
    overwrite : bool
        Replace an existing ``out`` and discard parts of a different run.
    progress : bool or "lines", optional
        Show a progress bar; ``"lines"``: a line on stderr at most every 10 s (for a log);
        default: a bar when stderr is a terminal or in a notebook, else nothing.
    max_chunks : int, optional
        Stop after computing this many chunks (the result is incomplete; the same call
        resumes it when ``out`` is given).
    connect_timeout : float
        Seconds to wait for a Dask scheduler before giving up.

    Returns
    -------
    RunResult

    Raises
    ------
    RunError, BackendError, OutputExistsError
        Before anything is written.
    """
    plan = ChunkPlan(n_games, chunk_size)
    if backend not in ("local", "dask"):
        raise BackendError(f"unknown backend {backend!r}; allowed: local, dask")
    if scheduler and backend != "dask":
        raise BackendError("a scheduler address needs backend='dask'")
    if threads is not None and (int(threads) != threads or threads < 1):
        raise RunError(f"threads must be a positive integer; got {threads!r}")
    if max_chunks is not None and max_chunks < 0:
        raise RunError(f"max_chunks must be >= 0; got {max_chunks}")
    keep = (n_games <= record_limit) if keep_records is None else bool(keep_records)
    from .version import __version__

    # what fixes the stored chunks: resuming with any of it changed would mix two runs
    identity = {"format": FORMAT, "game": adapter.game, "simlib_version": __version__,
                **adapter.identity(),
                "games": int(n_games), "chunk_size": int(chunk_size),
                "stored": "records" if keep else "counts"}
    store = _ChunkStore(out) if out is not None else None
    if store is not None:
        store.check(identity, overwrite)

    if backend == "local":
        be = _LocalBackend(threads, defer=store is None)
    else:
        be = _DaskBackend(scheduler, workers, threads, connect_timeout)
    t0 = time.perf_counter()
    started = utc_now()
    with be:  # connecting may fail: still nothing written
        done: set[int] = set()
        if store is not None:
            store.open(identity)
            done = store.done(plan.n_chunks)
        pending = [i for i in range(plan.n_chunks) if i not in done]
        if max_chunks is not None:
            pending = pending[:max_chunks]
        show = show_progress(progress)
        # a chunk is a unit of storage and progress; with neither, the local backend plays
        # consecutive chunks together (the same games: the same counts and records)
        group = backend == "local" and store is None and not show
        units = _units(plan, pending, GROUP_GAMES if group else 0)
        if show and pending and backend == "local":
            _warm_up(adapter, threads)
        bar = progress_bar(plan.n_games, sum(plan.chunk(i)[1] for i in done),
                            show, adapter.game.replace("_", " "))
        new_chunks: set[int] = set()  # indices only: the counts are summed as they come
        new_records: dict[int, pd.DataFrame | DeferredRecords] = {}
        total = Counts.empty(adapter.spec)
        try:
            for unit, (records, counts) in be.map(adapter, plan, units, keep):
                i = unit[0]
                if store is not None:  # one chunk a unit (_units)
                    store.write(i, records if keep else counts.to_frame())
                total = total + counts
                new_chunks.update(unit)
                if keep:
                    new_records[i] = records
                if bar is not None:
                    bar.update(_span(plan, unit)[1])
        finally:
            if bar is not None:
                bar.close()
        backend_desc = be.description

    # chunks from an earlier, interrupted run
    old_records: dict[int, pd.DataFrame] = {}
    for i in sorted(done):
        df = store.read(i)
        if keep:
            old_records[i] = df
            total = total + adapter.aggregate(df)
        else:
            total = total + Counts.from_frame(adapter.spec, df)
    finished = done | new_chunks
    complete = len(finished) == plan.n_chunks
    records = None
    if keep:
        parts = [new_records.get(i, old_records.get(i)) for i in sorted(finished)]
        parts = [p for p in parts if p is not None]  # a unit's records sit at its first chunk
        records = RecordParts(parts) if parts else None
    import numba

    provenance = {
        **ruleset_provenance(adapter),
        "games": int(n_games),
        "games_done": int(total.games),
        "complete": complete,
        "simlib_version": __version__,
        "numba_version": numba.__version__,
        "python_version": sys.version.split()[0],
        "backend": backend,
        "backend_detail": backend_desc,
        "threads": be.threads,
        "chunk_size": int(chunk_size),
        "chunks": plan.n_chunks,
        "chunks_resumed": len(done),
        "stored": identity["stored"],
        "started": started,
        "finished": utc_now(),
        "elapsed_s": round(time.perf_counter() - t0, 3),
        "out": None if out is None else str(out),
        "command": _command_line(),
    }
    if store is not None and complete:
        meta = {"format": FORMAT, "kind": identity["stored"], "identity": identity,
                "provenance": provenance}
        store.finish((records.frame() if records is not None else None) if keep
                     else total.to_frame(), meta)
    return RunResult(total, records, provenance, complete)


def ruleset_provenance(adapter) -> dict:
    """The adapter's provenance with the ruleset's lineage and its changes from the game's
    reference ruleset (``ruleset_lineage``, ``ruleset_changes``) recorded for every game:
    a game's own values of those keys win (its adapter may know better)."""
    prov = dict(adapter.provenance())
    rules = getattr(adapter, "rules", None)
    if "ruleset_lineage" not in prov and hasattr(rules, "lineage"):
        prov["ruleset_lineage"] = rules.lineage
    if "ruleset_changes" not in prov and hasattr(rules, "changes"):
        prov["ruleset_changes"] = rules.changes()
    return prov


def result_from_output(path: str | Path, spec: TableSpec) -> RunResult:
    """Load an output written by :func:`run` back into a :class:`RunResult` (verified; an
    unfinished run's finished chunks give an incomplete result)."""
    kind, df, meta = read_output(path)
    complete = bool(meta.get("complete", True))
    prov = meta.get("provenance", {})
    if kind == "records":
        counts = count_records(df, spec) if len(df) else Counts.empty(spec)
        return RunResult(counts, df, prov, complete)
    total = Counts.empty(spec)
    o = 0
    for n in meta.get("chunk_rows", [len(df)]):  # an unfinished run: one counts frame per chunk
        if n:
            total = total + Counts.from_frame(spec, df.iloc[o:o + n])
        o += n
    return RunResult(total, None, prov, complete)

"""A fitted player's weights file: ``[params]`` (each ``{ value = ..., source = "..." }``)
and sections of provenance and figures, as every game's distilled player ships them
(``data/<game>/policies/distilled.toml``, written by ``simlib train-policy``).

:func:`write_weights` writes one atomically (a temporary file, then a rename);
:func:`read_weights` reads one back, checking that ``[params]`` holds exactly the names
asked, each a finite number, and that ``[provenance]`` names the ruleset fingerprint the
weights were fitted on; every problem is a ``ValueError`` naming the file.
:func:`ruleset_refusal` is the message a game gives when the weights meet another ruleset.
"""
from __future__ import annotations

import math
import tomllib
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from .params import PolicySpec

__all__ = ["toml_value", "out_path", "write_weights", "read_weights", "ruleset_refusal",
           "DistilledFile"]


def out_path(out: str, force: bool) -> Path:
    """A command's ``--out`` weights file, checked before the work that fills it: a
    ``.toml`` name in an existing folder, not overwritten without ``--force``."""
    path = Path(out)
    if path.suffix != ".toml":
        raise ValueError(f"--out must name a .toml file; got {out!r}")
    if path.exists() and not force:
        raise ValueError(f"{path} exists; add --force to overwrite it")
    if not path.parent.is_dir():
        raise ValueError(f"--out: no such folder {str(path.parent)!r}")
    return path


def toml_value(v) -> str:
    """One TOML value (strings quoted, floats by ``repr``, a non-finite float as ``"nan"``)."""
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(float(v)) if math.isfinite(v) else '"nan"'
    return str(v)


def write_weights(path: str | Path, header: Sequence[str],
                  params: Iterable[tuple[str, float, str]],
                  sections: Sequence[tuple[str, str, Mapping]]) -> Path:
    """Write ``header`` (comment lines, without their ``#``), ``[params]`` (``(name, value,
    source)`` rows, in order) and each ``(name, comment, mapping)`` of ``sections`` (the
    comment, if any, follows the table's header: ``[training]  # teacher games``)."""
    path = Path(path)
    lines = [f"# {h}" for h in header] + ["", "[params]"]
    lines += [f"{k} = {{ value = {float(v)!r}, source = \"{src}\" }}" for k, v, src in params]
    for name, note, body in sections:
        lines += ["", f"[{name}]" + (f"  # {note}" if note else "")]
        lines += [f"{k} = {toml_value(v)}" for k, v in body.items()]
    tmp = path.with_name(path.name + ".tmp")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp.write_text("\n".join(lines) + "\n")
    tmp.replace(path)
    return path


def read_weights(path: str | Path, names: Sequence[str], what: str) -> dict:
    """``{"params": {name: value}, "provenance": {...}, "data": the whole file}`` of a
    weights file whose ``[params]`` must hold exactly ``names``; ``what`` names the weights
    in messages ("the distilled weights")."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"{path}: cannot read {what}: {exc}") from None
    raw = data.get("params", {})
    if not isinstance(raw, dict) or sorted(raw) != sorted(names):
        missing = sorted(set(names) - set(raw)) if isinstance(raw, dict) else list(names)
        extra = sorted(set(raw) - set(names)) if isinstance(raw, dict) else []
        raise ValueError(f"{path}: [params] must hold exactly the {len(names)} names of "
                         f"{what}; missing: {', '.join(missing) or 'none'}; unknown: "
                         f"{', '.join(extra) or 'none'}")
    params = {}
    for k in names:
        v = raw[k].get("value") if isinstance(raw[k], dict) else None
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise ValueError(f"{path}: params.{k}.value must be a finite number; got {v!r}")
        params[k] = float(v)
    prov = data.get("provenance", {})
    fp = prov.get("ruleset_fingerprint") if isinstance(prov, dict) else None
    if not isinstance(fp, str) or not fp:
        raise ValueError(f"{path}: [provenance] must give the ruleset_fingerprint the weights "
                         "were fitted on")
    return {"params": params, "provenance": prov, "data": data}


def ruleset_refusal(policy: str, path, fitted: str, fingerprint: str, game: str) -> str:
    """The message refusing ``policy``'s weights (file ``path``, fitted on the ruleset of
    fingerprint ``fitted``) on the ruleset of ``fingerprint``."""
    return (f"policy {policy!r}: its weights ({path}) were fitted on the ruleset of fingerprint "
            f"{fitted[:12]}..., not this one ({fingerprint[:12]}...): re-fit them with `simlib "
            f"train-policy --game {game}`, or play them anyway with the policy parameter "
            f"any_ruleset=1 (`--policy-param any_ruleset=1`; in a compare of two players, "
            f"`--policy {policy}:any_ruleset=1`)")


class DistilledFile:
    """A game's ``distilled`` policy and its weights file: reading the file
    (:meth:`read`), registering the policy in the game's policy table (:meth:`register`: a
    missing or broken file makes the name an error that says why, :attr:`error`, never a
    failed import) and refusing it on another ruleset than the one the weights were fitted
    on unless its ``any_ruleset`` parameter is 1 (:meth:`check`).

    ``path``: the shipped file (a callable, looked up at each read); ``weights``: the names
    of the file's ``[params]`` (every parameter but ``any_ruleset``, which is 0 unless a
    player sets it); ``spec``: the policy's :class:`~simlib.core.params.PolicySpec` from
    ``{parameter: value}``; ``any_index``: where ``any_ruleset`` sits in a seat's vector."""

    def __init__(self, game: str, policies: dict, path, weights: Sequence[str], spec,
                 any_index: int = 0):
        self.game, self.policies, self.path, self.weights = game, policies, path, tuple(weights)
        self.spec, self.any_index = spec, int(any_index)
        self.error: str | None = None
        self.fingerprint: str | None = None

    @classmethod
    def shipped(cls, game: str, policies: dict, data_dir, names: Sequence[str],
                policy_id: int, doc: str, *, any_index: int = 0,
                extra: tuple[Sequence[str], Sequence[float]] = ((), ())) -> "DistilledFile":
        """The usual file: ``data_dir() / "policies" / "distilled.toml"``, its ``[params]``
        every name of ``names`` but ``any_ruleset``; the policy's parameters ``names`` (then
        ``extra``'s names and values, as a player whose own weights come before another's
        parameters); registered at once (:meth:`register`)."""
        names, (more, more_values) = tuple(names), extra

        def spec(v):
            return PolicySpec("distilled", policy_id, names + tuple(more),
                              tuple(float(v[n]) for n in names) + tuple(more_values), doc)

        f = cls(game, policies, lambda: data_dir() / "policies" / "distilled.toml",
                [n for n in names if n != "any_ruleset"], spec, any_index=any_index)
        f.register()
        return f

    def read(self, path: str | Path | None = None) -> dict:
        """``{"params": {name: value}, "provenance", "training", "check"}`` of a weights file
        (``any_ruleset`` 0); ``ValueError`` naming the file and what is wrong."""
        path = self.path() if path is None else Path(path)
        got = read_weights(path, self.weights, "the distilled weights")
        return {"params": {"any_ruleset": 0.0, **got["params"]}, "provenance": got["provenance"],
                "training": got["data"].get("training", {}), "check": got["data"].get("check", {})}

    def register(self) -> None:
        """Register ``distilled`` from the shipped file (or record why it cannot be)."""
        try:
            data = self.read()
        except ValueError as exc:
            self.policies.pop("distilled", None)
            self.error, self.fingerprint = str(exc), None
            return
        self.policies["distilled"] = self.spec(data["params"])
        self.error, self.fingerprint = None, data["provenance"]["ruleset_fingerprint"]

    def unavailable(self, name: str) -> None:
        """``ValueError`` saying why ``distilled`` is not available (a broken file)."""
        if name == "distilled" and name not in self.policies and self.error is not None:
            raise ValueError(f"policy 'distilled' is not available: {self.error}")

    def check_vector(self, policy: str, vector, rules) -> None:
        """Refuse a ``distilled`` parameter vector on another ruleset than its weights',
        unless its ``any_ruleset`` is 1 (``ValueError`` naming the file and both
        fingerprints)."""
        if policy != "distilled" or self.fingerprint is None:
            return
        if vector[self.any_index] != 1 and rules.fingerprint() != self.fingerprint:
            raise ValueError(ruleset_refusal("distilled", self.path(), self.fingerprint,
                                             rules.fingerprint(), self.game))

    def check(self, seat_list, rules) -> None:
        """:meth:`check_vector` for every seat of ``seat_list``."""
        for seat in seat_list:
            self.check_vector(seat.policy, seat.params, rules)

"""Until the World Ends rulesets: the source-tagged TOML files of ``data/until_the_world_ends``
as a validated, immutable :class:`UntilTheWorldEndsRules`, packed into the kernels' int64 array.

Files and dotted keys:

* ``constants.toml``: ``constants.deal``, ``constants.hand_limit``, ``constants.target``, ...,
  ``constants.colours``, ``constants.disasters`` and ``constants.variants.<name>``;
* ``cards.toml``: one table per distinct card, ``cards.<name>.effect`` (a phrase of the
  effect vocabulary, e.g. ``points(outbreak, 3)``; see :func:`parse_effect`) and
  ``cards.<name>.count``.

A designer's deck replaces the reference (a ruleset folder with its own ``cards.toml``) or
extends it (:func:`combine`: the rules let decks be combined).

>>> rules = load_ruleset()
>>> rules.override({"constants.target": 150}).get("constants.target")
150
>>> rules.n_cards
54
"""
from __future__ import annotations

import re
import tempfile
from pathlib import Path

import numpy as np

from ...core.ruleset import (Field, FileSchema, RulesetError, TaggedRuleset, error, load_tagged, read_toml)
from . import codes as K

__all__ = ["UntilTheWorldEndsRules", "RulesetError", "load_ruleset", "default_ruleset_dir",
           "parse_effect", "combine", "PRESETS"]

SCHEMAS = (
    FileSchema("constants", fields={
        "min_players": Field("int", 1, K.MAX_PLAYERS),
        "max_players": Field("int", 1, K.MAX_PLAYERS),
        "deal": Field("int", 0, 20),
        "hand_limit": Field("int", 1, 20),
        "target": Field("int", 1, 100_000),
        "hoard_size": Field("int", 1, 20),
        "hoard_share": Field("int", 1, 20),
        "turn_cap": Field("int", 1, 100_000),
        "round_cap": Field("int", 1, 1000),
        "colours": Field("names"),
        "disasters": Field("names"),
    }, tables={"variants": {"draw_again_after_instant": Field("bool"),
                            "additive_escalation": Field("bool"),
                            "deal_all": Field("bool")}}),
    FileSchema("cards", entities={
        "effect": Field("str"),
        "count": Field("int", 0, K.MAX_DECK),
    }),
)

_CALL = re.compile(r"^\s*([a-z_]+)\s*\((.*)\)\s*$")
FORMS = ("points(colour, n)", "add_all(n)", "multiply(target, m)", "discard_last(scope)",
         "remove_one(chosen)", "pass_last(direction)", "clear(common type)", "draw_each(n)",
         "end(modifier)")
MODIFIER_FORMS = ("none", "multiply(target, m)", "zero(target)", "bonus_most(colour, n)")


def _split_args(text: str) -> list[str]:
    """Top-level comma split (``end(multiply(personal, 2))`` keeps its inner call whole)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _int(s: str) -> int:
    if not re.fullmatch(r"[+-]?\d+", s):
        raise ValueError(f"{s!r} is not an integer")
    return int(s)


def parse_effect(text: str, colours, disasters) -> dict:
    """A card's effect phrase as the kernels' row: ``{kind, mask, value, effect, arg}``.

    ``ValueError`` names the allowed forms.
    >>> parse_effect("multiply(disaster, 2)", ("a", "b", "c"), ("a", "b"))["mask"]
    3
    """
    colours, disasters = tuple(colours), tuple(disasters)

    def target_mask(t: str, allow_words: bool = True) -> int:
        if t in colours:
            return 1 << colours.index(t)
        if allow_words and t == "disaster":
            return sum(1 << colours.index(d) for d in disasters)
        if allow_words and t == "every":
            return (1 << len(colours)) - 1
        allowed = colours + (("disaster", "every") if allow_words else ())
        raise ValueError(f"unknown target {t!r}; allowed: {', '.join(allowed)}")

    m = _CALL.match(text)
    if not m:
        raise ValueError(f"cannot read {text!r}; allowed forms: {'; '.join(FORMS)}")
    word, args = m.group(1), _split_args(m.group(2))
    if word not in K.EFFECT_WORDS:
        raise ValueError(f"unknown effect {word!r}; allowed forms: {'; '.join(FORMS)}")
    want = {"points": 2, "multiply": 2}.get(word, 1)
    if len(args) != want:
        raise ValueError(f"{word} takes {want} argument(s); got {len(args)} in {text!r}")
    row = {"kind": 0, "mask": 0, "value": 0, "effect": 0, "arg": 0}
    if word == "points":
        row.update(kind=K.KIND_EVENT, mask=target_mask(args[0], False), value=_int(args[1]))
    elif word == "add_all":
        row.update(kind=K.KIND_GOOD, value=_int(args[0]))
    elif word == "multiply":
        m_ = _int(args[1])
        if m_ < 0:
            raise ValueError(f"a multiplier must be >= 0; got {m_}")
        row.update(kind=K.KIND_ESCALATION, mask=target_mask(args[0]), value=m_)
    elif word == "end":
        row["kind"] = K.KIND_ENDING
        mod = args[0]
        if mod == "none":
            row["effect"] = K.MOD_NONE
        else:
            mm = _CALL.match(mod)
            if not mm or mm.group(1) not in K.MODIFIERS[1:]:
                raise ValueError(f"unknown ending modifier {mod!r}; allowed: {', '.join(MODIFIER_FORMS)}")
            mw, margs = mm.group(1), _split_args(mm.group(2))
            need = 1 if mw == "zero" else 2
            if len(margs) != need:
                raise ValueError(f"{mw} takes {need} argument(s); got {len(margs)} in {mod!r}")
            row["effect"] = K.MODIFIERS.index(mw)
            row["mask"] = target_mask(margs[0], mw != "bonus_most")
            row["value"] = _int(margs[1]) if need == 2 else 0
    else:
        row["kind"] = K.KIND_INSTANT
        row["effect"] = K.INSTANTS.index(word)
        a = args[0]
        vocab = {"discard_last": K.SCOPES, "remove_one": K.CHOSEN, "pass_last": K.DIRECTIONS,
                 "clear": K.COMMON_TYPES}.get(word)
        if vocab is None:  # draw_each(n)
            n = _int(a)
            if not 1 <= n <= 20:
                raise ValueError(f"draw_each(n) needs 1 <= n <= 20; got {n}")
            row["arg"] = n
        else:
            if a not in vocab:
                raise ValueError(f"{word}: unknown argument {a!r}; allowed: {', '.join(vocab)}")
            row["arg"] = vocab.index(a)
    return row


class UntilTheWorldEndsRules(TaggedRuleset):
    """A validated Until the World Ends ruleset (immutable; ``override`` returns a new one)."""

    SCHEMAS = SCHEMAS
    SOURCES = ("rulebook", "inferred", "publisher", "assumed")
    GAME = "Until the World Ends"
    DATA_FOLDER = "until_the_world_ends"

    @property
    def card_names(self) -> tuple[str, ...]:
        return self.names("cards")

    @property
    def colours(self) -> tuple[str, ...]:
        return tuple(self.get("constants.colours"))

    def card_rows(self) -> list[dict]:
        """Each distinct card's kernel row (``parse_effect``) with its name and count."""
        if "rows" not in self._cache:
            cols, dis = self.colours, tuple(self.get("constants.disasters"))
            out = []
            for name in self.card_names:
                row = parse_effect(self.get(f"cards.{name}.effect"), cols, dis)
                row.update(name=name, count=self.get(f"cards.{name}.count"))
                out.append(row)
            self._cache["rows"] = out
        return self._cache["rows"]

    @property
    def n_cards(self) -> int:
        return sum(self.get(f"cards.{n}.count") for n in self.card_names)

    def _validate(self) -> None:
        cfile, dfile = self.file_of("constants"), self.file_of("cards")
        lo, hi = self.get("constants.min_players"), self.get("constants.max_players")
        if lo > hi:
            raise error(cfile, "constants.min_players", f"{lo} is above max_players {hi}")
        cols = self.colours
        if len(cols) > K.MAX_COLOURS:
            raise error(cfile, "constants.colours", f"at most {K.MAX_COLOURS} colours (layout bound); "
                        f"got {len(cols)}")
        for d in self.get("constants.disasters"):
            if d not in cols:
                raise error(cfile, "constants.disasters", f"unknown colour {d!r}", cols)
        cols_, dis = cols, tuple(self.get("constants.disasters"))
        for name in self.card_names:
            try:
                parse_effect(self.get(f"cards.{name}.effect"), cols_, dis)
            except ValueError as exc:
                raise error(dfile, f"cards.{name}.effect", str(exc)) from None
        n = self.n_cards
        if n > K.MAX_DECK:
            raise error(dfile, "cards", f"at most {K.MAX_DECK} cards (layout bound); got {n}")
        # the smallest table must be dealable; a larger one is bounded by the deck in
        # max_players() (a tweak of the deal or the deck may shrink the largest table)
        need = lo * self.get("constants.deal") + 1
        if n < need:
            raise error(dfile, "cards", f"{lo} players dealt {self.get('constants.deal')} each need "
                        f"at least {need} cards; got {n}")
        # a hoard: every player picks one of the hoard_size endings shown, each ending taken
        # by ceil(players / hoard_share) of them, so the endings must go round the table
        size, share = self.get("constants.hoard_size"), self.get("constants.hoard_share")
        short = [p for p in range(lo, self.max_players() + 1) if size * -(-p // share) < p]
        if short:
            p = short[0]
            raise error(cfile, "constants.hoard_size",
                        f"{size} endings, each picked by ceil({p} / hoard_share {share}) = "
                        f"{-(-p // share)} player(s), leave a player of a table of {p} with no ending to "
                        f"pick in a hoard; raise hoard_size, lower hoard_share, or set max_players "
                        f"below {p}")

    def flat(self) -> np.ndarray:
        """The ruleset as the kernels' int64 array (layout ``codes.RULES``; read-only, cached)."""
        if "flat" in self._cache:
            return self._cache["flat"]
        r = np.zeros(K.R_SIZE, dtype=np.int64)
        p = r[K.R_PARAMS:K.R_PARAMS + K.N_PARAMS]
        c = "constants."
        p[K.P_MIN_PLAYERS] = self.get(c + "min_players")
        p[K.P_MAX_PLAYERS] = self.get(c + "max_players")
        p[K.P_DEAL] = self.get(c + "deal")
        p[K.P_HAND_LIMIT] = self.get(c + "hand_limit")
        p[K.P_TARGET] = self.get(c + "target")
        p[K.P_HOARD_SIZE] = self.get(c + "hoard_size")
        p[K.P_HOARD_SHARE] = self.get(c + "hoard_share")
        p[K.P_TURN_CAP] = self.get(c + "turn_cap")
        p[K.P_ROUND_CAP] = self.get(c + "round_cap")
        cols = self.colours
        p[K.P_N_COLOURS] = len(cols)
        p[K.P_DISASTER_MASK] = sum(1 << cols.index(d) for d in self.get(c + "disasters"))
        p[K.P_DRAW_AGAIN] = int(self.get(c + "variants.draw_again_after_instant"))
        p[K.P_ADDITIVE] = int(self.get(c + "variants.additive_escalation"))
        p[K.P_DEAL_ALL] = int(self.get(c + "variants.deal_all"))
        cards = r[K.R_CARDS:K.R_CARDS + K.MAX_DECK * K.CC_N].reshape(K.MAX_DECK, K.CC_N)
        i = 0
        for e, row in enumerate(self.card_rows()):
            for _ in range(row["count"]):
                cards[i] = (row["kind"], row["mask"], row["value"], row["effect"], row["arg"], e)
                i += 1
        p[K.P_N_CARDS] = i
        r.setflags(write=False)
        self._cache["flat"] = r
        return r

    def min_players(self) -> int:
        return int(self.get("constants.min_players"))

    def max_players(self) -> int:
        """The largest table: ``constants.max_players``, or fewer when the deck cannot deal
        ``constants.deal`` cards to that many players with a card left to draw."""
        hi = int(self.get("constants.max_players"))
        deal = int(self.get("constants.deal"))
        return min(hi, (self.n_cards - 1) // deal) if deal > 0 else hi

    def kind_counts(self) -> dict[str, int]:
        """Cards of each kind in the deck (``event``, ``good``, ...)."""
        out = {k: 0 for k in K.CARD_KINDS}
        for row in self.card_rows():
            out[K.CARD_KINDS[row["kind"]]] += row["count"]
        return out


def default_ruleset_dir() -> Path:
    """The reference ruleset shipped with simlib (package ``simlib._data``, or <repo>/data)."""
    return UntilTheWorldEndsRules.shipped_dir()


PRESETS = ("reference",)
DEFAULT_RULESET = "reference"  # what ruleset=None means everywhere


def load_ruleset(spec=None) -> UntilTheWorldEndsRules:
    """The ruleset ``spec`` names: ``None`` or ``"reference"`` (the declared default, the
    reference ruleset: the game's one preset), a ruleset folder (a designer's whole deck),
    a ``.toml`` tweak over the ruleset its ``base = "..."`` names (default the reference;
    ``[constants] target = 150``, ``[cards.the_end] count = 5``), ``"reference+tweak.toml"``,
    or an :class:`UntilTheWorldEndsRules` (itself)."""
    return UntilTheWorldEndsRules.load(spec)


def combine(rules: UntilTheWorldEndsRules, deck: str | Path) -> UntilTheWorldEndsRules:
    """``rules`` with the cards of another deck file (a ``cards.toml``) added: combined decks.

    A card name already in ``rules`` adds its count to that card when the effects agree;
    with a different effect it is an error naming the file and the key.
    """
    deck = Path(deck)
    doc = read_toml(deck)
    base = {n: (rules.get(f"cards.{n}.effect"), rules.get(f"cards.{n}.count")) for n in rules.card_names}
    changes, added = {}, []
    for name, node in doc.items():
        if not isinstance(node, dict) or "effect" not in node or "count" not in node:
            raise error(str(deck), f"cards.{name}", "expected a table with effect and count")
        eff = node["effect"]["value"] if isinstance(node["effect"], dict) else node["effect"]
        cnt = node["count"]["value"] if isinstance(node["count"], dict) else node["count"]
        if name in base:
            if base[name][0] != eff:
                raise error(str(deck), f"cards.{name}.effect", f"{eff!r} differs from the base deck's "
                            f"{base[name][0]!r}; give the card another name")
            changes[f"cards.{name}.count"] = base[name][1] + cnt
        else:
            added.append((name, node))
    with tempfile.TemporaryDirectory() as tmp:
        out = rules.override(changes, file=str(deck)).to_toml_dir(tmp)
        text = (Path(out) / "cards.toml").read_text()
        for name, node in added:
            text += f"\n[{name}]\n"
            for k in ("effect", "count"):
                v = node[k]
                if not isinstance(v, dict):
                    v = {"value": v, "source": "assumed"}
                val = f'"{v["value"]}"' if isinstance(v["value"], str) else str(v["value"])
                text += f'{k} = {{ value = {val}, source = "{v.get("source", "assumed")}" }}\n'
        (Path(out) / "cards.toml").write_text(text)
        return load_tagged(out, UntilTheWorldEndsRules)

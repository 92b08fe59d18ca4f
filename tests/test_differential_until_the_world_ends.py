"""Until the World Ends: the numba kernels against the reference engine written apart from
them (``tests/reference/until_the_world_ends.py``), decision by decision (issue #40).

Seeded games are driven through both engines with the same actions (the kernel policies'
choices) and the same chance outcomes (the step Game's ``chance_events()``: each round's
deck order and each redeal's order, fed to the reference card by card as its ``deal``,
``redeal`` and ``draw`` draws).  After every decision the legal actions and the whole
observation agree; at the end the records agree field by field and no scripted outcome is
left unused.
At every decision the kernel's own single-action check (``apply_action_nb``) also refuses
the codes next to a legal one (``Driver.check_refusals``): it is code apart from the legal list.

Compared observation keys: all the reference's (``seat``, ``phase``, ``round``, ``dealer``,
``turn``, ``totals``, ``timelines``, ``common``, ``discards``, ``pile_size``,
``hand_sizes``, ``hand``, ``marked``, ``pending_ending``, ``ender``, ``hoard``), each read
from the kernel's state.  Compared record fields: the reference's per-round record
(``round_causes``, ``round_scores``, ``round_enders``, ``round_endings``, ``hoard_picks``,
``round_turns``) against the kernel's trace log, and the kernel's record row (totals, wins,
winners, rounds, end cause, round causes counted, challenges, endings played, rounds won,
rounds ended, challenges by seat, the ender's top and gain, the points' sum, turns) against
what the reference's record and the actions give.

Forms that differ by design, mapped here and nowhere looser:
- a player who can neither draw nor play passes: the kernel asks it (one legal action,
  ``pass``), the reference takes it by itself; the driver applies the kernel's pass alone
  (and counts it among the kernel's ``decisions``).
- a challenge: the kernel's one ``challenge`` action plays the challenger's first marked
  ending, else his first ending in hand; the reference offers one ``("challenge", name)``
  per distinct ending (reading 1).  The legal sets are compared with the challenge's card
  left out, and the kernel's card must be one the reference offers; the reference then
  plays the kernel's card.  Likewise a player holding several marked (drawn) endings:
  the kernel offers the first drawn, the reference each; both must offer marked endings
  only, and the kernel's must be among the reference's.  (Open rule questions: the docs
  do not say which ending a challenger gives up, nor which marked ending goes first.)
- a hoard: the kernel lays the hoarders' endings on the table, the reference leaves them
  in the face-up hands; in the pick phase the hands are compared without endings (the
  shown endings and their room are compared in ``hoard``).
- turns: the reference counts a round's last turn when the round ends inside it (an
  ending stands, a hoard on a draw) or on the pass completing the cycle; the kernel's
  count moves when a turn is over and play goes on.  The kernel's per-round count plus
  that last turn must equal the reference's.

``SIMLIB_DIFF_GAMES=<n>`` multiplies the number of games (a long run).
"""
from __future__ import annotations

import os
from collections import Counter

import numpy as np
import pytest

from simlib.games.until_the_world_ends import codes as K
from simlib.games.until_the_world_ends.api import card_name
from simlib.games.until_the_world_ends.kernels import engine_nb as E
from simlib.games.until_the_world_ends.step import Game
from simlib.games.until_the_world_ends.ruleset import load_ruleset
from tests.reference.chance import ChanceMismatch, ScriptedChance
from tests.reference.until_the_world_ends import Reference

SCALE = max(1, int(os.environ.get("SIMLIB_DIFF_GAMES", "1")))
PHASES = {K.PH_TURN: "turn", K.PH_SNIPE: "snipe", K.PH_CHALLENGE: "challenge", K.PH_PICK: "hoard"}


class Mismatch(AssertionError):
    pass


# --------------------------------------------------------------------------- adapter
class Driver:
    """One game in both engines: the kernel's step Game with its trace log, the reference
    fed by a ScriptedChance from the kernel's chance events."""

    def __init__(self, seed: int, game: int, players: int, rules, policy: str):
        self.rules = rules
        self.ctx = dict(seed=seed, game=game, players=players, policy=policy)
        self.g = Game(seed=seed, game=game, players=players, ruleset=rules,
                      seats=[policy] * players, trace=True)
        self.n = players
        flat = rules.flat()
        self.deal = int(flat[K.R_PARAMS + K.P_DEAL])
        self.deal_all = bool(flat[K.R_PARAMS + K.P_DEAL_ALL])
        self.chance = ScriptedChance()
        self._log_pos = 0
        self._ev_pos = 0
        self._order: tuple = ()
        self._ptr = 0
        self.history: list[str] = []
        self.decision = 0
        # per round, from the kernel: turns done (S_TURNS at the round's start), whether a
        # hoard began inside a turn (the turn never reached its end)
        self._round_turns0 = 0
        self._hoard_mid_turn = False
        self.k_round_turns: list[int] = []
        self.k_unfinished: list[bool] = []
        self.challenges_by_seat = [0] * players
        self.passes = 0
        self._mid_turn = False
        self.swap_next_draw = False  # a test of the test: feed the reference a wrong card once
        self._feed()
        self.ref = Reference({k: rules.get(k) for k in rules.keys()}, {"players": players}, self.chance)
        self.ref_endings = {c for c in rules.card_names
                            if rules.get(f"cards.{c}.effect").startswith("end")}

    # ----------------------------------------------------------------- words
    def name(self, c: int) -> str:
        return card_name(self.rules, int(c))

    def _seat_cards(self, part: int, count: int, s: int) -> list[int]:
        st = self.g.state
        return [int(c) for c in st[part + s * K.SEAT_W:part + s * K.SEAT_W + st[count + s * K.SEAT_W]]]

    def challenge_card(self, s: int) -> int:
        """The card the kernel's challenge plays: the first marked ending, else the first
        ending in hand (``apply_action_nb``)."""
        st = self.g.state
        hand = self._seat_cards(K.S_HAND, K.S_S_HAND_N, s)
        marks = [int(st[K.S_MARKED + s * K.SEAT_W + i]) for i in range(len(hand))]
        for c, m in zip(hand, marks):
            if m:
                return c
        flat = self.g._flat
        return next(c for c in hand if flat[K.R_CARDS + c * K.CC_N + K.CC_KIND] == K.KIND_ENDING)

    def action(self, code: int) -> tuple:
        """A kernel action code as the reference's action tuple (at the current state)."""
        st = self.g.state
        s = int(st[K.S_DECIDER])
        if code == K.A_DRAW:
            return ("draw",)
        if code == K.A_PASS:
            return ("pass",)
        if code == K.A_CHALLENGE:
            return ("challenge", self.name(self.challenge_card(s)))
        if code == K.A_DECLINE:
            return ("no_challenge",)
        if K.A_PLAY <= code < K.A_PICK:
            return ("play", self.name(st[K.S_HAND + s * K.SEAT_W + code - K.A_PLAY]))
        if K.A_PICK <= code < K.A_SNIPE:
            return ("pick", self.name(st[K.S_SHOWN + code - K.A_PICK]))
        t, pos = divmod(code - K.A_SNIPE, K.MAX_DECK)
        return ("snipe", t, pos)

    def observation(self) -> dict:
        """The kernel's state in the reference's observation keys."""
        st = self.g.state
        n = self.n
        ph = int(st[K.S_PHASE])
        s = int(st[K.S_DECIDER])
        hand = self._seat_cards(K.S_HAND, K.S_S_HAND_N, s)
        marked = [c for i, c in enumerate(hand) if st[K.S_MARKED + s * K.SEAT_W + i]]
        hoard = None
        if ph == K.PH_PICK:
            hoard = Counter()
            for i in range(int(st[K.S_N_SHOWN])):
                hoard[self.name(st[K.S_SHOWN + i])] += int(st[K.S_SHOWN_LEFT + i])
            hoard = dict(hoard)
        return {
            "seat": s,
            "phase": PHASES[ph],
            "round": int(st[K.S_ROUND]),
            "dealer": int(st[K.S_DEALER]),
            "turn": int(st[K.S_ROUND_TURNS]),
            "totals": [int(st[K.S_S_TOTAL + p * K.SEAT_W]) for p in range(n)],
            "timelines": [[self.name(c) for c in self._seat_cards(K.S_TL, K.S_S_TL_N, p)] for p in range(n)],
            "common": [self.name(c) for c in st[K.S_COMMON:K.S_COMMON + st[K.S_N_COMMON]]],
            "discards": sorted(self.name(c) for c in st[K.S_DISCARD:K.S_DISCARD + st[K.S_N_DISCARD]]),
            "pile_size": int(st[K.S_N_PILE]),
            "hand_sizes": [int(st[K.S_S_HAND_N + p * K.SEAT_W]) for p in range(n)],
            "hand": sorted(self.name(c) for c in hand),
            "marked": sorted(self.name(c) for c in marked),
            "pending_ending": self.name(st[K.S_END_CARD]) if ph == K.PH_CHALLENGE else None,
            "ender": int(st[K.S_ENDER]) if ph == K.PH_CHALLENGE else None,
            "hoard": hoard,
        }

    # ----------------------------------------------------------------- chance
    def _feed(self) -> None:
        """Queues the chance outcomes of the kernel's newest log rows for the reference:
        a round's deal and a redeal from the chance events, each draw as the next card of
        the last shuffle (checked against the card the log names)."""
        g = self.g
        events = g.chance_events()
        rows = g.log[1:1 + g.log[0, 0]]
        assert g.log[0, 0] < g.log.shape[0] - 1, "the trace log is full"
        for row in rows[self._log_pos:]:
            kind = int(row[0])
            if kind == K.LG_ROUND:
                ev = events[self._ev_pos]
                self._ev_pos += 1
                assert ev[0] == "deal"
                self._order, self._ptr = ev[1], self.deal * self.n
                for c in ev[1][:self._ptr]:
                    self.chance.push("deal", self.name(c))
            elif kind == K.LG_REDEAL:
                ev = events[self._ev_pos]
                self._ev_pos += 1
                assert ev[0] == "redeal"
                d = len(ev[1])
                self._order, self._ptr = ev[1], d if self.deal_all else (d // self.n) * self.n
                for c in ev[1][:self._ptr]:
                    self.chance.push("redeal", self.name(c))
            elif kind == K.LG_DRAW:
                c = self._order[self._ptr]
                self._ptr += 1
                assert c == int(row[3]), "a draw that is not the next card of the last shuffle"
                if self.swap_next_draw and self._ptr < len(self._order):
                    self.swap_next_draw = False
                    c = self._order[self._ptr]  # still in the pile: a legal but wrong outcome
                self.chance.push("draw", self.name(c))
            elif kind == K.LG_ROUND_END:
                turns = int(g.state[K.S_TURNS])
                self.k_round_turns.append(turns - self._round_turns0)
                self._round_turns0 = turns
                cause = int(row[3])
                self.k_unfinished.append(cause in (K.RC_ENDING, K.RC_EXHAUSTED)
                                         or (cause == K.RC_HOARD and self._hoard_mid_turn))
            elif kind == K.LG_HOARD:
                self._hoard_mid_turn = self._mid_turn
        self._log_pos = len(rows)
        assert self._ev_pos == len(events), "a chance event with no shuffle in the log"

    # ----------------------------------------------------------------- driving
    def fail(self, what: str, **fields) -> None:
        lines = [f"{what}: seed {self.ctx['seed']}, game {self.ctx['game']}, "
                 f"{self.ctx['players']} players, policy {self.ctx['policy']}, decision {self.decision}",
                 "last actions: " + "; ".join(self.history[-8:])]
        lines += [f"  {k}: {v}" for k, v in fields.items()]
        raise Mismatch("\n".join(lines))

    def _kernel_apply(self, code: int, action: tuple) -> None:
        st = self.g.state
        seat, turns0, round0 = int(st[K.S_DECIDER]), int(st[K.S_TURNS]), int(st[K.S_ROUND])
        self.history.append(f"seat {seat} {action}")
        self.passes += action[0] == "pass"
        if action[0] == "challenge":
            self.challenges_by_seat[seat] += 1
        self.g.apply_code(code)
        # a hoard this action began is inside a turn unless the turn ended first (a
        # redeal's hoard: the turn count moved) or a new round's deal made it
        self._mid_turn = int(st[K.S_TURNS]) == turns0 and int(st[K.S_ROUND]) == round0
        self._feed()

    def step(self) -> bool:
        """One decision in both engines; False once the game is over."""
        g = self.g
        while not g.over and g.legal_codes() == [K.A_PASS]:
            self._kernel_apply(K.A_PASS, ("pass",))
        if g.over:
            return False
        self.decision += 1
        ko, ro = self.observation(), self.ref.observation()
        ro = dict(ro, hand=sorted(ro["hand"]), marked=sorted(ro["marked"]), discards=sorted(ro["discards"]))
        if ko["phase"] == "hoard":
            # the hoarders' endings: the kernel moves them to the table (its hoard), the
            # reference leaves them in the hands laid face up; both show them in "hoard"
            endings = self.ref_endings
            ko = dict(ko, hand=[c for c in ko["hand"] if c not in endings], hand_sizes=None, marked=[])
            ro = dict(ro, hand=[c for c in ro["hand"] if c not in endings], hand_sizes=None, marked=[])
        diff = {k: f"kernel {ko[k]!r} / reference {ro.get(k)!r}" for k in ko if ko[k] != ro.get(k)}
        if diff:
            self.fail("observations differ", **diff)
        codes = g.legal_codes()
        kacts = [self.action(c) for c in codes]
        racts = self.ref.legal_actions()
        kset, rset = set(map(_uncard, kacts)), set(map(_uncard, racts))
        if ko["phase"] == "turn" and ko["marked"]:
            # the kernel plays the first drawn of several marked endings, the reference lets
            # the player choose among them: both must offer marked endings only
            kset = {("play_marked",) if a[0] == "play" and a[1] in ko["marked"] else a for a in kset}
            rset = {("play_marked",) if a[0] == "play" and a[1] in ro["marked"] else a for a in rset}
        if kset != rset or len(set(kacts)) != len(kacts):
            self.fail("legal actions differ", kernel=sorted(kacts), reference=sorted(racts))
        self.check_refusals(codes)
        i = g.policy_choice()
        code, act = codes[i], kacts[i]
        if act not in racts:
            self.fail("the kernel's choice (its challenge card, its marked ending) is not offered by the reference",
                      kernel=act, reference=sorted(racts))
        self._kernel_apply(code, act)
        self.ref.apply(act)
        return not g.over

    def check_refusals(self, codes: list[int]) -> None:
        """The kernel's single-action check (``apply_action_nb``'s, ``legal_scan_nb``) is
        code apart from its legal list: the codes next to a legal one (one past a hand, a
        timeline, the shown endings) and the fixed actions' codes, when not listed, must be
        refused by the kernel itself (the step Game checks the list first), nothing changed."""
        st, legal = self.g.state, set(codes)
        flat, nolog = self.rules.flat(), np.zeros((1, K.LOG_W), dtype=np.int64)
        near = {c + d for c in codes for d in (-1, 1)} | set(range(K.A_PLAY))
        # the legal list offers one play per distinct card; another copy of a listed card
        # is the same action (the kernel accepts it), so it is not a refusal to check
        hand = K.S_HAND + int(st[K.S_DECIDER]) * K.SEAT_W

        def entry(c: int) -> tuple[int, int] | None:
            """The card a play or pick code names (copies of a card are one move, listed once)."""
            if K.A_PLAY <= c < K.A_PLAY + st[K.S_S_HAND_N + hand - K.S_HAND]:
                return 0, int(E.card_nb(flat, st[hand + c - K.A_PLAY], K.CC_ENTRY))
            if K.A_PICK <= c < K.A_PICK + st[K.S_N_SHOWN] and st[K.S_SHOWN_LEFT + c - K.A_PICK] > 0:
                return 1, int(E.card_nb(flat, st[K.S_SHOWN + c - K.A_PICK], K.CC_ENTRY))
            return None

        listed = {entry(c) for c in codes} - {None}
        for c in sorted(near - legal):
            if not 0 <= c < K.N_ACTION_CODES or entry(c) in listed:
                continue
            tried = st.copy()
            if E.apply_action_nb(tried, flat, np.int64(c), nolog):
                self.fail("the kernel applies an action it does not list as legal", code=c,
                          legal=sorted(codes))
            if not np.array_equal(tried, st):
                self.fail("a refused action changed the state", code=c)

    def run(self) -> None:
        while self.step():
            pass
        if not self.ref.is_over():
            self.fail("the kernel's game is over, the reference's is not",
                      reference=self.ref.observation())
        left = self.chance.left()
        if left:
            self.fail("scripted chance outcomes left unused", left=left)
        self.compare_records()

    # ----------------------------------------------------------------- records
    def kernel_rounds(self) -> dict:
        """The kernel's trace log in the reference's per-round record keys."""
        out = {"round_causes": [], "round_scores": [], "round_enders": [], "round_endings": [],
               "hoard_picks": []}
        scores, picks = [], [None] * self.n
        for row in self.g.log_rows():
            kind = int(row[0])
            if kind == K.LG_SCORE:
                scores.append(int(row[3]))
            elif kind == K.LG_PICK:
                picks[int(row[2])] = self.name(row[3])
            elif kind == K.LG_ROUND_END:
                cause = int(row[3])
                out["round_causes"].append(K.ROUND_CAUSES[cause])
                out["round_scores"].append(scores)
                out["round_enders"].append(int(row[2]) if cause == K.RC_ENDING else None)
                out["round_endings"].append(self.name(row[4]) if cause == K.RC_ENDING else None)
                out["hoard_picks"].append(picks if cause == K.RC_HOARD else None)
                scores, picks = [], [None] * self.n
        # the reference counts a round's last turn when the round ends inside it (an
        # ending stands, a hoard on a draw) or on the pass that completes the cycle; the
        # kernel's turn count moves only when a turn is over and play goes on
        out["round_turns"] = [t + u for t, u in zip(self.k_round_turns, self.k_unfinished)]
        return out

    def log_events(self) -> list[tuple]:
        """Every row of the kernel's game log as the reference's ``history`` entries; the
        fields a row kind leaves unused must be 0."""
        name = self.name
        used = {K.LG_ROUND: 1, K.LG_DRAW: 2, K.LG_PLAY: 1, K.LG_INSTANT: 2, K.LG_SNIPE: 2,
                K.LG_CHALLENGE: 3, K.LG_ROUND_END: 3, K.LG_REDEAL: 2, K.LG_PASS: 0,
                K.LG_HOARD: 3, K.LG_PICK: 1, K.LG_SCORE: 3, K.LG_GAME_END: 1}
        out, first_hoarder = [], None
        for row in self.g.log_rows():
            kind, rnd, s, a, b, c, d = (int(x) for x in row)
            if any(row[3 + used[kind]:]):
                self.fail("a log row's unused fields are not 0", row=[int(x) for x in row])
            if kind == K.LG_ROUND:
                out.append(("round", rnd, s, a))
            elif kind == K.LG_DRAW:
                out.append(("draw", rnd, s, name(a), {0: False, 1: True}.get(b, b)))
            elif kind == K.LG_PLAY:
                out.append(("play", rnd, s, name(a)))
            elif kind == K.LG_INSTANT:
                out.append(("instant", rnd, s, name(a), {0: False, 1: True}.get(b, b)))
            elif kind == K.LG_SNIPE:
                out.append(("snipe", rnd, s, a, name(b)))
            elif kind == K.LG_CHALLENGE:
                out.append(("challenge", rnd, s, a, name(b), name(c)))
            elif kind == K.LG_PASS:
                out.append(("pass", rnd, s))
            elif kind == K.LG_REDEAL:
                out.append(("redeal", rnd, s if s >= 0 else None, a, b))
            elif kind == K.LG_HOARD:
                first_hoarder = s
                # the row counts the shown endings; which they are is compared in "hoard"
                out.append(("hoard", rnd, s, a, b, c))
            elif kind == K.LG_PICK:
                out.append(("pick", rnd, s, name(a)))
            elif kind == K.LG_SCORE:
                out.append(("score", rnd, s, a, b, name(c) if c >= 0 else None))
            elif kind == K.LG_ROUND_END:
                # the seat is the ender for an ending, the first hoarder for a hoard, none
                # (-1) for a cycle of passes or the turn cap; the reference names an ender
                # for endings only
                want = first_hoarder if a == K.RC_HOARD else s if a == K.RC_ENDING else -1
                if s != want:
                    self.fail("a round end's seat", row=[int(x) for x in row], expected=want)
                out.append(("round_end", rnd, K.ROUND_CAUSES[a], s if a == K.RC_ENDING else None,
                            name(b) if b >= 0 else None, c))
            elif kind == K.LG_GAME_END:
                out.append(("game_end", rnd, K.END_NAMES[a] if s == -1 else ("seat", s)))
            else:
                self.fail("an unknown log row kind", row=[int(x) for x in row])
        return out

    def reference_events(self) -> list[tuple]:
        """The reference's history in the kernel's log terms: a hoard's shown endings as
        their count."""
        return [e[:4] + (sum(e[4].values()), e[5]) if e[0] == "hoard" else e for e in self.ref.history]

    def compare_log(self) -> None:
        got, want = self.log_events(), self.reference_events()
        for i, (k, r) in enumerate(zip(got, want)):
            if k != r:
                self.fail("game log and reference history differ", at=i, kernel=k, reference=r,
                          kernel_before=got[max(0, i - 4):i], reference_before=want[max(0, i - 4):i])
        if len(got) != len(want):
            self.fail("game log and reference history differ in length",
                      kernel=got[len(want):][:6], reference=want[len(got):][:6])

    def compare_records(self) -> None:
        self.compare_log()
        r = self.ref.record()
        # the kernel's record row by column name (the DataFrame form costs a second a game)
        k = dict(zip(K.record_names(K.record_seats(self.n)), (int(v) for v in self.g.record_array())))
        k["end_cause"] = K.END_NAMES[k["end_cause"]]
        n = self.n
        diff = {}
        kr = self.kernel_rounds()
        for key, val in kr.items():
            if r[key] != val:
                diff[key] = f"kernel {val!r} / reference {r[key]!r}"
        causes = Counter(r["round_causes"])
        scores = r["round_scores"]
        enders = r["round_enders"]
        expect = {
            "players": n, "rounds": r["rounds"], "end_cause": r["end_cause"],
            "winners": len(r["winners"]), "top_total": max(r["totals"]),
            "ends_ending": causes["ending"], "ends_hoard": causes["hoard"],
            "ends_exhausted": causes["exhausted"], "ends_cap": causes["turn_cap"],
            "challenges": r["endings_challenged"], "plays_ending": r["endings_played"],
            "ender_top": sum(1 for sc, e in zip(scores, enders) if e is not None and sc[e] == max(sc)),
            "ender_gain": sum(sc[e] - max(x for p, x in enumerate(sc) if p != e)
                              for sc, e in zip(scores, enders) if e is not None),
            "turns": r["turns"] - sum(self.k_unfinished),
            "redeals": r["redeals"],
            # the kernel counts its asked passes as decisions; the reference passes by itself
            "decisions": r["decisions"] + self.passes,
        }
        for kind in K.CARD_KINDS:
            expect[f"plays_{kind}"] = r["plays"].get(kind, 0)
        for op in K.INSTANTS:
            expect[f"plays_{op}"] = r["effects"].get(op, 0)
        pts = k["pts_escalation"] + k["pts_good"] + k["pts_ending"] + sum(
            k[f"pts_colour_{i}"] for i in range(len(self.rules.colours)))
        if pts != sum(map(sum, scores)):
            diff["points (kernel pts_* sum / reference round scores sum)"] = f"{pts} / {sum(map(sum, scores))}"
        for s in range(n):
            expect[f"total_{s}"] = r["totals"][s]
            expect[f"win_{s}"] = int(s in r["winners"])
            expect[f"rounds_won_{s}"] = sum(1 for sc in scores if sc[s] == max(sc))
            expect[f"ended_{s}"] = sum(1 for e in enders if e == s)
            expect[f"challenged_{s}"] = self.challenges_by_seat[s]
        for key, val in expect.items():
            if k[key] != val:
                diff[key] = f"kernel {k[key]!r} / reference {val!r}"
        if diff:
            self.fail("records differ", **diff)


def _uncard(a: tuple) -> tuple:
    """A challenge without its card (the kernel decides it; see the module docstring)."""
    return ("challenge",) if a[0] == "challenge" else a


def run_games(seed: int, games: range, players: int, policy: str, rules=None) -> int:
    rules = load_ruleset() if rules is None else rules
    decisions = 0
    for gi in games:
        d = Driver(seed, gi, players, rules, policy)
        d.run()
        decisions += d.decision
    return decisions


# --------------------------------------------------------------------------- tests
RULES = load_ruleset()
# a tweaked ruleset: shorter games, more hoards, every variant but draw_again (the two
# engines read "the drawer acts again" differently: see the report in the module below)
TWEAK = {"constants.target": 60, "constants.hoard_size": 4, "constants.hoard_share": 4, "constants.turn_cap": 80,
         "constants.variants.deal_all": True, "constants.variants.additive_escalation": True}


@pytest.mark.parametrize("players,games", [(2, 40), (3, 40), (4, 30), (5, 20), (6, 15), (9, 4)])
def test_random_policy_agrees(players, games):
    assert run_games(40 + players, range(games * SCALE), players, "random") > 0


@pytest.mark.parametrize("players,games", [(2, 15), (3, 12), (4, 10), (6, 6), (12, 2)])
def test_default_policy_agrees(players, games):
    assert run_games(50 + players, range(games * SCALE), players, "greedy") > 0


@pytest.mark.parametrize("players,policy,games", [(3, "random", 30), (4, "greedy", 10), (7, "greedy", 3)])
def test_tweaked_ruleset_agrees(players, policy, games):
    rules = RULES.override(TWEAK)
    assert run_games(60 + players, range(games * SCALE), players, policy, rules) > 0


# neighbouring parameters the shipped ruleset and TWEAK leave equal (hoard_size and
# hoard_share 5 and 4; additive escalation and deal-all turned on together), told apart
NEIGHBOURS = {"constants.hoard_size": 3, "constants.hoard_share": 2,
              "constants.variants.additive_escalation": True}


@pytest.mark.parametrize("players,policy,games", [(3, "random", 20), (4, "greedy", 8)])
def test_neighbour_distinct_ruleset_agrees(players, policy, games):
    """Seed 69, game 1 of the 4 greedy players found that the kernel hoarded only after a
    scavenge's last draw; an ending a scavenge draws that makes a hoard ends the round at
    once (the docs' "at once", the rulebook's "immediately"), as the reference plays it."""
    rules = RULES.override(NEIGHBOURS)
    assert run_games(65 + players, range(games * SCALE), players, policy, rules) > 0


def test_the_rulesets_played_tell_every_parameter_from_its_neighbours():
    """A value read from the key beside it in the kernel's parameter row shows only on a
    ruleset where the two differ: for every pair of neighbouring parameters, the shipped
    ruleset, TWEAK or NEIGHBOURS gives them different values."""
    rows = [RULES.flat()] + [RULES.override(o).flat() for o in (TWEAK, NEIGHBOURS)]
    p = np.array([r[K.R_PARAMS:K.R_PARAMS + len(K.PARAMS)] for r in rows])
    same = [(K.PARAMS[i], K.PARAMS[i + 1]) for i in range(len(K.PARAMS) - 1)
            if (p[:, i] == p[:, i + 1]).all()]
    assert same == [], f"neighbouring parameters equal in every ruleset played: {same}"


def _unshipped_arguments():
    """Every instantaneous card of the deck with each argument its effect allows but the
    shipped deck does not give it (``discard_last(others)``, ``pass_last(left)``, ...): the
    rules a designer's deck can hold that the reference deck never plays."""
    vocab = {"discard_last": K.SCOPES, "pass_last": K.DIRECTIONS, "clear": K.COMMON_TYPES}
    out = []
    for c in RULES.card_names:
        eff = RULES.get(f"cards.{c}.effect")
        word, _, rest = eff.partition("(")
        for a in vocab.get(word, ()):
            if a != rest.rstrip(")").strip():
                out.append(pytest.param(c, f"{word}({a})", id=f"{c}-{word}({a})"))
    return out


@pytest.mark.parametrize("card,effect", _unshipped_arguments())
def test_every_effect_argument_agrees(card, effect):
    """The two engines agree on an instantaneous card whose argument the shipped deck never
    uses (the card made common so that it is played): the effect's every scope, direction
    and type is a rule, not only the one the reference deck prints."""
    rules = RULES.override({f"cards.{card}.effect": effect, f"cards.{card}.count": 8})
    fx = K.INSTANTS.index(effect.partition("(")[0])
    played = 0
    for gi in range(6 * SCALE):
        d = Driver(130, gi, 3, rules, "random")
        d.run()
        played += int(d.g.state[K.S_PLAYS + len(K.CARD_KINDS) + fx])
    assert played > 0


def _quiet_deck():
    """The reference deck without its instantaneous cards and endings: nothing is ever
    discarded, so the pile runs dry for good, hands are played out and rounds end on a
    cycle of passes (cause ``exhausted``), which the full deck almost never reaches."""
    drop = [c for c in RULES.card_names
            if not RULES.get(f"cards.{c}.effect").startswith(("points", "add_all", "multiply"))]
    return RULES.override({f"cards.{c}.count": 0 for c in drop})


@pytest.mark.parametrize("players,policy,games", [(2, "random", 6), (3, "greedy", 3), (5, "random", 3)])
def test_quiet_deck_agrees(players, policy, games):
    rules = _quiet_deck()
    passes, causes = 0, Counter()
    for gi in range(games * SCALE):
        d = Driver(90 + players, gi, players, rules, policy)
        d.run()
        passes += d.passes
        causes.update(d.ref.record()["round_causes"])
    assert passes > 0 and causes["exhausted"] > 0


@pytest.mark.xfail(strict=True, raises=Mismatch, reason=(
    "open rule question, variant draw_again_after_instant: the kernel makes the drawer's "
    "second action a new turn (counted for the turn cap, a redeal between, a marked ending "
    "drawn by his own scavenge forced at once); the reference continues the same turn "
    "(reading 9). The docs say only 'the drawer acts again'"))
def test_draw_again_variant_agrees():
    rules = RULES.override({"constants.variants.draw_again_after_instant": True})
    run_games(83, range(3), 3, "random", rules)


def test_search_player_agrees():
    assert run_games(70, range(1 * SCALE), 2, "rollout:rollouts=2") > 0


def test_a_wrong_chance_outcome_is_caught():
    """The comparison can fail: the reference fed one legal but wrong card (the pile's
    next-but-one instead of its next) must disagree with the kernel."""
    caught = 0
    for gi in range(3):
        d = Driver(1, gi, 3, RULES, "random")
        d.swap_next_draw = True
        # the wrong card shows in the drawer's hand, or the kernel draws it later
        with pytest.raises((Mismatch, ChanceMismatch)):
            d.run()
        caught += 1
    assert caught == 3


def test_a_redeal_after_the_pile_ran_out_keeps_the_turn_order():
    """A scenario the differential test found (seed 54, game 9, 4 greedy players, among
    others): the pile ran out with no discards, so the redeal came at the end of a later
    turn, and the kernel resumed play at the left of the old last drawer, so players
    played twice in a row or were skipped.  The rulebook's "play continues with the player
    to the left of the player who drew the last card" is about the turn in which the pile
    runs out; a later redeal keeps the turn order (the turn's player's left)."""
    seen = 0
    for gi in range(12):
        g = Game(seed=54, game=gi, players=4)
        while not g.over:
            st = g.state
            deferred = st[K.S_N_PILE] == 0 and st[K.S_N_DISCARD] == 0
            turn, redeals, rnd = int(st[K.S_TURN]), int(st[K.S_REDEALS]), int(st[K.S_ROUND])
            g.apply(g.policy_choice())
            st = g.state
            if deferred and st[K.S_REDEALS] > redeals and st[K.S_ROUND] == rnd and g.phase == "turn":
                assert g.to_move == (turn + 1) % 4, (gi, turn, g.to_move)
                seen += 1
    assert seen >= 1


@pytest.mark.parametrize("players,policy,games", [(3, "random", 12), (5, "greedy", 6)])
def test_several_hoarders_agree(players, policy, games):
    """Small hoards and a big deal: several players hoard at once after a deal, so every
    hoarder's lay-out (the first from the dealer's left among them) is compared.  The
    share goes with the size: fewer shown places than players would leave a picker with
    nothing to pick (see the report of issue #40).  Without scavenges: with hoards this
    small a scavenge's draw makes hoards often, and such a hoard is a lone one (it ends the
    round at once, before the scavenge's next draw; the kernel once hoarded after the
    scavenge's last draw, settled by ``test_neighbour_distinct_ruleset_agrees``)."""
    tweak = {"constants.hoard_size": 2, "constants.hoard_share": 2, "constants.deal": 8,
             "constants.hand_limit": 8}
    tweak.update({f"cards.{c}.count": 0 for c in RULES.card_names
                  if RULES.get(f"cards.{c}.effect").startswith("draw_each")})
    rules = RULES.override(tweak)
    several = first_left = 0
    for gi in range(games * SCALE):
        d = Driver(110 + players, gi, players, rules, policy)
        d.run()
        dealer = {}
        for e in d.log_events():
            if e[0] == "round":
                dealer[e[1]] = e[2]
            elif e[0] == "hoard" and e[3] >= 2:
                several += 1
                first_left += e[2] == (dealer[e[1]] + 1) % players
    assert several >= 3 and first_left >= 1, (several, first_left)


@pytest.mark.parametrize("players,policy,games", [(3, "random", 8), (5, "greedy", 4)])
def test_a_scavenge_draw_that_hoards_agrees(players, policy, games):
    """Small hoards, a big deal and the scavenges kept: an ending a scavenge draws makes a
    hoard that ends the round at once, before the scavenge's next draw (the docs' "ends the
    round at once"; the kernel once hoarded after the scavenge's last draw, found at seed
    69, game 1 of ``test_neighbour_distinct_ruleset_agrees``)."""
    rules = RULES.override({"constants.hoard_size": 2, "constants.hoard_share": 2, "constants.deal": 8,
                            "constants.hand_limit": 8})
    mid_scavenge = 0
    for gi in range(games * SCALE):
        d = Driver(120 + players, gi, players, rules, policy)
        d.run()
        ev = d.log_events()
        mid_scavenge += sum(1 for a, b in zip(ev, ev[1:]) if b[0] == "hoard" and a[0] == "draw" and a[4])
    assert mid_scavenge >= 1

"""Differential test of Day Night Z's campaign (issue #40): the travel and the shelter
between adventures, played by the numba kernels and by a reference written apart from
them (``tests/reference/day_night_z_campaign.py``, from the game page's "The campaign",
the data and the rulebook's §6-§7).

The kernel's campaign loop (``campaign_nb.play_campaign_nb``) is mirrored here step by
step in Python (:func:`drive`), calling the kernel's own pieces (``setup_state_nb``,
``shuffle_deck``, ``build_nb``, ``shelter_nb``, ``travel_nb``, the adventure's
``advance_nb``/``play_game_nb``/``record_nb``), so the state can be read between the
phases; a first test checks the mirror plays exactly the campaigns ``campaign_batch_nb``
plays (records equal field by field), so a change to the kernel's loop is caught there.

At each phase (the build, the shelter's days, each trip) the reference starts from the
kernel's team and plays the phase with the kernel's chance outcomes: :class:`KernelChance`
answers the reference's draws from the kernel's own streams (the same stream states, the
kernel's deck orders), and checks each answer is among the options the reference sees.
After the phase the team (every survivor's life, cause of death, health, stress,
infection, SP, supplies, ammunition, skills, allies), the facilities' levels, the pooled
VP, the skills left in the box, the ally and travel decks, the counters and the deaths
agree, and both engines have drawn the same number of times from every stream.  The
adventures themselves are the kernel's (their own differential test is
``test_differential_day_night_z.py``); after each one the reference takes the kernel's
team, then both count the adventure's victory points.

Rulesets: the shipped one and tweaks that make every campaign number of the data differ
from its neighbours (travel sections with every effect, facilities at their advanced
level, dearer skills, two shelter days, feeding off...), the shelter player's parameters
drawn at random, and teams whose carried values are drawn at random before the shelter
(infection near death, no supplies, SP around the skills' costs).

``SIMLIB_DIFF_GAMES=<n>`` multiplies the number of campaigns (a long run on demand).
"""
from __future__ import annotations

import os
import random
from collections import Counter

import numpy as np
import pytest

from simlib.core.rng import GOLDEN, game_key_nb, randint_nb
from simlib.core.step import M64, mix64, stream_seed
from simlib.games.day_night_z import codes as K
from simlib.games.day_night_z.campaign import SHELTER_PARAMS, shelter_array
from simlib.games.day_night_z.kernels import campaign_nb as C
from simlib.games.day_night_z.kernels.engine_nb import advance_nb, record_nb, setup_state_nb
from simlib.games.day_night_z.kernels.play_nb import play_game_nb
from simlib.games.day_night_z.play import packed
from simlib.games.day_night_z.policies import POLICIES, param_array
from simlib.games.day_night_z.ruleset import load_ruleset
from tests.reference.chance import ChanceMismatch
from tests.reference.day_night_z_campaign import Campaign

MULT = max(1, int(os.environ.get("SIMLIB_DIFF_GAMES", "1")))
_G = K.S_GLOBALS
_GOLD = int(GOLDEN)
CAUSES = {0: None, K.DEAD_DAMAGE: "damage", K.DEAD_INFECTION: "infection", K.DEAD_HUNGER: "hunger",
          K.DEAD_TRAVEL: "travel", K.DEAD_SHELTER: "shelter"}
_SUCCESS = K.RECORD_FIELDS.index("success")


def su(s: int, f: int) -> int:
    return K.S_SURV + s * K.U_W + f


class Disagreement(AssertionError):
    pass


# ---------------------------------------------------------------------- the kernel's chance
class KernelChance:
    """Answers the reference's draws as the kernel drew them: the dice from the kernel's
    dice stream (a face index ``randint(faces)``), the shelter events from its decks stream
    (an entry of the events table), the travel cards in the order of the kernel's shuffled
    travel deck (reshuffled on the decks stream when it runs out, as the kernel does), the
    allies in the order of its ally deck.  ``sync`` takes the kernel's stream states and
    decks at the start of a phase; ``streams()`` gives the states after the draws."""

    def __init__(self, rules, cp):
        self.cp = cp
        self.travel = rules.names("travel")
        self.events = rules.names("shelter_events")
        self.allies = [n for n in rules.names("allies") for _ in range(rules.get(f"allies.{n}.count"))]
        self.n_faces = len(rules.face_names)
        self.history: list[tuple[str, object]] = []

    def sync(self, crng, tdeck, tpos, adeck, apos):
        self.s = [int(x) for x in crng]
        self.tdeck = [int(x) for x in tdeck[:self.cp[K.C_PARAMS + K.CP_N_TRAVEL]]]
        self.tpos = int(tpos[0])
        self.adeck = [int(x) for x in adeck[:self.cp[K.C_PARAMS + K.CP_N_ALLIES]]]
        self.apos = int(apos[0])

    def streams(self) -> list[int]:
        return list(self.s)

    def _randint(self, stream: int, n: int) -> int:
        self.s[stream] = (self.s[stream] + _GOLD) & M64
        return ((mix64(self.s[stream]) >> 32) * n) >> 32

    def _reshuffle(self):
        n = self.cp[K.C_PARAMS + K.CP_N_TRAVEL]
        self.tdeck = [int(self.cp[K.C_TDECK + i]) for i in range(n)]
        for i in range(n - 1, 0, -1):
            j = self._randint(K.STREAM_DECKS, i + 1)
            self.tdeck[i], self.tdeck[j] = self.tdeck[j], self.tdeck[i]
        self.tpos = 0

    def draw(self, kind, options):
        options = list(options)
        if kind in ("check_die", "travel_die"):
            if len(options) != self.n_faces:
                raise ChanceMismatch(f"{kind}: {len(options)} faces offered, the die has {self.n_faces}")
            out = options[self._randint(K.STREAM_DICE, self.n_faces)]
        elif kind == "travel_card":
            out = self.travel[self.tdeck[self.tpos]]
            self.tpos += 1
            if self.tpos >= len(self.tdeck):  # the kernel reshuffles as the last card leaves
                self._reshuffle()
        elif kind == "shelter_event":
            n = self.cp[K.C_PARAMS + K.CP_N_SHELTER]
            out = self.events[int(self.cp[K.C_SDECK + self._randint(K.STREAM_DECKS, n)])]
        elif kind == "ally_card":
            if self.apos >= len(self.adeck):
                raise ChanceMismatch("ally_card: the kernel's ally deck is empty")
            out = self.allies[self.adeck[self.apos]]
            self.apos += 1
        else:
            raise ChanceMismatch(f"unknown chance kind {kind!r}")
        if out not in options:
            raise ChanceMismatch(f"{kind}: the kernel's outcome {out!r} is not among the reference's "
                                 f"options {sorted(set(map(str, options)))}")
        self.history.append((kind, out))
        return out


# ---------------------------------------------------------------------- reading the kernel
def team_of(st, rules, cp) -> list[dict]:
    """The kernel's team in the reference's words."""
    names = list(rules.get("scenario.team"))
    skills = rules.names("skills")
    allies = [n for n in rules.names("allies") for _ in range(rules.get(f"allies.{n}.count"))]
    out = []
    for s in range(int(st[_G + K.G_TEAM])):
        f = lambda k, s=s: int(st[su(s, k)])  # noqa: E731
        out.append({
            "name": names[s], "alive": bool(f(K.U_ALIVE)), "cause": CAUSES[f(K.U_DEAD_CAUSE)],
            "health": f(K.U_HEALTH), "stress": f(K.U_STRESS), "infection": f(K.U_INFECTION),
            "sp": f(K.U_SP), "supplies": f(K.U_SUPPLIES), "ammo": f(K.U_AMMO),
            "ranged": f(K.U_RANGED) >= 0,
            "lit": f(K.U_FLASHLIGHT) != 0 and (f(K.U_LIGHT_TURNS) == 0 or f(K.U_LIGHT) > 0),
            "skills": [n for i, n in enumerate(skills) if (f(K.U_SKILLS) >> i) & 1],
            "allies": [n for i, n in enumerate(allies) if (f(K.U_ALLIES) >> i) & 1],
        })
    return out


def check_bonus(st, rules, cp):
    """The kernel keeps each survivor's attribute bonus apart from his skills and allies:
    it must be their sum."""
    for s, sv in enumerate(team_of(st, rules, cp)):
        want = Counter()
        for n in sv["skills"]:
            want.update(rules.get(f"skills.{n}.bonus"))
        for n in sv["allies"]:
            want.update(rules.get(f"allies.{n}.bonus"))
        got = {a: int(st[su(s, K.U_BONUS + i)]) for i, a in enumerate(K.ATTRIBUTES)}
        assert got == {a: want.get(a, 0) for a in K.ATTRIBUTES}, f"seat {s}: bonus {got} != {dict(want)}"


_TEAM_KEYS = ("alive", "cause", "health", "stress", "infection", "sp", "supplies", "ammo", "skills", "allies")


class Pair:
    """One campaign played by the kernel's pieces (the mirror of ``play_campaign_nb``) and
    the reference side by side."""

    def __init__(self, rules, sh: np.ndarray, seed: int, g: int, n_adv: int, team: int, hour: int,
                 policy: str = "baseline", perturb=None, compare: bool = True):
        self.rules, self.sh, self.seed, self.g = rules, sh, seed, g
        self.n_adv, self.team, self.hour = n_adv, team, hour
        self.pid = np.int64(POLICIES[policy].id)
        self.par = param_array(policy, None)
        self.perturb, self.compare = perturb, compare
        self.arrays = packed(rules)
        self.cp = rules.pack_campaign()
        self.where = f"seed {seed}, campaign {g}, team {team}, start {hour}, shelter {sh.tolist()}"
        self.phases = Counter()
        if compare:
            self.ch = KernelChance(rules, self.cp)
            flat = {k: rules.get(k) for k in rules.keys()}
            shelter = {k: int(v) for k, v in zip(SHELTER_PARAMS, sh)}
            self.ref = Campaign(flat, shelter, self.ch)

    # -------------------------------------------------------------- comparing
    def fail(self, msg):
        raise Disagreement(f"{self.where}: {msg}")

    def _start(self, st, crng):
        if self.compare:
            self.ch.sync(crng, self.tdeck, self.tpos, self.adeck, self.apos)

    def _agree(self, what, st, crng, ref_out, kern_out):
        if not self.compare:
            return
        self.phases[what] += 1
        check_bonus(st, self.rules, self.cp)
        kt, rt = team_of(st, self.rules, self.cp), self.ref.team
        for s, (a, b) in enumerate(zip(kt, rt)):
            for k in _TEAM_KEYS:
                va, vb = a[k], b[k]
                if k in ("skills", "allies"):
                    va, vb = sorted(va), sorted(vb)
                if va != vb:
                    self.fail(f"{what}: seat {s} ({a['name']}) {k}: kernel {va!r}, reference {vb!r}"
                              f"\n  kernel team {kt}\n  reference team {rt}\n  chance {self.ch.history[-12:]}")
        if ref_out != kern_out:
            self.fail(f"{what}: returns kernel {kern_out}, reference {ref_out}")
        names = list(self.rules.names("facilities"))
        levels = {n: int(self.levels[K.FACILITIES.index(n)]) for n in names}
        if levels != {n: self.ref.levels[n] for n in names}:
            self.fail(f"{what}: levels kernel {levels}, reference {self.ref.levels}")
        if self.vp - self.spent != self.ref.vp or self.spent != self.ref.spent:
            self.fail(f"{what}: VP left / spent kernel {self.vp - self.spent}/{self.spent}, "
                      f"reference {self.ref.vp}/{self.ref.spent}")
        skills = self.rules.names("skills")
        left = {n: int(self.copies[i]) for i, n in enumerate(skills)}
        if left != dict(self.ref.skills_left):
            self.fail(f"{what}: skills left kernel {left}, reference {self.ref.skills_left}")
        if (int(self.bought[0]), int(self.bought[1]), int(self.joined[0])) != \
                (self.ref.bought, self.ref.sp_on_skills, self.ref.joined):
            self.fail(f"{what}: skills bought / SP on skills / allies joined kernel "
                      f"{self.bought.tolist()} {int(self.joined[0])}, reference "
                      f"{self.ref.bought} {self.ref.sp_on_skills} {self.ref.joined}")
        allies = self.ch.allies
        k_allies = Counter(allies[int(a)] for a in self.adeck[int(self.apos[0]):len(allies)])
        if k_allies != Counter(self.ref.allies_left):
            self.fail(f"{what}: ally deck kernel {dict(k_allies)}, reference {Counter(self.ref.allies_left)}")
        n = self.cp[K.C_PARAMS + K.CP_N_TRAVEL]
        k_travel = Counter(self.ch.travel[int(c)] for c in self.tdeck[int(self.tpos[0]):n])
        r_travel = Counter(self.ref.travel_left)
        full = Counter(self.ch.travel[int(c)] for c in self.cp[K.C_TDECK:K.C_TDECK + n])
        if k_travel != r_travel and not (k_travel == full and not r_travel):
            # the kernel reshuffles as the last card leaves, the reference at its next draw
            self.fail(f"{what}: travel deck kernel {dict(k_travel)}, reference {dict(r_travel)}")
        if [int(x) for x in crng] != self.ch.streams():
            self.fail(f"{what}: the engines drew a different number of times from a stream "
                      f"(kernel {[int(x) for x in crng]}, reference {self.ch.streams()})\n  chance "
                      f"{self.ch.history[-12:]}")

    # -------------------------------------------------------------- the campaign
    def play(self):
        dice, tr, spn, rl = self.arrays
        cp, sh, team, hour = self.cp, self.sh, np.int64(self.team), np.int64(self.hour)
        st = np.zeros(K.S_SIZE, dtype=np.int64)
        rng = np.zeros(K.N_STREAMS, dtype=np.uint64)
        crng = np.zeros(K.N_STREAMS, dtype=np.uint64)
        keep = np.zeros((K.MAX_SURV, len(C.CARRIED)), dtype=np.int64)
        self.levels = np.zeros(K.N_FAC, dtype=np.int64)
        self.tdeck = np.zeros(K.MAX_TRAVEL_CARDS, dtype=np.int64)
        self.tpos = np.zeros(1, dtype=np.int64)
        self.copies = np.zeros(K.MAX_SKILLS, dtype=np.int64)
        self.bought = np.zeros(2, dtype=np.int64)
        self.adeck = np.zeros(K.MAX_ALLIES, dtype=np.int64)
        self.apos = np.zeros(1, dtype=np.int64)
        self.joined = np.zeros(1, dtype=np.int64)
        legal = np.zeros(K.MAX_LEGAL, dtype=np.int64)
        out = np.zeros(K.CAMPAIGN_REC, dtype=np.int64)
        adv = np.zeros((self.n_adv, K.ADVENTURE_REC), dtype=np.int64)
        seed, g = np.int64(self.seed), np.int64(self.g)
        key0 = int(np.uint64(game_key_nb(seed, g)))
        for i in range(cp[K.C_PARAMS + K.CP_N_SKILLS]):
            self.copies[i] = cp[K.C_SKILLS + i * K.SKL_W + K.SKL_COUNT]
        for f in range(K.N_FAC):
            self.levels[f] = C.fac(cp, f, K.FA_START) if C.fac(cp, f, K.FA_PRESENT) == 1 else 0
        self.vp = self.spent = 0
        accomplished = played = dead_adv = dead_travel = dead_shelter = 0
        alive = self.team
        for k in range(self.n_adv):
            # the keys in Python ints (core.step's mirror of core.rng), as the kernel makes them
            key = key0 if k == 0 else mix64(key0 ^ ((k * K.ADVENTURE_SALT) & M64))
            setup_state_nb(st, rng, tr, spn, rl, np.uint64(key), team, hour, g)
            if k > 0:
                for s in range(self.team):
                    for j, fld in enumerate(C.CARRIED):
                        st[su(s, fld)] = keep[s, j]
                if self.perturb is not None:
                    self.perturb(self, st, k)
            ckey = mix64(key ^ K.CAMPAIGN_SALT)
            crng[:] = [stream_seed(ckey, i) for i in range(K.N_STREAMS)]
            if k == 0:
                na = cp[K.C_PARAMS + K.CP_N_ALLIES]
                self.adeck[:na] = np.arange(na)
                for i in range(na - 1, 0, -1):
                    j = randint_nb(crng, K.STREAM_CHOICES, i + 1)
                    self.adeck[i], self.adeck[j] = self.adeck[j], self.adeck[i]
                self.apos[0] = 0
                self.joined[0] = 0
            C.shuffle_deck(cp, crng, self.tdeck, K.C_TDECK, cp[K.C_PARAMS + K.CP_N_TRAVEL])
            self.tpos[0] = 0
            unknown = np.int64(1 if sh[K.SH_UNKNOWN_PATH] != 0 else 0)
            if self.compare:
                if k == 0:
                    self.ref.team = team_of(st, self.rules, cp)
                else:  # the carried team, perturbed or not, is where both start
                    self._resync(st)
                self.ref.new_travel_deck()
            if k > 0:
                self._start(st, crng)
                spent = int(C.build_nb(cp, self.levels, np.int64(self.vp - self.spent), sh))
                self.spent += spent
                self._agree("build", st, crng, self.ref.build() if self.compare else 0, spent)
                self._start(st, crng)
                d = int(C.shelter_nb(st, crng, dice, tr, rl, cp, self.levels, sh, self.adeck, self.apos,
                                     self.joined, self.copies, self.bought))
                dead_shelter += d
                self._agree("shelter", st, crng, self.ref.shelter_days() if self.compare else 0, d)
                st[_G + K.G_HOUR] = hour
            if k > 0 or cp[K.C_PARAMS + K.CP_TRAVEL_FIRST] == 1:
                self._start(st, crng)
                h = int(st[_G + K.G_HOUR])
                d = int(C.travel_nb(st, crng, dice, tr, rl, cp, unknown, self.tdeck, self.tpos))
                dead_travel += d
                self._agree("travel out", st, crng, self.ref.travel(h) if self.compare else 0, d)
            start_alive = int(C.living(st))
            if start_alive == 0:
                alive = 0
                break
            played += 1
            st[K.S_ALIVE_BY_TURN] = start_alive
            advance_nb(st, rng, dice, tr, spn, rl, legal)
            play_game_nb(st, rng, dice, tr, spn, rl, self.pid, self.par, legal)
            record_nb(st, tr, rl, adv[k, :K.REC_CAMPAIGN])
            end_alive = int(C.living(st))
            dead_adv += start_alive - end_alive
            won = int(adv[k, _SUCCESS])
            v = 0
            if won == 1:
                P = K.R_PARAMS
                v = max(0, int(rl[P + K.RP_VP_BASE] - rl[P + K.RP_VP_PER_DEAD] * (start_alive - end_alive)))
            adv[k, K.RECORD_FIELDS.index("vp")] = v
            adv[k, K.REC_CAMPAIGN:K.REC_CAMPAIGN + 3] = (k + 1, start_alive, 1)
            self.vp += v
            accomplished += won
            if self.compare:
                self._resync(st)  # the adventure is the kernel's: the reference takes its team
                self._start(st, crng)
                rv = self.ref.adventure_vp(bool(won), start_alive, end_alive)
                self._agree("victory points", st, crng, rv, v)
            if end_alive > 0:
                self._start(st, crng)
                h = int(st[_G + K.G_HOUR])
                d = int(C.travel_nb(st, crng, dice, tr, rl, cp, unknown, self.tdeck, self.tpos))
                dead_travel += d
                self._agree("travel back", st, crng, self.ref.travel(h) if self.compare else 0, d)
            alive = int(C.living(st))
            if alive == 0:
                break
            for s in range(self.team):
                for j, fld in enumerate(C.CARRIED):
                    keep[s, j] = st[su(s, fld)]
        built = sum(int(self.levels[f]) - (int(C.fac(cp, f, K.FA_START)) if C.fac(cp, f, K.FA_PRESENT) == 1 else 0)
                    for f in range(K.N_FAC))
        out[:] = (self.g, self.team, self.n_adv, played, accomplished, int(accomplished == self.n_adv), alive,
                  self.vp, self.spent, dead_adv, dead_travel, dead_shelter, built, self.bought[0],
                  self.bought[1], self.joined[0])
        return out, adv

    def _resync(self, st):
        kt = team_of(st, self.rules, self.cp)
        for a, b in zip(self.ref.team, kt):
            a.update(b)


# ---------------------------------------------------------------------- the tests
def _batch(rules, sh, seed, n, n_adv, team, hour, policy="baseline"):
    dice, tr, spn, rl = packed(rules)
    out = np.zeros((n, K.CAMPAIGN_REC), dtype=np.int64)
    adv = np.zeros((n, n_adv, K.ADVENTURE_REC), dtype=np.int64)
    C.campaign_batch_nb(dice, tr, spn, rl, rules.pack_campaign(), np.int64(seed), np.int64(0),
                        np.int64(n_adv), np.int64(team), np.int64(hour), np.int64(POLICIES[policy].id),
                        param_array(policy, None), sh, out, adv, np.int64(0), np.int64(n))
    return out, adv


@pytest.fixture(scope="module")
def shipped():
    return load_ruleset()


def test_the_mirror_plays_the_kernels_campaigns(shipped):
    """The Python mirror of the campaign loop plays exactly ``campaign_batch_nb``'s
    campaigns (records field by field), on the shipped ruleset and on one with the travel
    before the first adventure off and two shelter days."""
    other = shipped.override({"campaign.travel_before_first": False, "campaign.shelter_days": 2})
    for rules, sh, team, hour in ((shipped, shelter_array(), 4, 14),
                                  (other, shelter_array({"unknown_path": 0, "infirmary_wounds": 1}), 2, 8)):
        n, n_adv = 12, 3
        out, adv = _batch(rules, sh, 5, n, n_adv, team, hour)
        for g in range(n):
            o, a = Pair(rules, sh, 5, g, n_adv, team, hour, compare=False).play()
            assert o.tolist() == out[g].tolist(), f"campaign {g}: {o.tolist()} != {out[g].tolist()}"
            assert a.tolist() == adv[g].tolist(), f"campaign {g}: adventures differ"


def busy(rules):
    """A campaign ruleset where every number of the campaign's data is at work and differs
    from its neighbours: every travel section with a check and all four failure effects,
    facilities with checks and every effect (distinct, basic != advanced), cheap
    buildings, shelter events with every effect, two of them bringing allies, allies who
    heal and feed, skills of different costs, two shelter days."""
    attrs = ("agility", "strength", "perception", "will", "aid", "mechanisms")  # a travel check's
    ch = {"campaign.shelter_days": 2, "scenario.vp_base": 5, "scenario.vp_per_dead": 2}
    for ci, c in enumerate(rules.names("travel")):
        ch[f"travel.{c}.count"] = ci + 1
        for ti, t in enumerate(K.TERRAINS):
            i = ci * len(K.TERRAINS) + ti
            ch[f"travel.{c}.{t}.attribute"] = "none" if i % 5 == 4 else attrs[i % len(attrs)]
            ch[f"travel.{c}.{t}.fail_damage"] = i % 2
            ch[f"travel.{c}.{t}.fail_stress"] = 1 + i % 3
            ch[f"travel.{c}.{t}.fail_supplies"] = 2 - i % 3
            ch[f"travel.{c}.{t}.fail_infection"] = (i // 2) % 2
    checks = {"infirmary": "aid", "workshop": "mechanisms", "supply_zone": "perception", "rest_zone": "will"}
    for fi, f in enumerate(rules.names("facilities")):
        ch[f"facilities.{f}.build_cost"] = 1 + fi % 2
        ch[f"facilities.{f}.upgrade_cost"] = 0 if f == "fence" else 2 + fi % 2
        if f == "fence":
            continue
        if f in checks:
            ch[f"facilities.{f}.check"] = checks[f]
            ch[f"facilities.{f}.advanced_dice"] = 1 + fi % 2
        for e, name in enumerate(("health", "stress", "infection", "supplies", "ammo", "sp")):
            ch[f"facilities.{f}.{name}"] = [(e + fi) % 3 + 1, (e + fi) % 3 + 2 + e % 2]
    for ei, e in enumerate(rules.names("shelter_events")):
        ch[f"shelter_events.{e}.count"] = 1 + ei % 2
        ch[f"shelter_events.{e}.damage"] = ei % 2
        ch[f"shelter_events.{e}.stress"] = 1 + ei % 2
        ch[f"shelter_events.{e}.supplies"] = 2 - ei % 2
        ch[f"shelter_events.{e}.infection"] = (ei + 1) % 2
        ch[f"shelter_events.{e}.fence_blocks"] = ei % 2 == 0
        ch[f"shelter_events.{e}.ally"] = ei % 2 == 1
    for ai, a in enumerate(rules.names("allies")):
        ch[f"allies.{a}.heal"] = ai % 3
        ch[f"allies.{a}.supplies"] = (ai + 1) % 3
    for si, s in enumerate(rules.names("skills")):
        ch[f"skills.{s}.cost"] = 2 + si % 4
        ch[f"skills.{s}.count"] = 1 + si % 2
    return rules.override(ch)


def perturb_team(seed: int):
    """The carried team drawn at random before the shelter (from a seeded generator): who
    lives, health, stress, infection, SP, supplies and ammunition anywhere in their
    ranges (near death, none left, around the skills' costs), and VP to spend."""
    rnd = random.Random(seed)

    def go(pair, st, k):
        R = pair.rules.get
        team = int(st[_G + K.G_TEAM])
        living = [s for s in range(team) if rnd.random() < 0.8] or [rnd.randrange(team)]
        for s in range(team):
            if s in living:
                st[su(s, K.U_ALIVE)], st[su(s, K.U_DEAD_CAUSE)] = 1, 0
                st[su(s, K.U_HEALTH)] = rnd.randint(1, R("survivor.health_max"))
                st[su(s, K.U_STRESS)] = rnd.randint(0, R("survivor.stress_max"))
                st[su(s, K.U_INFECTION)] = rnd.randint(0, R("survivor.infection_death") - 1)
                st[su(s, K.U_SP)] = rnd.randint(0, R("survivor.sp_cap"))
                st[su(s, K.U_SUPPLIES)] = rnd.randint(0, 4)
                st[su(s, K.U_AMMO)] = rnd.randint(0, 3)
        extra = rnd.randint(0, 6)
        pair.vp += extra
        if pair.compare:
            pair.ref.vp += extra
    return go


def small_deck(rules):
    """``busy`` with a travel deck of three cards and long routes: the deck runs out within
    a trip, again and again."""
    names = rules.names("travel")
    return busy(rules).override({**{f"travel.{c}.count": int(i < 3) for i, c in enumerate(names)},
                                 "campaign.travel.known_route": ["plain", "wood", "mountain", "plain", "wood"],
                                 "campaign.travel.unknown_route": ["wood", "mountain", "plain"],
                                 "campaign.travel.unknown_dice": [2, 3, 2]})


RULESETS = {"shipped": lambda r: r, "busy": busy, "busy, a travel deck of 3": small_deck,
            "busy, known path first off, no feeding": lambda r: busy(r).override(
                {"campaign.travel_before_first": False, "campaign.shelter.feeding": False})}


def _shelter(rnd: random.Random) -> np.ndarray:
    return shelter_array({"heal_missing": rnd.randint(0, 4), "supplies_reserve": rnd.randint(0, 3),
                          "unknown_path": rnd.randint(0, 1), "build": int(rnd.random() < 0.8),
                          "skills": int(rnd.random() < 0.8), "sp_keep": rnd.randint(0, 4),
                          "infirmary_wounds": rnd.randint(0, 1)})


@pytest.mark.parametrize("name", list(RULESETS))
def test_the_campaign_phases_agree(shipped, name):
    """Campaigns of 3 adventures, teams 1-4, four start hours, the shelter player's
    parameters at random, half of them with the carried team drawn at random: every phase
    agrees (module docstring); every kind of phase is compared."""
    rules = RULESETS[name](shipped)
    rnd = random.Random(40 + len(name))
    seen = Counter()
    for i in range(24 * MULT):
        team, hour = 1 + i % 4, (8, 14, 20, 1)[(i // 4) % 4]
        sh = _shelter(rnd) if i % 3 else shelter_array()
        pair = Pair(rules, sh, 7, i, 3, team, hour, perturb=perturb_team(i) if i % 2 else None)
        pair.play()
        seen.update(pair.phases)
    assert {"build", "shelter", "travel out", "travel back", "victory points"} <= set(seen), seen

"""Till Dawn: rulebook behaviours on crafted states, invariants under random play,
determinism, the optimal-stopping player against a brute-force oracle, bad input."""
from __future__ import annotations

import numpy as np
import pytest

import simlib
from simlib.cli import main
from simlib.core.ruleset import RulesetError
from simlib.games.till_dawn import codes as K
from simlib.games.till_dawn.api import play_games, work_size
from simlib.games.till_dawn.step import Game
from simlib.games.till_dawn.kernels import engine_nb as E
from simlib.games.till_dawn.kernels import policies_nb as P
from simlib.games.till_dawn.policies import make_seat
from simlib.games.till_dawn.ruleset import default_ruleset_dir, load_ruleset


# =========================================================================== helpers
def type_of(rules, group: str, moon: str = "blood", icon: int = 0) -> int:
    for t, ct in enumerate(rules.card_types()):
        if ct["name"] == group and K.MOONS[ct["moon"]] == moon and ct["icon"] == icon:
            return t
    raise KeyError((group, moon, icon))


def crafted(players=3, rules=None, seed=0) -> Game:
    """A game at the start of a draw: no powers or events, full health, no blood."""
    g = Game(seed=seed, players=players, ruleset=rules, trace=True)
    st = g.state
    for s in range(players):
        st[K.S_S_POWER + s] = -1
        st[K.S_S_EVENT + s] = -1
        st[K.S_S_HEALTH + s] = st[K.S_S_MAX_HEALTH + s]
        st[K.S_S_ACTIVE + s] = 1
        st[K.S_S_BLOOD + s] = 0
        st[K.S_S_VOTE + s] = K.VOTE_NONE
    st[K.S_PENDING] = -1
    st[K.S_TRACK] = 0
    st[K.S_CURRENT] = 0
    st[K.S_SUNRISE] = 0
    st[K.S_BLOOD_SUPPLY] = g.rules.get("constants.blood_supply")
    g.log[0, 0] = 0
    return g


def stack(g: Game, t: int) -> None:
    """Make card type ``t`` the only card left in the hunt deck (drawn next)."""
    st = g.state
    n = int(g.rules.flat()[K.R_PARAMS + K.P_N_HUNT])
    j = [i for i in range(n) if st[K.S_HUNT + i] == t][0]
    st[K.S_HUNT + j], st[K.S_HUNT] = st[K.S_HUNT], st[K.S_HUNT + j]
    st[K.S_N_HUNT] = 1
    st[K.S_TYPE_LEFT:K.S_TYPE_LEFT + K.MAX_TYPES] = 0
    st[K.S_TYPE_LEFT + t] = 1


def draw(g: Game, t: int) -> None:
    stack(g, t)
    g.state[K.S_PHASE] = K.PH_DRAW
    E.advance_nb(g.state, g.rules.flat(), g.log)


def logged(g: Game, kind: int) -> list[tuple]:
    rows = g.log[1:1 + g.log[0, 0]]
    return [tuple(int(x) for x in r) for r in rows if r[0] == kind]


# =========================================================================== ruleset
def test_reference_deck_matches_the_rulebook_and_the_spec():
    r = load_ruleset()
    types = r.card_types()
    assert sum(t["count"] for t in types) == 58
    moons = [sum(t["count"] for t in types if t["moon"] == m) for m in range(3)]
    assert moons == [23, 23, 12]
    assert sum(t["count"] for t in types if t["icon"]) == 12
    kinds = {k: sum(t["count"] for t in types if K.KINDS[t["kind"]] == k) for k in K.KINDS}
    assert kinds == {"feeding": 32, "invitation": 6, "night_lingers": 4, "sun_rising": 10,
                     "vampire_slayer": 5, "werewolf": 1}
    assert sum(r.get(f"powers.{n}.count") for n in r.names("powers")) == 15
    assert sum(r.get(f"events.{n}.count") for n in r.names("events")) == 10
    assert len(r.character_names) == 8
    assert set(r.describe().source) <= {"rulebook", "inferred", "assumed"}
    assert r.source("hunt.werewolf.value") == "rulebook" and r.get("hunt.werewolf.value") == 3


def _copy_rules(tmp_path):
    d = tmp_path / "rules"
    d.mkdir()
    for f in default_ruleset_dir().glob("*.toml"):
        (d / f.name).write_text(f.read_text())
    return d


@pytest.mark.parametrize("file, old, new, message", [
    ("constants.toml", 'nights = { value = 3, source = "rulebook" }',
     'nights = { value = 3, source = "rulebook" }\nnigths = { value = 3, source = "assumed" }',
     "constants.toml: constants.nigths: unknown key"),
    ("constants.toml", 'nights = { value = 3,', 'nights = { value = 0,',
     "constants.nights: value 0 out of range; must be >= 1"),
    ("hunt.toml", 'value = { value = 3, source = "rulebook" }', 'value = { value = 3 }',
     "hunt.werewolf.value: missing source tag"),
    ("hunt.toml", 'value = { value = 3, source = "rulebook" }', 'value = { value = 3, source = "guess" }',
     "unknown source tag 'guess'"),
    ("characters.toml", 'ground = { value = "castle", source = "assumed" }\n[carmilla]',
     'ground = { value = "moon", source = "assumed" }\n[carmilla]',
     "characters.vlad.ground: unknown ground 'moon'"),
    ("hunt.toml", 'kind = { value = "werewolf", source = "rulebook" }',
     'kind = { value = "wolf", source = "rulebook" }', "hunt.werewolf.kind: unknown value 'wolf'"),
])
def test_bad_ruleset_files_name_file_and_key(tmp_path, file, old, new, message):
    d = _copy_rules(tmp_path)
    text = (d / file).read_text()
    assert old in text
    (d / file).write_text(text.replace(old, new, 1))
    with pytest.raises(RulesetError) as e:
        load_ruleset(d)
    assert message in str(e.value) and file in str(e.value)


def test_overrides_are_validated_and_leave_the_original_alone(tmp_path):
    r = load_ruleset()
    r2 = r.override({"constants.track_length": 12, "hunt.werewolf.value": 2})
    assert (r.get("constants.track_length"), r2.get("constants.track_length")) == (10, 12)
    assert r2.source("hunt.werewolf.value") == "override"
    assert r.fingerprint() != r2.fingerprint()
    with pytest.raises(RulesetError, match="hunt.werewolf.valu: unknown key"):
        r.override({"hunt.werewolf.valu": 1})
    with pytest.raises(RulesetError, match="unknown entry 'wolf'"):
        r.override({"hunt.wolf.value": 1})
    with pytest.raises(RulesetError, match="must be >= 1"):
        r.override({"hunt.werewolf.value": 0})
    f = tmp_path / "tweak.toml"
    f.write_text("[hunt.werewolf]\nvalue = 4\n[constants]\nnights = 2\n")
    r3 = load_ruleset(f)
    assert r3.get("hunt.werewolf.value") == 4 and r3.get("constants.nights") == 2
    f.write_text("[hunt.werewolf]\nvalu = 4\n")
    with pytest.raises(RulesetError, match="tweak.toml: hunt.werewolf.valu: unknown key"):
        load_ruleset(f)
    back = load_ruleset(r2.to_toml_dir(tmp_path / "written"))
    assert back.fingerprint() == r2.fingerprint()


# =========================================================================== rulebook behaviours
def test_sunrise_loses_unbanked_blood_but_not_coffin_points():
    g = crafted(3)
    st, rules = g.state, g.rules
    st[K.S_S_BLOOD + 0], st[K.S_S_COFFIN + 0] = 6, 7
    st[K.S_S_BLOOD + 2] = 2
    st[K.S_S_ACTIVE + 1] = 0  # already in the coffin
    st[K.S_S_BLOOD + 1], st[K.S_S_COFFIN + 1] = 0, 4
    st[K.S_TRACK] = rules.get("constants.track_length") - 1
    draw(g, type_of(rules, "sun_rising_1", "blood"))
    assert g.seat(0, "lost_sunrise") == 6 and g.seat(2, "lost_sunrise") == 2
    assert g.seat(1, "lost_sunrise") == 0
    assert (g.seat(0, "coffin"), g.seat(1, "coffin")) == (7, 4)
    assert int(st[K.S_NIGHT]) == 1  # the night ended for everyone; night 2 has begun
    assert [r[2] for r in logged(g, K.LG_SUNRISE)] == [0, 2]


def test_the_werewolf_hurts_only_the_current_player_and_goes_back_into_the_deck():
    g = crafted(3)
    wolf = type_of(g.rules, "werewolf", "blood")
    g.state[K.S_CURRENT] = 1
    draw(g, wolf)
    st = g.state
    assert [g.seat(s, "health") for s in range(3)] == [5, 2, 5]
    assert st[K.S_N_HUNT] == 1 and st[K.S_HUNT] == wolf and st[K.S_TYPE_LEFT + wolf] == 1


def test_the_invitation_resolves_on_the_next_draw_and_blocks_retiring():
    rules = load_ruleset()
    g = crafted(3, rules)
    st = g.state
    draw(g, type_of(rules, "invitation", "blue"))
    assert g.phase == "vote" and g.to_move == 0
    g.apply_code(K.A_VOTE_BLOOD)
    g.apply_code(K.A_VOTE_BLUE)
    feed = type_of(rules, "feed_1_village", "blood")
    stack(g, feed)  # the next card: a blood moon
    g.apply_code(K.A_VOTE_HUNTING)
    # no decision phase came between the invitation and the next draw
    kinds = [r[0] for r in g.log[1:1 + g.log[0, 0]]]
    i = kinds.index(K.LG_VOTE)
    assert kinds[i:i + 5] == [K.LG_VOTE, K.LG_VOTE, K.LG_VOTE, K.LG_DRAW, K.LG_INVITE]
    assert K.LG_RETIRE not in kinds
    bonus = rules.get("constants.favourite_bonus")
    village = [rules.get(f"characters.{rules.character_names[g.seat(s, 'character')]}.ground") == "village"
              for s in range(3)]
    assert g.seat(0, "blood") == 3 + 1 + bonus * village[0]       # right: payoff, then the feeding
    assert g.seat(1, "health") == 4 and g.seat(2, "health") == 4  # wrong moons: 1 injury
    assert g.seat(1, "blood") == 1 + bonus * village[1]
    # while an invitation is pending, retiring is not a legal action
    st[K.S_PENDING] = type_of(rules, "invitation", "blue")
    st[K.S_PHASE], st[K.S_DECIDER] = K.PH_DECIDE, 0
    assert K.A_RETIRE not in g.legal_codes()
    with pytest.raises(ValueError, match="not legal"):
        g.apply_code(K.A_RETIRE)


def test_refusing_costs_blood_and_needs_blood():
    rules = load_ruleset()
    g = crafted(3, rules)
    g.state[K.S_S_BLOOD + 1] = 2
    draw(g, type_of(rules, "invitation", "blue"))
    assert K.A_REFUSE not in g.legal_codes()  # seat 0 has no blood: it must vote a moon
    g.apply_code(K.A_VOTE_BLUE)
    assert K.A_REFUSE in g.legal_codes()
    g.apply_code(K.A_REFUSE)
    assert g.seat(1, "blood") == 2 - 1  # refusing costs one blood (the reference's assumed value)


def test_zero_health_sends_a_vampire_to_its_coffin_without_its_blood():
    g = crafted(3)
    st = g.state
    st[K.S_S_HEALTH + 0], st[K.S_S_BLOOD + 0], st[K.S_S_COFFIN + 0] = 1, 6, 9
    supply = int(st[K.S_BLOOD_SUPPLY])
    draw(g, type_of(g.rules, "vampire_slayer_1", "blood"))
    assert g.seat(0, "active") == 0 and g.seat(0, "health") == 0
    assert g.seat(0, "blood") == 0 and g.seat(0, "lost_death") == 6 and g.seat(0, "coffin") == 9
    assert st[K.S_BLOOD_SUPPLY] == supply + 6  # the blood goes back to the supply
    assert [g.seat(s, "health") for s in (1, 2)] == [4, 4]


def test_doubling_doubles_the_card_not_the_ground_bonus():
    rules = load_ruleset()
    g = crafted(3, rules)
    st = g.state
    fav = rules.grounds[g.seat(0, "ground")]
    grp = f"feed_3_{fav}"
    moon = next(K.MOONS[t["moon"]] for t in rules.card_types() if t["name"] == grp)
    double = [i for i in range(15) if rules.flat()[K.R_POWER_KIND + i] == K.PW_DOUBLE][0]
    st[K.S_S_POWER + 0] = double
    draw(g, type_of(rules, grp, moon, 0) if any(
        t["name"] == grp and t["icon"] == 0 for t in rules.card_types()) else type_of(rules, grp, moon, 1))
    assert g.phase == "react" and g.to_move == 0
    g.apply_code(K.A_PLAY_POWER)
    assert g.seat(0, "blood") == 7  # the rulebook's 3 x 2 + 1 on the favourite ground


def test_retiring_banks_blood_and_ties_share_the_victory():
    g = crafted(3)
    st = g.state
    st[K.S_NIGHT] = g.rules.get("constants.nights") - 1
    st[K.S_S_BLOOD + 0], st[K.S_S_COFFIN + 0] = 4, 6
    st[K.S_S_COFFIN + 1] = 10
    st[K.S_S_COFFIN + 2] = 3
    st[K.S_PHASE], st[K.S_SCAN], st[K.S_CURRENT] = K.PH_DECIDE, 0, 0
    st[K.S_DECIDER] = 0
    g.apply_code(K.A_RETIRE)  # 4 blood -> 4 points: 10
    assert g.seat(0, "coffin") == 10 and g.seat(0, "blood") == 0
    while not g.over:
        g.apply_code(K.A_RETIRE if K.A_RETIRE in g.legal_codes() else g.legal_codes()[0])
    rec = g.record_array()
    assert list(rec[K.REC_WIN:K.REC_WIN + 3]) == [1, 1, 0] and rec[K.REC_WINNERS] == 2
    df = play_games(400, seats=["threshold"] * 4, seed=5)
    wins = df[[f"win_{s}" for s in range(4)]].sum(axis=1)
    assert (wins >= 1).all() and (wins[df.tie] >= 2).all() and df.tie.any()


# =========================================================================== determinism
def test_tables_do_not_depend_on_threads_or_chunks():
    seats = ["threshold:t=6", "threshold:t=12", "random"]
    a = simlib.simulate(900, game="till_dawn", seats=seats, seed=4, threads=1, chunk_size=900,
                        progress=False)
    b = simlib.simulate(900, game="till-dawn", seats=seats, seed=4, threads=2, chunk_size=128,
                        progress=False)
    assert a.records.equals(b.records)
    assert a.tables.equals(b.tables)
    c = simlib.simulate(900, game="till_dawn", seats=seats, seed=5, threads=1, progress=False)
    assert not a.records.equals(c.records)  # the seed matters
    # seats rotate: every strategy plays every seat equally often
    t = a.records
    for s in range(3):
        assert t[f"strategy_{s}"].value_counts().tolist() == [300, 300, 300]


def test_tables_of_a_mixed_study():
    res = simlib.simulate(1200, game="till_dawn", players=[3, 4], seed=2, progress=False)
    t = res.tables
    assert list(t.by_players.index) == [3, 4] and t.by_players.games.sum() == 1200
    assert t.by_seat.games.sum() == 600 * 3 + 600 * 4
    assert {"by_character", "by_strategy", "mean_points_by_strategy", "end_causes"} <= set(t)
    # win shares: every game has a winner, ties give several
    seat_wins = t.by_seat.wins.groupby(level="players").sum()
    ties = t.by_players.ties
    assert (seat_wins >= t.by_players.games).all() and (seat_wins > t.by_players.games).sum() \
        == (ties > 0).sum()


# =========================================================================== optimal stopping
def tiny_rules():
    """One vampire's tiny deck: 2 feeding cards, 1 sun rising 1, 1 slayer 1, 1 werewolf,
    1 invitation; a 3-space night track.  No night lingers: the oracle is a plain
    recursion."""
    r = load_ruleset()
    zero = {"blood": 0, "blue": 0, "hunting": 0}
    ov = {"constants.track_length": 3}
    keep = {"feed_2_forest": {"blood": 1, "blue": 0, "hunting": 1},
            "sun_rising_1": {"blood": 0, "blue": 1, "hunting": 0},
            "vampire_slayer_1": {"blood": 0, "blue": 1, "hunting": 0},
            "werewolf": {"blood": 1, "blue": 0, "hunting": 0},
            "invitation": {"blood": 0, "blue": 0, "hunting": 1}}
    for grp in r.group_names:
        ov[f"hunt.{grp}.moons"] = keep.get(grp, zero)
        ov[f"hunt.{grp}.event_icons"] = zero
    return r.override(ov)


def oracle(rules, fav: str, q: float, b_lo: int, b_hi: int):
    """V(p, b, h) and C(p, b, h) of the single-vampire model by plain Jacobi value iteration
    over every state at once (blood capped at ``b_hi`` as in the player): an independent,
    slow implementation of the Bellman equations the kernel solves layer by layer."""
    types = rules.card_types()
    total = sum(t["count"] for t in types)
    L = rules.get("constants.track_length")
    bonus = rules.get("constants.favourite_bonus")
    fav_i = rules.grounds.index(fav)
    H = 5
    states = [(p, b, h) for p in range(L) for b in range(b_lo, b_hi + 1) for h in range(1, H + 1)]
    sigs = sorted({(t["payoff"], t["payoff_hunting"], t["penalty"]) for t in types
                   if K.KINDS[t["kind"]] == "invitation"})
    V = {x: float(x[1]) for x in states}
    Y = {(x, g): 0.0 for x in states for g in sigs}

    def after(t, p, b, h):
        k = K.KINDS[t["kind"]]
        v = t["value"]
        if k == "feeding":
            return V[(p, min(b + v + (bonus if t["ground"] == fav_i else 0), b_hi), h)]
        if k == "sun_rising":
            return 0.0 if p + v >= L else V[(p + v, b, h)]
        if k == "vampire_slayer":
            return 0.0 if h - v <= 0 else V[(p, b, h - v)]
        if k == "werewolf":
            return q * (0.0 if h - v <= 0 else V[(p, b, h - v)]) + (1 - q) * V[(p, b, h)]
        if k == "invitation":
            return Y[((p, b, h), (t["payoff"], t["payoff_hunting"], t["penalty"]))]
        raise AssertionError(k)

    def cont(p, b, h):
        return sum(t["count"] / total * after(t, p, b, h) for t in types)

    for _ in range(10_000):
        newV = {x: max(float(x[1]), cont(*x)) for x in states}
        newY = {}
        for (p, b, h) in states:
            for (pay, payh, pen) in sigs:
                best = -1.0
                for vote in range(3):
                    tot = 0.0
                    for t in types:
                        if t["moon"] == vote:
                            b2 = min(b + (payh if vote == K.MOON_HUNTING else pay), b_hi)
                            tot += t["count"] / total * after(t, p, b2, h)
                        elif h - pen > 0:
                            tot += t["count"] / total * after(t, p, b, h - pen)
                    best = max(best, tot)
                newY[((p, b, h), (pay, payh, pen))] = best
        delta = max(max(abs(newV[x] - V[x]) for x in V), max(abs(newY[x] - Y[x]) for x in Y))
        V, Y = newV, newY
        if delta < 1e-13:
            break
    C = {x: cont(*x) for x in states}
    return V, C


def test_the_optimal_stopping_tables_equal_a_brute_force_recursion():
    rules = tiny_rules()
    assert sum(t["count"] for t in rules.card_types()) == 6
    flat = rules.flat()
    g = Game(seed=0, players=2, ruleset=rules)
    st = g.state
    s = 0
    st[K.S_S_ACTIVE + 1] = 0  # alone: the werewolf always hits (q = 1)
    st[K.S_S_ACTIVE + 0] = 1
    st[K.S_TYPE_LEFT:K.S_TYPE_LEFT + K.MAX_TYPES] = 0
    for t, ct in enumerate(rules.card_types()):
        st[K.S_TYPE_LEFT + t] = ct["count"]
    st[K.S_S_BLOOD + s], st[K.S_S_HEALTH + s], st[K.S_TRACK] = 3, 5, 0
    span = 8
    b_lo, nb, h1, L = P.dp_dims_nb(st, flat, s, span)
    work = np.zeros((4 + K.MAX_INVITES) * nb * h1 * L + P.dp_scratch_floats_nb(L))
    cls = (np.zeros(K.MAX_TYPES, np.int64), np.zeros(K.MAX_TYPES, np.int64),
           np.zeros(K.MAX_TYPES, np.int64), np.zeros(K.MAX_TYPES), np.zeros((K.MAX_INVITES, 3), np.int64))
    assert P.dp_solve_nb(st, flat, s, span, work, *cls, 0) > 0
    blk = nb * h1 * L
    fav = rules.grounds[int(st[K.S_S_GROUND + s])]
    V, C = oracle(rules, fav, 1.0, b_lo, b_lo + nb - 1)
    retire_somewhere = False
    for bi in range(nb):
        for h in range(1, h1):
            for p in range(L):
                i = (bi * h1 + h) * L + p
                got = work[blk + i] + work[2 * blk + i] + work[3 * blk + i]
                assert got == pytest.approx(C[(p, b_lo + bi, h)], abs=1e-9)
                assert work[i] == pytest.approx(V[(p, b_lo + bi, h)], abs=1e-9)
                retire_somewhere |= C[(p, b_lo + bi, h)] < b_lo + bi
    assert retire_somewhere  # the tables hold both decisions
    # the player (with its one-draw shortcut) retires exactly when stopping beats continuing
    st[K.S_PHASE], st[K.S_DECIDER], st[K.S_PENDING] = K.PH_DECIDE, 0, -1
    legal = np.array([K.A_STAY, K.A_RETIRE] + [0] * (K.N_ACTIONS - 2), np.int64)
    params = np.array([span, 0, 0], np.float64)
    seen = set()
    for b in (1, 3, 6):
        _, Cb = oracle(rules, fav, 1.0, max(0, b - 1), b + span)
        for h in range(1, 6):
            for p in range(L):
                st[K.S_S_BLOOD + s], st[K.S_S_HEALTH + s], st[K.S_TRACK] = b, h, p
                a = P.optimal_nb(st, flat, s, params, legal, 2, work, *cls)
                want = K.A_STAY if Cb[(p, b, h)] > b else K.A_RETIRE
                assert a == want, (p, b, h, Cb[(p, b, h)])
                seen.add(a)
                if P.one_draw_bound_nb(st, flat, s, span) > b:
                    assert a == K.A_STAY
    assert seen == {K.A_STAY, K.A_RETIRE}


def _reference():
    """The solve the player used before its exact per-layer rewrite (tests/ folder)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).with_name("till_dawn_dp_reference.py")
    spec = importlib.util.spec_from_file_location("till_dawn_dp_reference", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _two_invitations(tmp_path):
    """The reference deck plus a second kind of invitation (payoff 2, 5 on a hunting moon,
    penalty 2): two invitation tables, the top layer swept."""
    import shutil

    d = tmp_path / "two_invites"
    shutil.copytree(default_ruleset_dir(), d)
    with open(d / "hunt.toml", "a") as f:
        f.write('\n[invitation_b]\nkind = { value = "invitation", source = "assumed" }\n'
                'moons = { value = { blood = 1, blue = 1, hunting = 1 }, source = "assumed" }\n'
                'event_icons = { value = { blood = 0, blue = 0, hunting = 0 }, source = "assumed" }\n'
                'payoff = { value = 2, source = "assumed" }\n'
                'payoff_hunting = { value = 5, source = "assumed" }\n'
                'penalty = { value = 2, source = "assumed" }\n')
    return load_ruleset(d)


def _random_position(rng, rules):
    """A state at a random deck composition, track position, blood, health and table."""
    players = int(rng.integers(2, 6))
    g = Game(seed=int(rng.integers(1 << 30)), players=players, ruleset=rules)
    st = g.state
    flat = rules.flat()
    nt = int(flat[K.R_PARAMS + K.P_N_TYPES])
    while True:
        for t in range(nt):
            st[K.S_TYPE_LEFT + t] = rng.integers(0, flat[K.R_TYPES + t * K.CT_N + K.CT_COUNT] + 1)
        if st[K.S_TYPE_LEFT:K.S_TYPE_LEFT + nt].sum() > 0:
            break
    s = int(rng.integers(players))
    st[K.S_DECIDER] = s
    st[K.S_S_ACTIVE:K.S_S_ACTIVE + players] = rng.integers(0, 2, players)
    st[K.S_S_ACTIVE + s] = 1
    st[K.S_TRACK] = rng.integers(0, rules.get("constants.track_length"))
    st[K.S_S_BLOOD + s] = rng.integers(0, 45)
    st[K.S_S_HEALTH + s] = rng.integers(1, st[K.S_S_MAX_HEALTH + s] + 1)
    return g, s


@pytest.mark.parametrize("which", ["reference", "track_20", "payoff_0", "two_invitations"])
def test_the_exact_solve_equals_the_reference_solve_on_random_states(which, tmp_path):
    """The per-layer exact solve fills the same tables as the reference sweeps (to their
    1e-10 tolerance) and the player takes the same decisions, on random positions of the
    reference deck, a track too long for the prefix inverses, a zero payoff (invitations
    looping inside a layer) and two kinds of invitation."""
    R = _reference()
    rules = {"reference": lambda: load_ruleset(),
             "track_20": lambda: load_ruleset().override({"constants.track_length": 20}),
             "payoff_0": lambda: load_ruleset().override({"hunt.invitation.payoff": 0}),
             "two_invitations": lambda: _two_invitations(tmp_path)}[which]()
    flat = rules.flat()
    rng = np.random.default_rng({"reference": 11, "track_20": 12, "payoff_0": 13,
                                 "two_invitations": 14}[which])
    size = P.dp_scratch_floats_nb(rules.get("constants.track_length")) + \
        (4 + K.MAX_INVITES) * 60 * 6 * rules.get("constants.track_length")

    def scratch():
        return (np.zeros(size), np.zeros(K.MAX_TYPES, np.int64), np.zeros(K.MAX_TYPES, np.int64),
                np.zeros(K.MAX_TYPES, np.int64), np.zeros(K.MAX_TYPES),
                np.zeros((K.MAX_INVITES, 3), np.int64))

    new, ref = scratch(), scratch()
    legal = np.zeros(K.N_ACTIONS, np.int64)
    decisions = {K.PH_DECIDE: set(), K.PH_VOTE: set()}
    n_states = 40 if which == "reference" else 15
    for i in range(n_states):
        g, s = _random_position(rng, rules)
        st = g.state
        if i < 3:  # nothing but invitations left (of one moon, of each moon, one card)
            for t in range(int(flat[K.R_PARAMS + K.P_N_TYPES])):
                kind, moon = flat[K.R_TYPES + t * K.CT_N + K.CT_KIND], flat[K.R_TYPES + t * K.CT_N + K.CT_MOON]
                if kind != K.K_INVITATION or (i != 1 and moon != K.MOON_BLUE):
                    st[K.S_TYPE_LEFT + t] = 0
                else:
                    st[K.S_TYPE_LEFT + t] = 1 if i == 2 else flat[K.R_TYPES + t * K.CT_N + K.CT_COUNT]
        span = int(rng.choice([3, 10, 25]))
        b_lo, nb, h1, L = P.dp_dims_nb(st, flat, s, span)
        bi_from = int(rng.integers(0, st[K.S_S_BLOOD + s] - b_lo + 1))
        assert R.reference_solve_nb(st, flat, s, span, *ref) > 0
        assert P.dp_solve_nb(st, flat, s, span, *new, bi_from) > 0
        blk = nb * h1 * L
        ninv = len({tuple(x) for x in ref[5][:K.MAX_INVITES] if x.any()} & {
            (flat[K.R_TYPES + t * K.CT_N + K.CT_PAYOFF], flat[K.R_TYPES + t * K.CT_N + K.CT_PAYOFF_HUNTING],
             flat[K.R_TYPES + t * K.CT_N + K.CT_PENALTY]) for t in range(K.MAX_TYPES)
            if st[K.S_TYPE_LEFT + t] > 0 and flat[K.R_TYPES + t * K.CT_N + K.CT_KIND] == K.K_INVITATION})
        for blockno in range(4 + ninv):
            got = new[0][blockno * blk:(blockno + 1) * blk].reshape(nb, h1, L)[bi_from:, 1:]
            want = ref[0][blockno * blk:(blockno + 1) * blk].reshape(nb, h1, L)[bi_from:, 1:]
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-8)
        # the same choices: stop or stay at this position, and a vote on each invitation
        params = np.array([span, 0, 0], np.float64)
        st[K.S_PENDING] = -1
        st[K.S_PHASE] = K.PH_DECIDE
        legal[:2] = K.A_STAY, K.A_RETIRE
        a = P.optimal_nb(st, flat, s, params, legal, 2, *new)
        assert a == R.reference_optimal_nb(st, flat, s, params, legal, 2, *ref)
        decisions[K.PH_DECIDE].add(int(a))
        for t in range(int(flat[K.R_PARAMS + K.P_N_TYPES])):
            if flat[K.R_TYPES + t * K.CT_N + K.CT_KIND] == K.K_INVITATION and st[K.S_TYPE_LEFT + t] > 0:
                st[K.S_PHASE], st[K.S_CARD] = K.PH_VOTE, t
                n = E.legal_actions_nb(st, flat, legal)
                a = P.optimal_nb(st, flat, s, params, legal, n, *new)
                assert a == R.reference_optimal_nb(st, flat, s, params, legal, n, *ref)
                decisions[K.PH_VOTE].add(int(a))
                break
    assert decisions[K.PH_DECIDE] == {K.A_STAY, K.A_RETIRE}  # both answers were checked
    assert len(decisions[K.PH_VOTE]) >= 2


def _reference_action_value(R, st, flat, s, span, ref, a):
    """The reference tables' value of action ``a`` at the decision just solved."""
    work, inv_pay = ref[0], ref[5]
    b_lo, nb, h1, L = P.dp_dims_nb(st, flat, s, span)
    blk = nb * h1 * L
    b, h, p = st[K.S_S_BLOOD + s], st[K.S_S_HEALTH + s], st[K.S_TRACK]
    if a == K.A_RETIRE:
        return float(b)
    if a in (K.A_STAY, K.A_REFUSE):
        bi = b - b_lo - (flat[K.R_PARAMS + K.P_REFUSE_COST] if a == K.A_REFUSE else 0)
        i0 = (bi * h1 + h) * L + p
        return work[blk + i0] + work[2 * blk + i0] + work[3 * blk + i0]
    return R._ref_vote_values_nb(work, blk, b - b_lo, h, p, h1, L, nb, inv_pay, 0, a - K.A_VOTE_BLOOD)


def test_the_exact_solve_takes_the_reference_decisions_along_played_games():
    """Heads-up games against a threshold player: at every decision of the optimal player
    the reference solve (same scratch history) takes the same action (150 games, about
    1,600 solved decisions), except at exact ties, where both actions are worth the same
    and the last bits of the two solves break the tie (the reference's own values of the
    two actions then differ by less than 1e-9)."""
    R = _reference()
    checked = ties = 0
    for game in range(150):
        g = Game(seed=5, game=game, seats=["optimal", "threshold"])
        ref = tuple(a.copy() for a in g._scratch[1:])
        flat = g.rules.flat()
        params = g.seats[0].vector()
        while not g.over:
            codes = g.legal_codes()
            if g.to_move == 0 and len(codes) > 1:
                legal = np.zeros(K.N_ACTIONS, np.int64)
                legal[:len(codes)] = codes
                want = R.reference_optimal_nb(g.state, flat, 0, params, legal, len(codes), *ref)
                i = g.policy_choice()
                if codes[i] != want:
                    va = _reference_action_value(R, g.state, flat, 0, 25, ref, codes[i])
                    vb = _reference_action_value(R, g.state, flat, 0, 25, ref, want)
                    assert abs(va - vb) < 1e-9, (game, g.describe(), va, vb)
                    ties += 1
                checked += g.phase in ("vote", "decide")
                g.apply(i)
            else:
                g.apply(g.policy_choice())
    assert checked > 1000 and ties <= 3


def test_a_vote_does_not_depend_on_what_earlier_solves_left_in_the_scratch():
    """With no invitation left in the deck the solve registers no payoffs; the vote on the
    invitation just drawn uses that card's own payoffs whatever the scratch holds (a fresh
    game's zeros, another invitation's payoffs)."""
    rules = load_ruleset()
    flat = rules.flat()
    inv = type_of(rules, "invitation", "hunting")
    rng = np.random.default_rng(21)
    seen = set()
    for i in range(12):
        g, s = _random_position(rng, rules)
        st = g.state
        for t in range(int(flat[K.R_PARAMS + K.P_N_TYPES])):
            if flat[K.R_TYPES + t * K.CT_N + K.CT_KIND] == K.K_INVITATION or (
                    i % 2 and flat[K.R_TYPES + t * K.CT_N + K.CT_MOON] == K.MOON_BLOOD):
                st[K.S_TYPE_LEFT + t] = 0  # and every other deck without blood moons
        st[K.S_PHASE], st[K.S_CARD], st[K.S_PENDING] = K.PH_VOTE, inv, inv
        legal = np.zeros(K.N_ACTIONS, np.int64)
        n = E.legal_actions_nb(st, flat, legal)
        params = np.array([25, 0, 0], np.float64)
        picks = []
        for stale in ((0, 0, 0), (3, 6, 1), (9, 1, 4)):
            scratch = [np.zeros(work_size(rules, [make_seat("optimal")]))] + \
                [a.copy() for a in g._scratch[2:]]
            scratch[-1][:] = stale
            picks.append(P.optimal_nb(st, flat, s, params, legal, n, *scratch))
        assert picks[0] == picks[1] == picks[2]
        seen.add(int(picks[0]))
    assert len(seen) >= 2  # the votes differ between positions: not a constant answer


def test_optimal_stopping_beats_fixed_thresholds_heads_up():
    df = play_games(300, seats=["optimal", "threshold:t=10"], seed=1)
    df2 = play_games(300, seats=["threshold:t=10", "optimal"], seed=1)
    opt = np.concatenate([df.score_0.to_numpy(float), df2.score_1.to_numpy(float)])
    thr = np.concatenate([df.score_1.to_numpy(float), df2.score_0.to_numpy(float)])
    assert opt.mean() > thr.mean()


# =========================================================================== registry and CLI
def test_the_registry_lists_till_dawn_after_until_daylight():
    games = simlib.list_games()
    assert games[:2] == ["until_daylight", "till_dawn"]  # simlib's own games first, in order
    from simlib.core.games import get_game

    assert get_game("Till-Dawn").display_name == "Till Dawn"
    with pytest.raises(ValueError, match="unknown game 'monopoly'; allowed: until-daylight, till-dawn, "):
        get_game("monopoly")


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


BAD = [
    (["--game", "monopoly"], "unknown game 'monopoly'"),
    (["--game", "till-dawn", "--players", "9"], "players must be an integer from 2 to 8; got 9"),
    (["--game", "till-dawn", "--seats", "optimal,genius"], "unknown policy 'genius'"),
    (["--game", "till-dawn", "--seats", "threshold:t=high,random"], "is not a number"),
    (["--game", "till-dawn", "--seats", "threshold:tt=3,random"], "has no parameter 'tt'"),
    (["--game", "till-dawn", "--seats", "optimal:blood_span=0,random"], "blood_span must be"),
    (["--game", "till-dawn", "--seats", "random,random", "--policy", "random"], "drop --policy"),
    (["--game", "till-dawn", "--characters", "all"], "Till Dawn enumerates no teams"),
    (["--game", "till-dawn", "--characters", "vlad,vlad,orlok", "--players", "3"], "duplicate characters"),
    (["--game", "till-dawn", "--policy-param", "t=x"], "is not a number"),
    (["--game", "till-dawn", "--rules", "{tmp}/bad.toml"], "hunt.werewolf.valu: unknown key"),
    (["--seats", "random,random,random"], "Until Daylight is cooperative"),
]


@pytest.mark.parametrize("argv, message", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_arguments_exit_2_with_one_line_and_write_nothing(capsys, tmp_path, argv, message):
    (tmp_path / "bad.toml").write_text("[hunt.werewolf]\nvalu = 2\n")
    before = sorted(p.name for p in tmp_path.iterdir())
    argv = [a.format(tmp=tmp_path) for a in argv]
    code, out, err = run_cli(capsys, "simulate", "--games", "50", "--no-progress", "--out",
                             str(tmp_path / "r.parquet"), *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("simlib")
    assert message in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_simulate_report_trace_and_games_from_the_command_line(capsys, tmp_path):
    out = tmp_path / "td.parquet"
    code, text, err = run_cli(capsys, "simulate", "--game", "till-dawn", "--games", "240",
                              "--players", "3,4", "--seed", "3", "--no-progress", "--out", str(out))
    assert code == 0, err
    assert text.startswith("Till Dawn: 240 games, seed 3")
    assert "== win % by seat (rows) and players (columns)" in text and "== by character ==" in text
    code, again, _ = run_cli(capsys, "report", str(out))
    assert code == 0 and again.split("\n", 1)[1] == text.split("\n", 1)[1].rsplit("\nwrote", 1)[0]
    code, tr, _ = run_cli(capsys, "trace", "--game", "till-dawn", "--players", "3,4", "--seed", "3",
                          "--index", "5")
    assert code == 0 and tr.startswith("Till Dawn, game 5: 4 players") and "Coffin points" in tr
    code, listing, _ = run_cli(capsys, "games")
    line = next(ln for ln in listing.splitlines() if ln.startswith("till-dawn "))
    assert code == 0 and "Till Dawn (competitive)" in line and "optimal" in line
    code, listing, _ = run_cli(capsys, "games", "--verbose")
    assert code == 0 and "    policy optimal" in listing


# =========================================================================== pure Python
REF_SCRIPT = """
import sys
import numpy as np
from simlib.games.till_dawn.api import play_games
df = play_games(int(sys.argv[2]), seats=sys.argv[1].split(","), seed=3, threads=1)
sys.stdout.write(df.to_json())
"""


@pytest.mark.parametrize("seats, n", [("random,threshold:t=8,threshold", 4),
                                      ("optimal:blood_span=4,threshold:t=12", 2)])
def test_pure_python_reference_plays_the_same_games(seats, n):
    import os
    import subprocess
    import sys

    import pandas as pd

    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-W", "ignore::RuntimeWarning", "-c", REF_SCRIPT, seats, str(n)],
                         env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    jit = play_games(n, seats=seats.split(","), seed=3, threads=1)
    py = pd.read_json(__import__("io").StringIO(out.stdout))
    for c in ("draws", "top_score", "score_0", "score_1", "character_0", "end_cause"):
        assert py[c].astype(str).tolist() == jit[c].astype(str).tolist(), c


def test_a_counts_only_run_and_its_saved_file_give_the_same_tables(tmp_path):
    from simlib.core.games import get_game

    load_result = get_game("till_dawn").load_result

    kw = dict(game="till_dawn", seats=["threshold:t=8", "threshold:t=12", "random"], seed=6,
              progress=False, chunk_size=100)
    a = simlib.simulate(300, **kw)
    b = simlib.simulate(300, keep_records=False, out=tmp_path / "c.parquet", **kw)
    assert b.records is None and a.tables.equals(b.tables)
    assert load_result(tmp_path / "c.parquet").tables.equals(a.tables)


def _power(rules, kind: str) -> int:
    flat = rules.flat()
    return [i for i in range(int(flat[K.R_PARAMS + K.P_N_POWERS]))
            if flat[K.R_POWER_KIND + i] == K.POWER_KINDS.index(kind)][0]


def _event(rules, kind: str) -> int:
    flat = rules.flat()
    return [i for i in range(int(flat[K.R_PARAMS + K.P_N_EVENTS]))
            if flat[K.R_EVENT_KIND + i] == K.EVENT_KINDS.index(kind)][0]


def test_cancel_voids_the_last_play_and_copy_acts_as_a_power_played_this_night():
    rules = load_ruleset()
    g = crafted(3, rules)
    st = g.state
    feed = type_of(rules, "feed_2_graveyard", "blue")
    st[K.S_S_POWER + 0] = _power(rules, "double_feeding")
    st[K.S_S_POWER + 1] = _power(rules, "cancel")
    st[K.S_S_POWER + 2] = [i for i in range(15) if rules.flat()[K.R_POWER_KIND + i] == K.PW_COPY][0]
    draw(g, feed)
    # seat 2's copy is not usable yet: no doubling has been played this night
    assert g.phase == "react" and g.to_move == 0
    g.apply_code(K.A_PLAY_POWER)
    assert g.phase == "cancel" and g.to_move == 1  # only the cancel power may answer
    g.apply_code(K.A_CANCEL)
    # now a doubling was played face up: seat 2's copy acts as one
    assert g.phase == "react" and g.to_move == 2 and K.A_PLAY_POWER in g.legal_codes()
    g.apply_code(K.A_PLAY_POWER)
    bonus = 1  # the rulebook's +1 blood on a favourite ground
    gy = [rules.grounds[g.seat(s, "ground")] == "graveyard" for s in range(3)]
    assert g.seat(0, "blood") == 2 + bonus * gy[0]      # its doubling was cancelled
    assert g.seat(2, "blood") == 4 + bonus * gy[2]      # the copy doubled
    assert [g.seat(s, "power") for s in range(3)] == [-1, -1, -1]


def test_protection_and_events():
    rules = load_ruleset()
    g = crafted(3, rules)
    st = g.state
    st[K.S_S_EVENT + 1] = _event(rules, "protection")
    draw(g, type_of(rules, "vampire_slayer_2", "blood"))
    assert g.phase == "react" and g.to_move == 1
    g.apply_code(K.A_PLAY_EVENT)
    assert [g.seat(s, "health") for s in range(3)] == [3, 5, 3]
    assert g.seat(1, "event") == -1
    # heal in the decision phase, not above the maximum
    for before, after in ((2, 4), (4, 5)):  # the rulebook's +2 health; the maximum is 5
        st[K.S_S_HEALTH + 0] = before
        st[K.S_S_EVENT + 0] = _event(rules, "heal")
        st[K.S_PHASE], st[K.S_DECIDER], st[K.S_SCAN], st[K.S_CURRENT] = K.PH_DECIDE, 0, 0, 0
        assert K.A_HEAL in g.legal_codes()
        g.apply_code(K.A_HEAL)
        assert g.seat(0, "health") == after
    assert g.phase == "decide" and g.to_move == 0 and K.A_HEAL not in g.legal_codes()
    # an event icon with an event already held: keep one of the two
    g2 = crafted(3, rules)
    g2.state[K.S_S_EVENT + 0] = _event(rules, "heal")
    draw(g2, type_of(rules, "vampire_slayer_2", "blue", icon=1))
    assert g2.phase == "keep" and g2.to_move == 0
    new = int(g2.state[K.S_CANDIDATE])
    g2.apply_code(K.A_KEEP_NEW)
    assert g2.seat(0, "event") == new

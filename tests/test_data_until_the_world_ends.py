"""Until the World Ends: a second transcription of the reference values, from the rulebook
and the game's rules as simlib documents them (the game's reference ruleset: the 54-card
reference deck in the effect vocabulary, constants, variants).  Every value below was typed
from that text, not copied from the data files; the test compares it key by key with the
shipped ``reference`` ruleset.  A disagreement is a data error or a transcription error, to
be settled against the rulebook.  Every key of the reference ruleset is transcribed
(``test_every_shipped_key_is_transcribed``); a key the rules did not state would be listed
in ``UNTRANSCRIBED`` with the reason (none today).

Effects are compared as the engine reads them (``parse_effect``), so spacing and a leading
``+`` do not matter.
"""
from __future__ import annotations

from simlib.games.until_the_world_ends import codes as K
from simlib.games.until_the_world_ends.ruleset import parse_effect
from tests.transcription import transcription_tests

EXPECTED = {
    # --- constants: rulebook "Setup" (deal three cards each), "Rules of a turn" (no more than
    # five cards), "How to play" (start with 100), "Hoarding ending cards" (five endings end
    # the round; 6 to 10 players share one ending by two: ceil(players / 5)), "Scoring"
    # (two to any number of players: simlib's bound is the largest table the 54 cards deal
    # three each to with a card left to draw, (54 - 1) // 3 = 17; the publisher's box says 2-8);
    # the game's rules (caps: 200 turns a round, 30 rounds a game)
    "constants.min_players": 2,
    "constants.max_players": (54 - 1) // 3,
    "constants.deal": 3,
    "constants.hand_limit": 5,
    "constants.target": 100,
    "constants.hoard_size": 5,
    "constants.hoard_share": 5,
    "constants.turn_cap": 200,
    "constants.round_cap": 30,
    # colours: red outbreak, green natural, purple cosmic (the disasters), blue personal
    "constants.colours": ("outbreak", "natural", "cosmic", "personal"),
    "constants.disasters": ("outbreak", "natural", "cosmic"),
    # variants: the rules' defaults (a drawn instantaneous ends the turn, escalations
    # multiply, a redeal deals floor(D / n) each)
    "constants.variants.draw_again_after_instant": False,
    "constants.variants.additive_escalation": False,
    "constants.variants.deal_all": False,
    # --- timeline events (26), the game's reference deck: outbreak 2, 3, 3, 4, 4, 5, 6, 8;
    # natural 2, 3, 4, 5, 6, 7; cosmic 3, 5, 8, 10; personal 1, 2, 2, 3, 3, 4, 5, 6
    "cards.outbreak_2.effect": "points(outbreak, 2)",
    "cards.outbreak_2.count": 1,
    "cards.outbreak_3.effect": "points(outbreak, 3)",
    "cards.outbreak_3.count": 2,
    "cards.outbreak_4.effect": "points(outbreak, 4)",
    "cards.outbreak_4.count": 2,
    "cards.outbreak_5.effect": "points(outbreak, 5)",
    "cards.outbreak_5.count": 1,
    "cards.outbreak_6.effect": "points(outbreak, 6)",
    "cards.outbreak_6.count": 1,
    "cards.outbreak_8.effect": "points(outbreak, 8)",
    "cards.outbreak_8.count": 1,
    "cards.natural_2.effect": "points(natural, 2)",
    "cards.natural_2.count": 1,
    "cards.natural_3.effect": "points(natural, 3)",
    "cards.natural_3.count": 1,
    "cards.natural_4.effect": "points(natural, 4)",
    "cards.natural_4.count": 1,
    "cards.natural_5.effect": "points(natural, 5)",
    "cards.natural_5.count": 1,
    "cards.natural_6.effect": "points(natural, 6)",
    "cards.natural_6.count": 1,
    "cards.natural_7.effect": "points(natural, 7)",
    "cards.natural_7.count": 1,
    "cards.cosmic_3.effect": "points(cosmic, 3)",
    "cards.cosmic_3.count": 1,
    "cards.cosmic_5.effect": "points(cosmic, 5)",
    "cards.cosmic_5.count": 1,
    "cards.cosmic_8.effect": "points(cosmic, 8)",
    "cards.cosmic_8.count": 1,
    "cards.cosmic_10.effect": "points(cosmic, 10)",
    "cards.cosmic_10.count": 1,
    "cards.personal_1.effect": "points(personal, 1)",
    "cards.personal_1.count": 1,
    "cards.personal_2.effect": "points(personal, 2)",
    "cards.personal_2.count": 2,
    "cards.personal_3.effect": "points(personal, 3)",
    "cards.personal_3.count": 2,
    "cards.personal_4.effect": "points(personal, 4)",
    "cards.personal_4.count": 1,
    "cards.personal_5.effect": "points(personal, 5)",
    "cards.personal_5.count": 1,
    "cards.personal_6.effect": "points(personal, 6)",
    "cards.personal_6.count": 1,
    # --- good things (6): +10, +5, +5, +3, -3, -5
    "cards.good_plus_10.effect": "add_all(10)",
    "cards.good_plus_10.count": 1,
    "cards.good_plus_5.effect": "add_all(5)",
    "cards.good_plus_5.count": 2,
    "cards.good_plus_3.effect": "add_all(3)",
    "cards.good_plus_3.count": 1,
    "cards.good_minus_3.effect": "add_all(-3)",
    "cards.good_minus_3.count": 1,
    "cards.good_minus_5.effect": "add_all(-5)",
    "cards.good_minus_5.count": 1,
    # --- escalations (6): x2 outbreak, x2 natural, x2 cosmic, x2 personal, x2 every
    # disaster, x3 outbreak
    "cards.outbreak_x2.effect": "multiply(outbreak, 2)",
    "cards.outbreak_x2.count": 1,
    "cards.natural_x2.effect": "multiply(natural, 2)",
    "cards.natural_x2.count": 1,
    "cards.cosmic_x2.effect": "multiply(cosmic, 2)",
    "cards.cosmic_x2.count": 1,
    "cards.personal_x2.effect": "multiply(personal, 2)",
    "cards.personal_x2.count": 1,
    "cards.disaster_x2.effect": "multiply(disaster, 2)",
    "cards.disaster_x2.count": 1,
    "cards.outbreak_x3.effect": "multiply(outbreak, 3)",
    "cards.outbreak_x3.count": 1,
    # --- instantaneous (9): wipe-out 2 (every player discards their last timeline card),
    # snipe 2 (one timeline card of a chosen player), shift 1 (each passes their last card
    # to the left neighbour), clear good things 1, clear escalations 1, scavenge 2 (each
    # player draws one)
    "cards.wipe_out.effect": "discard_last(all)",
    "cards.wipe_out.count": 2,
    "cards.snipe.effect": "remove_one(chosen)",
    "cards.snipe.count": 2,
    "cards.shift.effect": "pass_last(left)",
    "cards.shift.count": 1,
    "cards.clear_good_things.effect": "clear(good)",
    "cards.clear_good_things.count": 1,
    "cards.clear_escalations.effect": "clear(escalation)",
    "cards.clear_escalations.count": 1,
    "cards.scavenge.effect": "draw_each(1)",
    "cards.scavenge.count": 2,
    # --- endings (7): The End 3 (no modifier), Last Stand 1 (personal x2), Nuclear Winter 1
    # (natural scores 0), Rescue 1 (+10 to the players with the most personal events),
    # It Spreads 1 (outbreak x2)
    "cards.the_end.effect": "end(none)",
    "cards.the_end.count": 3,
    "cards.last_stand.effect": "end(multiply(personal, 2))",
    "cards.last_stand.count": 1,
    "cards.nuclear_winter.effect": "end(zero(natural))",
    "cards.nuclear_winter.count": 1,
    "cards.rescue.effect": "end(bonus_most(personal, 10))",
    "cards.rescue.count": 1,
    "cards.it_spreads.effect": "end(multiply(outbreak, 2))",
    "cards.it_spreads.count": 1,
}

# Known disagreements between the shipped data and this transcription, to be settled against
# the rulebook (strict: the test fails once the data and the transcription agree).
OPEN_QUESTIONS: dict[str, str] = {}


DECK_TOTAL = 54  # rulebook: "54 cards in a metal tin"
KIND_TOTALS = {"event": 26, "good": 6, "escalation": 6, "instant": 9, "ending": 7}
EVENT_POINTS = 114  # the 26 timeline events' printed points


def _same(got, want, rules):
    """Effects compare as the engine reads them (spacing and a leading + do not matter)."""
    if isinstance(want, str) and isinstance(got, str) and got != want:
        colours, disasters = rules.get("constants.colours"), rules.get("constants.disasters")
        try:
            return parse_effect(got, colours, disasters) == parse_effect(want, colours, disasters)
        except ValueError:
            return False
    return got == want


# Keys of the reference ruleset that neither the rulebook nor the docs page states, with the
# reason (none: every key is transcribed).
UNTRANSCRIBED: dict[str, str] = {}

rules, test_reference_value, test_every_key_exists, test_every_shipped_key_is_transcribed = \
    transcription_tests("until_the_world_ends", "reference", EXPECTED, same=_same,
                        open_questions=OPEN_QUESTIONS, untranscribed=UNTRANSCRIBED)


def test_deck_totals(rules):
    names = {k.split(".")[1] for k in EXPECTED if k.startswith("cards.")}
    assert set(rules.card_names) == names
    assert sum(rules.get(f"cards.{n}.count") for n in rules.card_names) == DECK_TOTAL
    assert rules.kind_counts() == KIND_TOTALS
    points = 0
    for row in rules.card_rows():
        if row["kind"] == K.KIND_EVENT:  # a timeline event: points(colour, n)
            points += row["value"] * row["count"]
    assert points == EVENT_POINTS

"""The HTML report of a what-if comparison (the page's "report" download), built from the
sections of :mod:`simlib.core.report`: the paired differences with their anytime-valid
intervals, the counts with the fixed-n statistics ``simlib compare`` prints, the changed
values and the setup."""
from __future__ import annotations

import pandas as pd

from ..core.report import Note, Report, Section, frame_table, paired_differences_section
from .session import value_text

__all__ = ["comparison_report"]


def _row_label(r: dict) -> str:
    return f"{r['key']} players" if r["group"] == "players" else f"seat {r['key']}"


def comparison_report(page) -> Report:
    """The report of ``page``'s run as it stands (a stopped or running run: the games so far)."""
    from ..core.version import __version__

    info = page.info
    run = page.run
    if run is None:
        raise ValueError("no comparison yet: change a value first")
    snap = run.snapshot()
    rows = [r for r in snap["rows"] if r["games"]]
    if not rows:
        raise ValueError("no games played yet: wait for the first figures")
    conf = round(100 * snap["confidence"])
    rep = Report(f"What-if: {info.display_name}",
                 subtitle=f"{snap['label']} against {page.base_spec}",
                 headline=(f"{snap['games']:,} games per ruleset, the same games for both "
                           f"(seed {page.seed}); {info.success} is the success counted."
                           + (f" On the seat rows: {info.success_of('seat')}."
                              if any(r["group"] == "seat" for r in rows) else "")),
                 notes=[f"Run {snap['state']}: {snap['message'] or 'still running'}."])
    diffs = pd.DataFrame({"label": [_row_label(r) for r in rows],
                          "diff": [r["diff"] for r in rows],
                          "ci_low": [r["cs_low"] for r in rows],
                          "ci_high": [r["cs_high"] for r in rows]})
    rep.add(paired_differences_section(
        diffs, title="Changed minus base (B - A)", id="differences",
        intro=(f"Success rate of the changed ruleset minus the base's, on the same games, with "
               f"an anytime-valid {conf} % interval (a confidence sequence: it holds at every "
               "look, so watching the page and stopping when it looked settled does not spoil "
               "it).  An interval that crosses zero means the games so far cannot tell the two "
               "apart.")))
    nc = run.newcombe()
    counts = pd.DataFrame({
        "row": [_row_label(r) for r in snap["rows"]],
        "games": [r["games"] for r in snap["rows"]],
        "base_wins": [r["base_wins"] for r in snap["rows"]],
        "changed_wins": [r["changed_wins"] for r in snap["rows"]],
        "both": [r["both"] for r in snap["rows"]],
        "only_base": [r["only_base"] for r in snap["rows"]],
        "only_changed": [r["only_changed"] for r in snap["rows"]],
        "base_rate": [r["base_rate"] for r in snap["rows"]],
        "changed_rate": [r["changed_rate"] for r in snap["rows"]],
        "differ_share": [r["differ_share"] for r in snap["rows"]],
        "newcombe_low": nc["diff_low"].to_numpy(), "newcombe_high": nc["diff_high"].to_numpy(),
        "mcnemar_p": nc["mcnemar_p"].to_numpy()})
    counts = counts[counts["games"] > 0]
    rep.add(Section("Counts", [frame_table(
        counts, percent=["base_rate", "changed_rate", "differ_share", "newcombe_low", "newcombe_high"],
        titles={"differ_share": "results differ %", "newcombe_low": "fixed-n 95 % low",
                "newcombe_high": "fixed-n 95 % high"})],
        "The paired counts (the same numbers simlib compare adds up for these games); the "
        "fixed-n columns are Newcombe's interval and McNemar's exact test, valid for one look "
        "at a number of games fixed in advance.", "counts"))
    base = page.base
    changed = pd.DataFrame({"key": list(page.changes),
                            "base value": [value_text(base.get(k)) for k in page.changes],
                            "base source": [base.source(k) for k in page.changes],
                            "changed value": [value_text(v) for v in page.changes.values()]})
    rep.add(Section("Changed values", [frame_table(changed, sortable=False)], "", "changes"))
    setup = [("game", info.display_name), ("base ruleset", page.base_spec),
             ("base lineage", base.lineage), ("players", page.players_text or "every count allowed"),
             ("policy" if not page.seats else "seats", page.seats or page.policy),
             ("seed", page.seed), ("games per ruleset", snap["games"]),
             ("cap per run", snap["cap"]), ("simlib", __version__)]
    rep.add(Section("Setup", [frame_table(pd.DataFrame(setup, columns=["what", "value"]).astype(str),
                                          sortable=False),
                              Note("Game i of both rulesets is a pure function of the seed and i, "
                                   "so the comparison can be repeated with simlib compare "
                                   "(--rules for the base, --rules for the downloaded tweak).")],
                    "", "setup"))
    return rep

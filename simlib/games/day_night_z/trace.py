"""Day Night Z traces: one game of a study played through the step model (``step.Game``),
the team's player taking every decision as in the batch, each decision in words.

At the start of each turn the whole position (``describe()`` less its choices: the
tracks, the survivors, the enemies); within a turn its first line (the clock, threat, searches, noise, the Hunter)
whenever it changes; under them, the decisions taken (``legal_actions()[choice]``); at the
end the whole position and the game's record (the row ``run_chunk`` gives).
"""
from __future__ import annotations

__all__ = ["trace_game", "MAX_DECISIONS"]

MAX_DECISIONS = 200_000  # a game that does not end within it is a bug (the conformance cap)


def trace_game(adapter, game: int) -> str:
    """Game ``game`` of the study ``adapter``, decision by decision."""
    t, h, deal = (int(x[0]) for x in adapter.configs(int(game), 1))
    g = adapter.step_game(game)
    lines = [f"game {game}: a team of {t}, start {h:02d}:00, deal {deal} of seed {adapter.seed}, "
             f"policy {adapter.policy}"]
    first = g._lines()
    lines += first
    heading = first[0] if first else ""
    k = 0
    while not g.over:
        acts = g.legal_actions()
        i = g.policy_choice()
        k += 1
        lines.append(f"  {k:4d}. {acts[i]}" + (f"  (of {len(acts)})" if len(acts) > 1 else ""))
        g.apply(i)
        now = g._lines()
        if now and now[0] != heading and not g.over:
            new_turn = now[0].split(",")[0] != heading.split(",")[0]
            heading = now[0]
            # a new turn: the whole position (survivors, enemies); else the track line
            lines += now if new_turn else [heading]
        if k >= MAX_DECISIONS:
            raise RuntimeError(f"game {game} did not end within {MAX_DECISIONS} decisions")
    lines.append("== the end ==")
    lines += g._lines()
    rec = g.record()
    keys = ("success", "end_cause", "vp", "turns", "alive", "searches_done", "kills",
            "dead_damage", "dead_infection", "dead_hunger", "threat_final", "threat_level_final",
            "threat_from_noise", "threat_from_leaving", "threat_from_clock", "threat_from_cards",
            "threat_lowered_by_sp", "sp_on_rolls", "sp_on_threat", "hunter_spawns",
            "hunter_damage", "hunter_kills", "decisions")
    lines.append("record: " + ", ".join(f"{key} {rec[key]}" for key in keys if key in rec))
    return "\n".join(lines) + "\n"

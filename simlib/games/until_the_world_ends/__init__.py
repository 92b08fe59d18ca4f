"""Until the World Ends: a competitive card game of timelines scored over rounds (see docs/games/until-the-world-ends.md)."""

"""Computer players against each other (arenas) and against a stand-in person (duel_nerts), and
their tables (docs/ai.md)."""

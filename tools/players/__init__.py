"""Computer players against each other: arenas and their tables (docs/ai.md)."""

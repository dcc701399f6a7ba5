"""Reliability: soak, power cuts and damaged records, fuzzing, button mashing, round trips."""

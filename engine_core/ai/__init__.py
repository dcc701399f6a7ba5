"""Hints, solvers and computer opponents, sized for the device."""

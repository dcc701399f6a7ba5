"""Solvers and statistics: which deals can be won, and the tables of winnable deals."""

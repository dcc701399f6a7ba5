"""Benchmarks: fuel on MicroPython, flushes, screens, the emulated Pico (make bench)."""

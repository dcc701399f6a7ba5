"""Proven-winnable casket deals: written by `python -m tools.solvers.stats casket --deals 600
--write-table` (every seed here was won by the solver and the win replayed on the engine).
Bit i (byte i >> 3, bit i & 7) is set when seed FIRST + i, dealt by the generator GENERATOR
(engine_core/rng.py), can be won under rule profile RULES. See winnable.py.
"""

GENERATOR = "combined"
RULES = 2
FIRST = 0
DEALS = 600
COUNT = 568
BITS = (
    b'\xff\xef\xbf\xfd\xff\xff\xff\xf3\xbf\xff\xe7\xff\xfb\xfa\xf7\xff\xff\xff\xff\xff\xf9\xdf\xff\xff'
    b'\xff\xff\xfd\xbf\xff\xff\xef\xff\xff\xff\xff\xfd\xff\xff\xff\xff\xfb\xef\xff\xff\xff\xff\xff\xff'
    b'\xff\xff\xff\xff\xdf\x7f\xff\xdb\xff\xef\xff\xee\xbf\xff\x7f\xff\xff\xff\xff\xff\xff\xff\xff\xfb'
    b'\xff\xff\xdf'
)

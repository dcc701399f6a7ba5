"""Two consoles, one table: the link between two consoles (docs/link.md).

channel.py   reliable, ordered delivery of small messages over a byte transport
session.py   the table over that channel: the hello, the moves, hashes, repairs, silence
timeline.py  Nerts over the link: moves in time order, rolled back and replayed
statehash.py the state hash both consoles compare
"""

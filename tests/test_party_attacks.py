"""A hostile console at a party table (docs/link.md, "The party table" and "Threat model: the
peer is a stranger"): a guest that never acknowledges, one that spends the host's re-sends at
once, a host that rewrites a guest's own Nerts pile or names seats that are not there, and a
TCP client that takes a seat and says nothing. Each of them costs the honest consoles at most
what docs/link.md says."""

from engine_core import records as r
from engine_core.link import messages as m
from engine_core.link import session as ls
from tools.reliability.party_play import Party


def test_a_hosts_away_byte_names_only_the_other_guests_seats():
    t = Party(consoles=4, seed=47)
    assert t.start()
    for _ in range(100):
        t.frame()
    guest = t.sessions[2]
    host = t.sessions[0]
    c = bytearray(6)
    c[0] = host.gen
    r.put_i32(c, 1, guest.realtime.peer_h + 100)
    c[5] = 0xFF  # every seat, this guest's own and the host's among them, and four that do not exist
    assert t.hub.legs[1].send(m.CLOCK, c, 6)
    for _ in range(3):
        t.frame(False)
    assert guest.away == 1 << 1 | 1 << 3, hex(guest.away)  # the other guests' seats only
    assert guest.state == ls.S_PLAYING

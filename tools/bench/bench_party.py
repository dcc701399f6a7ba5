"""What a party table costs (docs/link.md, "The party table"): wire bytes per second of game
time with 2, 3 and 4 consoles (CPython: the bytes are the same on MicroPython), and the host's
fuel per received frame with three guests, on MicroPython (WebAssembly fuel, as
tools/bench/bench_link.py counts it), the simulated wire's own fuel left out.

    python -m tools.bench.bench_party [ROUNDS]
"""

import sys

from tools.mpy import FUEL_PRELUDE, run_micropython

HOST_FUEL = FUEL_PRELUDE + """
from tools.reliability.party_play import Party
t = Party(consoles=4, seed=SEED, delay=20)
t.start()
hub = t.hub
hs = t.sessions[0]
ends = t.host_ends
wire = [0, 0]  # the simulated wire's own fuel at the host's ends (a loop here, C on a device's
# transport), and the calls to them


def without_wire(end):
    read = end.readinto
    write = end.write

    def readinto(buf):
        a = fuel()
        n = read(buf)
        wire[0] += fuel() - a
        wire[1] += 1
        return n

    def written(buf, n):
        a = fuel()
        k = write(buf, n)
        wire[0] += fuel() - a
        wire[1] += 1
        return k
    end.readinto = readinto
    end.write = written


class Nothing:  # a transport that does nothing: what measuring a call adds to it
    def readinto(self, buf):
        return 0

    def write(self, buf, n):
        return n


def calls(end, k):
    b = bytearray(4)
    a = fuel()
    for _ in range(k):
        end.readinto(b)
    return fuel() - a


plain = Nothing()
measured = Nothing()
without_wire(measured)
extra = (calls(measured, 200) - calls(plain, 200)) // 200 - wire[0] // 200  # each call's own, beyond wire[0]
wire[0] = wire[1] = 0
for e in ends:
    without_wire(e)


def wire_fuel(w):
    return wire[0] - w[0] + (wire[1] - w[1]) * extra
poll_hub = hub.poll
poll_host = hs.poll
got = [0, 0]  # the hub's legs read and checked: the most fuel per frame; the host's whole poll
spent = [0, 0]  # the fuel of every poll of each, frames received or not
from array import array
seen = (array("i", [0] * 30000), array("i", [0] * 30000))  # every poll's fuel per frame (no allocation in play)
count = array("i", [0, 0])


def frames():
    n = 0
    for e in ends:
        n += e.reads
    return n


def hub_poll(now):
    a = fuel()
    f = frames()
    w = (wire[0], wire[1])
    poll_hub(now)
    k = frames() - f
    c = fuel() - a - overhead - WIRE * wire_fuel(w)
    spent[0] += c
    if k:
        c //= k
        seen[0][count[0]] = c
        count[0] += 1
        if c > got[0]:
            got[0] = c


def host_poll(now):
    f = frames()
    w = (wire[0], wire[1])
    a = fuel()
    flags = poll_host(now)
    k = frames() - f
    c = fuel() - a - overhead - WIRE * wire_fuel(w)
    spent[1] += c
    if k:
        c //= k
        seen[1][count[1]] = c
        count[1] += 1
        if c > got[1]:
            got[1] = c
    return flags


hub.poll = hub_poll
hs.poll = host_poll
for _ in range(ROUNDS):
    t.deal_rounds = 1
    t.play_round()
med = [sorted(seen[i][:count[i]])[count[i] // 2] for i in (0, 1)]
print(t.problem() or "agree", got[0], got[1], frames(), med[0], med[1], wire_fuel((0, 0)), extra,
      spent[0] // frames(), spent[1] // frames())
"""


def wire_bytes(consoles, rounds, seed=1):
    """Wire bytes (every frame both ways on every wire) per second of game time: four seats,
    a person at each console, the computer at the rest (two consoles: the two-console
    protocol, tools/reliability/link_play.py)."""
    from tools.reliability.link_play import Table
    from tools.reliability.party_play import Party
    t = Party(consoles=consoles, seed=seed, delay=20) if consoles > 2 else Table("nerts", seed=seed, delay=20)
    assert t.start()
    for _ in range(rounds):
        t.deal_rounds = 1
        if consoles > 2:
            t.play_round()
        else:
            t.play_game()
    assert t.problem() == "", t.problem()
    return t.bytes_on_wire() * 1000 // t.games[0].clock_ms


def host_fuel(rounds=1, seed=3, wire=False):
    """The host's fuel per frame received, with three guests: its legs' polls alone, and its
    whole session poll (the channel, the moves taken, relayed and replayed, hashes). The
    simulated wire's own reads and writes (Python loops; a device's transport copies in C, as
    bench_link.py's stand-in does) are left out, unless `wire`."""
    code = HOST_FUEL.replace("SEED", str(seed)).replace("ROUNDS", str(rounds)).replace("WIRE", "0" if wire else "1")
    result = run_micropython(code, fuel=10 ** 13)
    assert result.exit_code == 0, result
    words = result.stdout.split()
    return {"agree": words[0] == "agree", "legs_worst": int(words[1]), "poll_worst": int(words[2]),
            "frames": int(words[3]), "legs_median": int(words[4]), "poll_median": int(words[5]),
            "wire": int(words[6]), "extra": int(words[7]), "legs_mean": int(words[8]),
            "poll_mean": int(words[9])}


TITLE = "Link play at a party table: wire bytes and the host's fuel"
ROUNDS = 3


def measure(rounds=ROUNDS):
    lines = ["Nerts, four seats, %d rounds over clean simulated wires with 20 ms of delay "
             "(`python -m tools.bench.bench_party`); wire bytes count every frame both ways on "
             "every wire." % rounds, "",
             "| consoles (the other seats the computer's) | wire bytes per second of game time |",
             "| --- | --- |"]
    for c in (2, 3, 4):
        print("party table: %d consoles ..." % c, file=sys.stderr, flush=True)
        lines.append("| %d | %s |" % (c, format(wire_bytes(c, rounds), ",")))
    print("party table: the host's fuel on MicroPython ...", file=sys.stderr, flush=True)
    f = host_fuel(1)
    lines += ["", "The host with three guests, one round on MicroPython: fuel per frame received "
              "(%s frames), median / worst of the polls that received: its legs' polls (the channels) "
              "%s / %s; its whole poll (moves taken, relayed and replayed, hashes) %s / %s; every "
              "poll's fuel over the frames received: %s and %s; against the channel's budget "
              "of 300,000 fuel per frame received (\"Link: handling a received frame\", above). "
              "The simulated wire's own reads and writes are left out (%s fuel a frame received on "
              "average: Python loops here; a device's transport copies in C, as that table's "
              "stand-in does)." % (
                  format(f["frames"], ","), format(f["legs_median"], ","), format(f["legs_worst"], ","),
                  format(f["poll_median"], ","), format(f["poll_worst"], ","), format(f["legs_mean"], ","),
                  format(f["poll_mean"], ","), format(f["wire"] // f["frames"], ","))]
    return "\n".join(lines)


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, "tools/bench/bench_party.py [ROUNDS]   (make bench runs it)")
    print(measure(int(sys.argv[1]) if len(sys.argv) > 1 else ROUNDS))

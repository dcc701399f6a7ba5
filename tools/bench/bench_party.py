"""What a party table costs (docs/link.md, "The party table"): wire bytes per second of game
time with 2, 3 and 4 consoles (CPython: the bytes are the same on MicroPython), and the host's
fuel per received frame with three guests, on MicroPython (WebAssembly fuel, as
tools/bench/bench_link.py counts it).

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
poll_hub = hub.poll
poll_host = hs.poll
got = [0, 0]  # the hub's legs read and checked: the most fuel per frame; the host's whole poll
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
    poll_hub(now)
    k = frames() - f
    if k:
        c = (fuel() - a - overhead) // k
        seen[0][count[0]] = c
        count[0] += 1
        if c > got[0]:
            got[0] = c


def host_poll(now):
    f = frames()
    a = fuel()
    flags = poll_host(now)
    k = frames() - f
    if k:
        c = (fuel() - a - overhead) // k
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
print(t.problem() or "agree", got[0], got[1], frames(), med[0], med[1])
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


def host_fuel(rounds=1, seed=3):
    """The host's worst fuel per frame received, with three guests: its legs' polls alone, and
    its whole session poll (the channel, the moves taken, relayed and replayed, hashes)."""
    result = run_micropython(HOST_FUEL.replace("SEED", str(seed)).replace("ROUNDS", str(rounds)), fuel=10 ** 13)
    assert result.exit_code == 0, result
    words = result.stdout.split()
    return {"agree": words[0] == "agree", "legs_worst": int(words[1]), "poll_worst": int(words[2]),
            "frames": int(words[3]), "legs_median": int(words[4]), "poll_median": int(words[5])}


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
              "(%s frames), median / worst: its legs' polls (the channels) %s / %s; its whole "
              "poll (moves taken, relayed and replayed, hashes) %s / %s, against the channel's budget "
              "of 300,000 fuel per frame received (\"Link: handling a received frame\", above)." % (format(f["frames"], ","), format(f["legs_median"], ","),
                                         format(f["legs_worst"], ","), format(f["poll_median"], ","),
                                         format(f["poll_worst"], ","))]
    return "\n".join(lines)


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, "tools/bench/bench_party.py [ROUNDS]   (make bench runs it)")
    print(measure(int(sys.argv[1]) if len(sys.argv) > 1 else ROUNDS))

"""Link play: two consoles at one table (docs/link.md).

    channel.py    reliable, ordered, de-duplicated delivery of small messages over a byte
                  stream or datagrams (a UART, ESP-NOW, a socket): frames with a CRC,
                  acknowledgements, resends, keep-alives, epochs
    frames.py     the frame's layout; crc.py its CRC; inbox.py the receive queue;
                  sending.py the channel's writing half (the send window, resends)
    pairing.py    whose frame it is (table, writer, addressee), the tables a joining console
                  hears, the tables that ended; the channel's side of pairing
    loopback.py   a simulated faulty wire between two channels, for tests
    messages.py   the session's message kinds, layouts and checks, and the codes the link's
                  modules share (the peer is untrusted: docs/link.md, "Threat model")
    session.py    the table over a channel: the moves, silence, leaving; its states as a
                  table; with hello.py (offers, the join list, accept and refuse), outbox.py
                  (what it sends, in order) and repair.py (state hashes compared, the host's
                  state re-sent on a desync)
    lockstep.py   Lockstep: turn-based games (Spite & Malice), one seat at a time, every move checked
    realtime.py   Realtime: games played all at once (Nerts), moves in time order, rolled back
                  and replayed
    transfer.py   the host's whole state, sent and loaded: the repair after a desync
    timeline.py   the window of recent Nerts moves that realtime.py keeps in order
    hub.py        a party table's host (three or four consoles): a channel per guest
    statehash.py  the state hash both consoles compare

Like the rest of the engine this runs on MicroPython and CPython and allocates nothing after
construction. The transports live at the edges (firmware/link_uart.py, firmware/link_espnow.py,
simulator/link_socket.py): each is an object with write(buf, n) and readinto(buf) that never blocks.
"""

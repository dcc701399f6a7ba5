"""The link's transports (docs/link.md): a TCP socket, a socket pair and a pipe for the simulator,
a UART and ESP-NOW for the boards (against support/fakes), each carrying two channels' messages."""

import os
import sys
import time

import pytest

import boards
from engine_core.link.channel import PAYLOAD_MAX, Channel
from firmware import link_espnow, link_uart
from simulator import link_socket
from support.fakes import espnow as fake_espnow
from support.fakes import machine as fake_machine
from support.fakes import network as fake_network
from tests.helpers import run_mpy_ok


def exchange(a, b, total=60, clock=None, limit=5000, before=None):
    """`total` messages each way between channels a and b, checked; the polls it took."""
    sent = [0, 0]
    got = [0, 0]
    buf = bytearray(PAYLOAD_MAX)
    pairs = ((a, b), (b, a))
    polls = 0
    now = 0
    while got[0] < total or got[1] < total:
        polls += 1
        assert polls < limit, (sent, got)
        now = clock() if clock else now + 5
        if before is not None:
            before()
        for k, (tx, rx) in enumerate(pairs):
            while sent[k] < total:
                i = sent[k]
                length = (i * 13) % (PAYLOAD_MAX + 1)
                for j in range(length):
                    buf[j] = (i + j * k + 7) & 0xFF
                if not tx.send(1 + i % 63, buf, length):
                    break
                sent[k] += 1
        a.poll(now)
        b.poll(now)
        for k, (tx, rx) in enumerate(pairs):
            while True:
                kind = rx.receive()
                if kind < 0:
                    break
                i = got[k]
                length = (i * 13) % (PAYLOAD_MAX + 1)
                assert kind == 1 + i % 63 and rx.rx_len == length
                assert all(rx.rx[j] == (i + j * k + 7) & 0xFF for j in range(length))
                got[k] += 1
    return polls


def wall_ms():
    return int(time.monotonic() * 1000) & 0x3FFFFFFF


# --- the simulator's transports ---

def test_two_channels_over_a_real_localhost_socket():
    server = link_socket.listen(0)
    client = link_socket.connect(link_socket.HOST, server.port)
    try:
        exchange(Channel(server, epoch=1), Channel(client, epoch=2), clock=wall_ms, limit=100_000)
        assert server.connects == 1 and client.connects == 1
    finally:
        client.close()
        server.close()


def test_a_connector_tries_again_until_the_other_side_listens(monkeypatch):
    monkeypatch.setattr(link_socket, "RETRY_S", 0.01)
    probe = link_socket.listen(0)
    port = probe.port
    probe.close()
    client = link_socket.connect(link_socket.HOST, port)
    a = Channel(client, epoch=1)
    a.poll(wall_ms())  # nobody listens: the keep-alive is lost, nothing blocks
    assert not client.connected
    server = link_socket.listen(port)
    try:
        exchange(a, Channel(server, epoch=2), total=20, clock=wall_ms, limit=100_000)
    finally:
        client.close()
        server.close()


def poll_until(done, *channels, polls=2000):
    """Poll the channels (1 ms apart) until done() or `polls` polls: both ends are in this
    process, so the bound is on the kernel's loopback, not on another process's speed."""
    for _ in range(polls):
        for ch in channels:
            ch.poll(wall_ms())
        if done():
            return True
        time.sleep(0.001)
    return False


def test_a_listener_keeps_one_peer_for_the_links_life_and_refuses_the_rest(monkeypatch):
    monkeypatch.setattr(link_socket, "RETRY_S", 0.01)
    server = link_socket.listen(0)
    clients = []
    try:
        first = link_socket.connect(link_socket.HOST, server.port)
        clients.append(first)
        host = Channel(server, epoch=1)
        exchange(host, Channel(first, epoch=2), total=10, clock=wall_ms, limit=100_000)
        # A second client waits in the listen queue while the peer is there: closed at once.
        impostor = link_socket.connect(link_socket.HOST, server.port)
        clients.append(impostor)
        other = Channel(impostor, epoch=3)
        assert poll_until(lambda: server.refused >= 1, other, host)
        # The peer goes; the impostor dials again and again, and is refused every time: none
        # of its frames reaches the host's channel (it cannot learn the table, or say BYE).
        first.close()
        received = host.received
        assert poll_until(lambda: server.refused >= 3, other, host)
        assert host.restarts == 0 and host.received == received and server.connects == 1
        # A new link (the player opens a table, joins one, or listens for offers): the next
        # client to connect is its one peer.
        host.listen()
        host.open_table(0x1234, 1, b"offer", 5)
        assert poll_until(lambda: server.connects == 2, other, host)
        refused = server.refused
        late = link_socket.connect(link_socket.HOST, server.port)
        clients.append(late)
        assert poll_until(lambda: server.refused > refused, Channel(late, epoch=4), host)
        assert server.connects == 2
    finally:
        for c in clients:
            c.close()
        server.close()


def test_a_client_the_listener_refuses_hears_the_tables_beacon_as_a_console_in_range_would(monkeypatch):
    """A third simulator dialling a table two others play at is given the host's last beacon
    (a taken table's FULL) before it is closed, and lists the table; nothing of it is read."""
    from engine_core.link import messages as m
    from engine_core.link import pairing
    monkeypatch.setattr(link_socket, "RETRY_S", 0.01)
    server = link_socket.listen(0)
    clients = []
    try:
        host = Channel(server, epoch=1, me=0x4242)
        offer = bytes([m.VERSION, 1, 1, 2, 0, 0, 0, 0, 0, 0, 0, 9, m.HERE, m.THERE])
        host.open_table(0x1234, m.OFFER, offer, len(offer))
        first = link_socket.connect(link_socket.HOST, server.port)
        clients.append(first)
        guest = Channel(first, epoch=2, me=0x5151)
        guest.pair(0x1234, 0x4242)
        exchange(host, guest, total=3, clock=wall_ms, limit=100_000)
        assert host.paired()
        host.announce(m.FULL)  # the table taken: its offer goes on as FULL
        third_link = link_socket.connect(link_socket.HOST, server.port)
        clients.append(third_link)
        third = Channel(third_link, epoch=3, me=0x6161)
        third.listen()
        heard = []

        def listed():
            kind = third.receive()
            if kind >= 0:
                heard.append((kind, third.rx_table, third.rx_from, bytes(third.rx[:third.rx_len])))
            return bool(heard)
        assert poll_until(listed, guest, third, host)
        assert heard[0] == (m.FULL, 0x1234, 0x4242, offer)
        assert server.connects == 1 and server.refused >= 1  # refused all the same
        assert guest.refused == 0 and guest.received == 3  # the partner takes none of it
        assert pairing.admits(False, 0x1234, 0x4242, 0x5151, 0x1234, 0x4242, 0) == pairing.OWN
    finally:
        for c in clients:
            c.close()
        server.close()


def test_open_link_reads_host_port_or_a_port():
    server = link_socket.open_link("0")
    client = link_socket.open_link("127.0.0.1:%d" % server.port)
    try:
        assert server.server is not None and client.server is None and client.port == server.port
        with pytest.raises(ValueError):
            link_socket.open_link("somewhere")
    finally:
        client.close()
        server.close()


def test_two_channels_over_a_socket_pair():
    a, b = link_socket.socket_pair()
    exchange(Channel(a, epoch=1), Channel(b, epoch=2), total=200)


def test_two_channels_over_pipes():
    r1, w1 = os.pipe()
    r2, w2 = os.pipe()
    try:
        exchange(Channel(link_socket.PipeLink(r1, w2), epoch=1), Channel(link_socket.PipeLink(r2, w1), epoch=2))
    finally:
        for fd in (r1, w1, r2, w2):
            os.close(fd)


# --- the UART between two boards ---

def uart_pair(rxbuf=1024):
    u1 = fake_machine.UART(0, rxbuf=rxbuf)
    u2 = fake_machine.UART(1, rxbuf=rxbuf)
    fake_machine.UART.join(u1, u2)
    return u1, u2


def test_two_channels_over_a_uart():
    u1, u2 = uart_pair()
    exchange(Channel(link_uart.UartLink(u1), epoch=1), Channel(link_uart.UartLink(u2), epoch=2), total=200)
    assert u1.overflow == 0 and u2.overflow == 0
    assert u1.waits == 0 and u2.waits == 0   # never asked for more than had come


def test_the_uart_is_never_asked_for_more_than_has_come():
    # Asked for more, MicroPython's rp2 UART waits 1-2 ms for the rest (timeout_char) even with
    # timeout=0: on the emulated Pico that was 4-6 ms a poll in which a frame came.
    u1, u2 = uart_pair()
    u1.write(b"abcdefghij", 10)
    buf = bytearray(4)
    link = link_uart.UartLink(u2)
    assert link.readinto(buf) == 4 and buf == b"abcd"
    big = bytearray(64)
    assert link.readinto(big) == 6 and big[:6] == b"efghij"
    assert link.readinto(big) == 0
    assert u2.waits == 0


def test_the_uart_takes_nothing_while_it_still_sends():
    u1, u2 = uart_pair()
    link = link_uart.UartLink(u1)
    u1.busy = True
    assert link.write(b"abc", 3) == 0 and u2.any() == 0
    u1.busy = False
    assert link.write(b"abc", 2) == 2 and u2.any() == 2
    buf = bytearray(8)
    assert link_uart.UartLink(u2).readinto(buf) == 2 and buf[:2] == b"ab"
    assert link_uart.UartLink(u2).readinto(buf) == 0


def test_a_uart_that_drops_bytes_loses_no_message():
    # A small receive buffer overflows when a window of frames comes at once: the lost bytes
    # are a broken frame, found by its CRC and sent again.
    u1, u2 = uart_pair(rxbuf=100)
    exchange(Channel(link_uart.UartLink(u1), epoch=1), Channel(link_uart.UartLink(u2), epoch=2), total=60,
             limit=50_000)
    assert u1.overflow + u2.overflow > 0


@pytest.mark.parametrize("name", boards.NAMES)
def test_every_board_declares_its_link_uart_on_pins_it_uses_for_nothing_else(name, monkeypatch):
    board = boards.load(name)
    pins = board.LINK_UART
    if pins is None:
        assert link_uart.open_link(board) is None
        return
    uart_id, tx, rx = pins
    assert uart_id in ((0, 1) if board.PORT == "rp2" else (1, 2))  # ESP32 UART0 is the REPL's
    used = set(boards.pins(board))
    assert tx not in used and rx not in used and tx != rx
    if board.PORT == "rp2":  # the RP2040's UART function sits on fixed pins
        assert (tx, rx) in ((0, 1), (12, 13), (16, 17)) if uart_id == 0 else (tx, rx) in ((4, 5), (8, 9))
    else:
        assert tx < 34 and rx not in (0, 2, 5, 12)  # output-capable; not a strapping pin an idle line pulls high
    monkeypatch.setitem(sys.modules, "machine", fake_machine)
    link = link_uart.open_link(board)
    assert link.uart.id == uart_id and link.uart.tx.id == tx and link.uart.rx.id == rx
    assert link.uart.timeout == 0


# --- ESP-NOW between two ESP32 boards ---

@pytest.fixture
def room(monkeypatch):
    fake_espnow.reset()
    monkeypatch.setitem(sys.modules, "espnow", fake_espnow)
    monkeypatch.setitem(sys.modules, "network", fake_network)
    yield
    fake_espnow.reset()


def espnow_link(n):
    mac = bytes([2, 0, 0, 0, 0, n])
    esp = fake_espnow.ESPNow(mac=mac)
    esp.active(True)
    esp.add_peer(link_espnow.BROADCAST)
    return link_espnow.EspNowLink(esp, mac)


def paired(a, b, table):
    """Channels over transports a and b, paired at `table` as a host and its guest are."""
    ca, cb = Channel(a, epoch=1), Channel(b, epoch=2)
    assert ca.me == a.console_id and cb.me == b.console_id  # the radio's address names the console
    ca.pair(table, cb.me)
    cb.pair(table, ca.me)
    return ca, cb


def test_two_channels_over_espnow(room):
    a, b = link_espnow.open_link(), link_espnow.open_link()
    assert a.esp.peers == [link_espnow.BROADCAST] and a.esp.active()
    exchange(*paired(a, b, 7), total=200)


def test_espnow_pairs_in_one_room_keep_to_their_own_tables(room):
    a, b, c, d = espnow_link(1), espnow_link(2), espnow_link(3), espnow_link(4)
    ca, cb = paired(a, b, 0x0101)
    cc, cd = paired(c, d, 0x0202)  # a second pair plays nearby
    exchange(ca, cb, total=30, before=lambda: (cc.poll(0), cd.poll(0), cc.receive(), cd.receive()))
    exchange(cc, cd, total=30, before=lambda: (ca.poll(0), cb.poll(0), ca.receive(), cb.receive()))
    assert all(ch.refused > 0 and ch.restarts == 0 for ch in (ca, cb, cc, cd))


def test_espnow_drops_a_frame_whose_writer_is_not_its_radio(room):
    a, b = espnow_link(1), espnow_link(2)
    ca, cb = paired(a, b, 0x0101)
    exchange(ca, cb, total=5)
    c = espnow_link(3)  # a third radio writes frames that name a as their writer
    liar = Channel(c, epoch=9, me=a.console_id)
    liar.pair(0x0101, b.console_id)
    received, refused = cb.received, cb.refused
    liar.send(1, b"hello", 5)
    liar.poll(0)
    cb.poll(10)
    assert b.ignored >= 1 and cb.received == received and cb.refused == refused


def test_espnow_with_a_full_send_queue_takes_nothing(room):
    a, b = espnow_link(1), espnow_link(2)
    a.esp.full = True
    assert a.write(b"hello", 5) == 0 and a.refused == 1
    a.esp.full = False
    assert a.write(b"hello", 5) == 5
    buf = bytearray(3)
    assert b.readinto(buf) == 3 and buf == b"hel"  # the rest of a datagram at the next read
    assert b.readinto(buf) == 2 and buf[:2] == b"lo"
    assert b.readinto(buf) == 0


# --- both board transports allocate nothing, on MicroPython ---

HEAP_LOCK = """
import sys
sys.path.insert(0, '/support/fakes')
import gc, micropython
import machine, espnow
from engine_core.link.channel import Channel, PAYLOAD_MAX
from firmware.link_uart import UartLink
from firmware.link_espnow import EspNowLink, BROADCAST

u1 = machine.UART(0, rxbuf=1024)
u2 = machine.UART(1, rxbuf=1024)
machine.UART.join(u1, u2)
e1 = espnow.ESPNow(b'\\x02\\x00\\x00\\x00\\x00\\x01')
e2 = espnow.ESPNow(b'\\x02\\x00\\x00\\x00\\x00\\x02')
for e in (e1, e2):
    e.active(True)
    e.add_peer(BROADCAST)
pairs = ((Channel(UartLink(u1), epoch=1), Channel(UartLink(u2), epoch=2)),
         (Channel(EspNowLink(e1, b'\\x02\\x00\\x00\\x00\\x00\\x01'), epoch=1),
          Channel(EspNowLink(e2, b'\\x02\\x00\\x00\\x00\\x00\\x02'), epoch=2)))
for a, b in pairs:  # paired at a table, as a host and its guest
    a.pair(0x0101, b.me)
    b.pair(0x0101, a.me)
buf = bytearray(PAYLOAD_MAX)
counts = [0, 0, 0, 0]


def run(a, b, total, k):
    sent = 0
    now = 0
    while counts[k] < total and now < 200000:
        now += 5
        while sent < total:
            if not a.send(1 + sent % 63, buf, (sent * 13) % (PAYLOAD_MAX + 1)):
                break
            sent += 1
        a.poll(now)
        b.poll(now)
        while b.receive() >= 0:
            if b.rx_len != (counts[k] * 13) % (PAYLOAD_MAX + 1):
                counts[k + 1] += 1
            counts[k] += 1


result = 'not run'
gc.collect()
micropython.heap_lock()
try:
    run(pairs[0][0], pairs[0][1], 300, 0)
    run(pairs[1][0], pairs[1][1], 300, 2)
    result = 'no allocation'
except MemoryError:
    result = 'allocated'
micropython.heap_unlock()
print(result, counts[0], counts[1], counts[2], counts[3])
"""


def test_the_uart_and_espnow_transports_allocate_nothing_on_micropython():
    assert run_mpy_ok(HEAP_LOCK).split() == ["no", "allocation", "300", "0", "300", "0"]

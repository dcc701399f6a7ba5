"""Link play between two simulators (or a simulator and a test) over a local TCP socket or a
pipe (docs/link.md): transports for engine_core/link/channel.py.

    from simulator.link_socket import listen, connect, open_link
    link = listen(5599)                  # waits (without blocking) for one peer on port 5599
    link = connect("127.0.0.1", 5599)    # tries again every RETRY_S until the other side listens
    link = open_link("127.0.0.1:5599")   # --link host:port;  open_link(":5599") or "5599": --listen
    link = listen_or_connect(5599)       # --link 5599: listen there, or join the console that does
    party = listen_party(5599, 3)        # a party table's host: party.seats, a transport per guest
    party = party_or_connect(5599)       # --link 5599 where a party table may be hosted: a
                                         # PartyListener, or a connector to the console that listens
    a, b = socket_pair()                 # two ends joined in this process (tests)
    link = PipeLink(read_fd, write_fd)   # a pipe, or stdin/stdout: PipeLink(0, 1)

Every call returns at once. Until a peer is there, writes are taken and lost (as on a cut cable:
the channel writes again) and reads give 0; when the peer goes away, a connector dials again.
A listener takes exactly one peer for a link's life (docs/link.md, "Threat model"): any other
client that connects, while that peer is there or after it went, is accepted and closed at once
(counted in `refused`), until the channel begins a new link (a table opened or joined, or
listening for offers: Channel calls new_link()); then the next client is the link's peer.
Before it is closed, such a client is given the last beacon the link carried (an offer to
anyone, TO 0, written or read here: a taken table's FULL), as every radio in range hears it
on ESP-NOW: a third simulator that dials a table two others play at lists it as full. Nothing
it writes is read.
"""

import errno
import os
import select
import socket
import time

RETRY_S = 0.5
BEACON_S = 2.0  # a beacon older than this is not given to a client refused (the table ended)
QUIET_S = 3.0  # a party seat's client that has said nothing this long gives way to one that knocks
HOST = "127.0.0.1"


class SocketLink:
    """A transport over TCP: listening for one peer, or connecting to one."""

    def __init__(self, listen_port=None, host=HOST, port=None):
        self.host = host
        self.port = port
        self.server = None
        self.sock = None
        self.next_try = 0.0
        self.connects = 0  # peers connected so far
        self.refused = 0  # clients closed at once: the link already had its peer
        self.taken = False  # a listener: this link's one peer has come
        self.beacon = b""  # the last beacon frame written or read (for the clients refused)
        self.beacon_t = 0.0  # when (a beacon not heard for BEACON_S is no longer given)
        if listen_port is not None:
            self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self.server.bind((host, listen_port))
            self.server.listen(1)
            self.server.setblocking(False)
            self.port = self.server.getsockname()[1]

    @property
    def connected(self):
        return self._ready() is not None

    def new_link(self):
        """The channel begins a new link: a peer connected now is its one; with none, the next
        client to connect."""
        self.taken = self.sock is not None
        self.beacon = b""

    def _refuse_waiting(self):
        """Close every client waiting in the listen queue: this link has had its peer."""
        while True:
            try:
                sock, _ = self.server.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                return
            if self.beacon and time.monotonic() - self.beacon_t < BEACON_S:
                try:
                    sock.setblocking(False)
                    sock.send(self.beacon)  # what anyone in range would hear; then closed
                except OSError:
                    pass
            sock.close()
            self.refused += 1

    def _note_beacon(self, buf, n):
        """Keep the last whole beacon frame (SYNC, TO 0, a table named) in buf[0:n]."""
        p = 0
        while p + 15 <= n:
            end = p + 15 + buf[p + 1]
            if buf[p] == 0xA5 and buf[p + 1] <= 60 and end <= n and buf[p + 11] == 0 and buf[p + 12] == 0 \
                    and (buf[p + 7] or buf[p + 8]):
                self.beacon = bytes(buf[p:end])
                self.beacon_t = time.monotonic()
                p = end
            else:
                p += 1

    def _ready(self):
        if self.server is not None and (self.sock is not None or self.taken):
            self._refuse_waiting()
        if self.sock is not None:
            return self.sock
        if self.server is not None:
            if self.taken:
                return None
            try:
                sock, _ = self.server.accept()
            except (BlockingIOError, InterruptedError):
                return None
            self._use(sock)
            self.taken = True
        elif time.monotonic() >= self.next_try:
            self.next_try = time.monotonic() + RETRY_S
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.settimeout(0.2)
            try:
                sock.connect((self.host, self.port))
            except OSError:
                sock.close()
                return None
            self._use(sock)
        return self.sock

    def _use(self, sock):
        sock.setblocking(False)
        if sock.family == socket.AF_INET:  # a frame goes out at once, not batched (Nagle)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock = sock
        self.connects += 1

    def _lost(self):
        if self.sock is not None:
            self.sock.close()
        self.sock = None

    def write(self, buf, n):
        """Send buf[0:n]; bytes taken (all of them while no peer is there: lost, as on a cut cable)."""
        if self.server is not None and n >= 15 and buf[0] == 0xA5 and buf[11] == 0 and buf[12] == 0:
            self._note_beacon(buf, n)
        sock = self._ready()
        if sock is None:
            return n
        try:
            return sock.send(memoryview(buf)[:n])
        except (BlockingIOError, InterruptedError):
            return 0
        except OSError:
            self._lost()
            return n

    def readinto(self, buf):
        """Copy what has arrived into buf; 0 when nothing has (or no peer is there)."""
        sock = self._ready()
        if sock is None:
            return 0
        try:
            n = sock.recv_into(buf)
        except (BlockingIOError, InterruptedError):
            return 0
        except OSError:
            self._lost()
            return 0
        if n == 0:  # the peer closed its end
            self._lost()
        elif self.server is not None:
            self._note_beacon(buf, n)
        return n

    def close(self):
        self._lost()
        if self.server is not None:
            self.server.close()
            self.server = None


class _Seat(SocketLink):
    """One guest's transport at a party table's host (listen_party): it takes the next client
    that connects while it has none for its link, as a listener does; the others share the
    port. A client that has said nothing for QUIET_S while another knocks is closed and the
    seat takes the next (a stranger that connects and stays quiet holds no seat)."""

    private = True  # only this seat's guest hears what its leg writes: hub.py offers every free seat

    def __init__(self, party):
        super().__init__()
        self.party = party
        self.server = party.server  # (its beacons noted, and given to clients refused)
        self.heard = 0.0  # when its client last wrote (or connected)

    def _use(self, sock):
        super()._use(sock)
        self.heard = time.monotonic()

    def quiet(self):
        """Its client has said nothing for QUIET_S: it is closed and the seat free again."""
        if self.sock is not None and time.monotonic() - self.heard >= QUIET_S:
            self._lost()
            self.taken = False
            self.party.evicted += 1

    def readinto(self, buf):
        n = super().readinto(buf)
        if n:
            self.heard = time.monotonic()
        return n

    def _ready(self):
        self.party.knocked()
        if self.sock is None and not self.taken:
            try:
                sock, _ = self.server.accept()
            except (BlockingIOError, InterruptedError, OSError):
                return None
            self._use(sock)
            self.taken = True
        elif self.party.full():
            self._refuse_waiting()
        return self.sock

    def close(self):
        self._lost()


class PartyListener:
    """A party table's host (engine_core/link/hub.py): up to three guests on one port, each
    the peer of its own transport (`seats`) for a link's life; a client that comes when every
    seat has its peer is given the last beacon and closed at once."""

    def __init__(self, port, guests, host=HOST):
        if not 1 <= guests <= 3:
            raise ValueError("a party table seats 1 to 3 guests")
        self.server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind((host, port))
        self.server.listen(4)
        self.server.setblocking(False)
        self.port = self.server.getsockname()[1]
        self.seats = [_Seat(self) for _ in range(guests)]
        self.further = self.seats[1:]  # the hub's further legs (engine_core/ui/party.py's wiring)
        self.open = guests  # the seats that take clients now (take(): a table of two, the first)
        self.evicted = 0  # clients closed for saying nothing while another knocked

    def take(self, guests):
        """The table hosted now seats `guests` guests: that many seats take clients, and a client
        that comes when they all have theirs is refused (given the last beacon)."""
        self.open = guests

    def bind(self, hub):
        """(One transport a seat: nothing to tell the hub.)"""

    def knocked(self):
        """A client waits to connect: a seat whose client is quiet gives it way (_Seat.quiet)."""
        try:
            waiting = select.select([self.server], [], [], 0)[0]
        except (OSError, ValueError):
            return
        if waiting:
            for s in self.seats:
                s.quiet()

    def full(self):
        for s in self.seats[:self.open]:
            if s.sock is None and not s.taken:
                return False
        return True

    def close(self):
        for s in self.seats:
            s.close()
        self.server.close()


def listen_party(port, guests, host=HOST):
    """A party table's host: `guests` transports on one port (PartyListener.seats): the first
    for the console's own channel, the rest for its Hub's further legs."""
    return PartyListener(port, guests, host)


def party_or_connect(port, host=HOST):
    """The first console on this machine listens on port, able to host a party table (a
    PartyListener for three guests: its first seat the console's own transport); a later one,
    finding the port taken, connects to it. Returns (transport, the PartyListener or None)."""
    try:
        party = listen_party(port, 3, host)
    except OSError as e:
        if e.errno != errno.EADDRINUSE:
            raise
        return connect(host, port), None
    return party.seats[0], party


def listen(port, host=HOST):
    """A link that accepts one peer on host:port (port 0: any free port, then see .port)."""
    return SocketLink(listen_port=port, host=host)


def connect(host, port):
    """A link that connects to host:port, trying again every RETRY_S until the other side listens."""
    return SocketLink(host=host, port=port)


def listen_or_connect(port, host=HOST):
    """The first console on this machine listens on port; a second one, finding it taken,
    connects to the first (--link PORT: `make sim LINK=PORT` twice)."""
    try:
        return listen(port, host)
    except OSError as e:
        if e.errno != errno.EADDRINUSE:
            raise
    return connect(host, port)


def open_link(spec):
    """--link host:port (connect) or --listen port / ':port' (listen)."""
    host, _, port = spec.rpartition(":")
    if not port.isdigit():
        raise ValueError("a link is host:port or a port, not %r" % spec)
    return connect(host, int(port)) if host else listen(int(port))


class _Connected(SocketLink):
    def __init__(self, sock):
        super().__init__()
        self._use(sock)
        self.connects = 1

    def _ready(self):
        return self.sock


def socket_pair():
    """Two transports joined to each other through a local socket pair."""
    a, b = socket.socketpair()
    return _Connected(a), _Connected(b)


class PipeLink:
    """A transport over two file descriptors (a pipe each way, or stdin and stdout)."""

    def __init__(self, read_fd, write_fd):
        self.read_fd = read_fd
        self.write_fd = write_fd
        os.set_blocking(read_fd, False)
        os.set_blocking(write_fd, False)
        self.closed = False

    def write(self, buf, n):
        if self.closed:
            return n
        try:
            return os.write(self.write_fd, memoryview(buf)[:n])
        except BlockingIOError:
            return 0
        except OSError as e:
            if e.errno != errno.EAGAIN:
                self.closed = True
            return 0

    def readinto(self, buf):
        if self.closed:
            return 0
        try:
            n = os.readv(self.read_fd, [buf])
        except BlockingIOError:
            return 0
        except OSError:
            self.closed = True
            return 0
        if n == 0:
            self.closed = True
        return n

"""The channel's receive queue (engine_core/link/channel.py): messages that arrived in order
(and offers heard: pairing.py) and are not yet taken by receive(), each with its kind, length,
table and writer, in a ring of QUEUE + 1 slots (the one more: the message receive() shows).
A message of two frames is put together in the slot it will occupy; a beacon (an offer to
anyone, pairing.py) is put in whole by offer(). The channel fills and
empties it in its own hot path (a call there costs about 4,000 fuel, the link bench found:
tools/bench/bench_link.py); this holds the slots, their framebuf views (the copy from the
channel's read buffer is framebuf's blit, in C, where MicroPython has framebuf) and the
counts. Everything is allocated in the constructor.
"""

import sys
from array import array

from engine_core.link.frames import FRAGMENT, HEADER, MORE
from engine_core.link.messages import PAYLOAD_MAX
from micropython import const

QUEUE = const(8)  # messages received and not yet taken by receive()


class Inbox:
    """Received messages, in order; `source` is the buffer frames are read into."""

    def __init__(self, source):
        self.slots = [bytearray(PAYLOAD_MAX) for _ in range(QUEUE + 1)]  # + the one rx shows
        self.kind = bytearray(QUEUE + 1)
        self.length = bytearray(QUEUE + 1)
        self.table = array("i", [0] * (QUEUE + 1))
        self.writer = array("i", [0] * (QUEUE + 1))
        self.fb_in = None
        if sys.implementation.name == "micropython":
            try:  # copies done by framebuf (byte-wide, one row), in C, where the port has it
                import framebuf
                self.fb_in = framebuf.FrameBuffer(source, len(source), 1, framebuf.GS8)
                self.fb_head = [framebuf.FrameBuffer(q, PAYLOAD_MAX, 1, framebuf.GS8) for q in self.slots]
                self.fb_tail = [framebuf.FrameBuffer(memoryview(q)[FRAGMENT:], PAYLOAD_MAX - FRAGMENT, 1,
                                                     framebuf.GS8) for q in self.slots]
            except Exception:  # no framebuf, or one without GS8: the copy loop
                self.fb_in = None
        self.clear()

    def clear(self):
        self.head = 0
        self.count = 0
        self.held = False  # the head of the queue is the message the channel's rx shows

    def offer(self, buf, p, ln):
        """A beacon (the frame at buf[p], ln bytes of message): delivered as a message of its
        own (no sequence number, no acknowledgement) when it is whole and the queue has room;
        beacons come again."""
        kind = buf[p + 2] & 0x7F
        if kind == 0 or kind & MORE or self.count >= QUEUE + self.held:
            return
        slot = (self.head + self.count) % (QUEUE + 1)
        dst = self.slots[slot]
        for i in range(ln):
            dst[i] = buf[p + HEADER + i]
        self.kind[slot] = kind
        self.length[slot] = ln
        self.table[slot] = buf[p + 7] << 8 | buf[p + 8]
        self.writer[slot] = buf[p + 9] << 8 | buf[p + 10]
        self.count += 1

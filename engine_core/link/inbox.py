"""The channel's receive queue (engine_core/link/channel.py): messages that arrived in order
(and offers heard: pairing.py) and are not yet taken by receive(), each with its kind, length,
table and writer. A message of two frames is put together in the slot it will occupy.

The copy from the channel's read buffer into a slot is framebuf's blit (C, no allocation)
where MicroPython has framebuf, a loop elsewhere. Everything is allocated in the constructor.
"""

import sys
from array import array

from engine_core.link.frames import FRAGMENT
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

    def put(self, buf, src, ln, at, kind, table, writer):
        """Copy ln bytes at buf[src] into the next free slot from its byte `at` on (the caller
        made sure of room: count < QUEUE + held); kind: the message is whole (0: it goes on in
        the next frame), and joins the queue with its table and writer."""
        slot = (self.head + self.count) % (QUEUE + 1)
        if self.fb_in is not None and (at == 0 or at == FRAGMENT):
            # framebuf's blit copies in C without allocating (a quarter of the fuel of a loop);
            # it copies as far as the slot goes, and the rest of a message comes after.
            (self.fb_head if at == 0 else self.fb_tail)[slot].blit(self.fb_in, -src, 0)
        else:
            dst = self.slots[slot]
            for i in range(ln):
                dst[at + i] = buf[src + i]
        if kind:
            self.kind[slot] = kind
            self.length[slot] = at + ln
            self.table[slot] = table
            self.writer[slot] = writer
            self.count += 1

    def next(self, ch):
        """The kind of the next message, or -1 (the one before is let go); its bytes are
        ch.rx[0:ch.rx_len], its table and writer ch.rx_table and ch.rx_from."""
        if self.held:
            self.held = False
            self.head = (self.head + 1) % (QUEUE + 1)
            self.count -= 1
        if self.count == 0:
            ch.rx_len = 0
            return -1
        h = self.head
        self.held = True
        ch.rx = self.slots[h]
        ch.rx_len = self.length[h]
        ch.rx_table = self.table[h]
        ch.rx_from = self.writer[h]
        return self.kind[h]

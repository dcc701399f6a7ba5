"""Sending, the channel's half that writes (engine_core/link/channel.py makes one): the send
window of frames in flight, each written once and again (go-back-N) until acknowledged.
Nothing allocates after the constructor: the frames are built in its buffers.

The Sending's own state: one frame buffer per frame in flight (`slots`, slot = seq % size),
the oldest unacknowledged seq (`base`), the frames in flight (`count`), how many of them were
written in this round (`upto`) and at least once (`tx_max`), when a frame was last written or
acknowledged (`t_data`). The channel reads these
and changes them only through put(), acked(), go_back(), start_clock(), clear() and pump();
pending() counts the messages in flight. What it asks of the channel: finish() (the unwritten
rest of a frame the transport took in part, written; True when none waits) and
write_frame(buf, n, now) (ACK, epochs, GAP and CRC filled in, handed to the transport; the
bytes it took).
"""

from engine_core.link.frames import FRAGMENT, FRAME_MAX, HEADER, KIND_MAX, MORE, OVERHEAD
from engine_core.link.messages import PAYLOAD_MAX

from micropython import const

_TYPING = const(0)  # true for the type checker alone (tools/device/mypy-device.ini, always_true)
if _TYPING:
    from engine_core.link.channel import Channel


class Sending:
    def __init__(self, channel: "Channel", size: int):
        self.ch = channel
        self.size = size  # frames in flight at most: 2, 4, 8 or 16
        self.slots = [bytearray(FRAME_MAX) for _ in range(size)]
        self.base = 0  # the oldest unacknowledged seq
        self.count = 0  # frames in flight
        self.upto = 0  # of those, how many have been written in this round
        self.tx_max = 0  # of those, how many have been written at least once
        self.t_data = 0  # when a frame was last written or acknowledged

    def clear(self):
        """Nothing in flight, the sequence numbers from 0."""
        self.base = 0
        self.count = 0
        self.upto = 0
        self.tx_max = 0

    def start_clock(self, now):
        self.t_data = now

    def put(self, kind, data, length):
        """data[0:length] into the window as a message of `kind` (one frame or two); False
        (nothing queued) when the window is full.

        Raises ValueError for a kind outside 1..63 or a length outside 0..PAYLOAD_MAX.
        """
        if kind < 1 or kind > KIND_MAX:
            raise ValueError("kind must be 1..63")
        if length < 0 or length > PAYLOAD_MAX:
            raise ValueError("length must be 0..PAYLOAD_MAX")
        frames = 1 if length <= FRAGMENT else 2
        if self.count + frames > self.size:
            return False
        mask = self.size - 1
        i = 0
        while True:
            seq = (self.base + self.count) & 0xFF
            buf = self.slots[seq & mask]
            n = length - i
            flag = 0
            if n > FRAGMENT:
                n = FRAGMENT
                flag = MORE
            buf[1] = n
            buf[2] = kind | flag
            buf[3] = seq
            j = HEADER
            end = i + n
            while i < end:
                buf[j] = data[i]
                i += 1
                j += 1
            self.count += 1
            if not flag:
                break
        return True

    def pending(self):
        """Messages sent and not yet acknowledged."""
        n = 0
        mask = self.size - 1
        for i in range(self.count):
            if not self.slots[(self.base + i) & mask][2] & MORE:
                n += 1
        return n

    def acked(self, n, ack, now):
        """The peer acknowledged n (1..count) more frames: the window's base moves to `ack`."""
        self.base = ack
        self.count -= n
        self.upto = self.upto - n if self.upto > n else 0
        self.tx_max = self.tx_max - n if self.tx_max > n else 0
        self.t_data = now

    def go_back(self, now):
        """Everything unacknowledged is written again, from the oldest."""
        self.upto = 0
        self.t_data = now

    def pump(self, now):
        """Write the frames in flight not yet written in this round, oldest first; how many
        of them were written before (the channel counts them in `resent`)."""
        ch = self.ch
        again = 0
        if not ch.finish():
            return 0  # the rest of a frame still waits
        mask = self.size - 1
        while self.upto < self.count:
            seq = (self.base + self.upto) & 0xFF
            buf = self.slots[seq & mask]
            n = buf[1] + OVERHEAD
            taken = ch.write_frame(buf, n, now)
            if not taken:
                return again  # the transport takes nothing now (a UART still sending): next poll
            if self.upto < self.tx_max:
                again += 1
            else:
                self.tx_max += 1
            self.upto += 1
            self.t_data = now
            if taken < n:
                return again  # the transport took a part: the rest goes first (finish)
        return again

"""A link's Channel that keeps what its polls cost on the board (docs/link.md, "On two
emulated Picos"): the polls in which bytes arrived, their time in microseconds, in all and
the longest. The firmware makes its sessions with it (firmware/main.py); link_state() at the
REPL shows the figures. Measuring allocates nothing: small ints only.
"""

import time

from engine_core.link.channel import Channel


class TimedChannel(Channel):
    """A Channel over a transport that counts the bytes it has read (`bytes_read`)."""

    def __init__(self, transport):
        super().__init__(transport)
        self.transport = transport
        self.busy_polls = 0  # polls in which bytes arrived
        self.busy_us = 0  # their time, in all (emulated or real microseconds)
        self.busy_us_max = 0

    def poll(self, now_ms):
        before = self.transport.bytes_read
        start = time.ticks_us()
        super().poll(now_ms)
        if self.transport.bytes_read != before:
            us = time.ticks_diff(time.ticks_us(), start)
            self.busy_polls += 1
            self.busy_us += us
            if us > self.busy_us_max:
                self.busy_us_max = us

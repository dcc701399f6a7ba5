"""Sending, the channel's half that writes (engine_core/link/channel.py mixes this in): the
send window of frames in flight, each written once and again (go-back-N) until acknowledged,
and the frame handed to the transport with its acknowledgement, epochs, addresses and CRC
filled in; a frame the transport took in part is finished before anything else. Nothing
allocates: the frames are built in the channel's buffers.
"""

from engine_core.link.crc import frame_crc
from engine_core.link.frames import FRAGMENT, GAP, HEADER, KIND_MAX, MORE, OVERHEAD, SYNC
from engine_core.link.messages import CLOCK_MASK as _MASK
from engine_core.link.messages import PAYLOAD_MAX


class Sending:
    def send(self, kind, data, length):
        """Queue data[0:length] as a message of `kind`; False (nothing queued) when the window is full.

        Raises ValueError for a kind outside 1..63 or a length outside 0..PAYLOAD_MAX.
        The message is written at once if the transport takes it.
        """
        if kind < 1 or kind > KIND_MAX:
            raise ValueError("kind must be 1..63")
        if length < 0 or length > PAYLOAD_MAX:
            raise ValueError("length must be 0..PAYLOAD_MAX")
        frames = 1 if length <= FRAGMENT else 2
        if self._count + frames > self._window:
            return False
        mask = self._window - 1
        i = 0
        while True:
            seq = (self._base + self._count) & 0xFF
            buf = self._slots[seq & mask]
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
            self._count += 1
            if not flag:
                break
        self.sent = (self.sent + 1) & _MASK
        if self._talking:
            self._pump(self._now)
        return True

    def pending(self):
        """Messages sent and not yet acknowledged."""
        n = 0
        mask = self._window - 1
        for i in range(self._count):
            if not self._slots[(self._base + i) & mask][2] & MORE:
                n += 1
        return n

    def _write(self, buf, n, now):
        # Fills in ACK, EPOCH, ECHO and the CRC and hands the frame to the transport; keeps
        # the rest of it if the transport took a part. Returns the bytes taken (0: nothing,
        # the frame stays where it is for the next try).
        buf[0] = SYNC
        buf[4] = self._expect
        buf[5] = self.epoch
        buf[6] = self._peer
        if self._gap:
            buf[2] |= GAP
        else:
            buf[2] &= 0x7F
        c = frame_crc(buf, 0, n, self._tx_crc)
        buf[n - 2] = c >> 8
        buf[n - 1] = c & 0xFF
        w = self._t.write(buf, n)
        if not w or w < 0:
            return 0
        taken = w
        out = self._out
        i = 0
        while w < n:
            out[i] = buf[w]
            i += 1
            w += 1
        self._out_len = i
        self._t_out = now
        self._ack_due = False
        self._gap = False
        return taken

    def _flush(self):
        n = self._out_len
        if n == 0:
            return
        out = self._out
        w = self._t.write(out, n)
        if w is None or w <= 0:
            return
        i = 0
        while w < n:
            out[i] = out[w]
            i += 1
            w += 1
        self._out_len = i

    def _pump(self, now):
        # Writes the frames in flight not yet written in this round, oldest first.
        if self._out_len:
            self._flush()
        mask = self._window - 1
        while self._out_len == 0 and self._upto < self._count:
            seq = (self._base + self._upto) & 0xFF
            buf = self._slots[seq & mask]
            if not self._write(buf, buf[1] + OVERHEAD, now):
                return  # the transport takes nothing now (a UART still sending): next poll
            if self._upto < self._tx_max:
                self.resent = (self.resent + 1) & _MASK
            else:
                self._tx_max += 1
            self._upto += 1
            self._t_data = now

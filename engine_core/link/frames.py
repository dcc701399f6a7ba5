"""Frames on the wire, and finding them in what a transport gives (engine_core/link/channel.py;
docs/link.md, "A frame, byte by byte").

A frame (every field one byte but the addresses and the CRC, two bytes each, big-endian):

    0 SYNC 0xA5   1 LEN 0..60   2 KIND 0..63, +64 MORE, +128 GAP   3 SEQ   4 ACK   5 EPOCH 1..255   6 ECHO
    7 TABLE   9 FROM   11 TO   13 .. 13+LEN-1 the message's bytes
    then CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of bytes 7..12, then 1..6, then 13..12+LEN

KIND 0 carries no message: an acknowledgement or a keep-alive. A message longer than 60 bytes
travels in two frames, the first with MORE set (so no frame costs more than the budget to
check: docs/link.md). SEQ numbers frames (mod 256); ACK is the SEQ the writer expects next from
its peer (a cumulative acknowledgement); EPOCH is the writer's, drawn at start-up and changed by
reset(); ECHO is the peer's epoch as the writer last heard it (0: not yet). TABLE, FROM and TO
say whose frame it is (pairing.py): the table's id, the writer's console id, the console it is
for (0: an offer to anyone).

A reader (Channel._parse) hunts for SYNC, checks LEN, KIND and EPOCH, waits for the whole
frame, then checks the CRC; anything that fails is counted as bad and skipped one byte at a
time, so a frame after line noise, or hidden in a frame cut short, is found. A datagram
transport (ESP-NOW) gives one frame per datagram; the same reader reads it.
"""

from micropython import const

KIND_MAX = const(63)
MORE = const(64)  # in KIND: the message goes on in the next frame
GAP = const(128)  # in KIND: the writer dropped a frame that came before the one it wants (ACK)
SYNC = const(0xA5)
HEADER = const(13)  # SYNC LEN KIND SEQ ACK EPOCH ECHO TABLE(2) FROM(2) TO(2)
OVERHEAD = const(15)  # header + CRC: what a frame costs on the wire beyond the message's bytes
FRAGMENT = const(60)  # bytes of a message in one frame
FRAME_MAX = const(75)  # OVERHEAD + FRAGMENT
FROM_AT = const(9)  # where a frame's FROM is (a datagram transport may check it: link_espnow.py)
READS = const(8)  # reads of the transport per poll, at most
IN_SIZE = const(200)  # a partial frame (< FRAME_MAX) plus one read

"""Link play: two consoles at one table (docs/link.md).

    channel.py    reliable, ordered, de-duplicated delivery of small messages over a byte
                  stream or datagrams (a UART, ESP-NOW, a socket): frames with a CRC,
                  acknowledgements, resends, keep-alives, epochs
    loopback.py   a simulated faulty wire between two channels, for tests

Like the rest of the engine this runs on MicroPython and CPython and allocates nothing after
construction. The transports live at the edges (firmware/link_uart.py, firmware/link_espnow.py,
simulator/link_socket.py): each is an object with write(buf, n) and readinto(buf) that never blocks.
"""

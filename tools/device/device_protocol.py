"""The text protocol (docs/protocol.md) on a real board, over its USB serial REPL.

    python -m tools.device.device_protocol /dev/ttyACM0 < commands.txt

Reads protocol commands from stdin and prints the board's reply to each, like tools/play.py
does on the host, so the same scripted tests run against a device. It stops the app
(Ctrl-C through mpremote's raw REPL, without a soft reset), keeps one ProtocolSession alive
on the board, and sends each command as a line of Python.
"""

import sys


SETUP = "from engine_core.protocol import ProtocolSession\n_protocol = ProtocolSession()\n"


def serve(transport, lines, write):
    """Send protocol `lines` through an mpremote transport; write() each reply line. Stops
    at 'quit' or the end of the lines."""
    transport.enter_raw_repl(soft_reset=False)
    try:
        transport.exec(SETUP)
        for line in lines:
            line = line.strip()
            if not line:
                continue
            reply = transport.exec("_r = _protocol.command(%r)\nprint('' if _r is None else _r)\nprint(_r is None)"
                                   % line)
            text, ended = reply.decode().rstrip("\r\n").rsplit("\n", 1)
            if ended.strip() == "True":
                return
            write(text.rstrip("\r") + "\n")
    finally:
        transport.exit_raw_repl()


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python -m tools.device.device_protocol SERIAL_PORT < commands")
    from mpremote.transport_serial import SerialTransport
    transport = SerialTransport(sys.argv[1])
    try:
        serve(transport, sys.stdin, sys.stdout.write)
    finally:
        transport.close()


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, '-m tools.device.device_protocol SERIAL_PORT')
    main()

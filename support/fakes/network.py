"""A stand-in for MicroPython's `network` module: the station interface ESP-NOW needs."""

STA_IF = 0
AP_IF = 1


class WLAN:
    def __init__(self, interface=STA_IF):
        self.interface = interface
        self.on = False
        self.settings = {}

    def active(self, on=None):
        if on is None:
            return self.on
        self.on = on
        return None

    def disconnect(self):
        pass

    def config(self, *names, **settings):
        """config(channel=1) sets; config("mac") gives the interface's address (that of an
        ESPNow made with no address: support/fakes/espnow.py)."""
        if names:
            return {"mac": b"\x02\x00\x00\x00\x00\x01"}[names[0]]
        self.settings.update(settings)

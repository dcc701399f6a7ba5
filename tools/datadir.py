"""Where the simulator keeps its records (the device keeps them in a folder on its flash).

    python -m simulator --data-dir DIR      (default: default_data_dir())
    keeper = Keeper(host_storage(args.data_dir))
"""

import os
import sys

from engine_core.storage import FileStorage

APP = "pocket-cards"


def default_data_dir():
    """The platform's folder for a user's application data, with our own folder in it."""
    home = os.path.expanduser("~")
    if sys.platform.startswith("win"):
        base = os.environ.get("APPDATA") or os.path.join(home, "AppData", "Roaming")
    elif sys.platform == "darwin":
        base = os.path.join(home, "Library", "Application Support")
    else:
        base = os.environ.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")
    return os.path.join(base, APP)


def host_storage(data_dir=None):
    """A FileStorage in data_dir (created when missing), or in the default folder."""
    return FileStorage(data_dir or default_data_dir())

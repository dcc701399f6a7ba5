"""Where the simulator keeps its records (the device keeps them in a folder on its flash).

    python -m simulator --data-dir DIR      (default: default_data_dir())
    keeper = Keeper(host_storage(args.data_dir))

One console per data folder: host_storage() takes the folder's lock file (console.lock, the
process id in it) and gives it back when the process ends. A second console on the same folder
gets DataDirError with a clear message; a lock whose process has gone (a crash, a kill) is
taken over. Anything that keeps the folder from being used (a file where the folder should
be, a folder that cannot be written) is a DataDirError too, never a traceback.
"""

import atexit
import os
import sys

from engine_core.storage import FileStorage

APP = "pocket-cards"
LOCK = "console.lock"


class DataDirError(Exception):
    """The data folder cannot be used; args[0] says why, in one line."""


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


def host_storage(data_dir=None, lock=True):
    """A FileStorage in data_dir (created when missing), or in the default folder, locked for
    this process unless lock is False. DataDirError when the folder cannot be used."""
    root = data_dir or default_data_dir()
    try:
        storage = FileStorage(root)
        if not os.path.isdir(root):
            raise NotADirectoryError("not a folder")
        if lock:
            take_lock(root)
    except OSError as e:
        raise DataDirError("cannot keep records in %s: %s" % (root, e.strerror or e))
    return storage


def take_lock(root):
    """Make this process the folder's one console; DataDirError when another one is."""
    path = os.path.join(root, LOCK)
    for _ in range(3):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            owner = lock_owner(path)
            if owner is None and fresh(path):
                raise DataDirError("%s is being opened by another console" % root)
            if owner is not None and owner != os.getpid() and alive(owner):
                raise DataDirError("%s is in use by another console (process %d): close it, or "
                                   "give this one another --data-dir" % (root, owner))
            try:  # a stale lock (its process has gone) or our own: take it over
                os.remove(path)
            except FileNotFoundError:
                pass
            continue
        with os.fdopen(fd, "w") as f:
            f.write("%d\n" % os.getpid())
        atexit.register(release_lock, path, os.getpid())
        return
    raise DataDirError("%s: could not take %s" % (root, LOCK))


def lock_owner(path):
    """The process id a lock file names, or None (unreadable, empty, half-written)."""
    try:
        with open(path) as f:
            text = f.read(32).strip()
    except (OSError, UnicodeError):
        return None
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None


def fresh(path):
    """A lock file written in the last few seconds (its owner may still be writing its id)."""
    import time
    try:
        return time.time() - os.stat(path).st_mtime < 5
    except OSError:
        return False


def alive(pid):
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    except OSError:
        return False
    return True


def release_lock(path, pid):
    if lock_owner(path) == pid:
        try:
            os.remove(path)
        except OSError:
            pass

"""Where the simulator keeps its records (the device keeps them in a folder on its flash).

    python -m simulator --data-dir DIR      (default: default_data_dir())
    keeper = Keeper(host_storage(args.data_dir))

One console per data folder: host_storage() takes the folder's lock file (console.lock, the
process id in it and, where the system says, its start time) and gives it back when the
process ends. The lock file is written whole under a name of its own and then linked to
console.lock, so a lock file never lacks its process id: one whose process has gone (a crash,
a kill), or that is empty or unreadable, is taken over at once, as is one whose id now names
another process. A second console on the same folder gets DataDirError with a clear message;
so does a folder that cannot be used at all (a file where it should be, one that cannot be
made). A folder that can be read but not written (a full disk, a read-only one) is used as it
is: the records are read, nothing is written, no lock is left behind, and the storage's
`cannot_keep` says why (the simulator says it once; the console plays on).
"""

import atexit
import errno
import os
import sys

from engine_core.storage import FileStorage

APP = "pocket-cards"
LOCK = "console.lock"


# What keeps a readable folder from being written: full, read-only, not ours to write.
CANNOT_WRITE = (errno.ENOSPC, errno.EROFS, errno.EACCES, errno.EPERM, errno.EDQUOT)


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
    except OSError as e:
        raise DataDirError("cannot keep records in %s: %s" % (root, e.strerror or e))
    storage.cannot_keep = ""  # why records cannot be written here ('' when they can)
    if lock:
        try:
            take_lock(root)
        except OSError as e:
            if e.errno not in CANNOT_WRITE:
                raise DataDirError("cannot keep records in %s: %s" % (root, e.strerror or e))
            storage.cannot_keep = e.strerror or str(e)
    return storage


def take_lock(root):
    """Make this process the folder's one console; DataDirError when another one is. OSError
    when the lock cannot be written (nothing is left behind then)."""
    path = os.path.join(root, LOCK)
    mine = path + "." + str(os.getpid())  # written whole, then linked: never half a lock
    try:
        with open(mine, "w") as f:
            f.write(lock_text())
            f.flush()
        for _ in range(3):
            try:
                place_lock(mine, path)
            except FileExistsError:
                owner = lock_owner(path)
                if owner is not None and owner[0] != os.getpid() and holds(owner):
                    raise DataDirError("%s is in use by another console (process %d): close it, "
                                       "or give this one another --data-dir" % (root, owner[0]))
                try:  # a stale lock (its process has gone, or no id in it) or our own
                    os.remove(path)
                except FileNotFoundError:
                    pass
                continue
            atexit.register(release_lock, path, os.getpid())
            return
    finally:
        try:
            os.remove(mine)
        except OSError:
            pass
    raise DataDirError("%s: could not take %s" % (root, LOCK))


def place_lock(mine, path):
    """Link the written lock file `mine` to path; FileExistsError when a lock is there."""
    try:
        os.link(mine, path)
    except FileExistsError:
        raise
    except OSError:  # a filesystem without hard links (FAT): create it in place
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        with os.fdopen(fd, "w") as f:
            f.write(lock_text())


def lock_text():
    """This process's lock: its id, and where the system says so its start time (a process
    id is used again after a reboot: the pair names one process)."""
    start = started(os.getpid())
    return "%d\n" % os.getpid() if start is None else "%d %d\n" % (os.getpid(), start)


def lock_owner(path):
    """(process id, start time or None) a lock file names, or None (unreadable, empty,
    half-written)."""
    try:
        with open(path) as f:
            words = f.read(64).split()
    except (OSError, UnicodeError):
        return None
    if not 1 <= len(words) <= 2 or not all(w.isascii() and w.isdigit() and len(w) < 20 for w in words):
        return None
    if len(words[0]) >= 10:
        return None
    return int(words[0]), (int(words[1]) if len(words) == 2 else None)


def holds(owner):
    """Is the console that wrote the lock still running? Its process is alive and is that
    process: the same start time where the lock has one, else (a lock of a build before,
    or a system that does not say) a simulator's command line where the system shows it."""
    pid, start = owner
    if not alive(pid):
        return False
    now = started(pid)
    if now is None:
        return True  # nothing more to go on: taken as the console's
    if start is not None:
        return now == start
    command = command_line(pid)
    return command is None or "simulator" in command


def started(pid):
    """The process's start time in clock ticks since boot (Linux's /proc), or None."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            text = f.read()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2:].split()  # (the name, in brackets, may hold spaces)
    return int(fields[19]) if len(fields) > 19 and fields[19].isdigit() else None


def command_line(pid):
    """The process's command line (Linux's /proc), or None."""
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return None


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
    owner = lock_owner(path)
    if owner is not None and owner[0] == pid:
        try:
            os.remove(path)
        except OSError:
            pass

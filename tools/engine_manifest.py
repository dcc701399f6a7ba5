"""The engine's file lists for MicroPython: manifest.py (freezing) and engine_core/package.json (mip).

    python -m tools.engine_manifest           checks both against engine_core/ (exit 1 when stale)
    python -m tools.engine_manifest --write   writes both from engine_core/

manifest.py, at the top of the repository, freezes engine_core into a firmware of one's own
with paths relative to itself (MicroPython runs a manifest from its own folder):
    make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/repository/manifest.py
engine_core/package.json lists every module for `mip` (the "urls" are [destination, source]
pairs, the sources relative to the package.json):
    mpremote mip install github:OWNER/REPOSITORY/engine_core/package.json
`make build` (tools/device/deploy.py) still writes build/BOARD/manifest.py with the firmware and the
board around the engine; tests/test_engine_manifest.py holds both files to the tree.
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "engine_core"
VERSION = "0.1.0"
MANIFEST = os.path.join(ROOT, "manifest.py")
PACKAGE_JSON = os.path.join(ROOT, PACKAGE, "package.json")


def engine_files():
    """The engine's modules, relative to engine_core/ with '/' separators, sorted."""
    found = []
    top = os.path.join(ROOT, PACKAGE)
    for folder, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in files:
            if name.endswith(".py"):
                found.append(os.path.relpath(os.path.join(folder, name), top).replace(os.sep, "/"))
    return sorted(found)


def manifest_text(files):
    lines = [
        "# Freezes the engine into a MicroPython firmware (written by tools/engine_manifest.py --write;",
        "# paths relative to this file):",
        "#   make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/this/folder/manifest.py",
        "# Add your board's own modules in a manifest that include()s this one.",
        "package(",
        '    "%s",' % PACKAGE,
        "    files=[",
    ]
    lines += ['        "%s",' % f for f in files]
    lines += ["    ],", '    base_path=".",', ")", ""]
    return "\n".join(lines)


def package_json_text(files):
    urls = ",\n".join("    " + json.dumps([PACKAGE + "/" + f, f]) for f in files)
    return '{\n  "urls": [\n%s\n  ],\n  "deps": [],\n  "version": %s\n}\n' % (urls, json.dumps(VERSION))


def expected():
    files = engine_files()
    return {MANIFEST: manifest_text(files), PACKAGE_JSON: package_json_text(files)}


def main(argv):
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    stale = []
    for path, text in expected().items():
        current = None
        if os.path.exists(path):
            with open(path) as f:
                current = f.read()
        if current != text:
            if "--write" in argv:
                with open(path, "w") as f:
                    f.write(text)
                print("wrote " + os.path.relpath(path, ROOT))
            else:
                stale.append(os.path.relpath(path, ROOT))
    for rel in stale:
        print("%s does not list engine_core/ as it is: python -m tools.engine_manifest --write" % rel)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

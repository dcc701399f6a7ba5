"""Build MicroPython's rp2 port with the console frozen in: build/BOARD/firmware.uf2.

    python -m tools.device.firmware pico_lcd_13          (make firmware BOARD=pico_lcd_13)

The console's modules (engine_core, firmware, the board's module) and a main.py that starts
it are frozen into the firmware, so their bytecode runs from flash and the heap is left to
the games (docs/firmware.md). The MicroPython source is, first found first:
- MICROPY_SRC: a MicroPython v1.27.0 folder (with the rp2 port's submodules) or a .tar.xz
  of one;
- ../shared/micropython/micropython-1.27.0-rp2.tar.xz beside the repository;
- otherwise a clone of the v1.27.0 tag and the rp2 port's submodules (needs the internet).
The toolchain is Debian's gcc-arm-none-eabi, libnewlib-arm-none-eabi, cmake and
build-essential. The extracted source and the builds are kept in a cache folder
(FIRMWARE_CACHE, default ~/.cache/pocket-card-console): a second build after a change to
the console recompiles only the frozen modules.

Beside firmware.uf2 it writes firmware.bin and firmware.json (the flash layout and the
addresses the emulated Pico needs, tools/device/pico.py).

The port is changed before the build (PATCHES, applied to the source idempotently; a file
no longer patched is put back as it came); docs/firmware.md says why each change was made:
- the VM's call frames live on a Python stack of PYSTACK_BYTES (MICROPY_ENABLE_PYSTACK), a
  static array, so the GC heap is that much smaller (the C stack, 8 KB across SCRATCH_X and
  SCRATCH_Y, is left whole). Without it a bytecode function whose frame is larger than 44
  bytes allocates the frame on the GC heap at each call and frees it on return: with the heap
  full of the games' objects each such allocation searched past them (a deal made 227 of
  them: 6.6 M of its 17.7 M cycles, tools/device/pico_profile.py). The stack is filled with
  PYSTACK_FILL at each (soft) reset, so its high-water mark can be read afterwards
  (tests/test_pico.py);
- framebuf: a one-bit image blitted through a palette onto a GS4 frame in one loop, and a
  FrameBuffer over a read-only buffer (the art, left in flash);
- for the XIP cache and the boot: the functions in HOT_CODE laid side by side at the start of
  the code; a frozen module's name skipped by its length; a map's next slot, and the slot its
  cache names, found without a division, and a plain look-up of a name in a loop of its own;
- the parts the console never uses left out: the FAT filesystem, machine.I2S, cryptolib,
  hashlib's MD5 and SHA1.
"""

import argparse
import hashlib
import json
import os
import shutil
import struct
import subprocess

import boards

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

VERSION = "v1.27.0"
ARCHIVE = os.path.join(os.path.dirname(ROOT), "shared", "micropython", "micropython-1.27.0-rp2.tar.xz")
REPOSITORY = "https://github.com/micropython/micropython"
PACKAGES = "gcc-arm-none-eabi libnewlib-arm-none-eabi cmake build-essential"
MICROPY_BOARD = "RPI_PICO"          # 2 MB flash; every RP2040 board here has at least that
FS_OFFSET = 0xA0000                 # RPI_PICO's littlefs: the last 1408 KB of the 2 MB flash
FS_SIZE = 1408 * 1024
FLASH_BASE = 0x10000000

MAIN = """# Starts the console (frozen into the firmware by tools/device/firmware.py).
# Frozen modules come first, so that copies of the console left on the filesystem by an
# older install cannot shadow them. Hold any button while powering on for safe mode.
import sys
sys.path.remove('.frozen')
sys.path.insert(0, '.frozen')
from firmware.main import start
start(%r)
"""

MANIFEST = """# The console frozen into MicroPython's rp2 port (written by tools/device/firmware.py).
freeze("$(PORT_DIR)/modules")
package("engine_core", files=%(engine)r, base_path=%(root)r)
package("firmware", files=%(firmware)r, base_path=%(root)r)
package("boards", files=["__init__.py", %(board_file)r], base_path=%(root)r)
module("main.py", base_path=%(here)r)
"""

# Modules an RP2040 board never imports, left out of its firmware (flash is short: docs/firmware.md):
# its link is one UART, so it hosts no party table of three or four consoles (a hub holds a
# link per guest: engine_core/link/hub.py), and ESP-NOW is the ESP32 boards'.
NOT_FROZEN = ("engine_core/link/hub.py", "engine_core/ui/party.py", "firmware/link_espnow.py")


def package_files(name):
    """The package's modules (paths relative to it) that the firmware freezes: NOT_FROZEN left out."""
    found = []
    top = os.path.join(ROOT, name)
    for folder, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(folder, f), top).replace(os.sep, "/")
            if f.endswith(".py") and name + "/" + rel not in NOT_FROZEN:
                found.append(rel)
    return found


PYSTACK_FILL = 0x55
PYSTACK_BYTES = 2560  # the deepest the scenarios reach is 1,520 bytes (tests/test_pico.py)
# The functions the VM runs most, laid side by side at the start of the code so that they do
# not evict one another from the XIP cache: chosen with tools/device/pico_xip.py (docs/firmware.md).
HOT_CODE = ("mp_execute_bytecode", "mp_setup_code_state_helper", "mp_setup_code_state",
            "mp_obj_class_lookup", "mp_obj_instance_attr", "mp_cstack_usage", "mp_cstack_check",
            "mp_binary_op", "mp_obj_get_type", "mp_obj_equal_not_equal", "mp_obj_is_true",
            "mp_obj_get_int_maybe", "mp_map_lookup",
            "nlr_push", "nlr_push_tail")  # (nlr_push reaches nlr_push_tail by a short branch)

REPLACE = "replace"  # a PATCHES entry's fourth field: its text takes the place of the one it names

PATCHES = (  # (file in the source, text after which the addition goes, the addition[, REPLACE])
    ("ports/rp2/boards/RPI_PICO/mpconfigboard.h", '#define MICROPY_HW_FLASH_STORAGE_BYTES          (1408 * 1024)\n',
     "// The console's call frames on a Python stack (tools/device/firmware.py).\n"
     "#define MICROPY_ENABLE_PYSTACK (1)\n"
     "// The flash at clk_sys / 2 at 200 MHz (100 MHz), as pico-sdk's own 200 MHz set-up keeps it for\n"
     "// the Pico (PICO_USE_FASTEST_SUPPORTED_CLOCK, PICO_FLASH_SPI_CLKDIV 2); the W25Q16JV reads in\n"
     "// quad I/O at up to 133 MHz. (Left to its default, 62.5 MHz, the divider would go to 4.)\n"
     "#define MICROPY_HW_FLASH_MAX_FREQ (100000000)\n"),
    ("ports/rp2/main.c", "    for (;;) {\n\n        // Initialise MicroPython runtime.\n",
     "        #if MICROPY_ENABLE_PYSTACK\n"
     "        {\n"
     "            // The call frames' stack (tools/device/firmware.py), filled to read its depth.\n"
     "            static uint8_t pystack_area[%d] __attribute__((aligned(8)));\n"
     "            for (size_t i = 0; i < sizeof(pystack_area); ++i) {\n"
     "                pystack_area[i] = 0x%02x;\n"
     "            }\n"
     "            mp_pystack_init(pystack_area, pystack_area + sizeof(pystack_area));\n"
     "        }\n"
     "        #endif\n" % (PYSTACK_BYTES, PYSTACK_FILL)),
    # The parts the console never uses, left out (docs/firmware.md).
    ("ports/rp2/mpconfigport.h", "#define MICROPY_VFS_FAT                         (1)\n",
     "#undef MICROPY_VFS_FAT\n#define MICROPY_VFS_FAT (0)\n"),
    ("ports/rp2/mpconfigport.h", "#define MICROPY_PY_MACHINE_I2S_RING_BUF         (1)\n",
     "#undef MICROPY_PY_MACHINE_I2S\n#define MICROPY_PY_MACHINE_I2S (0)\n"),
    ("ports/rp2/mpconfigport.h", "#define MICROPY_PY_CRYPTOLIB                    (1)\n",
     "#undef MICROPY_PY_CRYPTOLIB\n#define MICROPY_PY_CRYPTOLIB (0)\n"
     "#undef MICROPY_PY_HASHLIB_MD5\n#define MICROPY_PY_HASHLIB_MD5 (0)\n"
     "#undef MICROPY_PY_HASHLIB_SHA1\n#define MICROPY_PY_HASHLIB_SHA1 (0)\n"),
    ("ports/rp2/memmap_mp_rp2040.ld", "        *(.init)\n",
     "        /* The VM's hottest functions side by side (tools/device/firmware.py: HOT_CODE). */\n"
     + "".join("        *(.text.%s)\n" % name for name in HOT_CODE)),
    ("tools/mpy-tool.py", "    print('    \"\\\\0\"')\n    print(\"};\")\n",
     "    # Each frozen module's name's length (tools/device/firmware.py: py/frozenmod.c skips a\n"
     "    # name by its length instead of reading it through).\n"
     "    print(\"const unsigned char mp_frozen_mpy_name_lengths[] = {\")\n"
     "    for cm in compiled_modules:\n"
     "        assert len(cm.source_file.str) < 256\n"
     "        print(\"    %d,\" % len(cm.source_file.str))\n"
     "    print(\"    0\")\n"
     "    print(\"};\")\n"),
    ("py/frozenmod.c", "        ++num_str;\n    }\n    #endif\n",
     "\n"
     "    #if MICROPY_MODULE_FROZEN_MPY\n"
     "    // Only frozen .mpy (tools/device/firmware.py): a name is skipped by its length, read\n"
     "    // from mp_frozen_mpy_name_lengths, not by strlen; a look-up reads a byte a name and\n"
     "    // compares only the names at least as long as the one it looks for.\n"
     "    if (num_str == 0) {\n"
     "        extern const unsigned char mp_frozen_mpy_name_lengths[];\n"
     "        for (size_t i = 0; mp_frozen_mpy_name_lengths[i] != 0; i++) {\n"
     "            size_t entry_len = mp_frozen_mpy_name_lengths[i];\n"
     "            if (entry_len >= len && memcmp(str, name, len) == 0) {\n"
     "                if (entry_len == len) {\n"
     "                    if (frozen_type != NULL) {\n"
     "                        *frozen_type = MP_FROZEN_MPY;\n"
     "                        *data = (void *)mp_frozen_mpy_content[i];\n"
     "                    }\n"
     "                    return MP_IMPORT_STAT_FILE;\n"
     "                } else if (name[len] == '/') {\n"
     "                    return MP_IMPORT_STAT_DIR;\n"
     "                }\n"
     "            }\n"
     "            name += entry_len + 1;\n"
     "        }\n"
     "        return MP_IMPORT_STAT_NO_EXIST;\n"
     "    }\n"
     "    #endif\n"),
    ("py/map.c", "#define MAP_CACHE_GET(map, index) (&(map)->table[MAP_CACHE_ENTRY(index) % (map)->alloc])\n",
     "// A cached slot that lies in the table is taken without a division (tools/device/firmware.py).\n"
     "#undef MAP_CACHE_GET\n"
     "#define MAP_CACHE_GET(map, index) (&(map)->table[MAP_CACHE_ENTRY(index) < (map)->alloc \\\n"
     "    ? MAP_CACHE_ENTRY(index) : MAP_CACHE_ENTRY(index) % (map)->alloc])\n"),
    ("py/map.c", "    size_t pos = hash % map->alloc;\n",
     "    if (compare_only_ptrs && lookup_kind == MP_MAP_LOOKUP) {\n"
     "        // A plain look-up of a name (tools/device/firmware.py): a slot is a match, empty (the\n"
     "        // name is not there) or neither, tried in one short loop; a miss in a full table\n"
     "        // (a method looked for among an instance's members) tries every slot.\n"
     "        mp_map_elem_t *slot = &map->table[pos];\n"
     "        mp_map_elem_t *end = &map->table[map->alloc];\n"
     "        for (size_t n = map->alloc; n > 0; --n) {\n"
     "            mp_obj_t key = slot->key;\n"
     "            if (key == index) {\n"
     "                MAP_CACHE_SET(index, slot - map->table);\n"
     "                return slot;\n"
     "            }\n"
     "            if (key == MP_OBJ_NULL) {\n"
     "                return NULL;\n"
     "            }\n"
     "            if (++slot == end) {\n"
     "                slot = map->table;\n"
     "            }\n"
     "        }\n"
     "        return NULL;\n"
     "    }\n"),
    ("py/map.c", "        // not yet found, keep searching in this table\n        pos = (pos + 1) % map->alloc;\n",
     "        // The next slot by a comparison, not a division (tools/device/firmware.py): a look-up\n"
     "        // that misses a full table (a global name that is a builtin) tries every slot.\n"
     "        if (++pos == map->alloc) {\n"
     "            pos = 0;\n"
     "        }\n", REPLACE),
    ("extmod/modframebuf.c", "    int y0end = MIN(self->height, y + source.height);\n",
     "\n"
     "    // A one-bit image through a palette onto a GS4 frame, every glyph the console draws\n"
     "    // (tools/device/firmware.py): the palette read once and the pixels written in place,\n"
     "    // where the loop below makes three calls through pointers a pixel. Same pixels.\n"
     "    if (source.format == FRAMEBUF_MHLSB && self->format == FRAMEBUF_GS4_HMSB && palette.buf) {\n"
     "        uint32_t ink[2] = {getpixel(&palette, 0, 0), getpixel(&palette, 1, 0)};\n"
     "        for (; y0 < y0end; ++y0, ++y1) {\n"
     "            const uint8_t *src = (const uint8_t *)source.buf + ((y1 * source.stride) >> 3);\n"
     "            uint8_t *dst = (uint8_t *)self->buf + ((y0 * self->stride) >> 1);\n"
     "            int cx1 = x1;\n"
     "            for (int cx0 = x0; cx0 < x0end; ++cx0, ++cx1) {\n"
     "                uint32_t col = ink[(src[cx1 >> 3] >> (7 - (cx1 & 7))) & 1];\n"
     "                if (col != (uint32_t)key) {\n"
     "                    uint8_t *p = dst + (cx0 >> 1);\n"
     "                    if (cx0 & 1) {\n"
     "                        *p = (col & 0x0f) | (*p & 0xf0);\n"
     "                    } else {\n"
     "                        *p = (col << 4) | (*p & 0x0f);\n"
     "                    }\n"
     "                }\n"
     "            }\n"
     "        }\n"
     "        return mp_const_none;\n"
     "    }\n"),
    ("extmod/modframebuf.c", "    mp_arg_check_num(n_args, n_kw, 4, 5, false);\n",
     "    // A buffer that cannot be written (the console's art, frozen in flash) makes a frame\n"
     "    // buffer to blit from, not a copy in RAM (tools/device/firmware.py); drawing into one\n"
     "    // is the caller's error.\n"
     "    mp_buffer_info_t probe;\n"
     "    if (!mp_get_buffer(args_in[0], &probe, MP_BUFFER_WRITE)) {\n"
     "        return framebuf_make_new_helper(n_args, args_in, MP_BUFFER_READ, NULL);\n"
     "    }\n"),
)
with open(os.path.join(ROOT, "tools", "device", "card.c")) as _f:
    CARD_C = _f.read()
PATCHES += (  # FrameBuffer.card, a card in one call, and .glyphs, a text (firmware/card.py; tools/device/card.c)
    ("extmod/modframebuf.c", "static mp_obj_t framebuf_blit(size_t n_args, const mp_obj_t *args_in) {\n",
     CARD_C + "static mp_obj_t framebuf_blit(size_t n_args, const mp_obj_t *args_in) {\n", REPLACE),
    ("extmod/modframebuf.c", "    { MP_ROM_QSTR(MP_QSTR_blit), MP_ROM_PTR(&framebuf_blit_obj) },\n",
     "    { MP_ROM_QSTR(MP_QSTR_card), MP_ROM_PTR(&framebuf_card_obj) },\n"
     "    { MP_ROM_QSTR(MP_QSTR_glyphs), MP_ROM_PTR(&framebuf_glyphs_obj) },\n"),
    ("ports/rp2/memmap_mp_rp2040.ld",
     "        *(SORT_BY_ALIGNMENT(SORT_BY_NAME(.flashdata*)))\n        . = ALIGN(4);\n    } > FLASH\n",
     "\n    /* FrameBuffer.card after the code and its read-only data (tools/device/card.c) */\n"
     "    .console_card : {\n        *(.console_card)\n    } > FLASH\n"),
)
PATCHED_LIST = ".console-patched"  # in the source: every file a build has patched
PATCH_KEY = hashlib.sha256(repr(PATCHES).encode()).hexdigest()[:8]


def patch_source(source):
    """Apply PATCHES to the MicroPython source: each file as it came (kept beside it as
    NAME.orig the first time) with its additions (or, marked REPLACE, its replacements), written
    when that differs from the file.
    A file patched before (its name in PATCHED_LIST) that PATCHES no longer names is put back
    as it came, so that the shared source follows the PATCHES of the checkout that builds."""
    names = []
    for name, *_ in PATCHES:
        if name not in names:
            names.append(name)
    listed = os.path.join(source, PATCHED_LIST)
    before = []
    if os.path.exists(listed):
        with open(listed) as f:
            before = f.read().split()
    for name in before:
        path = os.path.join(source, name)
        if name not in names and os.path.exists(path + ".orig"):
            shutil.copyfile(path + ".orig", path)
    with open(listed, "w") as f:
        f.write("\n".join(sorted(set(before) | set(names))) + "\n")
    for name in names:
        path = os.path.join(source, name)
        if not os.path.exists(path + ".orig"):
            shutil.copyfile(path, path + ".orig")
        with open(path + ".orig") as f:
            patched = f.read()
        for file, after, addition, *how in PATCHES:
            if file != name:
                continue
            if after not in patched:
                raise BuildError("%s is not the v1.27.0 file the patch expects (no %r)" % (path, after.strip()))
            patched = patched.replace(after, addition if how == [REPLACE] else after + addition, 1)
        with open(path) as f:
            if f.read() == patched:
                continue
        with open(path, "w") as f:
            f.write(patched)


UF2_MAGIC_START0 = 0x0A324655
UF2_MAGIC_START1 = 0x9E5D5157
UF2_MAGIC_END = 0x0AB16F30
UF2_FLAG_FAMILY = 0x00002000
RP2040_FAMILY = 0xE48BFF56


class BuildError(Exception):
    pass


def cache_root():
    return os.environ.get("FIRMWARE_CACHE") or os.path.join(os.path.expanduser("~"), ".cache",
                                                            "pocket-card-console")


def missing_tools():
    """The Debian packages' commands that are not on PATH."""
    tools = ("arm-none-eabi-gcc", "arm-none-eabi-nm", "cmake", "make", "cc")
    missing = [t for t in tools if shutil.which(t) is None]
    newlib = "/usr/lib/arm-none-eabi/include/stdio.h"
    if shutil.which("arm-none-eabi-gcc") and not os.path.exists(newlib):
        missing.append("newlib (" + newlib + ")")
    return missing


def check_toolchain():
    missing = missing_tools()
    if missing:
        raise BuildError("the firmware build needs %s; install them with:\n"
                         "    sudo apt-get install %s" % (", ".join(missing), PACKAGES))


def file_digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:16]


def extract(archive, cache):
    """The archive unpacked once into the cache; returns its micropython/ folder."""
    folder = os.path.join(cache, "src-" + file_digest(archive))
    source = os.path.join(folder, "micropython")
    stamp = os.path.join(folder, ".extracted")
    if not os.path.exists(stamp):
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        print("unpacking %s" % archive, flush=True)
        subprocess.run(["tar", "xJf", archive, "-C", folder], check=True)
        if not os.path.isdir(source):
            raise BuildError("%s holds no micropython/ folder" % archive)
        open(stamp, "w").close()
    return source


def clone(cache):
    folder = os.path.join(cache, "git-" + VERSION)
    source = os.path.join(folder, "micropython")
    stamp = os.path.join(folder, ".cloned")
    if not os.path.exists(stamp):
        if shutil.which("git") is None:
            raise BuildError("no MicroPython source: set MICROPY_SRC to a v1.27.0 folder or .tar.xz, "
                             "or install git to clone it")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        print("cloning MicroPython %s (set MICROPY_SRC to use a copy you have)" % VERSION, flush=True)
        run = subprocess.run(["git", "clone", "--depth", "1", "--branch", VERSION, REPOSITORY, source])
        if run.returncode != 0:
            raise BuildError("could not clone %s; set MICROPY_SRC to a MicroPython %s folder or "
                             ".tar.xz" % (REPOSITORY, VERSION))
        subprocess.run(["make", "-C", os.path.join(source, "ports", "rp2"), "BOARD=" + MICROPY_BOARD,
                        "submodules"], check=True)
        open(stamp, "w").close()
    return source


def find_source(cache):
    """The MicroPython source folder, as the module's docstring orders the choices."""
    given = os.environ.get("MICROPY_SRC")
    if given:
        given = os.path.abspath(given)
        if os.path.isdir(given):
            if not os.path.isdir(os.path.join(given, "ports", "rp2")):
                raise BuildError("MICROPY_SRC=%s is not a MicroPython source folder (no ports/rp2)" % given)
            return given
        if os.path.isfile(given):
            return extract(given, cache)
        raise BuildError("MICROPY_SRC=%s does not exist" % given)
    if os.path.isfile(ARCHIVE):
        return extract(ARCHIVE, cache)
    return clone(cache)


def uf2_blocks(image, base=FLASH_BASE, family=RP2040_FAMILY):
    """`image` (bytes at `base`) as UF2 blocks: 256 bytes of payload in each 512-byte block."""
    count = (len(image) + 255) // 256
    out = bytearray()
    for n in range(count):
        payload = image[n * 256:(n + 1) * 256]
        block = struct.pack("<8I", UF2_MAGIC_START0, UF2_MAGIC_START1, UF2_FLAG_FAMILY,
                            base + n * 256, 256, n, count, family)
        block += payload + bytes(476 - len(payload))
        block += struct.pack("<I", UF2_MAGIC_END)
        out += block
    return bytes(out)


def symbols(elf):
    """Addresses of the SDK's flash write functions (the emulated Pico carries them out) and
    of the Python stack (it reads how deep it went)."""
    out = subprocess.run(["arm-none-eabi-nm", elf], capture_output=True, text=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] in ("flash_range_erase", "flash_range_program"):
            found[parts[2]] = int(parts[0], 16)
        elif len(parts) == 3 and parts[2].startswith("pystack_area"):
            found["pystack"] = int(parts[0], 16)
    if len(found) != 3:
        raise BuildError("flash_range_erase/flash_range_program/pystack_area not found in " + elf)
    return {"erase": found["flash_range_erase"], "program": found["flash_range_program"],
            "pystack": [found["pystack"], PYSTACK_BYTES]}


def build(board_name, jobs=None, out_root=None):
    """Build the firmware for an RP2040 board; returns the path of its .uf2."""
    board = boards.load(board_name)
    if board.PORT != "rp2":
        raise BuildError("%s is an ESP32 board: its route is in docs/boards.md (no firmware build here)"
                         % board_name)
    check_toolchain()
    cache = cache_root()
    source = find_source(cache)
    patch_source(source)
    key = hashlib.sha256((source + PATCH_KEY).encode()).hexdigest()[:8]
    work = os.path.join(cache, "build-%s-%s" % (board_name, key))
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "main.py"), "w") as f:
        f.write(MAIN % board_name)
    manifest = os.path.join(work, "manifest.py")
    with open(manifest, "w") as f:
        f.write(MANIFEST % {"root": ROOT, "board_file": board_name + ".py", "here": work,
                            "engine": package_files("engine_core"), "firmware": package_files("firmware")})
    mp_build = os.path.join(work, "mp")
    # mpy-cross first, on its own: built from inside the port's make it would inherit BUILD.
    mpy_cross = os.path.join(source, "mpy-cross")
    if not os.path.exists(os.path.join(mpy_cross, "build", "mpy-cross")):
        print("building mpy-cross", flush=True)
        env = dict(os.environ)
        env.pop("BUILD", None)
        subprocess.run(["make", "-C", mpy_cross, "-j%d" % (jobs or os.cpu_count() or 2)],
                       env=env, stdout=subprocess.DEVNULL, check=True)
    args = ["make", "-C", os.path.join(source, "ports", "rp2"), "BOARD=" + MICROPY_BOARD,
            "BUILD=" + mp_build, "-j%d" % (jobs or os.cpu_count() or 2),
            "CMAKE_ARGS=-DPICO_NO_PICOTOOL=1 -DMICROPY_FROZEN_MANIFEST=" + manifest]
    print("building MicroPython %s (rp2, %s) with the console frozen in, for %s"
          % (VERSION, MICROPY_BOARD, board_name), flush=True)
    log_path = os.path.join(work, "build.log")
    with open(log_path, "w") as log:
        run = subprocess.run(args, stdout=log, stderr=subprocess.STDOUT)
    if run.returncode != 0:
        with open(log_path) as log:
            tail = log.read()[-3000:]
        raise BuildError("the MicroPython build failed (whole log: %s):\n%s" % (log_path, tail))
    with open(os.path.join(mp_build, "firmware.bin"), "rb") as f:
        image = f.read()
    if FLASH_BASE + len(image) > FLASH_BASE + FS_OFFSET:
        raise BuildError("the firmware (%d bytes) runs into the filesystem at %#x" % (len(image), FS_OFFSET))
    out = os.path.join(out_root or os.path.join(ROOT, "build"), board_name)
    os.makedirs(out, exist_ok=True)
    uf2 = os.path.join(out, "firmware.uf2")
    with open(uf2, "wb") as f:
        f.write(uf2_blocks(image))
    with open(os.path.join(out, "firmware.bin"), "wb") as f:
        f.write(image)
    facts = {"board": board_name, "micropython": VERSION, "micropython_board": MICROPY_BOARD,
             "bytes": len(image), "fs_offset": FS_OFFSET, "fs_size": FS_SIZE,
             "hooks": symbols(os.path.join(mp_build, "firmware.elf")),
             "elf": os.path.join(mp_build, "firmware.elf")}  # its symbols: tools/device/pico_profile.py
    with open(os.path.join(out, "firmware.json"), "w") as f:
        json.dump(facts, f, indent=1)
    print(size_line(os.path.relpath(uf2), len(image)))
    return uf2


def size_line(uf2, size):
    """The build's last line: the firmware's size and the room left (docs/firmware.md quotes it)."""
    return "%s: %d bytes of firmware (%d KB left before the filesystem)" % (uf2, size, (FS_OFFSET - size) // 1024)


def rp2_boards():
    return [n for n in boards.NAMES if boards.load(n).PORT == "rp2"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("board", nargs="?", help="an RP2040 board: " + ", ".join(rp2_boards()))
    parser.add_argument("-j", "--jobs", type=int, help="parallel compile jobs (default: every core)")
    args = parser.parse_args()
    if args.board not in rp2_boards():
        parser.error("BOARD must be one of %s (got %r)" % (", ".join(rp2_boards()), args.board))
    try:
        build(args.board, args.jobs)
    except BuildError as e:
        raise SystemExit("make firmware: %s" % e)


if __name__ == "__main__":
    main()

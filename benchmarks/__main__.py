"""Run every ``benchmarks/bench_*.py`` module and print all their tables: ``python -m benchmarks``.

Each module provides ``main(argv)`` (or ``main()``) that prints its tables and returns 0. A module
that raises is reported and the others still run; the exit status is 1 if any failed.
"""

from __future__ import annotations

import importlib
import inspect
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))


def bench_modules() -> list[str]:
    return sorted(p.stem for p in HERE.glob("bench_*.py"))


def main() -> int:
    failed = []
    for name in bench_modules():
        print(f"## {name}\n", flush=True)
        started = time.perf_counter()
        try:
            module = importlib.import_module(f"benchmarks.{name}")
            entry = getattr(module, "main", None)
            if entry is None:
                raise AttributeError(f"{name} has no main()")
            takes_argv = bool(inspect.signature(entry).parameters)
            status = entry([]) if takes_argv else entry()
            if status not in (None, 0):
                failed.append(name)
        except Exception:
            traceback.print_exc()
            failed.append(name)
        print(f"\n({name}: {time.perf_counter() - started:.1f} s)\n", flush=True)
    if failed:
        print(f"benchmarks that failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""``python -m anovax`` and the ``anovax`` command.

Deliberately tiny: the CLI's imports take about a second, and a Ctrl-C during them must end
the program quietly (exit 130) rather than with a traceback from deep inside an import.

While they run, Ctrl-C leaves at once instead of raising KeyboardInterrupt: nothing has been
done that could be lost, and an exception raised at a random point of an import is not always
catchable (Python prints and swallows one that lands in a weakref callback of the import
system, or wraps it in RuntimeError inside a class body). Once the CLI runs, Ctrl-C is a
KeyboardInterrupt again and the CLI turns it into a stop."""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType

#: the shell's code for "ended by Ctrl-C" (128 + SIGINT), as Status.STOPPED in the CLI
EXIT_INTERRUPTED = 130


def _leave(_signum: int, _frame: FrameType | None) -> None:
    try:
        sys.stderr.write("\n")
        sys.stderr.flush()
    finally:
        os._exit(EXIT_INTERRUPTED)


def main() -> int:
    # nothing from anovax is imported before this handler is in place; a Ctrl-C the shell told
    # us to ignore (started in the background) stays ignored
    previous = signal.getsignal(signal.SIGINT)
    try:
        if previous is signal.SIG_IGN:
            previous = None
        else:
            signal.signal(signal.SIGINT, _leave)
    except ValueError:  # not the main thread (embedded): no handler of ours, the CLI copes
        previous = None
    from anovax.cli import main as cli_main

    if previous is not None:
        signal.signal(signal.SIGINT, previous)
    return cli_main()


if __name__ == "__main__":
    raise SystemExit(main())

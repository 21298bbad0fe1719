"""Ctrl-C that the program has handled must not kill it on the way out.

CPython remembers a KeyboardInterrupt that escapes code run from a *string* (``exec(str)``,
which dataclasses, namedtuple and enum use to build methods while a module imports) in a
process-wide flag, even when a caller then catches the exception. At exit, a set flag makes
the interpreter kill itself with SIGINT: the shell sees a signal death (-2) instead of the
exit 130 we chose, with no message. The flag is cleared whenever a string is run again, so a
handler that has dealt with a Ctrl-C runs an empty one. (Measured: 34 of 200 Ctrl-Cs during
start-up died this way before this existed; ``anovax.__main__`` now also leaves at once on a
Ctrl-C during the imports, where an interrupt can even be swallowed by the import system.)"""


def interrupt_handled() -> None:
    """Call in every ``except KeyboardInterrupt`` that goes on (or returns an exit code)."""
    exec("")  # noqa: S102 - a constant empty string, run only to reset the interpreter's flag


def is_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` is a Ctrl-C, or an error Python raised because of one.

    Python 3.11 wraps an exception from ``__set_name__`` (dataclass fields while a class is
    built) in a RuntimeError raised *from* it, so a Ctrl-C at that moment of an import arrives
    as one. Only explicit causes count: an exit requested while handling a Ctrl-C is an exit."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen and not isinstance(current, SystemExit):
        if isinstance(current, KeyboardInterrupt):
            return True
        seen.add(id(current))
        current = current.__cause__
    return False

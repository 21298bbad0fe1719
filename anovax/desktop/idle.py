"""Is an app's main thread asleep in its event loop, or does it still have work to do?

A new window whose widget tree has stopped changing is usually ready for keys, but not on a
starved machine: an app that has not been given the CPU changes nothing either, and the keys
then reach a toplevel whose text widget is not mapped yet, and are lost (Tk drops them; the
stress run lost one command in 100 that way). Windows has ``WaitForInputIdle`` for exactly
this. On Linux the same question is answered by the kernel: a thread waiting for events is
asleep (``S``); one with startup work queued is runnable (``R``) until it gets a CPU, however
long that takes. So a launch also waits until the app has been seen asleep for a while.

Only the main thread counts (``/proc/PID/stat`` describes the thread-group leader): it runs
the event loop in Tk, GTK, Qt and Chromium alike."""

from __future__ import annotations

from pathlib import Path

PROC = Path("/proc")


def sleeping(pid: int | None, proc_root: Path = PROC) -> bool | None:
    """True when ``pid``'s main thread is asleep waiting for something (state ``S``), False
    when it is running, runnable or in any other state, None when that cannot be known (no
    pid, no /proc, the process is gone)."""
    if pid is None or pid <= 0:
        return None
    try:
        stat = (proc_root / str(pid) / "stat").read_bytes()
    except OSError:
        return None
    # "pid (comm) state ...": comm may itself hold spaces and parentheses, so split at the last ")"
    _, paren, rest = stat.rpartition(b")")
    fields = rest.split()
    if not paren or not fields:
        return None
    return fields[0] == b"S"

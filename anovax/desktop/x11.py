"""The X11 launch wait: a launched app is ready once its own window is active, focused, settled
and its app is waiting for events (``wait_for_window``).

The X connection it polls, focus queries and guarded typing are ``X11Focus`` (x11_focus.py);
its names stay importable from here.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import Callable

from anovax.desktop.apps import normalise_title as normalise
from anovax.desktop.base import CancelToken, LaunchEvidence
from anovax.desktop.idle import QuietWatch, cpu_ns, process_cpu_ns, waiting_for_events
from anovax.desktop.launcher import SETTLE_S
from anovax.desktop.x11_focus import TREE_MAX, WindowInfo, X11Focus, open_display
from anovax.errors import PermanentToolError, TransientToolError

__all__ = ["BUSY_APP_CPU_S", "BUSY_APP_MAX_S", "LAUNCH_MAX_S", "NO_WM", "POLL_S", "SETTLE_S", "TREE_MAX",
           "WindowInfo", "X11Focus", "belongs", "never_idles", "normalise", "open_display", "wait_for_window"]

#: how often launch_app looks for the new window (a poll costs < 1 ms)
POLL_S = 0.01
#: a safety net for a token that never fires: no app takes this long to show a window
LAUNCH_MAX_S = 60.0
# a focused window counts as ready once its window tree has not changed for SETTLE_S, and its
# app has looked quiet (anovax.desktop.idle) for as long
#: an app that never sleeps that long (a game, a video) is taken as ready this long after its
#: tree settled: being busy is not a sign that keys will be lost
BUSY_APP_MAX_S = 3.0
#: CPU time (all its threads) the app must have used while its tree held still to count as
#: busy. The clock alone cannot tell a busy app from one that did not run at all (a stalled
#: machine, a stopped app): that one has not built its window yet, and keys sent to it reach
#: a bare toplevel and are lost. An idle Tk app's timers use about 50 ms in 3 s
BUSY_APP_CPU_S = 0.1
#: what the user hears when the app's window showed but never became ready for keys
NOT_READY = "{name} opened a window, but it never became ready for keys."
NO_WM = "No window manager is running, so I can't tell which window has focus."


def belongs(info: WindowInfo, proc: subprocess.Popen[bytes], name: str) -> bool:
    """Whether ``info`` is a window of the app started as ``proc`` under the name ``name``.

    By pid when the window gives one: the launched process, or anything in the session it
    leads (launched apps get a session of their own, so helpers it forks stay in it). Else
    (Tk sets no _NET_WM_PID) by the app's name, or its program's name, in the class or title.
    """
    if info.pid is not None:
        if info.pid == proc.pid:
            return True
        try:
            return os.getsid(info.pid) == proc.pid
        except OSError:  # gone already, or on another machine
            return False
    args = proc.args if isinstance(proc.args, (list, tuple)) else [proc.args]
    names = {normalise(name), normalise(Path(str(args[0])).name)} - {""}
    seen = normalise(info.wm_class) + "|" + normalise(info.title)
    return any(n in seen for n in names)


def never_idles(still_s: float, cpu_then: int | None, cpu_now: int | None) -> bool:
    """Whether an app whose window tree has been still for ``still_s`` without it ever looking
    quiet is one that never idles: still for ``BUSY_APP_MAX_S`` and, when its CPU time is
    known (ns, then and now), having run for ``BUSY_APP_CPU_S`` of it."""
    if still_s < BUSY_APP_MAX_S:
        return False
    if cpu_then is None or cpu_now is None or cpu_now < cpu_then:  # nothing but the clock to go by
        return True
    return (cpu_now - cpu_then) / 1e9 >= BUSY_APP_CPU_S


def wait_for_window(focus: X11Focus, proc: subprocess.Popen[bytes], name: str,
                    cancel: CancelToken, started: float,
                    asleep: Callable[[int | None], bool | None] = waiting_for_events,
                    cpu: Callable[[int | None], int | None] = cpu_ns,
                    process_cpu: Callable[[int | None], int | None] = process_cpu_ns) -> LaunchEvidence:
    """Poll until a window of ``proc`` created since ``focus.watch_new_windows(True)`` is
    active, has the keyboard focus, its window tree has settled (``SETTLE_S``), and its app
    has been quiet at every poll for ``SETTLE_S`` and ``QUIET_POLLS`` polls (``QuietWatch``:
    ``asleep(pid)`` says it waits for events, None: cannot tell; ``cpu(pid)``, its main
    thread's CPU time in ns, grew by no more than an idle app's timers use), or it is an app
    that never idles (``never_idles``; ``process_cpu(pid)``: all its threads' CPU time in ns).

    TransientToolError when ``cancel`` fires first (the agent's TTL ran out);
    PermanentToolError when the app exits with an error or the window manager goes away.
    """
    tree: tuple | None = None
    since = 0.0  # when ``tree`` was first seen like this
    # whose CPU time (ns, all threads) was what then: _NET_WM_PID may appear after the first look
    since_pid: int | None = None
    since_cpu: int | None = None
    quiet = QuietWatch()
    while True:
        if not focus.wm_running():
            raise PermanentToolError(NO_WM, code="no_window_manager")
        active = focus.active_window()
        if active and active in focus.new_windows():
            info = focus.describe(active)
            if info is not None and belongs(info, proc, name) and focus.has_input_focus(active):
                now, state = time.monotonic(), focus.tree_state(active)
                # the window's own process; a launcher that exec'd into the app is the same pid
                pid = info.pid if info.pid is not None else proc.pid if proc.poll() is None else None
                used, ran = cpu(pid), process_cpu(pid)
                if state != tree or pid != since_pid:
                    tree, since, since_pid, since_cpu = state, now, pid, ran
                    quiet.restart(now, used)
                else:
                    quiet.observe(now, asleep(pid), used)
                    # quiet.since >= since: a quiet app's tree has been still for SETTLE_S as well
                    ready = "quiet" if quiet.settled(now) else "busy" if never_idles(now - since, since_cpu, ran) else ""
                    if state is not None and ready:
                        return LaunchEvidence(info.window, info.title, info.wm_class, info.pid, now - started, ready)
            else:
                tree = None
        code = proc.poll()
        if code not in (None, 0):
            raise PermanentToolError(f"{name} quit right after starting (exit code {code}).")
        if cancel.wait(POLL_S) or time.monotonic() - started > LAUNCH_MAX_S:
            if tree is not None:  # its window is up and focused: saying it never opened would be wrong
                raise TransientToolError(NOT_READY.format(name=name), code="not_ready")
            raise TransientToolError(f"{name} did not open a window in time.", code="no_window")

"""Window tools, the platform-neutral half: what a window is (``AppWindow``), which windows are an
app's, and the verify loop every adapter waits in.

An app name ("notepad", "the calculator") is resolved through the same tables launch_app uses
(``anovax.desktop.apps``): a window is the app's when one of the names it is known by (X11: its
WM_CLASS and the program its process runs; Windows: the process image; macOS: the process name)
is one of the programs that name could start. So "notepad" finds Mousepad's window on Debian and
notepad.exe's on Windows, whichever of the row's candidates is installed.

Each adapter (x11_windows.py, win_windows.py, mac_windows.py, simulated.py) implements the Desktop
methods ``app_windows``, ``focus_window``, ``close_window`` and ``set_window_state`` and verifies
what it did before returning: a window that did not take the focus or the state is a
PermanentToolError, never a "done".
"""

from __future__ import annotations

import enum
import ntpath
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from anovax.desktop import apps
from anovax.desktop.apps import normalise_name, normalise_title
from anovax.desktop.base import CancelToken
from anovax.errors import Cancelled, PermanentToolError

#: how long a window may take to show the focus or state asked for (openbox: a few ms)
VERIFY_MAX_S = 3.0
#: how long an app may take to close its window, or to put up its "save changes?" dialog
CLOSE_MAX_S = 5.0
#: with a dialog already up, a window still there after this long is waiting for it (not closing)
DIALOG_GRACE_S = 1.0
#: ask again this often (a request can be lost in a focus change)
RETRY_S = 0.5
POLL_S = 0.02


class WindowState(enum.StrEnum):
    """How a top-level window is shown."""

    NORMAL = "normal"
    MINIMIZED = "minimized"
    MAXIMIZED = "maximized"


class CloseOutcome(enum.StrEnum):
    """What asking an app to close its window led to."""

    #: the window is gone
    CLOSED = "closed"
    #: the app put up a dialog of its own (unsaved changes) and waits for the person
    ASKING = "asking"
    #: a dialog of the window was up before the request (an earlier "save changes?"), and the window
    #: stays: the app waits for the person's answer there first
    DIALOG_OPEN = "dialog_open"


@dataclass(frozen=True)
class AppWindow:
    """One top-level window of an app, as a window tool sees it."""

    #: the adapter's id (X11: the client window; Windows: the HWND; macOS: the app's pid)
    window: int
    #: how a spoken list names its app ("Mousepad", "Galculator")
    app: str
    #: its title now
    title: str
    #: the names its program is known by, squashed by ``normalise_title`` ("mousepad")
    programs: frozenset[str]
    #: the process that owns it, when known
    pid: int | None = None
    state: WindowState = WindowState.NORMAL


def program_key(program: str) -> str:
    """A program as windows are matched by it: "/usr/bin/mousepad" and "C:\\...\\notepad.exe" ->
    "mousepad", "notepad"; a mac bundle name "TextEdit" -> "textedit"."""
    base = ntpath.basename(program.strip())  # ntpath: both / and \\ separate
    if base.casefold().endswith((".exe", ".app")):
        base = base[:-4]
    return normalise_title(base)


def wanted_programs(name: str, platform: str, *, extra: tuple[apps.App, ...] = (),
                    entries: Iterable[apps.DesktopEntry] = ()) -> frozenset[str]:
    """Every program whose window is ``name``'s: all candidates of its row in the user's table and
    the platform's (installed or not: the window tells what runs), the name itself as a program,
    and the desktop entries that carry the name."""
    norm = normalise_name(name)
    out = {normalise_title(norm)}
    for table in (extra, apps.TABLES[platform]):
        app = apps.index(table).get(norm)
        for argv in app.candidates if app else ():
            out.add(program_key(argv[2] if argv[:2] == ("open", "-a") else argv[0]))
    for entry in entries:
        if norm in entry.names:
            out.add(program_key(entry.argv[0]))
    return frozenset(out - {""})


def of_app(windows: Iterable[AppWindow], wanted: frozenset[str]) -> list[AppWindow]:
    """The windows (in the order given: topmost first) whose program is one of ``wanted``."""
    return [w for w in windows if w.programs & wanted]


def app_names(windows: Iterable[AppWindow]) -> list[str]:
    """Each app once, in the order its first window comes."""
    return list(dict.fromkeys(w.app for w in windows if w.app))


def spoken_list(windows: Iterable[AppWindow]) -> str:
    """"Open: Mousepad, Galculator." or "Nothing is open." (AnovaX's own windows left out by the adapter)."""
    names = app_names(windows)
    return f"Open: {', '.join(names)}." if names else "No app windows are open."


def verify(done: Callable[[], bool], again: Callable[[], None], cancel: CancelToken, failed: str, *,
           max_s: float | None = None, gone: Callable[[], bool] | None = None, gone_msg: str = "") -> None:
    """Ask (``again``), then poll until ``done()``; asked again every ``RETRY_S``.
    PermanentToolError(``failed``) after ``max_s``, or (``gone_msg``) once ``gone()`` says the
    window vanished meanwhile; Cancelled when ``cancel`` fires."""
    deadline = time.monotonic() + (VERIFY_MAX_S if max_s is None else max_s)
    asked = time.monotonic()
    again()
    while not done():
        if gone is not None and gone():
            raise PermanentToolError(gone_msg or failed, code="window_gone")
        now = time.monotonic()
        if now > deadline:
            raise PermanentToolError(failed, code="window_unverified")
        if now - asked >= RETRY_S:
            again()
            asked = now
        if cancel.wait(POLL_S):
            raise Cancelled("Stopped while waiting for the window.")


def wait_closed(closed: Callable[[], bool], asking: Callable[[], bool], cancel: CancelToken, app: str, *,
                max_s: float | None = None, had_dialog: bool = False) -> CloseOutcome:
    """After the polite request: CLOSED once ``closed()``, ASKING once ``asking()`` (a new dialog of
    its own is up), DIALOG_OPEN when ``had_dialog`` (one was up before) and the window is still
    there after DIALOG_GRACE_S; PermanentToolError when none of these happens in ``max_s``."""
    start = time.monotonic()
    deadline = start + (CLOSE_MAX_S if max_s is None else max_s)
    while True:
        if closed():
            return CloseOutcome.CLOSED
        if asking():
            return CloseOutcome.ASKING
        if had_dialog and time.monotonic() - start >= DIALOG_GRACE_S:
            return CloseOutcome.DIALOG_OPEN
        if time.monotonic() > deadline:
            raise PermanentToolError(f"I asked {app} to close, but its window is still open.", code="not_closed")
        if cancel.wait(POLL_S):
            raise Cancelled("Stopped while waiting for the window to close.")

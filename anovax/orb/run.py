"""Start the orb window, or its console stand-in, for an Assistant (the CLI calls these)."""

from __future__ import annotations

import errno
import os
import select
import signal
import sys
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from anovax.errors import OrbUnavailable
from anovax.orb.console import ConsoleStatus
from anovax.orb.controls import OrbControls
from anovax.orb.countdown import TIMER_EVENTS
from anovax.orb.store import prefs_path as default_prefs_path

if TYPE_CHECKING:  # the orb must stay importable without the assistant (its window tests)
    from anovax.port import AssistantPort


def orb_unavailable(env: Mapping[str, str] | None = None, *, probe: bool = True) -> str | None:
    """Why the orb window cannot open on this machine, or None if it can.

    ``probe`` opens (and closes) a Tk root to be sure: DISPLAY may be set to a server that is
    gone, or one we may not connect to."""
    env = os.environ if env is None else env
    if sys.platform.startswith("linux") and not env.get("DISPLAY"):
        if env.get("WAYLAND_DISPLAY"):
            return "Wayland without XWayland (DISPLAY is not set); Tk needs X11"
        return "no display (DISPLAY is not set)"
    try:
        import tkinter
    except ImportError:
        return "tkinter is not installed (Debian/Ubuntu package python3-tk)"
    if not probe:
        return None
    try:
        root = tkinter.Tk(screenName=env.get("DISPLAY") or None)
    except tkinter.TclError as exc:
        return f"cannot open a window ({exc})"
    root.destroy()
    return None


def run_orb(assistant: AssistantPort, controls: OrbControls, *, prefs_path: Path | None = None,
            opened: Callable[[], Any] | None = None, terminal: TextIO | None = None,
            is_quit: Callable[[str], bool] = lambda line: False, hint: TextIO | None = None) -> int:
    """Show the orb for ``assistant`` on this (the main) thread until the window is closed; 0.

    Raises OrbUnavailable when no window can be opened (then fall back to the console).
    ``opened`` is called once the window is up (the CLI says there where commands go now).
    ``terminal``: the terminal the CLI was started from; a line ``is_quit`` accepts typed there,
    or Ctrl-D, closes the window (the console's "quit" did nothing while the orb was open: a
    first-time user's report), "stop" stops the running command, anything else gets a line on
    ``hint`` saying where commands go."""
    import tkinter as tk

    from anovax.orb.view import OrbWindow

    if threading.current_thread() is not threading.main_thread():
        raise RuntimeError("the orb must run on the main thread (Tk is not thread-safe)")
    # Tk's loop reports a KeyboardInterrupt raised in a callback and carries on, so Ctrl-C in the
    # terminal would do nothing. Instead, at the window's next tick: a running command is stopped
    # (as the Stop button does), and with nothing running the window closes. Deferred to the tick
    # because the handler may interrupt this very thread inside the assistant's locks. Installed
    # before Tk starts and the window is built (seconds on a busy machine): a Ctrl-C meanwhile
    # is kept and acted on once the window can be told.
    built: list[Any] = []
    early: list[bool] = []

    def interrupt() -> None:
        if assistant.busy and controls.stop is not None:
            controls.stop()
        else:
            built[0].close()

    def on_sigint(_sig: int, _frame: Any) -> None:
        if built:
            built[0].call_soon(interrupt)
        else:
            early.append(True)

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        try:
            root = tk.Tk(className="AnovaX")
        except tk.TclError as exc:
            raise OrbUnavailable(f"cannot open a window ({exc})") from exc
        window = OrbWindow(root, controls, prefs_path=prefs_path or default_prefs_path())
    except BaseException:
        signal.signal(signal.SIGINT, previous)
        raise
    built.append(window)
    attach_window(assistant.bus, window.feed)
    if opened is not None:
        opened()
    if early:
        window.call_soon(interrupt)
    stopping = threading.Event()
    background = getattr(signal, "SIGTTIN", None)
    if terminal is not None:
        # read from a background job (`anovax &`), a terminal stops the whole process: ignored,
        # the read fails instead and the watcher waits for `fg`
        before = signal.signal(background, signal.SIG_IGN) if background is not None else None
        threading.Thread(target=_watch_terminal, name="orb-terminal", daemon=True,
                         args=(terminal, is_quit, window, hint, controls.stop, stopping)).start()
    try:
        root.mainloop()
    finally:
        stopping.set()
        signal.signal(signal.SIGINT, previous)
        if terminal is not None and background is not None:
            signal.signal(background, before)
        window.close()
    return 0


#: how often the terminal watcher looks again (while the job is in the background, or idle)
TERMINAL_POLL_S = 0.5


def _watch_terminal(terminal: TextIO, is_quit: Callable[[str], bool], window: Any, hint: TextIO | None,
                    stop: Callable[[], Any] | None, stopping: threading.Event) -> None:
    """Lines typed in the terminal while the orb is open: a quit word or Ctrl-D closes the
    window, a stop utterance stops the running command. Raw reads with a timeout, so it ends
    with the window and never holds a read while the job is in the background."""
    from anovax.cancel import is_stop_utterance

    try:
        fd = terminal.fileno()
    except (OSError, ValueError):
        return
    pending = b""
    while not stopping.is_set():
        try:
            if os.tcgetpgrp(fd) != os.getpgrp() or not select.select([fd], [], [], TERMINAL_POLL_S)[0]:
                stopping.wait(TERMINAL_POLL_S)
                continue
            chunk = os.read(fd, 4096)
        except OSError as exc:
            if exc.errno == errno.EIO:  # put in the background meanwhile (SIGTTIN is ignored)
                stopping.wait(TERMINAL_POLL_S)
                continue
            return  # the terminal went away
        if not chunk:  # Ctrl-D, as at the console's prompt
            window.call_soon(window.close)
            return
        pending += chunk
        while b"\n" in pending:
            raw, pending = pending.split(b"\n", 1)
            line = raw.decode(errors="replace").strip()
            if is_quit(line):
                window.call_soon(window.close)
                return
            if is_stop_utterance(line) and stop is not None:
                window.call_soon(stop)
            elif line and hint is not None:
                print("anovax: commands go in the orb window now; 'quit' here closes it.", file=hint, flush=True)


def attach_window(bus: Any, feed: Callable[[Any], Any]) -> None:
    """Subscribe a window that opens after the assistant started. Timers set, restored or fired
    (missed while AnovaX was off: they fire the moment the service starts) before it subscribed
    reach it from the ring, atomically with subscribing so none falls in between."""
    bus.subscribe("orb", feed, replay=lambda event: event.type in TIMER_EVENTS)
    replay_voice_state(bus, feed)


def replay_voice_state(bus: Any, feed: Callable[[Any], Any]) -> None:
    """Hand a front end that subscribed late the voice listener's latest state.

    The listener starts before the window and may have said "unavailable" (no microphone)
    before anyone drew it: the orb then offered Mute and "say hey anova" to someone without a
    microphone. Call after subscribing; the model ignores it if a newer state came live."""
    from anovax.events import EventType

    recent = getattr(bus, "recent", None)
    states = [e for e in (recent() if callable(recent) else ()) if e.type is EventType.VOICE_STATE]
    if states:
        feed(states[-1])


def run_console_status(assistant: AssistantPort, out: TextIO | None = None, *, lock: Any = None,
                       inline: bool | None = None) -> ConsoleStatus:
    """The headless orb: a status line on ``out`` (default stderr) fed by the assistant's bus.

    Wrap other writes to the same terminal in ``status.hold()``; ``status.close()`` at exit."""
    return ConsoleStatus(assistant.bus, out if out is not None else sys.stderr, lock=lock, inline=inline).start()

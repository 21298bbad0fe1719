"""A desktop that records what it is asked to do instead of doing it.

Used by ``--simulate``, by the unit tests (with delays, failures and hangs
injected per action) and by the dispatch benchmarks. It follows the real
adapters' contract: cancellable waits, chunked typing with a cancel check
between chunks, the same error classes.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import threading
import time
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from anovax.desktop.known_apps import linux_program
from anovax.desktop.apps import LINUX_APPS, App, index, normalise_name
from anovax.desktop.base import CancelToken, KeyTarget, chunks
from anovax.desktop.installed import installed_app
from anovax.desktop.windowing import AppWindow, CloseOutcome, WindowState, of_app, wanted_programs
from anovax.desktop.identity import Proc, classify_program
from anovax.errors import AnovaXError, PermanentToolError
from anovax.target import TargetClass, WindowIdentity

#: a delay this long never ends unless cancelled: a slow call that honours its token
HANG = float("inf")
#: a delay of this value ignores the cancel token until ``unstick`` is set: a call
#: stuck in a C library, the case a Python thread cannot be rescued from
STUCK = -1.0


@dataclass(frozen=True)
class Action:
    """One thing the simulated desktop was asked to do."""

    #: launch, type, keys, url, screenshot, speak, clock, focus, aim, return, switch, close, window
    kind: str
    arg: str
    #: time.monotonic() when it started and ended
    start: float
    end: float
    thread: str


class SimulatedSpeech:
    """Speech out for a simulated desktop: each sentence is a "speak" action in its record
    (with the "speak" delay and failures), so --simulate shows what would have been said."""

    unavailable: str | None = None

    def __init__(self, desktop: SimulatedDesktop) -> None:
        self._desktop = desktop

    def say(self, text: str, cancel: CancelToken) -> None:
        self._desktop._do("speak", text, cancel)

    def close(self) -> None:
        pass


class SimulatedDesktop:
    """Records every action; ``delays`` and ``failures`` make it slow or broken on purpose."""

    name = "simulated"

    def __init__(
        self,
        *,
        delays: Mapping[str, float] | None = None,
        failures: Mapping[str, AnovaXError | Iterable[AnovaXError | None]] | None = None,
        now: Callable[[], dt.datetime] | None = None,
        pictures_dir: Path | None = None,
        known_apps: Collection[str] | None = None,
        user_apps: tuple[App, ...] = (),
        installed: Callable[[str], bool] | None = None,
    ) -> None:
        #: seconds per action kind; "type" is per chunk
        self.delays = dict(delays or {})
        self._failures: dict[str, list[AnovaXError | None]] = {}
        for kind, spec in (failures or {}).items():
            self._failures[kind] = [spec] if isinstance(spec, AnovaXError) else list(spec)
        self._now = now or (lambda: dt.datetime.now().astimezone())
        #: app names that "are installed"; None: every name is
        self.known_apps = None if known_apps is None else frozenset(known_apps)
        #: ...and programs found on this computer by their own name ("mousepad", "xterm")
        self.installed = installed
        self._pictures = pictures_dir or Path.home() / "Pictures"
        self._lock = threading.Lock()
        self._actions: list[Action] = []
        self._active = 0
        #: the most actions that were in progress at the same moment
        self.max_concurrent = 0
        #: releases actions whose delay is STUCK
        self.unstick = threading.Event()
        #: its loudspeaker: a speech-out port whose sentences are recorded here as "speak" actions
        self.speech = SimulatedSpeech(self)
        #: the settings file's [apps]: looked up first, as on a real desktop (and vouched kinds honoured)
        self.user_apps = user_apps
        #: the app the user is in (set by launch_app and aim; tests may set it): user_target() names it
        self.user_app: str | None = None
        #: the open windows, topmost first: each launch adds one (tests may add their own)
        self.windows: list[AppWindow] = []
        #: windows typed into since they came to the front: closing one brings up its "save?" dialog
        self.unsaved: set[int] = set()
        self._next_window = 0x100

    # -- inspection ---------------------------------------------------------------------

    @property
    def actions(self) -> list[Action]:
        with self._lock:
            return list(self._actions)

    @property
    def typed_text(self) -> str:
        return "".join(a.arg for a in self.actions if a.kind == "type")

    @property
    def active(self) -> int:
        """How many actions are in progress right now."""
        with self._lock:
            return self._active

    def take_actions(self) -> list[Action]:
        """The actions recorded so far, clearing the record (one command's worth at a time)."""
        with self._lock:
            actions, self._actions = self._actions, []
        return actions

    def kinds(self) -> list[str]:
        return [a.kind for a in self.actions]

    # -- the Desktop interface ----------------------------------------------------------

    def launch_app(self, name: str, cancel: CancelToken) -> str:
        norm = normalise_name(name)
        if self.known_apps is not None and norm not in self.known_apps and not (
                self.installed is not None and self.installed(norm)):
            raise PermanentToolError(f"I couldn't find an app called {name} on this computer.")
        self._do("launch", name, cancel)
        self.user_app = name
        self.add_window(name)
        return f"{name} is open (simulated)"

    def type_text(self, text: str, cancel: CancelToken) -> int:
        typed = 0
        for chunk in chunks(text):
            self._do("type", chunk, cancel)
            typed += len(chunk)
        if typed and self.windows:
            self.unsaved.add(self.windows[0].window)
        return typed

    def press_keys(self, keys: str, cancel: CancelToken) -> None:
        self._do("keys", keys, cancel)

    def open_url(self, url: str, cancel: CancelToken) -> None:
        self._do("url", url, cancel)

    def screenshot(self, cancel: CancelToken) -> Path:
        path = self._pictures / f"anovax-{self._now().strftime('%Y%m%d-%H%M%S')}.png"
        self._do("screenshot", str(path), cancel)
        return path

    def now(self) -> dt.datetime:
        self._do("clock", "", CancelToken())
        return self._now()

    def keyboard_target(self) -> KeyTarget | None:
        """The last app launched (a simulated desktop has no windows, only names)."""
        with self._lock:
            launched = [a.arg for a in self._actions if a.kind == "launch"]
        return KeyTarget(None, launched[-1]) if launched else None

    def refocus(self, target: KeyTarget, cancel: CancelToken) -> None:
        self._do("focus", target.title, cancel)

    # -- the target, identified as a real desktop would (issue 16) ------------------------------

    def classify_app(self, name: str) -> TargetClass:
        """The class of what ``name`` resolves to: the user's entry, else the first program of the
        Linux table's row that the well-known table knows, else the name as a program."""
        norm = normalise_name(name)
        for table in (self.user_apps, LINUX_APPS):
            app = index(table).get(norm)
            if app is None:
                continue
            for argv in app.candidates:
                klass, _why, _name, _cats = classify_program(Proc(0, argv[0], argv), vouched=self.user_apps)
                if klass is not TargetClass.UNKNOWN or table is self.user_apps:
                    return klass
            return TargetClass.UNKNOWN
        return linux_program(norm) or TargetClass.UNKNOWN

    def user_target(self) -> WindowIdentity | None:
        """The app the user is in (the last one opened or aimed at); None before any."""
        name = self.user_app
        if name is None:
            return None
        return WindowIdentity(window=None, title=name, app=name, klass=self.classify_app(name),
                              why=f"simulated: the app table's {normalise_name(name)!r}")

    def aim(self, target: WindowIdentity, cancel: CancelToken) -> None:
        """Records an "aim" action; the target becomes the app the user is in."""
        self._do("aim", target.name, cancel)
        self.user_app = target.app or target.title

    def return_to_user(self) -> None:
        """Records a "return" action (a simulated desktop has no focus to give back)."""
        self._do("return", self.user_app or "", CancelToken())

    # -- window tools (anovax.desktop.windowing) --------------------------------------------

    def add_window(self, name: str, title: str = "") -> AppWindow:
        """A window of the app ``name`` on top (what a launch opens)."""
        with self._lock:
            self._next_window += 1
            shown = name.strip()[:1].upper() + name.strip()[1:]
            window = AppWindow(self._next_window, shown, title or shown, wanted_programs(name, "linux", extra=self.user_apps))
            self.windows.insert(0, window)
        return window

    def app_windows(self, name: str | None) -> list[AppWindow]:
        with self._lock:
            windows = list(self.windows)
        return windows if name is None else of_app(windows, wanted_programs(name, "linux", extra=self.user_apps))

    def focus_window(self, window: AppWindow, cancel: CancelToken) -> None:
        self._do("switch", window.app, cancel)
        shown = self._replace(window, WindowState.NORMAL if window.state is WindowState.MINIMIZED else window.state)
        with self._lock:
            self.windows.remove(shown)
            self.windows.insert(0, shown)
        self.user_app = window.app

    def close_window(self, window: AppWindow, cancel: CancelToken) -> CloseOutcome:
        self._do("close", window.app, cancel)
        with self._lock:
            if window.window in self.unsaved:
                return CloseOutcome.ASKING  # its "save changes?" dialog: the window stays
            self.windows = [w for w in self.windows if w.window != window.window]
        self._leave(window)
        return CloseOutcome.CLOSED

    def set_window_state(self, window: AppWindow, state: WindowState, cancel: CancelToken) -> None:
        self._do("window", f"{window.app} {state.value}", cancel)
        self._replace(window, state)
        if state is WindowState.MINIMIZED:
            self._leave(window)

    def _leave(self, window: AppWindow) -> None:
        """A window manager gives the focus of a closed or minimised window to the next one shown."""
        with self._lock:
            if self.user_app is None or not wanted_programs(self.user_app, "linux", extra=self.user_apps) \
                    & window.programs:
                return  # the user was elsewhere: the focus stays there
            shown = [w for w in self.windows if w.state is not WindowState.MINIMIZED and w.window != window.window]
            self.user_app = shown[0].app if shown else None

    def _replace(self, window: AppWindow, state: WindowState) -> AppWindow:
        with self._lock:
            for i, w in enumerate(self.windows):
                if w.window == window.window:
                    self.windows[i] = dataclasses.replace(w, state=state)
                    return self.windows[i]
        raise PermanentToolError(f"{window.app} closed before I could change its window.", code="window_gone")

    @classmethod
    def plausible(cls, **kwargs) -> SimulatedDesktop:
        """Delays like a real desktop's (measured ranges in PLATFORM_NOTES), for --simulate and benches."""
        # a clock read is really ~µs; 0.1 s keeps a read-only batch visibly parallel in the
        # event stream even when a loaded machine starts the second thread late
        delays = {"launch": 0.3, "type": 0.01, "keys": 0.02, "url": 0.15, "screenshot": 0.05, "speak": 0.0,
                  "clock": 0.1, "switch": 0.05, "close": 0.05, "window": 0.05}
        # the apps a typical Linux desktop has, and the user's own
        kwargs.setdefault("known_apps", {*index(LINUX_APPS), *index(kwargs.get("user_apps", ()))})
        # "open mousepad" on a computer that has it, found as the real desktop finds it (on Linux
        # only a program with a desktop entry: never "ls" or "rm" by their names)
        kwargs.setdefault("installed", installed_app)
        return cls(delays={**delays, **kwargs.pop("delays", {})}, **kwargs)

    def close(self) -> None:
        pass

    # -- internals ----------------------------------------------------------------------

    def _do(self, kind: str, arg: str, cancel: CancelToken) -> None:
        cancel.check()
        with self._lock:
            queue = self._failures.get(kind)
            failure = queue.pop(0) if queue else None
            self._active += 1
            self.max_concurrent = max(self.max_concurrent, self._active)
        start = time.monotonic()
        try:
            delay = self.delays.get(kind, 0.0)
            if delay == STUCK:
                self.unstick.wait()
            elif delay:
                # an interruptible wait: a cancelled (expired) action stops here
                cancel.wait(None if delay == HANG else delay)
                cancel.check()
            if failure is not None:
                raise failure
            with self._lock:
                self._actions.append(Action(kind, arg, start, time.monotonic(), threading.current_thread().name))
        finally:
            with self._lock:
                self._active -= 1

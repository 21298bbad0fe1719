"""What ``anovax doctor`` looks at: the display server, the X server, the microphone, Python
modules, libraries and the network, each through one replaceable field of ``Probes``.

The defaults are the real thing; tests replace any field, so every check's branch runs without
a desktop. ``detect_display`` and ``wayland_notice`` are also what start-up uses to warn about
Wayland. Nothing here formats a report: that is doctor.py.
"""

from __future__ import annotations

import ctypes.util
import importlib.util
import shutil
import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from anovax.desktop.launcher import browser_app_argv
from anovax.errors import AnovaXError
from anovax.net import lan_address
from anovax.speech.probe import sound_card_problem

DisplayKind = Literal["x11", "wayland", "xwayland", "none", "native"]

#: PyAudio's first call probes every sound backend (ALSA, JACK...): give up after this
MIC_TIMEOUT_S = 5.0
#: a DISPLAY on an unreachable host would otherwise wait for TCP's own timeout
X_TIMEOUT_S = 5.0


def message_of(exc: BaseException) -> str:
    """An exception's message for a report line (an AnovaXError's own ``message``)."""
    if isinstance(exc, AnovaXError):
        return exc.message
    return str(exc) or type(exc).__name__


# -- display server -----------------------------------------------------------------------

@dataclass(frozen=True)
class DisplayInfo:
    """Which display server AnovaX would talk to, and what that rules out."""

    kind: DisplayKind
    #: one sentence: what does and doesn't work on this kind of display
    limits: str
    display: str = ""
    wayland_display: str = ""


_LIMITS: dict[str, str] = {
    "x11": "X11: keys, focus checks and verified app launches all work.",
    "xwayland": ("Wayland session with XWayland: AnovaX's keys and focus checks only reach X11 apps, "
                 "so typing into a native Wayland window can't be verified and may go nowhere."),
    "wayland": ("Wayland session without XWayland (DISPLAY is unset): AnovaX can open apps and links and "
                "speak, but can't type, press keys or check which window has focus, since xdotool and "
                "pyautogui need X11."),
    "none": ("No display (DISPLAY and WAYLAND_DISPLAY are unset): AnovaX can't act on a desktop here, "
             "so actions will be simulated."),
    "native": "This platform's own desktop: keys go to the focused window, which AnovaX does not verify.",
}


def detect_display(env: Mapping[str, str], platform: str | None = None) -> DisplayInfo:
    """The display server the environment points at (Linux); "native" on Windows and macOS."""
    if platform_key(platform) != "linux":
        return DisplayInfo("native", _LIMITS["native"])
    display, wayland_display = env.get("DISPLAY", ""), env.get("WAYLAND_DISPLAY", "")
    # XDG_SESSION_TYPE alone counts too: a session whose WAYLAND_DISPLAY was dropped
    # (sudo, a terminal multiplexer) is still a Wayland session
    wayland = env.get("XDG_SESSION_TYPE", "").strip().lower() == "wayland" or bool(wayland_display)
    kind: DisplayKind
    if wayland:
        kind = "xwayland" if display else "wayland"
    else:
        kind = "x11" if display else "none"
    return DisplayInfo(kind, _LIMITS[kind], display, wayland_display)


def wayland_notice(env: Mapping[str, str], platform: str | None = None) -> str | None:
    """The one-sentence start-up notice on Wayland; None where there is nothing to warn about."""
    info = detect_display(env, platform)
    return info.limits if info.kind in ("wayland", "xwayland") else None


def platform_key(platform: str | None = None) -> str:
    """"linux", "windows" or "macos": the app-table key for ``sys.platform``."""
    platform = sys.platform if platform is None else platform
    if platform == "win32":
        return "windows"
    if platform == "darwin":
        return "macos"
    return "linux"


# -- probes: everything the checks look at --------------------------------------------------

class FocusConn(Protocol):
    """What the doctor uses of ``anovax.desktop.x11.X11Focus``."""

    def wm_running(self) -> bool: ...

    def active_window(self) -> int | None: ...

    def describe(self, window: int) -> Any: ...

    def close(self) -> None: ...


class XConn(Protocol):
    """One X connection, as the doctor sees it."""

    def wm_name(self) -> str | None:
        """The window manager's _NET_WM_NAME ("" if it gives none); None when no WM announces itself."""
        ...

    def focus(self) -> FocusConn:
        """An X11Focus on the same display; RuntimeError without XTEST."""
        ...

    def close(self) -> None: ...


class RealX:
    """``XConn`` on a real X server, through python-xlib.

    XAUTHORITY is read from the process environment (python-xlib has no other way).
    """

    def __init__(self, display_name: str) -> None:
        from anovax.desktop.x11 import open_display

        self._name = display_name
        self._display = open_display(display_name)

    def wm_name(self) -> str | None:
        from Xlib import X, error

        atom = self._display.intern_atom
        check, net_name, utf8 = atom("_NET_SUPPORTING_WM_CHECK"), atom("_NET_WM_NAME"), atom("UTF8_STRING")
        try:
            prop = self._display.screen().root.get_full_property(check, X.AnyPropertyType)
            if prop is None or not len(prop.value):
                return None
            window = self._display.create_resource_object("window", int(prop.value[0]))
            own = window.get_full_property(check, X.AnyPropertyType)
            # a killed WM leaves the root's property behind, pointing at a window that is gone
            if own is None or not len(own.value) or int(own.value[0]) != int(prop.value[0]):
                return None
            name = window.get_full_property(net_name, utf8)
        except error.XError:
            return None
        if name is None:
            return ""
        value = name.value
        return value if isinstance(value, str) else bytes(value).decode("utf-8", "replace")

    def focus(self) -> FocusConn:
        from anovax.desktop.x11 import X11Focus

        return X11Focus(self._name)

    def close(self) -> None:
        try:
            self._display.close()
        except Exception:  # noqa: BLE001 - a server that went away leaves nothing to release
            pass


@dataclass(frozen=True)
class MicInfo:
    """The sound inputs PyAudio sees."""

    inputs: list[str]
    default: str | None


def probe_microphone() -> MicInfo:
    """Ask PyAudio for input devices; ImportError when it is not installed."""
    import pyaudio

    from anovax.voice.microphone import quiet_stderr  # ALSA and JACK print dozens of lines from C

    with quiet_stderr():
        audio = pyaudio.PyAudio()
    try:
        devices = [audio.get_device_info_by_index(i) for i in range(audio.get_device_count())]
        inputs = [str(d.get("name", "?")) for d in devices if int(d.get("maxInputChannels", 0)) > 0]
        try:
            default: str | None = str(audio.get_default_input_device_info().get("name", "?"))
        except (OSError, IOError):
            default = None
        return MicInfo(inputs, default)
    finally:
        audio.terminate()


def has_module(name: str) -> bool:
    """Whether ``name`` could be imported, without importing it (pyautogui opens the display on import)."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


@dataclass(frozen=True)
class Probes:
    """The outside world, as the checks see it; tests replace any part."""

    which: Callable[[str], str | None] = shutil.which
    x_connect: Callable[[str], XConn] = RealX
    has_module: Callable[[str], bool] = has_module
    find_library: Callable[[str], str | None] = ctypes.util.find_library
    microphone: Callable[[], MicInfo] = probe_microphone
    lan_address: Callable[[], str | None] = lan_address
    #: why no speech can be heard here (no sound card), or None
    sound_card: Callable[[], str | None] = sound_card_problem
    #: the browser searches and "open the browser" use, as a command ($BROWSER of the env given,
    #: else the platform default; None: none, or not a command)
    browser: Callable[[Mapping[str, str]], tuple[str, ...] | None] = browser_app_argv
    #: a ``sys.platform`` value
    platform: str = sys.platform
    mic_timeout_s: float = MIC_TIMEOUT_S
    x_timeout_s: float = X_TIMEOUT_S


def call_within(seconds: float, fn: Callable[[], Any]) -> Any:
    """``fn()``, or TimeoutError after ``seconds``: a wedged sound or X library must not hang
    the doctor (the thread is a daemon, abandoned if it never returns)."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=run, name="doctor-probe", daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        raise TimeoutError(f"no answer within {seconds:g} s")
    if "error" in box:
        raise box["error"]
    return box["value"]


# -- the X server, looked at once for the checks that need it ----------------------------

@dataclass(frozen=True)
class XReport:
    """What one look at the X server found."""

    #: why there is no connection; None when connected
    error: str | None = None
    wm_running: bool = False
    #: the WM's _NET_WM_NAME; "" when it gives none
    wm_name: str = ""
    #: why X11Focus can't work (no XTEST, ...); None when it can
    focus_error: str | None = None
    #: the focused window, described
    active: str | None = None


def inspect_x(display_name: str, connect: Callable[[str], XConn]) -> XReport:
    """Connect, name the window manager, try X11Focus; never raises."""
    try:
        conn = connect(display_name)
    except Exception as exc:  # noqa: BLE001 - no Xlib, no server, refused authority: all reported
        return XReport(error=message_of(exc))
    try:
        name = conn.wm_name()
        try:
            focus = conn.focus()
        except Exception as exc:  # noqa: BLE001 - X11Focus says why (no XTEST) in its message
            return XReport(wm_running=name is not None, wm_name=name or "", focus_error=message_of(exc))
        try:
            running = focus.wm_running()
            return XReport(wm_running=running, wm_name=name or "", active=_describe_active(focus))
        finally:
            focus.close()
    finally:
        conn.close()


def _describe_active(focus: FocusConn) -> str | None:
    window = focus.active_window()
    info = focus.describe(window) if window else None
    if info is None:
        return None
    title = getattr(info, "title", "") or "(untitled)"
    wm_class = getattr(info, "wm_class", "")
    line = f"{title!r} ({wm_class})" if wm_class else repr(title)
    client_pid = getattr(focus, "client_pid", None)
    if callable(client_pid) and window:  # the real X11Focus: say what identity makes of it, and why
        from anovax.desktop.x11_identity import X11Identifier

        found = X11Identifier(focus.describe, client_pid).identify(window)
        if found is not None:
            line += f", {found.klass.value}: {found.why}"
    return line

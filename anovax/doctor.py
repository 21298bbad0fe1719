"""``anovax doctor``: what this machine lets AnovaX do, and what it does not.

Each check is a small function of a ``Context`` returning one ``Check``. Everything the
checks look at (the environment, PATH, the X server, the microphone, the network) comes
through ``Probes`` (anovax.probes), so tests drive every branch without a desktop; the
defaults are the real thing. A check that raises becomes a "fail" line: the doctor is what people run when
something is broken, so it must itself survive whatever it finds.

Wayland is said plainly here and at start-up (``wayland_notice``): pyautogui and xdotool
speak X11 and focus checks read X properties, so on Wayland keys either cannot be sent
(no XWayland) or only reach X11 apps, and a native Wayland window can't be verified.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Literal

from anovax import __version__, paths
from anovax.desktop import apps
from anovax.errors import PermanentToolError
from anovax.net import url_host
from anovax.probes import (
    MIC_TIMEOUT_S,
    X_TIMEOUT_S,
    DisplayInfo,
    DisplayKind,
    FocusConn,
    MicInfo,
    Probes,
    RealX,
    XConn,
    XReport,
    call_within,
    detect_display,
    has_module,
    inspect_x,
    lan_address,
    platform_key,
    probe_microphone,
    wayland_notice,
)
from anovax.probes import message_of as _message
from anovax.search_urls import SearchUrls
from anovax.settings import Settings

__all__ = [
    "CHECKS", "MIC_TIMEOUT_S", "NO_MIC", "X_TIMEOUT_S", "Check", "Context", "DisplayInfo",
    "DisplayKind", "FocusConn", "MicInfo", "Probes", "RealX", "Status", "XConn", "XReport", "detect_display",
    "failed", "format_report", "has_module", "inspect_x", "lan_address", "platform_key", "probe_microphone",
    "run_checks", "to_json", "wayland_notice",
]

Status = Literal["ok", "warn", "fail", "info"]

NO_MIC = "no microphone found: AnovaX will take typed commands"


@dataclass(frozen=True)
class Check:
    """One line of the report."""

    name: str
    status: Status
    summary: str
    detail: list[str] = field(default_factory=list)


# -- the checks ---------------------------------------------------------------------------

class Context:
    """What every check is given; the X server is looked at once, on first use."""

    def __init__(self, settings: Settings | Exception, env: Mapping[str, str], probes: Probes) -> None:
        self.settings = settings
        self.env = env
        self.probes = probes
        self.platform = platform_key(probes.platform)
        self.display = detect_display(env, probes.platform)
        self._x: XReport | None = None

    def x(self) -> XReport:
        if self._x is None:
            probes, name = self.probes, self.display.display
            try:
                # python-xlib print()s a warning for an empty Xauthority file: keep it out of --json
                with contextlib.redirect_stdout(io.StringIO()):
                    self._x = call_within(probes.x_timeout_s, lambda: inspect_x(name, probes.x_connect))
            except TimeoutError as exc:
                self._x = XReport(error=f"the X server at {self.display.display} did not answer ({exc})")
        return self._x


_DISPLAY_SUMMARY = {
    "x11": "X11",
    "xwayland": "Wayland with XWayland",
    "wayland": "Wayland only",
    "none": "no display",
    "native": "native desktop",
}


def check_display(ctx: Context) -> Check:
    info = ctx.display
    where = ", ".join(f"{var}={value}" for var, value in (("DISPLAY", info.display),
                                                           ("WAYLAND_DISPLAY", info.wayland_display)) if value)
    summary = _DISPLAY_SUMMARY[info.kind] + (f" ({where})" if where else "")
    status: Status = {"x11": "ok", "native": "info"}.get(info.kind, "warn")
    return Check("display", status, summary, [info.limits])


def check_window_manager(ctx: Context) -> Check:
    if ctx.platform != "linux":
        return Check("window manager", "info", "not checked: window managers are an X11 matter")
    if not ctx.display.display:
        why = "no X display" if ctx.display.kind == "none" else "a Wayland compositor can't be asked from X11"
        return Check("window manager", "info", f"not checked: {why}")
    x = ctx.x()
    if x.error is not None:
        return Check("window manager", "fail", f"can't connect to the X display {ctx.display.display}",
                     [x.error])
    if not x.wm_running:
        from anovax.desktop.x11 import NO_WM

        return Check("window manager", "fail", "none running", [NO_WM, "Apps can't be opened until one runs."])
    return Check("window manager", "ok", x.wm_name or "running (it gives no name)")


def check_focus(ctx: Context) -> Check:
    name = "focus checks"
    kind = ctx.display.kind
    if kind == "native":
        return Check(name, "info", "not available here: focus checks are X11-only")
    if kind == "none":
        return Check(name, "info", "not available: no display")
    if kind == "wayland":
        return Check(name, "warn", "not supported on Wayland", [ctx.display.limits])
    x = ctx.x()
    reasons = [r for r in (x.error, None if x.wm_running or x.error else "no window manager is running",
                           x.focus_error) if r]
    if reasons:
        return Check(name, "warn", "not supported: launches are not verified and typing is not guarded", reasons)
    detail = [f"focused window: {x.active}"] if x.active else []
    if kind == "xwayland":
        return Check(name, "warn", "X11 apps only (XWayland)", [*detail, ctx.display.limits])
    return Check(name, "ok", "supported (X connection, window manager, XTEST)", detail)


def check_keyboard(ctx: Context) -> Check:
    name = "keyboard"
    has, which = ctx.probes.has_module, ctx.probes.which
    pyautogui = "pyautogui installed" if has("pyautogui") else "pyautogui missing"
    if ctx.platform != "linux":
        return Check(name, "ok" if has("pyautogui") else "fail", pyautogui)
    if ctx.display.kind == "none":
        return Check(name, "info", "not used: no display")
    if ctx.display.kind == "wayland":
        return Check(name, "warn", "can't send keys: xdotool and pyautogui need X11 (XWayland)")
    xdotool = which("xdotool")
    detail = [f"xdotool: {xdotool}" if xdotool else
              "xdotool: not installed, so typing is limited to plain ASCII (Debian package xdotool)",
              "python-xlib: installed" if has("Xlib") else
              "python-xlib: missing, so launches are not verified and typing is not guarded",
              pyautogui]
    problems = not xdotool or not has("Xlib")
    if not xdotool and not has("pyautogui"):
        return Check(name, "fail", "nothing to send keys with", detail)
    return Check(name, "warn" if problems else "ok",
                 "limited" if problems else "xdotool (any text) and python-xlib", detail)


def check_apps(ctx: Context) -> Check:
    table = apps.TABLES[ctx.platform]
    mine = ctx.settings.apps if isinstance(ctx.settings, Settings) else ()
    find = apps.platform_finder(ctx.platform, ctx.probes.which)
    browser = ctx.probes.browser(ctx.env)
    rows = [(app.names[0], _resolved(app.names[0], ctx.platform, find, mine, browser)) for app in table]
    found = sum(1 for _, where in rows if where is not None)
    rows += [(f"{app.names[0]} (yours)", _resolved(app.names[0], ctx.platform, find, mine, browser))
             for app in mine]
    width = max((len(n) for n, _ in rows), default=0)
    detail = [f"{n:<{width}}  {where or 'not installed'}" for n, where in rows]
    status: Status = "ok" if found else "warn"
    summary = f"{found} of {len(table)} everyday apps installed"
    if mine:
        summary += f", {len(mine)} of your own from the settings file"
    return Check("apps", status, summary, detail)


def _resolved(name: str, platform: str, find: Callable[[str], str | None],
              mine: tuple[apps.App, ...] = (), browser: tuple[str, ...] | None = None) -> str | None:
    try:
        return " ".join(apps.resolve(name, platform, find, extra=mine, browser=browser).argv)
    except PermanentToolError:
        return None


def check_browser(ctx: Context) -> Check:
    """The one browser searches and "open the browser" use, and the addresses searches open."""
    urls = ctx.settings.search_urls if isinstance(ctx.settings, Settings) else SearchUrls()
    detail = [f"searches open {urls.search}", f"video searches open {urls.video}"]
    argv = ctx.probes.browser(ctx.env)
    where = "from $BROWSER" if ctx.env.get("BROWSER") else "the platform default"
    if argv is None:
        if ctx.platform == "linux" and not ctx.env.get("BROWSER") and not (ctx.env.get("DISPLAY")
                                                                         or ctx.env.get("WAYLAND_DISPLAY")):
            # Python's browser list holds only terminal browsers without a display: the apps
            # table's x-www-browser is there, but nothing could show its window
            return Check("browser", "warn", "no display, so no browser window can open: searches need one", detail)
        if ctx.env.get("BROWSER") or ctx.platform == "linux":
            return Check("browser", "warn", f"no browser found ({where}): set BROWSER or install one", detail)
        return Check("browser", "ok", "the system's default browser", detail)
    return Check("browser", "ok", f"{' '.join(argv)} ({where})", detail)


def check_microphone(ctx: Context) -> Check:
    try:
        mic = call_within(ctx.probes.mic_timeout_s, ctx.probes.microphone)
    except ImportError:
        return Check("microphone", "warn", NO_MIC, ["PyAudio is not installed"])
    except TimeoutError as exc:
        return Check("microphone", "warn", NO_MIC, [f"PyAudio gave no answer: {exc}"])
    except Exception as exc:  # noqa: BLE001 - a sound system PyAudio can't open is no microphone
        return Check("microphone", "warn", NO_MIC, [f"PyAudio: {_message(exc)}"])
    if not mic.inputs:
        return Check("microphone", "warn", NO_MIC, ["PyAudio sees no input device"])
    detail = [f"input: {n}" for n in mic.inputs]
    return Check("microphone", "ok", f"default input: {mic.default or 'none set'}", detail)


#: pyttsx3's first-choice driver per platform
_TTS_DRIVER = {"linux": "espeak", "windows": "sapi5", "macos": "nsss"}


def check_speech_out(ctx: Context) -> Check:
    name, fallback = "speech out", "AnovaX will print what it says"
    if not ctx.probes.has_module("pyttsx3"):
        return Check(name, "warn", f"pyttsx3 is not installed: {fallback}")
    driver = _TTS_DRIVER[ctx.platform]
    if ctx.platform != "linux":
        return Check(name, "ok", f"pyttsx3 with the {driver} driver")
    lib = ctx.probes.find_library("espeak-ng") or ctx.probes.find_library("espeak")
    binary = ctx.probes.which("espeak-ng") or ctx.probes.which("espeak")
    aplay = ctx.probes.which("aplay")
    detail = [f"espeak library: {lib or 'not found (Debian package libespeak-ng1)'}",
              f"espeak program: {binary or 'not found (Debian package espeak-ng)'}",
              f"aplay: {aplay or 'not found (Debian package alsa-utils)'}"]
    if lib and aplay:
        why = ctx.probes.sound_card()
        if why:
            return Check(name, "warn", f"speech out is unavailable: {why}; {fallback}", detail)
        return Check(name, "ok", f"pyttsx3 with the {driver} driver", detail)
    return Check(name, "warn", f"pyttsx3's {driver} driver can't speak here: {fallback}", detail)


def check_speech_in(ctx: Context) -> Check:
    has = ctx.probes.has_module
    recognition = "SpeechRecognition installed" if has("speech_recognition") else "SpeechRecognition missing"
    offline = "pocketsphinx installed" if has("pocketsphinx") else "no pocketsphinx, so no offline recognition"
    return Check("speech in", "info", f"{recognition}; {offline}", [_adaptation(ctx.env)])


def _adaptation(env: Mapping[str, str]) -> str:
    from anovax.voice.adapt import missing_tools
    from anovax.voice.enrol import saved

    path, state = saved(env)
    if state == "adapted":
        return f"adapted to your voice ({paths.shown(path)}; anovax enrol --forget undoes it)"
    if state == "damaged":
        return f"{paths.shown(path)} is damaged: the general model is used (run anovax enrol again)"
    missing = missing_tools()
    tools = f" (it needs the Debian packages {', '.join(missing)})" if missing else ""
    return f"general acoustic model: anovax enrol adapts it to your voice{tools}"


def check_planner(ctx: Context) -> Check:
    settings = ctx.settings
    if isinstance(settings, Exception):
        raise settings  # the settings could not be read: that message is the line
    key = "set" if settings.gemini_api_key else "not set"
    detail = [f"planner setting: {settings.planner}",
              f"Gemini API key: {key}",
              f"Gemini model: {settings.model}",
              f"Ollama: {settings.ollama_model} at {settings.ollama_host}",
              f"settings file: {settings.config_file or 'none'}"]
    effective = settings.effective_planner
    if effective == "gemini" and not settings.gemini_api_key:
        return Check("planner", "fail", "gemini, but no GEMINI_API_KEY (or GOOGLE_API_KEY) is set", detail)
    how = f" ({settings.planner} resolves to it)" if settings.planner == "auto" else ""
    model = {"gemini": f", {settings.model}", "ollama": f", {settings.ollama_model}"}.get(effective, "")
    return Check("planner", "ok", f"{effective}{model}{how}", detail)


def check_remote(ctx: Context) -> Check:
    """The phone remote's line: whether it starts with the assistant, where it would listen,
    and that a phone must pair before it sees or controls anything."""
    settings = ctx.settings if isinstance(ctx.settings, Settings) else Settings()
    address = settings.remote_bind or ctx.probes.lan_address()
    where = f"http://{url_host(address)}:{settings.remote_port}" if address else None
    if settings.remote:
        summary = f"on: starts with the assistant at {where or f'port {settings.remote_port}'}"
    else:
        summary = "off (ANOVAX_REMOTE=1, or the orb's Phone button, starts it)"
    detail = [f"listens on {where}" if where else
              "no LAN address (no default route): a phone could not reach this machine",
              "a phone must pair first (a one-time code shown here); unpaired requests get nothing"]
    return Check("remote", "info", summary, detail)


CheckFn = Callable[[Context], Check]
#: every check, in report order, under the name its line gets if it raises
CHECKS: tuple[tuple[str, CheckFn], ...] = (
    ("display", check_display),
    ("window manager", check_window_manager),
    ("focus checks", check_focus),
    ("keyboard", check_keyboard),
    ("apps", check_apps),
    ("browser", check_browser),
    ("microphone", check_microphone),
    ("speech out", check_speech_out),
    ("speech in", check_speech_in),
    ("planner", check_planner),
    ("remote", check_remote),
)


def run_checks(settings: Settings | Exception, env: Mapping[str, str], probes: Probes | None = None,
               checks: tuple[tuple[str, CheckFn], ...] = CHECKS) -> list[Check]:
    """Every check's line; never raises. ``settings`` may be the error that loading them raised."""
    ctx = Context(settings, env, probes or Probes())
    out = []
    for name, fn in checks:
        try:
            out.append(fn(ctx))
        except Exception as exc:  # noqa: BLE001 - one broken check must not hide the others
            out.append(Check(name, "fail", _message(exc)))
    return out


def failed(checks: list[Check]) -> bool:
    return any(c.status == "fail" for c in checks)


def format_report(checks: list[Check]) -> str:
    """One aligned line per check, its detail indented below it, and a count at the end."""
    width = max((len(c.name) for c in checks), default=0)
    indent = " " * (width + 8)
    lines = [f"AnovaX {__version__} doctor"]
    for check in checks:
        lines.append(f"{check.name:<{width}}  {check.status:<4}  {check.summary}")
        lines.extend(indent + d for d in check.detail)
    counts = {s: sum(1 for c in checks if c.status == s) for s in ("ok", "warn", "fail", "info")}
    lines.append(", ".join(f"{n} {s}" for s, n in counts.items()))
    return "\n".join(lines)


def to_json(checks: list[Check]) -> str:
    return json.dumps({"version": __version__, "ok": not failed(checks), "checks": [asdict(c) for c in checks]},
                      ensure_ascii=False, indent=2)

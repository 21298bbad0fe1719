"""Everyday app names -> the program to start, per platform.

``launch_app`` is given a *name* ("notepad", "the calculator"), never a path or a
command line. Each platform has a table of apps: the names people use for one,
and the programs that can be it, best first; the first one installed wins, so
"notepad" opens gedit on GNOME and kate on KDE. A name not in the table may
still be an installed program ("gimp"): the generic fallback runs it if it is a
plain command name found on PATH, is not on a short list of commands that must
never be started by name, and (Windows) is an ``.exe`` rather than a script.
On Linux, the names menus show (the ``Name=`` and ``GenericName=`` of installed
``.desktop`` files: "GNU Image Manipulation Program", "Image Editor") come last.

Users add their own names in the settings file (``[apps]``, see ``user_apps``);
theirs are looked up first, so they can also re-point a built-in name.

Everything here is pure: the installed-program probe and the folders of desktop
entries are passed in, so the tables are unit-tested on any OS.
"""

from __future__ import annotations

import configparser
import os
import re
import shlex
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from anovax.desktop import known_apps
from anovax.errors import PermanentToolError
from anovax.target import TargetClass

Argv = tuple[str, ...]


@dataclass(frozen=True)
class App:
    """One everyday app."""

    #: the names people call it, lower case; the first is the one we show
    names: tuple[str, ...]
    #: programs that can be this app, best first; argv[0] is what must be installed
    candidates: tuple[Argv, ...]
    #: the class the user vouched for in ``[apps]`` (``kind = "text"``); None: the desktop decides
    kind: TargetClass | None = None


@dataclass(frozen=True)
class ResolvedApp:
    """What launch_app will run for a name."""

    #: the user's name for it, normalised
    name: str
    argv: Argv
    #: BROWSER when it is the browser searches use ($BROWSER, else the platform default)
    kind: TargetClass | None = None


def _apps(*rows: tuple[str, tuple[Argv, ...]]) -> tuple[App, ...]:
    return tuple(App(tuple(n.strip() for n in names.split(",")), cands) for names, cands in rows)


def _cmds(*names: str) -> tuple[Argv, ...]:
    return tuple((n,) for n in names)


LINUX_APPS = _apps(
    ("text editor, notepad, editor, notes, gedit, wordpad", _cmds(
        "gedit", "gnome-text-editor", "kate", "mousepad", "xed", "pluma", "leafpad", "featherpad", "xedit")),
    ("calculator, calc", _cmds("gnome-calculator", "kcalc", "galculator", "mate-calc", "qalculate-gtk", "xcalc")),
    # x-www-browser is Debian's "default browser" alternative
    ("browser, web browser, internet", _cmds(
        "x-www-browser", "firefox", "firefox-esr", "chromium", "chromium-browser", "google-chrome")),
    ("firefox, mozilla firefox", _cmds("firefox", "firefox-esr")),
    ("chrome, google chrome", _cmds("google-chrome", "google-chrome-stable", "chromium", "chromium-browser")),
    ("chromium", _cmds("chromium", "chromium-browser")),
    ("terminal, command line, console", _cmds(
        "x-terminal-emulator", "gnome-terminal", "konsole", "xfce4-terminal", "mate-terminal", "lxterminal", "xterm")),
    ("files, file manager, file explorer, explorer, my files, finder", _cmds(
        "nautilus", "dolphin", "thunar", "nemo", "caja", "pcmanfm", "pcmanfm-qt")),
    ("settings, system settings, control panel", _cmds(
        "gnome-control-center", "systemsettings", "xfce4-settings-manager", "mate-control-center")),
    ("task manager, system monitor", _cmds(
        "gnome-system-monitor", "plasma-systemmonitor", "ksysguard", "xfce4-taskmanager", "mate-system-monitor",
        "lxtask")),
    ("paint, drawing", _cmds("pinta", "kolourpaint", "drawing", "mtpaint", "gimp")),
    ("word, writer, word processor", (("libreoffice", "--writer"), ("abiword",))),
    ("excel, spreadsheet, calc spreadsheet", (("libreoffice", "--calc"), ("gnumeric",))),
    ("media player, music, videos, vlc", _cmds("vlc", "totem", "celluloid", "rhythmbox", "elisa")),
    ("email, mail, thunderbird", _cmds("thunderbird", "evolution", "geary")),
    ("camera, webcam", _cmds("cheese", "snapshot", "kamoso")),
    ("vs code, vscode, visual studio code, code", _cmds("code", "codium")),
)

#: Windows: direct executables (never ``start``, which needs a shell). "explorer.exe <uri>"
#: is how a ms-settings: page opens without one. Browsers are not on PATH, so their usual
#: install paths are listed; %VARS% are expanded by the probe.
_EDGE = r"%ProgramFiles(x86)%\Microsoft\Edge\Application\msedge.exe"
_CHROME = r"%ProgramFiles%\Google\Chrome\Application\chrome.exe"
_FIREFOX = r"%ProgramFiles%\Mozilla Firefox\firefox.exe"
WINDOWS_APPS = _apps(
    ("notepad, text editor, editor, notes", _cmds("notepad.exe")),
    ("calculator, calc", _cmds("calc.exe")),
    ("files, file manager, file explorer, explorer, my files, this pc", _cmds("explorer.exe")),
    ("terminal, windows terminal", _cmds("wt.exe", "cmd.exe")),
    ("command prompt, cmd, command line, console", _cmds("cmd.exe")),
    ("powershell", _cmds("pwsh.exe", "powershell.exe")),
    ("paint, ms paint, drawing", _cmds("mspaint.exe")),
    ("wordpad", _cmds("write.exe")),
    ("task manager", _cmds("taskmgr.exe")),
    ("settings, system settings", (("explorer.exe", "ms-settings:"),)),
    ("snipping tool", _cmds("SnippingTool.exe")),
    # the bare names last: installed elsewhere, a browser is still found through App Paths
    ("browser, web browser, internet", _cmds(_EDGE, _CHROME, _FIREFOX, "msedge.exe", "chrome.exe", "firefox.exe")),
    ("edge, microsoft edge", _cmds(_EDGE, "msedge.exe")),
    ("chrome, google chrome", _cmds(_CHROME, "chrome.exe")),
    ("firefox, mozilla firefox", _cmds(_FIREFOX, "firefox.exe")),
)

#: macOS: ``open -a <App>``; the probe looks for the bundle in the usual folders, so a
#: missing app fails here rather than in ``open``.
def _mac(*bundles: str) -> tuple[Argv, ...]:
    return tuple(("open", "-a", b) for b in bundles)


MAC_APPS = _apps(
    ("text editor, notepad, editor, textedit", _mac("TextEdit")),
    ("notes", _mac("Notes")),
    ("calculator, calc", _mac("Calculator")),
    ("browser, web browser, internet, safari", _mac("Safari")),
    ("chrome, google chrome", _mac("Google Chrome")),
    ("firefox, mozilla firefox", _mac("Firefox")),
    ("terminal, command line, console", _mac("Terminal", "iTerm")),
    ("files, file manager, finder, file explorer, explorer", _mac("Finder")),
    ("settings, system settings, system preferences, control panel", _mac("System Settings", "System Preferences")),
    ("task manager, activity monitor, system monitor", _mac("Activity Monitor")),
    ("paint, drawing, preview", _mac("Preview")),
    ("music", _mac("Music")),
    ("email, mail", _mac("Mail")),
    ("camera, webcam, photo booth", _mac("Photo Booth")),
)

TABLES: Mapping[str, tuple[App, ...]] = {"linux": LINUX_APPS, "windows": WINDOWS_APPS, "macos": MAC_APPS}

#: a name the generic fallback may run: one plain command word, no paths, no options
GENERIC_NAME = re.compile(r"^[a-z0-9][a-z0-9._+-]*$")
#: commands the generic fallback never runs, even if a plan got past the safety check:
#: they power off, escalate, destroy data or spin forever with no window
NEVER_LAUNCH = frozenset(
    """reboot poweroff halt shutdown systemctl loginctl init telinit xkill kill killall pkill sudo su doas
    pkexec rm rmdir dd mkfs shred wipefs fdisk parted yes format diskpart bcdedit regedit""".split()
)
_FILLER = re.compile(r"^(?:the|my|a|an)\s+|\s+(?:app|application|program)$")


#: what normalise_title drops: everything but (case-folded) ASCII letters and digits
_NOT_TITLE_CHAR = re.compile(r"[^0-9a-z]")


def normalise_name(name: str) -> str:
    """"  The Calculator app " -> "calculator"."""
    norm = " ".join(name.casefold().split())
    prev = None
    while prev != norm:
        prev, norm = norm, _FILLER.sub("", norm).strip()
    return norm


def normalise_title(text: str) -> str:
    """A window title, class or program name squashed for matching against an app's names:
    case-folded ASCII letters and digits only. "AnovaX-Test Editor" -> "anovaxtesteditor",
    "Calculator - Standard" -> "calculatorstandard", "STRASSE" and "Straße" -> "strasse".

    The X11 and Windows launch checks share it, so "is this window that app's" means the same
    on both."""
    return _NOT_TITLE_CHAR.sub("", text.casefold())


def index(table: tuple[App, ...]) -> dict[str, App]:
    """Every name of every app -> the app; a name claimed twice is a table bug."""
    out: dict[str, App] = {}
    for app in table:
        for name in app.names:
            if name in out:
                raise ValueError(f"app name {name!r} is in the table twice")
            out[name] = app
    return out


#: the classes a user may vouch for: the ones the safety gate lets keys reach without asking
VOUCHABLE = (TargetClass.TEXT, TargetClass.BROWSER)
_ENTRY_KEYS = frozenset({"run", "kind"})


def user_apps(entries: Mapping[str, object]) -> tuple[App, ...]:
    """Apps from the settings file's ``[apps]`` table, or ValueError naming the bad entry.

    ``"test editor, scratch pad" = ["python3", "/home/me/editor.py"]``: the key holds one
    or more names (comma-separated), the value a program or an argument list (no shell).
    ``"test editor" = { run = ["python3", "/home/me/editor.py"], kind = "text" }`` also vouches
    for what its window is: a window whose process runs exactly that argument list is TEXT (or
    BROWSER), whatever its desktop entry says; only those two can be vouched for.
    """
    out = []
    for names, value in entries.items():
        kind = None
        if isinstance(value, Mapping):
            value, kind = _vouched(names, value)
        argv = (value,) if isinstance(value, str) else tuple(value) if isinstance(value, (list, tuple)) else ()
        if not argv or not all(isinstance(a, str) and a.strip() and "\0" not in a for a in argv):
            raise ValueError(f"app {names!r} must be a program name or a list of arguments")
        keys = tuple(dict.fromkeys(normalise_name(n) for n in names.split(",") if n.strip()))
        if not keys:
            raise ValueError(f"app {names!r} has no name")
        if kind is not None:
            _check_vouchable(names, argv)
        out.append(App(keys, (tuple(os.path.expanduser(a) if i == 0 else a for i, a in enumerate(argv)),), kind))
    index(tuple(out))  # the same name twice is an error in the user's table too
    return tuple(out)


def _vouched(names: str, table: Mapping[str, object]) -> tuple[object, TargetClass]:
    """(run, kind) of an ``{ run = ..., kind = ... }`` entry, or ValueError."""
    unknown = sorted(map(str, set(table) - _ENTRY_KEYS))
    if unknown or "run" not in table:
        what = f"unknown key {', '.join(unknown)}" if unknown else "no run"
        raise ValueError(f'app {names!r} must be a program name or a list of arguments, or a table '
                         f'{{ run = [arguments], kind = "text" }} ({what})')
    kind = table.get("kind")
    allowed = " or ".join(f'"{k.value}"' for k in VOUCHABLE)
    if not isinstance(kind, str) or kind.strip().lower() not in {k.value for k in VOUCHABLE}:
        raise ValueError(f"app {names!r} has kind = {kind!r}; only {allowed} can be vouched for (a program that "
                         "runs code or commands is never typed into without asking)")
    return table["run"], TargetClass(kind.strip().lower())


def _check_vouchable(names: str, argv: Argv) -> None:
    """A shell, a terminal or a bare interpreter is a command line whatever the user calls it."""
    program = Path(argv[0]).name
    if program in SHELLS or known_apps.linux_program(program) is TargetClass.SHELL or (
            len(argv) == 1 and known_apps.shell_like(program)):
        raise ValueError(f"app {names!r} runs {program}, a shell or terminal: it can't be vouched for")


#: the names that mean "whatever browser this computer uses", not one browser in particular
BROWSER_NAMES = frozenset({"browser", "web browser", "internet"})


def resolve(name: str, platform: str, find: Callable[[str], str | None], *,
            extra: tuple[App, ...] = (), entries: Iterable[DesktopEntry] = (),
            browser: Argv | None = None) -> ResolvedApp:
    """The program to run for ``name`` on ``platform``, or PermanentToolError.

    ``find(target)`` returns where ``target`` is installed, else None: a command name or
    path on Linux/Windows, an app bundle name on macOS (``platform_finder`` builds it).
    ``extra``: the user's apps, tried first. ``entries``: installed desktop entries, last.
    ``browser``: the command searches open pages with (launcher.browser_app_argv: $BROWSER, else
    the platform default), used for BROWSER_NAMES before the table so "open the browser" and a
    search find the same browser; None: the table's.
    """
    mac = platform == "macos"
    norm = normalise_name(name)
    if browser and norm in BROWSER_NAMES and norm not in index(extra):
        return ResolvedApp(norm, browser, TargetClass.BROWSER)
    for table in (extra, TABLES[platform]):
        app = index(table).get(norm)
        for argv in app.candidates if app else ():
            path = find(argv[2] if mac and argv[:2] == ("open", "-a") else argv[0])
            if path:
                return ResolvedApp(norm, argv if mac and argv[:2] == ("open", "-a") else (path, *argv[1:]))
        if app and table is extra:  # the user's own entry: a missing program is not shadowed silently
            raise PermanentToolError(f"{name.strip()} is set up to run {app.candidates[0][0]}, which is not "
                                     "installed.", code="app_not_found")
    if GENERIC_NAME.match(norm) and norm not in NEVER_LAUNCH:
        path = find(norm)
        # on Windows PATHEXT also finds .bat/.cmd scripts: only real programs
        if path and (platform != "windows" or path.lower().endswith(".exe")):
            return ResolvedApp(norm, ("open", "-a", Path(path).stem) if mac else (path,))
    for entry in entries:
        if norm in entry.names:
            path = find(entry.argv[0])
            if path and Path(path).name not in NEVER_LAUNCH | SHELLS:
                return ResolvedApp(norm, (path, *entry.argv[1:]))
    raise PermanentToolError(f"I couldn't find an app called {name.strip()} on this computer.", code="app_not_found")


# -- Linux: the desktop entries menus are built from --------------------------------------

#: programs a desktop entry's Exec may not start: a shell runs a command line, not an app
SHELLS = frozenset({"sh", "bash", "dash", "zsh", "fish", "ksh", "csh", "tcsh", "env"})
#: Exec field codes (%f a file, %u a URL, %i an icon...): we open apps without arguments
_FIELD_CODE = re.compile(r"^%[fFuUdDnNickvm]$")


@dataclass(frozen=True)
class DesktopEntry:
    """One launchable ``.desktop`` file."""

    #: its Name and GenericName, normalised
    names: frozenset[str]
    argv: Argv
    path: Path


def application_dirs(env: Mapping[str, str]) -> list[Path]:
    """Where desktop entries live, most specific first (XDG Base Directory spec)."""
    data_home = env.get("XDG_DATA_HOME") or os.path.join(env.get("HOME") or str(Path.home()), ".local", "share")
    data_dirs = (env.get("XDG_DATA_DIRS") or "/usr/local/share:/usr/share").split(":")
    return [Path(d) / "applications" for d in [data_home, *data_dirs] if d]


def parse_desktop_entry(path: Path) -> DesktopEntry | None:
    """The entry in ``path`` if it is a visible application with a usable Exec, else None."""
    parser = configparser.RawConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # keys are case-sensitive ("Name" vs "name[de]")
    try:
        parser.read(path, encoding="utf-8")
        entry = parser["Desktop Entry"]
    except (configparser.Error, KeyError, OSError, UnicodeDecodeError):
        return None
    if entry.get("Type") != "Application" or any(
            entry.get(flag, "").lower() == "true" for flag in ("NoDisplay", "Hidden", "Terminal")):
        return None
    try:
        argv = tuple(a for a in shlex.split(entry.get("Exec", "")) if not _FIELD_CODE.match(a))
    except ValueError:
        return None
    names = frozenset(normalise_name(entry[k]) for k in ("Name", "GenericName") if entry.get(k, "").strip())
    if not argv or not names or any("%" in a for a in argv):
        return None
    return DesktopEntry(names, argv, path)


def entry_files(dirs: Iterable[Path]) -> Iterator[Path]:
    """Every ``.desktop`` file in ``dirs``; the first file of a given name wins (the user's own
    ~/.local/share/applications overrides the system's), as menus do."""
    seen: set[str] = set()
    for folder in dirs:
        try:
            files = sorted(folder.rglob("*.desktop"))
        except OSError:
            continue
        for path in files:
            rel = str(path.relative_to(folder))
            if rel not in seen:
                seen.add(rel)
                yield path


def desktop_entries(dirs: Iterable[Path]) -> list[DesktopEntry]:
    """Every visible application entry (see ``entry_files`` for which file wins)."""
    return [entry for entry in map(parse_desktop_entry, entry_files(dirs)) if entry is not None]


#: where macOS keeps application bundles
MAC_APP_DIRS = ("/Applications", "/System/Applications", "/System/Applications/Utilities",
                "/Applications/Utilities", "~/Applications", "/System/Library/CoreServices")


def find_mac_bundle(name: str, dirs: tuple[str, ...] = MAC_APP_DIRS) -> str | None:
    """The path of ``<name>.app`` in the usual folders (case-insensitive), or None."""
    wanted = f"{name}.app".casefold()
    for folder in dirs:
        try:
            for entry in Path(folder).expanduser().iterdir():
                if entry.name.casefold() == wanted:
                    return str(entry)
        except OSError:
            continue
    return None


def platform_finder(platform: str, which: Callable[[str], str | None]) -> Callable[[str], str | None]:
    """The real ``find`` for ``resolve``: PATH lookup, absolute paths (with %VARS%), mac bundles."""
    if platform == "macos":
        return find_mac_bundle

    def find(program: str) -> str | None:
        expanded = os.path.expandvars(program)
        if os.path.isabs(expanded):
            return expanded if os.path.isfile(expanded) else None
        return which(expanded)

    return find

"""Which app is in front on macOS, asked without extra packages, behind a Protocol.

``MacDesktop`` decides from these answers whether a launched app came to the front and
whether typing may go on (macos.py); through ``MacApi`` that logic is unit-tested on
Linux against a scripted fake. ``MacFront`` is the real thing, using two programs every
macOS has:

* ``lsappinfo`` (LaunchServices) for the frontmost *app*: ``lsappinfo front`` prints
  its ASN, ``lsappinfo info -only pid -only name -only bundlepath <ASN>`` its pid,
  display name and bundle path. It reads LaunchServices' own records, so it needs no
  privacy permission (System Events would need the Automation one), and it is fast
  enough to ask before every chunk typed.
* ``osascript`` asking System Events for the name of the app's front *window*, only for
  evidence: reading window names needs the Accessibility permission, and without it
  (or without a window) the title is "".

Without Accessibility, windows have no ids either: on macOS the unit the guard can
check is the frontmost app (its pid), not a window.
"""

from __future__ import annotations

import os
import plistlib
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from anovax.errors import FrontmostUnavailable

#: one lsappinfo call normally takes a few milliseconds; a wedged one must not hold an agent
LSAPPINFO_TIMEOUT_S = 2.0
#: osascript starts an AppleScript runtime and talks to System Events: slower
OSASCRIPT_TIMEOUT_S = 3.0
#: the pid goes in as an argument, never into the script text
_TITLE_SCRIPT = ("on run argv",
                 "set p to (item 1 of argv) as integer",
                 'tell application "System Events" to get name of front window of (first process whose unix id is p)',
                 "end run")
_ASN = re.compile(r"ASN:0x[0-9a-fA-F]+-0x[0-9a-fA-F]+:?")
_QUOTED = r'"((?:[^"\\]|\\.)*)"'
#: `-only` output is "key"=value per line; plain `info` output is a block:
#: "TextEdit" ASN:0x0-0x1d01d: / bundle path="..." / pid = 1234 type="Foreground" ...
_PID = (re.compile(r'"pid"\s*=\s*(\d+)'), re.compile(r"\bpid\s*=\s*(\d+)"))
_NAME = (re.compile(r'"LSDisplayName"\s*=\s*' + _QUOTED), re.compile(r'^\s*' + _QUOTED + r"\s+ASN:", re.M))
_BUNDLE = (re.compile(r'"LSBundlePath"\s*=\s*' + _QUOTED), re.compile(r"bundle path\s*=\s*" + _QUOTED))
_BUNDLE_ID = (re.compile(r'"CFBundleIdentifier"\s*=\s*' + _QUOTED), re.compile(r"bundleID\s*=\s*" + _QUOTED))


@dataclass(frozen=True)
class Frontmost:
    """The app in front."""

    #: its display name ("TextEdit"; localised for some apps)
    name: str
    pid: int
    #: its front window's name when asked for (``MacApi.window_title``), else ""
    title: str = ""
    #: the .app bundle it runs from ("/System/Applications/TextEdit.app"); "" if unknown
    bundle_path: str = ""
    #: its bundle identifier ("com.apple.TextEdit"): what identity judges it by; "" if unknown
    bundle_id: str = ""

    @property
    def bundle_name(self) -> str:
        """The bundle's name without ".app": the name ``open -a`` was given for it."""
        base = self.bundle_path.rstrip("/").rsplit("/", 1)[-1]
        return base[:-4] if base.casefold().endswith(".app") else base


class MacApi(Protocol):
    """What MacDesktop asks macOS; a test fake implements the same methods."""

    def frontmost(self) -> Frontmost | None:
        """The frontmost app (title ""), None when there is none or the answer was unreadable.

        Raises FrontmostUnavailable when it can never be known here.
        """
        ...

    def window_title(self, pid: int) -> str:
        """The name of the front window of app ``pid``; "" when unknown (no permission, no window)."""
        ...

    def alive(self, pid: int) -> bool:
        """Whether process ``pid`` still runs."""
        ...

    def activate(self, bundle_id: str) -> None:
        """Ask for the app ``bundle_id`` to come to the front (the caller verifies that it did)."""
        ...

    def bundle_id(self, bundle_path: str) -> str:
        """The CFBundleIdentifier in a bundle's Info.plist; "" when it can't be read."""
        ...


def parse_asn(text: str) -> str | None:
    """The ASN in ``lsappinfo front`` output ("ASN:0x0-0x1d01d:"); None for "[ NULL ]" or junk."""
    match = _ASN.search(text)
    return match.group(0) if match else None


def _first(patterns: tuple[re.Pattern[str], ...], text: str) -> str | None:
    for pattern in patterns:
        match = pattern.search(text)
        if match:
            return match.group(1)
    return None


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def parse_info(text: str) -> Frontmost | None:
    """The app described by ``lsappinfo info`` output (either format); None without a pid."""
    pid = _first(_PID, text)
    if pid is None or int(pid) <= 0:
        return None
    name = _unquote(_first(_NAME, text) or "")
    bundle = _unquote(_first(_BUNDLE, text) or "")
    bundle_id = _unquote(_first(_BUNDLE_ID, text) or "")
    return Frontmost(name=name, pid=int(pid), bundle_path=bundle, bundle_id=bundle_id)


class MacFront:
    """``MacApi`` through lsappinfo and osascript. ``run`` is subprocess.run (a test seam)."""

    def __init__(self, run: Callable[..., Any] = subprocess.run) -> None:
        self._run = run

    def _output(self, argv: list[str], timeout: float) -> str | None:
        """stdout of ``argv``, or None when it failed or took too long."""
        done = self._run(argv, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
        return done.stdout if done.returncode == 0 else None

    def _lsappinfo(self, *args: str) -> str | None:
        try:
            return self._output(["lsappinfo", *args], LSAPPINFO_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return None  # busy for a moment: unknown this time, the caller asks again
        except OSError as exc:  # not installed, not executable: it will not get better
            raise FrontmostUnavailable(f"can't run lsappinfo: {exc.strerror or exc}") from exc

    def frontmost(self) -> Frontmost | None:
        front = self._lsappinfo("front")
        asn = parse_asn(front or "")
        if asn is None:
            return None
        info = self._lsappinfo("info", "-only", "pid", "-only", "name", "-only", "bundlepath", "-only", "bundleid",
                               asn)
        return parse_info(info) if info else None

    def window_title(self, pid: int) -> str:
        argv = ["osascript"]
        for line in _TITLE_SCRIPT:
            argv += ["-e", line]
        try:
            out = self._output([*argv, str(pid)], OSASCRIPT_TIMEOUT_S)
        except (OSError, subprocess.SubprocessError):
            return ""
        title = (out or "").strip()
        return "" if title == "missing value" else title  # AppleScript's word for a window without a name

    def activate(self, bundle_id: str) -> None:
        # `open -b` brings a running app forward without any privacy permission (System Events
        # would need the Automation one); a failure shows as the app not coming to the front
        try:
            self._run(["open", "-b", bundle_id], capture_output=True, text=True, timeout=OSASCRIPT_TIMEOUT_S,
                      stdin=subprocess.DEVNULL)
        except (OSError, subprocess.SubprocessError) as exc:
            raise FrontmostUnavailable(f"can't run open: {exc}") from exc

    def bundle_id(self, bundle_path: str) -> str:
        try:
            with open(os.path.join(bundle_path, "Contents", "Info.plist"), "rb") as fh:
                value = plistlib.load(fh).get("CFBundleIdentifier", "")
        except (OSError, plistlib.InvalidFileException, ValueError, AttributeError):
            return ""
        return value if isinstance(value, str) else ""

    def alive(self, pid: int) -> bool:
        try:
            os.kill(pid, 0)  # signal 0: only checks that the process exists
        except ProcessLookupError:
            return False
        except PermissionError:  # exists, owned by someone else
            return True
        return True

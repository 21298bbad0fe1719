"""Which window the keys go to, as the desktop knows it: plain data shared by the desktop
adapters (who find it out), the safety gate (who decides from it) and the session (who carries
it from one command to the next).

The class comes from the desktop, never from the name a plan used: on X11 the window's client
process, its executable, the processes under it (a shell or an interpreter) and the
``Categories`` of its ``.desktop`` entry; on Windows the foreground window's process image; on
macOS the frontmost app's bundle id. What none of that can vouch for is ``UNKNOWN``, and the gate
treats it like a shell: default-deny.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class TargetClass(str, Enum):
    """What a window may be given, from most to least trusted."""

    #: text editors, office apps, calculators and apps the user vouched for in ``[apps]``:
    #: text, Enter and key chords are fine (content rules still apply)
    TEXT = "text"
    #: a web browser's page: as TEXT, but its address bar and developer tools are rules of their own
    BROWSER = "browser"
    #: editors that can run code or open a shell inside them (IDEs, Emacs, gVim, Kate): plain
    #: text only; Enter and chords may reach a terminal panel or a command line
    CODE = "code"
    #: terminal emulators, consoles, REPLs, and any window whose process runs a shell or interpreter
    SHELL = "shell"
    #: AnovaX's own windows (the orb): never a target for keys
    ASSISTANT = "assistant"
    #: anything the desktop cannot vouch for: treated like SHELL
    UNKNOWN = "unknown"

    @property
    def vouched(self) -> bool:
        """Text, Enter and chords may go here without asking."""
        return self in (TargetClass.TEXT, TargetClass.BROWSER)


@dataclass(frozen=True)
class WindowIdentity:
    """One window and what the desktop found out about it."""

    #: the adapter's window id (X11: the client window; Windows: the HWND); None when only the app is known
    window: int | None
    #: its title when it was looked at
    title: str
    #: the app's name as a question shows it ("Mousepad", "xterm", "Windows Terminal")
    app: str
    #: the class the evidence below gives
    klass: TargetClass
    #: the client process, when the desktop could find it
    pid: int | None = None
    #: that process's executable ("/usr/bin/mousepad", "WindowsTerminal.exe", "com.apple.Terminal")
    exe: str = ""
    #: the ``.desktop`` entry's Categories (X11), else ()
    categories: tuple[str, ...] = ()
    #: one line of evidence for logs and ``anovax doctor`` ("desktop entry: TextEditor",
    #: "child process bash", "no client pid")
    why: str = ""

    @property
    def vouched(self) -> bool:
        return self.klass.vouched

    @property
    def name(self) -> str:
        """How a question names it."""
        return self.app or self.title or "the focused window"

    def as_data(self) -> dict[str, object]:
        """For events and logs."""
        return {"window": hex(self.window) if self.window is not None else None, "title": self.title,
                "app": self.app, "class": self.klass.value, "pid": self.pid, "exe": self.exe,
                "categories": list(self.categories), "why": self.why}


def unknown(title: str = "", *, window: int | None = None, why: str = "") -> WindowIdentity:
    """A window nobody can vouch for."""
    return WindowIdentity(window=window, title=title, app=title, klass=TargetClass.UNKNOWN, why=why)

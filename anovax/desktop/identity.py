"""What a window is, from what the desktop knows about its process: the pure half of issue 16.

Nothing here reads a file or asks a server: the X11 lookups (x11_identity.py) hand in the
window's client process, the processes under it (from /proc), the installed ``.desktop``
entries and the user's ``[apps]``; this module turns them into a ``WindowIdentity``. So the
rules are unit-tested anywhere, and ``SimulatedDesktop`` classifies with the same ones.

The rules, first match wins:

1. AnovaX's own window (our pid, or WM_CLASS "AnovaX") -> ASSISTANT.
2. No client process -> UNKNOWN ("no client pid"): nothing can vouch for it.
3. A shell or interpreter *under* the window's process -> SHELL. That is how a terminal nobody
   listed is caught (a renamed xterm, or any program whose child is a shell).
4. The user vouched for exactly this argument list in ``[apps]`` (``kind = "text"``) -> that kind.
5. The ``.desktop`` entry of its executable (Exec's program, TryExec, or StartupWMClass against
   WM_CLASS) -> its Categories; and the well-known program table (known_apps.py). When both
   speak, the less trusted class wins: Kate's entry says TextEditor, the table says CODE.
6. Anything else -> UNKNOWN (default-deny: file managers, settings, unknown programs).
"""

from __future__ import annotations

import configparser
import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePath

from anovax.desktop import known_apps
from anovax.desktop.apps import App
from anovax.target import TargetClass, WindowIdentity

#: the orb's window class (tk.Tk(className="AnovaX"), which Tk writes as "Anovax": compared casefolded)
OWN_CLASS = "anovax"
#: from least to most trusted: when two pieces of evidence disagree, the first one listed wins
_DISTRUST = (TargetClass.ASSISTANT, TargetClass.SHELL, TargetClass.UNKNOWN, TargetClass.CODE,
             TargetClass.BROWSER, TargetClass.TEXT)
_TEXT_CATEGORIES = frozenset({"TextEditor", "WordProcessor", "Spreadsheet", "Presentation", "Office", "Calculator"})


@dataclass(frozen=True)
class Proc:
    """One process, as /proc shows it."""

    pid: int
    #: where /proc/PID/exe points ("/usr/bin/mousepad"); "" when it can't be read
    exe: str
    #: its command line
    argv: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """The file names it goes by: its executable's, and argv[0]'s when that differs."""
        return tuple(dict.fromkeys(n for n in (PurePath(self.exe).name, PurePath(self.argv[0]).name
                                                if self.argv else "") if n))


@dataclass(frozen=True)
class ProcessFacts:
    """A window's client process and every process under it."""

    proc: Proc
    descendants: tuple[Proc, ...] = ()


@dataclass(frozen=True)
class AppEntry:
    """What one ``.desktop`` file says about the program it starts."""

    #: the file's name ("org.xfce.mousepad.desktop")
    source: str
    #: its Name ("Mousepad")
    name: str
    #: the file name of Exec's program ("mousepad")
    program: str
    #: Exec's arguments without field codes (``--preferences``); an entry with arguments matches
    #: only a process started with them
    args: tuple[str, ...] = ()
    #: TryExec's file name, else ""
    try_exec: str = ""
    #: StartupWMClass, else ""
    wm_class: str = ""
    categories: tuple[str, ...] = ()


def parse_entry(text: str, source: str) -> AppEntry | None:
    """The application entry in ``text`` (a ``.desktop`` file), or None when it is not one.

    Entries with Terminal=true are skipped: their program runs inside a terminal, so a window
    of its own is not that entry's (python3.11.desktop would make every Tk program "Development").
    """
    parser = configparser.RawConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    try:
        parser.read_string(text, source)
        entry = parser["Desktop Entry"]
        argv = [a for a in shlex.split(entry.get("Exec", "")) if not (a.startswith("%") and len(a) == 2)]
    except (configparser.Error, KeyError, ValueError):
        return None
    if entry.get("Type") != "Application" or not argv or any(
            entry.get(flag, "").strip().lower() == "true" for flag in ("Hidden", "Terminal")):
        return None
    if PurePath(argv[0]).name == "env":  # "env VAR=1 prog": the program is after the assignments
        argv = [a for a in argv[1:] if "=" not in a] or argv
    categories = tuple(c for c in entry.get("Categories", "").split(";") if c.strip())
    return AppEntry(source, entry.get("Name", "").strip(), PurePath(argv[0]).name, tuple(argv[1:]),
                    PurePath(entry.get("TryExec", "").strip()).name, entry.get("StartupWMClass", "").strip(),
                    categories)


def entry_class(entry: AppEntry) -> TargetClass | None:
    """The class an entry's Categories give; None when they say nothing we trust."""
    cats = set(entry.categories)
    if cats & {"TerminalEmulator", "ConsoleOnly"}:
        return TargetClass.SHELL
    if "IDE" in cats or {"Development", "TextEditor"} <= cats:
        return TargetClass.CODE
    if "WebBrowser" in cats:
        return TargetClass.BROWSER
    if cats & _TEXT_CATEGORIES:
        return TargetClass.TEXT
    return None


def least_trusted(*classes: TargetClass | None) -> TargetClass | None:
    """The least trusted of the classes given (None ones ignored); None when none is given."""
    given = [c for c in classes if c is not None]
    return min(given, key=_DISTRUST.index) if given else None


def find_entry(proc: Proc, wm_class: str, entries: Iterable[AppEntry]) -> AppEntry | None:
    """The entry for ``proc``: its program (or TryExec) is the process's executable or argv[0] and
    its arguments are among the process's, or its StartupWMClass is the window's class. The
    entry with the most arguments wins (``mousepad --preferences`` is another entry than
    ``mousepad``)."""
    names = set(proc.names)
    klass = wm_class.rsplit(".", 1)[-1].casefold() if wm_class else ""
    best: tuple[int, AppEntry] | None = None
    for entry in entries:
        by_program = (entry.program in names or entry.try_exec in names) and all(a in proc.argv[1:]
                                                                                  for a in entry.args)
        by_class = bool(klass) and entry.wm_class.casefold() == klass
        if (by_program or by_class) and (best is None or len(entry.args) > best[0]):
            best = (len(entry.args), entry)
    return best[1] if best else None


def argv_matches(wanted: tuple[str, ...], argv: tuple[str, ...]) -> bool:
    """Whether a process started as ``argv`` runs exactly ``wanted`` (argv[0] by file name too:
    the launcher runs "python3" as "/usr/bin/python3")."""
    if not wanted or len(wanted) != len(argv) or wanted[1:] != argv[1:]:
        return False
    return wanted[0] == argv[0] or PurePath(wanted[0]).name == PurePath(argv[0]).name


def vouched_for(argv: tuple[str, ...], apps: Iterable[App]) -> App | None:
    """The user's ``[apps]`` entry with a kind whose argument list ``argv`` runs, else None."""
    return next((app for app in apps if app.kind is not None and any(argv_matches(c, argv) for c in app.candidates)),
                None)


def shell_under(facts: ProcessFacts) -> Proc | None:
    """The first shell or interpreter among the processes under the window's process."""
    return next((p for p in facts.descendants if any(known_apps.shell_like(n) for n in p.names)), None)


def classify_program(proc: Proc, *, wm_class: str = "", entries: Iterable[AppEntry] = (),
                     vouched: Iterable[App] = ()) -> tuple[TargetClass, str, str, tuple[str, ...]]:
    """Rules 4-6 for one process: (class, why, app name, categories)."""
    app = vouched_for(proc.argv, vouched)
    if app is not None and app.kind is not None:
        return app.kind, f"vouched for in [apps] as {app.kind.value}", app.names[0], ()
    entry = find_entry(proc, wm_class, entries)
    program = proc.names[0] if proc.names else ""
    by_entry = entry_class(entry) if entry else None
    by_name = next((k for k in map(known_apps.linux_program, proc.names) if k is not None), None)
    klass = least_trusted(by_entry, by_name)
    name = (entry.name if entry else "") or program
    cats = entry.categories if entry else ()
    if klass is None:
        what = f"desktop entry {entry.source}: {';'.join(cats) or 'no categories'}" if entry else (
            f"no desktop entry or known program for {program or 'the process'}")
        return TargetClass.UNKNOWN, what, name, cats
    why = []
    if by_entry is not None and entry is not None:
        why.append(f"desktop entry {entry.source}: {';'.join(cats)}")
    if by_name is not None:
        why.append(f"known program {program}: {by_name.value}")
    return klass, "; ".join(why), name, cats


def identify(window: int | None, *, title: str, wm_class: str, pid: int | None, facts: ProcessFacts | None,
             own_pid: int, entries: Iterable[AppEntry] = (), vouched: Iterable[App] = (),
             pid_from: str = "", own: frozenset[int] = frozenset(), screen: bool = False) -> WindowIdentity:
    """The identity of one window from what its desktop found out (rules 1-6 above).

    ``pid_from`` says where the pid came from ("_NET_WM_PID", "XRes") for the evidence line;
    ``own`` are AnovaX's own processes besides ``own_pid`` (its ancestors, tmux clients of its
    session) and ``screen`` says it runs under GNU screen, whose clients cannot be told apart;
    ``facts`` is None when the process could not be read (gone, or another user's)."""
    label = wm_class.rsplit(".", 1)[-1] if wm_class else ""

    def made(klass: TargetClass, why: str, app: str = "", cats: tuple[str, ...] = ()) -> WindowIdentity:
        exe = facts.proc.exe if facts is not None else ""
        shown = app or label or PurePath(exe).name or title
        if title and _RUNTIME_NAME.fullmatch(shown.casefold()):
            shown = title  # "Python3.11" says nothing about a Tk app called "My Notes": its title does
        return WindowIdentity(window=window, title=title, app=shown,
                              klass=klass, pid=pid, exe=exe, categories=cats,
                              why=f"{why} (pid from {pid_from})" if pid_from and pid is not None else why)

    if pid == own_pid or label.casefold() == OWN_CLASS:
        return made(TargetClass.ASSISTANT, "AnovaX's own window", "AnovaX")
    if pid is None:
        return made(TargetClass.UNKNOWN, "no client pid")
    if facts is None:
        return made(TargetClass.UNKNOWN, f"process {pid} could not be read")
    if any(p.pid == own_pid or p.pid in own for p in facts.descendants) or (
            screen and any("screen" in p.names for p in facts.descendants)):
        # the terminal AnovaX's console runs in (directly, through a tmux client showing our session,
        # or any screen client while we run under screen): keys there would go to our own prompt
        return made(TargetClass.ASSISTANT, "the terminal AnovaX runs in", "AnovaX's console")
    shell = shell_under(facts)
    if shell is not None:
        return made(TargetClass.SHELL, f"child process {shell.names[0]} (pid {shell.pid})")
    klass, why, name, cats = classify_program(facts.proc, wm_class=wm_class, entries=entries, vouched=vouched)
    return made(klass, why, name, cats)


#: the names of interpreters and runtimes a program's window may carry instead of its own name
_RUNTIME_NAME = re.compile(r"(?:python|pypy|java|node|electron|wish|tclsh|perl|ruby|mono|dotnet|tk)[\d.]*")

#: calculators read keys as button presses and drop one that comes within ~0.1 s of the last
#: (measured with galculator under Xvfb: "11*11" typed at full speed gave 1, 50 ms apart still 1,
#: 150 ms apart 121), so keys to them are paced
CALCULATOR_KEY_GAP_S = 0.15
_CALCULATORS = frozenset({"galculator", "gnome-calculator", "kcalc", "qalculate-gtk", "qalculate", "speedcrunch",
                          "mate-calc", "xcalc", "calculator"})


def key_gap_s(target: WindowIdentity | None) -> float:
    """Seconds to leave between keys sent to ``target`` (0: as fast as it reads them)."""
    if target is None:
        return 0.0
    names = {PurePath(target.exe).name.casefold(), target.app.casefold()}
    return CALCULATOR_KEY_GAP_S if "Calculator" in target.categories or names & _CALCULATORS else 0.0

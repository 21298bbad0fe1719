"""The focus model: which window a plan's keys go to, step by step, and what is on its line.

``Focus`` is the state ``sequence`` walks a plan with. It holds a ``TargetClass`` (``None``
while nothing is claimed: a plan-only check with no ``target`` and no ``focused_app``), the
name a question may use for the window ("" when nobody named it, so nothing can be asked), a
finer second-line kind (``where``: file manager, recycle bin, launcher, desktop...), and the
text typed into the window since its last submit (``line``).

The line is written in one documented encoding, shared with the runtime through
``session_typed`` and ``anovax.safety.carry``:

- printable text as itself, except ``<``, written ``<lt>``;
- Enter (a plain ``enter`` key or ``\\n`` in typed text) submits the line: it starts again empty;
- every other key or chord as its canonical name in angle brackets: ``<home>``, ``<left>``,
  ``<backspace>``, ``<tab>``, ``<ctrl+a>``, ``<ctrl+m>`` (modifiers first: ctrl, alt, shift, win, fn);
- ``<unknown>``: the focus moved to a window nobody named, whose line may hold anything.

A non-empty line in front of shell input means the question would not show the line the shell
gets, so the sequence rules refuse it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from anovax.safety import keys, targets
from anovax.safety.context import Context
from anovax.safety.verdict import Verdict
from anovax.target import TargetClass

LAUNCHER = "launcher"
DESKTOP = "desktop"
#: an app's open/save/print dialog (``where``); ``Focus.dialog_of`` is the app's own kind
FILE_DIALOG = "file_dialog"
#: the line of a window nobody named: it may already hold text
UNKNOWN_LINE = "<unknown>"
_MODIFIER_ORDER = ("ctrl", "alt", "shift", "win", "fn")
_TOKEN = re.compile(r"<([^<>\s]+)>")
#: keys that put the keys into a browser's address (or search) bar, as the line encoding writes them
_ADDRESS_TOKENS = frozenset({"ctrl+l", "alt+d", "f6", "ctrl+k", "ctrl+e", "win+l", "ctrl+t", "ctrl+n"})
#: keys after which the address bar no longer has the keys
_LEAVE_TOKENS = frozenset({"escape", "tab", "shift+tab"})
#: keys that leave a selection as it was (copy)
KEEPS_SELECTION = frozenset({"ctrl+c", "ctrl+insert"})


@dataclass
class Focus:
    """What the plan believes has the keyboard, step by step."""

    #: the window's class; None: no claim (plan-only check, nothing has moved the focus yet)
    klass: TargetClass | None
    #: how a question names the window; "" when nobody named it (shell input there is refused)
    name: str = ""
    #: the finer second-line kind (an ``AppKind`` value, LAUNCHER or DESKTOP); None when unknown
    where: str | None = None
    #: typed into the window since its last submit, in the module's encoding
    line: str = ""
    #: the plan itself opened a terminal: every later keystroke may reach it (strict: the new window
    #: may still be starting while the plan types, and a later open_app does not lift it)
    terminal_seen: bool = False
    selected_all: bool = False
    deleted_all: bool = False
    address_bar: bool = False
    paste_step: int | None = None
    url_step: int | None = None
    #: what has been typed into an open launcher so far
    launch_buffer: str = ""
    #: the window a launcher opened over, given the keys back by escape: (klass, name, where, line)
    behind: tuple[TargetClass | None, str, str | None, str] | None = None
    #: the desktop found no window of the user's at all (the one they were in was closed)
    nowhere: bool = False
    #: the app's second-line kind while one of its file dialogs is open
    dialog_of: str | None = None
    #: alt+f4 presses so far
    closes: int = 0
    #: the step of a close_app since which no window was verified in front (its app's "save
    #: changes?" dialog may have the keys); None: none, or a window opened or switched to since
    closed_at: int | None = None
    #: shell input held for a yes, in order: (step index, text) with "\n" for Enter
    held: list[tuple[int, str]] = field(default_factory=list)
    #: the window the held input goes to, as the question names it
    held_name: str = ""
    #: an app was opened after shell input was held: later keys may go to either window
    moved_after_hold: bool = False
    #: where in ``line`` the text typed into a browser's address bar starts; None when the keys do
    #: not go to an address bar (what is typed there is opened as an address or searched for)
    omnibox_from: int | None = None
    #: the one GUI question a plan may need (select all + delete, log out...): ``anovax.safety.gui``
    question: Verdict | None = None

    @property
    def shell_input(self) -> bool:
        """Every keystroke now is shell input: a terminal the plan opened, input already held for
        a yes (the question must cover all that follows), or a window nobody can vouch for."""
        return (self.terminal_seen or bool(self.held)
                or self.klass in (TargetClass.SHELL, TargetClass.UNKNOWN))

    @property
    def known_shell(self) -> bool:
        """A terminal the plan or the desktop identified (not merely an unknown window)."""
        return self.terminal_seen or self.klass is TargetClass.SHELL

    def point(self, klass: TargetClass | None, name: str, where: str | None, line: str = "") -> None:
        """The keys now go to this window."""
        if self.held:
            self.moved_after_hold = True  # the question names the window the held input went to
        self.klass, self.name, self.where, self.line = klass, name, where, line
        self.selected_all = self.deleted_all = self.nowhere = False
        self.omnibox_from = None

    @property
    def address(self) -> str:
        """What has been typed into the address bar so far ("" when it does not have the keys)."""
        return "" if self.omnibox_from is None else decode_for_scan(self.line[self.omnibox_from:])

    def lose(self) -> None:
        """The focus moved somewhere nobody named (a window switch, a closed window, a sub-task)."""
        self.point(TargetClass.UNKNOWN, "", None, UNKNOWN_LINE)

    def note_text(self, text: str) -> None:
        """Typed text lands on the line; each newline submits it."""
        line = self.line + text.replace("<", "<lt>").replace("\r", "\n")
        self.line = line.rsplit("\n", 1)[-1]
        if "\n" in line:
            self.omnibox_from = None  # submitted: the page has the keys

    def note_key(self, chord: keys.Chord) -> None:
        """A key lands on the line: a printable character as itself, Enter submits, the rest by name."""
        if chord == frozenset({"enter"}):
            self.line = ""
            self.omnibox_from = None
        elif len(chord) == 1 and next(iter(chord)) == "space":
            self.line += " "
        elif len(chord) == 1 and len(next(iter(chord))) == 1:
            self.note_text(next(iter(chord)))
        else:
            self.line += encode(chord)


def encode(chord: keys.Chord) -> str:
    """``{"ctrl", "a"}`` -> ``"<ctrl+a>"``: a key as the line encoding writes it."""
    mods = [m for m in _MODIFIER_ORDER if m in chord]
    rest = sorted(chord - set(mods))
    return "<" + "+".join(mods + rest) + ">"


def decode_for_scan(session_typed: str) -> str:
    """The session text as split-command scanning reads it: ``<lt>`` is ``<``, ``<backspace>``
    removes a character, other keys are dropped (so ``r<home>m`` still joins to ``rm``)."""
    def key(match: re.Match[str]) -> str:
        name = match.group(1)
        return "<" if name == "lt" else "\b" if name == "backspace" else ""
    return _TOKEN.sub(key, session_typed)


def initial(ctx: Context) -> Focus:
    """The focus before the plan's first step: the desktop's identity wins over a name."""
    line = ctx.session_line
    if ctx.target is not None:
        klass, name, where = targets.of_identity(ctx.target)
        nowhere = ctx.target.window is None and ctx.target.klass is TargetClass.UNKNOWN
        state = Focus(klass=klass, name=name, where=where, line=line, nowhere=nowhere)
    elif ctx.focused_app is not None:
        klass, name, where = targets.of_name(ctx.focused_app)
        state = Focus(klass=klass, name=name, where=where, line=line)
    else:
        state = Focus(klass=None, line=line)
    _carry_line_state(state)
    return state


def _carry_line_state(state: Focus) -> None:
    """What the keys on the carried line still mean: a selection made by ``<ctrl+a>`` (nothing but
    a copy after it), an address bar opened by ``<ctrl+l>`` in a browser (not left since)."""
    tokens = list(_TOKEN.finditer(state.line))
    rest = state.line
    while tokens and tokens[-1].end() == len(rest) and tokens[-1].group(1) in KEEPS_SELECTION:
        rest = rest[:tokens.pop().start()]
    state.selected_all = rest.endswith("<ctrl+a>")
    if state.klass not in (None, TargetClass.BROWSER):
        return
    for match in reversed(list(_TOKEN.finditer(state.line))):
        name = match.group(1)
        if name in _LEAVE_TOKENS:
            return
        if name in _ADDRESS_TOKENS:
            state.omnibox_from = match.end()
            return

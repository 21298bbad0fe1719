"""Key chords through the focus model, in three passes per chord.

1. Second line (known harm by the finer kind of window, whatever its class): the recycle bin,
   an IDE's run and build keys, office macro keys, alt+f4 on the desktop or twice then Enter,
   select-all + delete in a file place, select-all + delete + Enter anywhere.
2. The class gate (default-deny, see ``anovax.safety.keystrokes``): in SHELL and UNKNOWN windows
   (and everywhere after a terminal the plan opened or input already held) a key is shell
   input: plain characters, space and Enter are held for a yes, everything else is refused
   (cursor, editing, history and completion keys rewrite the line a question would show;
   shortcuts do what nobody can show). CODE windows take plain characters only; any other key
   may reach a terminal panel or a command line, so it is shell input. ASSISTANT takes nothing.
   Window-manager keys (switch window, close window, show desktop) are not input to the window
   and pass, but the window that comes up is nobody's named one: what follows is refused.
3. Transitions of the focus: keys that open a terminal (hotkeys, an IDE's terminal panel, a
   file manager's "open terminal here", a browser's developer console) make it SHELL; launchers,
   window switches, closed windows, system tools and ``win``/``ctrl+alt`` shortcuts make it
   UNKNOWN and unnamed; a vouched app's menus make it UNKNOWN (the app's own, so still named).

In vouched (or unclaimed) windows, ``anovax.safety.gui`` judges a chord before it lands: developer
tools, Enter in a browser's address bar, and what clears a whole selection.
"""

from __future__ import annotations

from anovax.safety import gui, keys
from anovax.safety.apps import AppKind
from anovax.safety.context import Context
from anovax.safety.focus import DESKTOP, FILE_DIALOG, LAUNCHER, UNKNOWN_LINE, Focus
from anovax.safety.keystrokes import (AFTER_CLOSE_REASON, FILE_PLACES, OWN_WINDOW_REASON, RECOVERY_SHELL_REASON,
                                      RECYCLE_REASON, hold, launcher_input, refuse_shell)
from anovax.safety.verdict import Rule, Verdict
from anovax.target import TargetClass

_BROWSER = AppKind.BROWSER.value
_IDE = AppKind.IDE.value
_TERMINAL = AppKind.TERMINAL.value
_ESCAPE = frozenset({"escape"})
#: where a chord may keep the window vouched (None: a plan checked with no claim about the focus)
_VOUCHED_OR_UNSTATED = (None, TargetClass.TEXT, TargetClass.BROWSER)
#: keys that are safe in the recycle bin (moving around, leaving); anything else may empty it
_RECYCLE_SAFE = frozenset({"up", "down", "left", "right", "home", "end", "pageup", "pagedown", "escape", "tab", "shift"})
_RUN_CODE_REASON = "I won't press keys that run code in an editor or run macros."
_RECOVERY_LAUNCHER_REASON = "I won't use a launcher shortcut while recovering from an error."
#: handled by the window manager before any window sees them (X11 grabs, the Windows shell,
#: macOS): they move the focus rather than type into the focused window
_WM_KEYS = keys.WINDOW_SWITCH + (keys.CLOSE,) + keys.DESKTOP
#: focus movers that stay inside the same app (a dialog closed, the next pane, the app's next window)
_SAME_APP = (_ESCAPE, frozenset({"f6"}), frozenset({"alt", "f6"}), frozenset({"alt", "`"}))


def _plain_shell_key(chord: keys.Chord, char: str | None) -> bool:
    """A key whose effect a question shows as text: a printable character, space or Enter."""
    if char is None or char in "\t\b":
        return False
    return chord == frozenset({"enter" if char == "\n" else "space" if char == " " else char})


def _plain_code_key(chord: keys.Chord) -> bool:
    """A key an editor inserts as text: one printable character, space or Tab, nothing held."""
    if len(chord) != 1:
        return False
    key = next(iter(chord))
    return len(key) == 1 or key in ("space", "tab")


def _opens_menu(chord: keys.Chord) -> bool:
    """The menu bar (alt alone, F10) or a menu by its access key (alt+f); alt+d is the address bar."""
    if chord in (frozenset({"alt"}), frozenset({"f10"})):
        return True
    rest = chord - {"alt", "shift"}
    return "alt" in chord and len(rest) == 1 and next(iter(rest)) in "abcefghijklmnopqrstuvwxyz"


def check(state: Focus, chord: keys.Chord, ctx: Context, index: int) -> Verdict | None:
    """One chord: refused, held (as shell input) or let through, and the focus moved on."""
    effect = keys.denied(chord)
    if effect:
        return Verdict.refuse(Rule(effect.rule), effect.reason, step=index)
    if state.closed_at is not None:
        # a window was just closed: its app's "save changes?" dialog is the person's to answer
        return Verdict.refuse(Rule.GUI_DESTRUCTIVE, AFTER_CLOSE_REASON, step=index,
                              detail=f"a key after the close of step {state.closed_at}")
    if chord in keys.SESSION_END_KEYS:
        verdict = gui.ask_about(state, ctx, index, "Sign out of the computer (unsaved work is lost)?",
                                "sign out", "log-out shortcut", target="the computer")
        if verdict:
            return verdict
    char = keys.typed_char(chord)
    if not (state.terminal_seen or state.held) and state.where in (LAUNCHER, DESKTOP):
        if char is not None:
            return launcher_input(state, char, ctx, index)
        if chord == _ESCAPE and state.where == LAUNCHER:
            klass, name, where, line = state.behind or (TargetClass.UNKNOWN, "", None, UNKNOWN_LINE)
            state.point(klass, name, where, line)
            state.behind = None
            return None
    verdict = _second_line(state, chord, index)
    if verdict:
        return verdict
    if chord in keys.CLOSERS and not state.shell_input:
        state.closed_at = index  # set after the chord is let through (below), for the keys that follow
    if chord in _WM_KEYS:
        return _transition(state, chord, ctx, index)
    if state.klass is TargetClass.ASSISTANT and not state.terminal_seen:
        return Verdict.refuse(Rule.OWN_WINDOW, OWN_WINDOW_REASON, step=index)
    if state.shell_input or (state.klass is TargetClass.CODE and not _plain_code_key(chord)):
        if chord in keys.SHELL_HARMLESS and state.known_shell:
            return None  # clear the screen, copy: the line editor neither edits nor runs the line
        if not _plain_shell_key(chord, char):
            return refuse_shell(state, index, "a key the question could not show")
        return hold(state, char or "", ctx, index)
    verdict = gui.chord(state, chord, ctx, index)
    if verdict:
        return verdict
    state.note_key(chord)
    return _transition(state, chord, ctx, index)


def _second_line(state: Focus, chord: keys.Chord, index: int) -> Verdict | None:
    """Known harm, by the kind of window and the keys pressed so far."""
    if chord == frozenset({"enter"}) and state.where == AppKind.APP_STORE.value:
        return gui.store_issue(state, "", index)
    if state.where == AppKind.RECYCLE_BIN.value and not (chord <= _RECYCLE_SAFE or chord in keys.WINDOW_SWITCH
                                                          or chord == keys.CLOSE):
        return Verdict.refuse(Rule.GUI_DESTRUCTIVE, RECYCLE_REASON, step=index)
    if (state.where == _IDE and chord in keys.IDE_RUN_KEYS) or chord in keys.MACRO_KEYS:
        return Verdict.refuse(Rule.SHELL_TYPING, _RUN_CODE_REASON, step=index, detail="a run, build or macro key")
    if chord == keys.CLOSE and state.where == DESKTOP:
        return Verdict.refuse(Rule.GUI_DESTRUCTIVE, step=index, detail="alt+f4 on the desktop")
    if "enter" in chord and state.closes >= 2:
        # closing window after window ends on the desktop, whose alt+f4 is the shut-down dialog
        return Verdict.refuse(Rule.GUI_DESTRUCTIVE, step=index, detail="alt+f4 repeatedly, then enter")
    if "delete" in chord and state.selected_all and state.where in FILE_PLACES:
        return Verdict.refuse(Rule.GUI_DESTRUCTIVE, step=index, detail="select all + delete in a file manager")
    if "enter" in chord and state.deleted_all:
        return Verdict.refuse(Rule.GUI_DESTRUCTIVE, step=index, detail="select all + delete + enter")
    return None


def _opens_terminal(state: Focus, chord: keys.Chord) -> bool:
    return (chord in keys.TERMINAL_OPENERS or (state.where == _BROWSER and chord in keys.DEVTOOLS)
            or (chord == keys.DROP_DOWN_TERMINAL and state.where in (None, DESKTOP, _TERMINAL))
            or (state.where == _IDE and chord in keys.IDE_TERMINAL_KEYS)
            or (state.where == AppKind.FILE_MANAGER.value and chord in keys.FILE_MANAGER_TERMINAL_KEYS))


def _within_vouched(state: Focus, chord: keys.Chord) -> None:
    """Default-deny inside a vouched window: keys that edit or move keep it vouched; a file dialog's
    keys lead into the dialog (a file name and Enter are fine there, nothing else); any other
    shortcut (developer tools, panels, consoles) leaves the app's window unvouched."""
    if state.where == FILE_DIALOG:
        if chord == _ESCAPE or chord == frozenset({"enter"}):
            state.where = state.dialog_of  # the dialog closed: back in the app
        elif not (chord <= {"shift", "tab", "left", "right", "home", "end", "backspace", "delete"}):
            # the dialog's address field (alt+d, f4, ctrl+l), its menus, "open with": programs run
            state.point(TargetClass.UNKNOWN, state.name, None, state.line)
    elif chord in keys.FILE_DIALOG_KEYS:
        state.dialog_of, state.where = state.where, FILE_DIALOG
    elif (not keys.keeps_vouched(chord, browser=state.klass is TargetClass.BROWSER or state.where == _BROWSER)
          and chord not in keys.ADDRESS_BAR):
        state.point(TargetClass.UNKNOWN, state.name, state.where, state.line)


def _transition(state: Focus, chord: keys.Chord, ctx: Context, index: int) -> Verdict | None:
    """Where the keys go after ``chord``."""
    if chord == keys.ORPHAN_LAUNCHER and state.klass is None:
        state.behind = (state.klass, state.name, state.where, state.line)
        state.point(TargetClass.UNKNOWN, "", LAUNCHER)
        state.launch_buffer = ""
    elif _opens_terminal(state, chord):
        if ctx.recovering:
            return Verdict.refuse(Rule.SHELL_TYPING, RECOVERY_SHELL_REASON, step=index)
        state.terminal_seen = True
        state.point(TargetClass.SHELL, "", _TERMINAL)  # a terminal nobody named: nothing can be asked
    elif chord in keys.SEARCH_LAUNCHERS:
        if ctx.recovering:
            return Verdict.refuse(Rule.LAUNCHER_HOTKEY, _RECOVERY_LAUNCHER_REASON, step=index)
        state.behind = (state.klass, state.name, state.where, state.line)
        state.point(TargetClass.UNKNOWN, "", LAUNCHER)
        state.launch_buffer = ""
    elif chord in keys.FOCUS_MOVERS or chord in keys.WINDOW_SWITCH:
        if chord not in _SAME_APP:
            state.lose()  # whichever window comes up, nobody named it
    elif chord in keys.DESKTOP:
        state.point(TargetClass.UNKNOWN, "", DESKTOP, UNKNOWN_LINE)
    elif chord in keys.SYSTEM_OPENERS:
        where = AppKind.FILE_MANAGER.value if chord == frozenset({"win", "e"}) else AppKind.SYSTEM.value
        state.point(TargetClass.UNKNOWN, "", where)
    elif chord == keys.CLOSE:
        state.closes += 1
        state.lose()
    elif chord == keys.MAC_ADDRESS_BAR and state.klass is TargetClass.BROWSER:
        pass  # cmd+l: the address bar on macOS (cmd folds to win); Windows locks the screen instead
    elif "win" in chord or {"ctrl", "alt"} <= chord:
        # system and user-bound shortcuts (win+v, win+g, ctrl+alt+<letter> launching an app): the
        # window that comes up is nobody's named one
        state.lose()
    elif _opens_menu(chord) and state.klass is not None:
        # a menu reaches everything the app can do (macro editors, developer tools, a console):
        # the same app, so the question may name it, but nothing vouches for where the keys go
        state.point(TargetClass.UNKNOWN, state.name, state.where, state.line)
    elif chord == keys.SELECT_ALL or chord in keys.SELECT_TO_EDGE:
        # ctrl+shift+end from the top selects as much as ctrl+a; in the address bar, only the address
        state.selected_all = state.omnibox_from is None
    elif "delete" in chord and state.selected_all:
        state.deleted_all = True
    elif state.klass in _VOUCHED_OR_UNSTATED:
        _within_vouched(state, chord)
    if chord in keys.PASTE:
        state.paste_step = index
    if chord in keys.ADDRESS_BAR or (state.klass is TargetClass.BROWSER and chord in keys.BROWSER_ADDRESS_BAR):
        state.address_bar = True
        if state.klass in (None, TargetClass.BROWSER):
            # what is typed next is opened as an address or searched for (``gui``)
            state.omnibox_from, state.selected_all = len(state.line), False
    return None

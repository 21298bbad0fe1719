"""Sequence rules: what the steps do *together*, tracked through a model of keyboard focus.

* No keystroke-driven shell without a person's yes. Typing while a terminal, REPL or run box
  may have focus is an unlisted ``run_shell`` tool. Once the plan opens one (by name, by a
  terminal hotkey, or by typing a shell's name into a launcher) every later keystroke is shell
  input (strict: a later ``open_app`` does not lift it, since keystrokes can land in the shell
  while the next window starts). When the *session* reports a focused terminal, the same holds
  until the plan opens another app by name, and again after any window switch. Opening a
  terminal alone is allowed.
  Shell input is *held for a yes* (a confirm verdict, see ``anovax.safety.ask``) only when the
  question can show exactly what will happen: the terminal was opened by name (or is the one
  the session reports), the input is plain printable ASCII and Enter, short enough to read, and
  the content rules (run before this stage) flagged nothing. Everything else stays refused:
  pastes and history keys (their text is not in the plan), Tab and Backspace (completion and
  editing change what runs), shifted or modified keys, terminals reached by a hotkey or a
  launcher (the desktop cannot vouch for which window they are), and recovery turns.
* Launchers: after a search launcher (win, win+s, cmd+space, alt+space...) the typed text must
  be a plain app name; win+r and friends are refused outright by the key rules.
* GUI destruction: alt+f4 on the desktop (the shut-down dialog), select-all + delete in a
  file manager, select-all + delete + Enter anywhere, and dangerous words typed into system
  tools (Settings "reset this PC").
* Exfiltration: a web address typed into an address bar together with a paste.
* Recovery (an observation is present) is stricter: no terminals and no launchers at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from anovax.plan import Plan
from anovax.safety import apps, ask, keys, prose, web
from anovax.safety.apps import AppKind
from anovax.safety.canon import fold, plain
from anovax.safety.context import Context
from anovax.safety.verdict import Rule, Verdict
from anovax.toolspec import Effect, Sink

LAUNCHER = "launcher"
DESKTOP = "desktop"
BROWSER = AppKind.BROWSER.value
#: where select-all + delete destroys files rather than text
_FILE_PLACES = (AppKind.FILE_MANAGER.value, AppKind.RECYCLE_BIN.value, AppKind.SYSTEM.value, DESKTOP)
#: keys that are safe in the recycle bin (moving around, leaving); anything else may empty it
_RECYCLE_SAFE = frozenset({"up", "down", "left", "right", "home", "end", "pageup", "pagedown", "escape", "tab", "shift"})
_RECYCLE_REASON = "I won't empty the recycle bin or delete files from it."

_RECOVERY_SHELL_REASON = "I won't open a terminal while recovering from an error."
_RECOVERY_LAUNCHER_REASON = "I won't use a launcher shortcut while recovering from an error."
_LAUNCHER_TEXT_REASON = "I can only type a plain app name into a launcher."
_RUN_CODE_REASON = "I won't press keys that run code in an editor or run macros."
_SYSTEM_TYPED = re.compile(
    r"\b(?:reset|recovery|factory|format|erase|wipe|uninstall|disable|turn off|firewall|defender|antivirus|"
    r"virus|uac|user account control|bitlocker|shut ?down|restart|sign out|log ?off|recycle|registry|"
    r"developer mode|delete|remove)\b|shell:"
)


@dataclass
class _Focus:
    """What the plan believes has the keyboard, step by step."""

    where: str | None
    #: the plan itself opened a terminal: every later keystroke may reach it
    terminal_seen: bool = False
    #: the runtime says a terminal is open; it has focus until the plan opens another app
    session_terminal: bool = False
    selected_all: bool = False
    deleted_all: bool = False
    address_bar: bool = False
    paste_step: int | None = None
    url_step: int | None = None
    #: what has been typed into an open launcher so far
    launch_buffer: str = ""
    #: alt+f4 presses so far
    closes: int = 0
    #: the terminal was opened by name (or reported by the session): the desktop can vouch for it
    terminal_vouched: bool = False
    #: the name the plan (or the session) gave the terminal, for the question
    terminal_name: str = ""
    #: shell input held for a yes, in order: (step index, text) with "\n" for Enter
    held: list[tuple[int, str]] = field(default_factory=list)
    #: an app was opened after shell input was held: later keys may go to either window
    moved_after_hold: bool = False
    #: the name of the app the plan last opened (an IDE's terminal keys depend on it)
    app: str = ""


def _shell_may_have_focus(state: _Focus) -> bool:
    """A terminal opened by this plan taints every later keystroke (strict: the new window may
    still be starting when the plan types); one the session reported keeps focus until the
    plan opens another app by name, and may get it back after any window switch."""
    if state.terminal_seen or state.where == AppKind.TERMINAL.value:
        return True
    return state.session_terminal and state.where is None


def _initial(ctx: Context) -> _Focus:
    if ctx.focused_app is None:
        return _Focus(where=None)
    if (not ctx.focused_app.strip() or apps.name_problem(ctx.focused_app) or ctx.focused_app != plain(ctx.focused_app)
            or apps.is_placeholder(ctx.focused_app)):
        # a window the runtime could not name plainly ("user@host: ~", a path): it may be a shell,
        # and nobody can vouch for it, so keys into it are refused
        return _Focus(where=None, session_terminal=True, terminal_name="the focused window")
    where = apps.kind(ctx.focused_app).value
    terminal = where == AppKind.TERMINAL.value
    return _Focus(where=where, session_terminal=terminal, terminal_vouched=terminal,
                  terminal_name=ctx.focused_app if terminal else "")


def _hold(state: _Focus, text: str, ctx: Context, index: int) -> Verdict | None:
    """Shell input: held for a yes when the question can show exactly what runs, else refused."""
    why = ask.unaskable(text, state.terminal_vouched, ctx.recovering)
    if why is None and state.moved_after_hold:
        why = "keys after another window was opened"
    if why is None and state.session_terminal and not state.held and ctx.session_tail.rsplit("\n", 1)[-1].strip():
        why = "text typed earlier is still on the line"
    if why:
        return Verdict.refuse(Rule.SHELL_TYPING, step=index, detail=f"keystrokes into a terminal ({why})")
    state.held.append((index, text))
    if ask.too_long(state.held):
        return Verdict.refuse(Rule.SHELL_TYPING, step=index, detail="too much shell input to ask about")
    problem = ask.shell_problem("".join(part for _, part in state.held))
    if problem:
        return Verdict.refuse(Rule.DENYLIST, ask.SHELL_REFUSED, step=index, detail=f"shell input: {problem}")
    return None


def _open(state: _Focus, name: str, ctx: Context, index: int, *, by_name: bool = False,
          shell: bool = False) -> Verdict | None:
    """``by_name``: an ``open_app`` step, whose window the desktop finds and verifies;
    ``shell``: treat what opens as a terminal whatever its name says."""
    kind = AppKind.TERMINAL if shell else apps.kind(name)
    if kind is AppKind.TERMINAL:
        if ctx.recovering:
            return Verdict.refuse(Rule.SHELL_TYPING, _RECOVERY_SHELL_REASON, step=index)
        # one terminal reached some other way taints the rest: its window is not the one named
        state.terminal_vouched = by_name and (state.terminal_vouched or not state.terminal_seen)
        state.terminal_name = state.terminal_name or name
        state.terminal_seen = True
    if state.held or (state.terminal_seen and kind is not AppKind.TERMINAL):
        # keys from now on may reach either window: no question could name the right one
        state.moved_after_hold = True
    state.where, state.app = kind.value, name
    state.selected_all = state.deleted_all = False
    return None


def _chord(state: _Focus, chord: keys.Chord, ctx: Context, index: int) -> Verdict | None:
    effect = keys.denied(chord)
    if effect:
        return Verdict.refuse(Rule(effect.rule), effect.reason, step=index)
    char = keys.typed_char(chord)
    if state.where == LAUNCHER and char is not None:
        return _launcher_input(state, char, ctx, index)
    if _shell_may_have_focus(state) and chord not in keys.SHELL_HARMLESS:
        if char is None or chord != frozenset({"enter" if char == "\n" else "space" if char == " " else char}):
            # a paste, a history or editing key, ctrl+m (another Enter), a shifted key: the
            # question could not show what the shell would run
            return Verdict.refuse(Rule.SHELL_TYPING, step=index, detail="keystrokes into a terminal")
        return _hold(state, char, ctx, index)
    if state.where == AppKind.RECYCLE_BIN.value and not (chord <= _RECYCLE_SAFE or chord in keys.WINDOW_SWITCH
                                                          or chord == keys.CLOSE):
        return Verdict.refuse(Rule.GUI_DESTRUCTIVE, _RECYCLE_REASON, step=index)
    if (state.where == AppKind.IDE.value and chord in keys.IDE_RUN_KEYS) or chord in keys.MACRO_KEYS:
        return Verdict.refuse(Rule.SHELL_TYPING, _RUN_CODE_REASON, step=index, detail="a run, build or macro key")
    if chord == keys.ORPHAN_LAUNCHER and state.where in (None, DESKTOP):
        state.where, state.launch_buffer = LAUNCHER, ""
        return None
    if (chord in keys.TERMINAL_OPENERS or (state.where == BROWSER and chord in keys.DEVTOOLS)
            or (chord == keys.DROP_DOWN_TERMINAL and state.where in (None, DESKTOP, AppKind.TERMINAL.value))
            or (state.where == AppKind.IDE.value and chord in keys.IDE_TERMINAL_KEYS)
            or (state.where == AppKind.FILE_MANAGER.value and chord in keys.FILE_MANAGER_TERMINAL_KEYS)):
        if ctx.recovering:
            return Verdict.refuse(Rule.SHELL_TYPING, _RECOVERY_SHELL_REASON, step=index)
        state.terminal_seen, state.where, state.terminal_vouched = True, AppKind.TERMINAL.value, False
    elif chord in keys.SEARCH_LAUNCHERS:
        if ctx.recovering:
            return Verdict.refuse(Rule.LAUNCHER_HOTKEY, _RECOVERY_LAUNCHER_REASON, step=index)
        state.where, state.launch_buffer = LAUNCHER, ""
    elif chord == frozenset({"escape"}) and state.where == LAUNCHER:
        state.where, state.launch_buffer = None, ""
    elif chord in keys.FOCUS_MOVERS:
        state.where, state.terminal_vouched = None, False  # the window behind may get the keys
    elif chord in keys.DESKTOP:
        state.where = DESKTOP
    elif chord in keys.SYSTEM_OPENERS:
        state.where = AppKind.FILE_MANAGER.value if chord == frozenset({"win", "e"}) else AppKind.SYSTEM.value
    elif chord in keys.WINDOW_SWITCH:
        state.where, state.terminal_vouched = None, False  # whichever window comes up, nobody named it
    elif chord == keys.CLOSE:
        state.closes += 1
        if state.where == DESKTOP:
            return Verdict.refuse(Rule.GUI_DESTRUCTIVE, step=index, detail="alt+f4 on the desktop")
        state.where, state.terminal_vouched = None, False
    elif "enter" in chord and state.closes >= 2:
        # closing window after window ends on the desktop, whose alt+f4 is the shut-down dialog
        return Verdict.refuse(Rule.GUI_DESTRUCTIVE, step=index, detail="alt+f4 repeatedly, then enter")
    elif chord == keys.SELECT_ALL:
        state.selected_all = True
    elif "delete" in chord and state.selected_all:
        if state.where in _FILE_PLACES:
            return Verdict.refuse(Rule.GUI_DESTRUCTIVE, step=index, detail="select all + delete in a file manager")
        state.deleted_all = True
    elif "enter" in chord and state.deleted_all:
        return Verdict.refuse(Rule.GUI_DESTRUCTIVE, step=index, detail="select all + delete + enter")
    if chord in keys.PASTE:
        state.paste_step = index
    if chord in keys.ADDRESS_BAR:
        state.address_bar = True
    return None


def _launcher_input(state: _Focus, text: str, ctx: Context, index: int) -> Verdict | None:
    """Text typed into a launcher opens whatever it names when Enter is pressed."""
    if text == "\b":
        state.launch_buffer = state.launch_buffer[:-1]
        return None
    name, enter, _rest = (state.launch_buffer + text).partition("\n")
    state.launch_buffer = name
    if name.strip():
        if apps.name_problem(name) or apps.is_command(name):
            # KRunner, Alfred and friends run a typed command line as readily as they open an app
            return Verdict.refuse(Rule.LAUNCHER_HOTKEY, _LAUNCHER_TEXT_REASON, step=index)
        if _SYSTEM_TYPED.search(fold(name)):
            return Verdict.refuse(Rule.GUI_DESTRUCTIVE, step=index, detail="system page from a launcher")
        if apps.may_open_terminal(name):
            # the launcher may complete it to a shell ("powers"): treat one as opened now (fail closed)
            verdict = _open(state, name, ctx, index, shell=True)
            if verdict:
                return verdict
            state.where = LAUNCHER
    if enter or _rest:
        verdict = _open(state, name, ctx, index) if name.strip() else None
        state.launch_buffer = ""
        if verdict:
            return verdict
        if _rest:
            return _type(state, _rest, ctx, index)
    return None


def _type(state: _Focus, text: str, ctx: Context, index: int) -> Verdict | None:
    if _shell_may_have_focus(state):
        return _hold(state, text, ctx, index)
    if ctx.recovering and ask.shell_problem(text):
        # a recovery turn copying a command from what it observed, into whatever has the focus
        return Verdict.refuse(Rule.PROMPT_INJECTION, step=index, detail="a command typed during recovery")
    if state.where == LAUNCHER:
        return _launcher_input(state, text, ctx, index)
    if state.where == DESKTOP:
        # typing on the desktop selects an icon by name and Enter opens it: a launcher
        state.where, state.launch_buffer = LAUNCHER, ""
        return _launcher_input(state, text, ctx, index)
    folded = fold(text)
    if state.where == AppKind.RECYCLE_BIN.value:
        return Verdict.refuse(Rule.GUI_DESTRUCTIVE, _RECYCLE_REASON, step=index)
    if state.where in _FILE_PLACES:
        if _SYSTEM_TYPED.search(folded) or prose.INTENT.search(folded):
            return Verdict.refuse(Rule.GUI_DESTRUCTIVE, step=index, detail="dangerous words typed into a system tool")
        # Explorer's address bar and Task Manager's "Run new task" launch what they are given
        shells = [line for line in text.splitlines() if line.strip() and apps.kind(line) is AppKind.TERMINAL]
        if shells:
            verdict = _open(state, shells[0], ctx, index)
            if verdict:
                return verdict
    if "\n" in text and state.deleted_all:
        return Verdict.refuse(Rule.GUI_DESTRUCTIVE, step=index, detail="select all + delete + enter")
    if web.is_urlish(text):
        state.url_step = index
    return None


def check(plan: Plan, ctx: Context) -> Verdict | None:
    state = _initial(ctx)
    for index, step in enumerate(plan.steps):
        spec = ctx.registry[step.tool]
        verdict: Verdict | None = None
        for sink, value in spec.texts(step.params):
            if sink is Sink.APP:
                verdict = verdict or _open(state, value, ctx, index, by_name=True)
            elif sink is Sink.KEYS:
                for chord in keys.parse(value):  # content.check_steps refused keys that do not parse
                    verdict = verdict or _chord(state, chord, ctx, index)
            elif sink is Sink.TYPED:
                verdict = verdict or _type(state, value, ctx, index)
        if spec.effect is Effect.BROWSER and not _shell_may_have_focus(state):
            # a page opening in the background (an existing browser window, focus-stealing
            # prevention) leaves the keyboard where it was: a terminal keeps it
            state.where = BROWSER
        elif spec.effect is Effect.SUBPLAN:
            if _shell_may_have_focus(state):
                # a sub-plan is never asked about, and its steps would go to the shell
                verdict = verdict or Verdict.refuse(Rule.SHELL_TYPING, step=index, detail="a sub-task into a terminal")
            state.where, state.terminal_vouched = None, False  # the sub-plan may move focus anywhere
        if verdict:
            return verdict
    if state.url_step is not None and state.paste_step is not None:
        if state.address_bar or state.paste_step > state.url_step:
            return Verdict.refuse(Rule.EXFILTRATION, step=state.url_step, detail="web address typed with a paste")
    if state.held:
        if plan.remember:
            # one question, about one thing: a yes must not also store facts the question never showed
            return Verdict.refuse(Rule.SHELL_TYPING, step=state.held[0][0], detail="remember with shell input")
        return ask.confirm_shell(state.held, state.terminal_name)
    return None

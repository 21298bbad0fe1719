"""Text typed, apps opened and shell input held: the focus rules for what is not a key chord.

The policy is default-deny by the class of the window (``anovax.target.TargetClass``):

- TEXT and BROWSER (vouched): text and newlines go in; the content rules, the address-bar and
  GUI-destruction rules (``anovax.safety.gui``) still apply. Plain typing there is never asked
  about, typing over a whole selection is.
- CODE: text without a newline goes in; a newline may reach a terminal panel or a command
  line (``:!``, ``M-x eshell``), so it is shell input.
- SHELL and UNKNOWN: everything is shell input, and so is everything after a terminal the plan
  opened or after input already held (the question must cover all of it).
- ASSISTANT: nothing ("I won't type into my own window").

Shell input is *held for a yes* (``anovax.safety.ask``) only when the question can show exactly
what happens: the window is named (by the desktop, the runtime or an ``open_app`` step), the
input is plain printable text and Enter within the size limits, nothing else is already on the
line, no other window opened since, it is not a recovery turn, and the content rules and
``ask.shell_problem`` flag nothing. Everything else is refused.
"""

from __future__ import annotations

import re

from anovax.safety import apps, ask, gui, prose, targets, web
from anovax.safety.apps import AppKind
from anovax.safety.canon import fold
from anovax.safety.context import Context
from anovax.safety.scan import exec_issue
from anovax.safety.focus import DESKTOP, FILE_DIALOG, LAUNCHER, Focus
from anovax.safety.verdict import Rule, Verdict
from anovax.target import TargetClass

#: where select-all + delete destroys files rather than text
FILE_PLACES = (AppKind.FILE_MANAGER.value, AppKind.RECYCLE_BIN.value, AppKind.SYSTEM.value, DESKTOP)
RECYCLE_REASON = "I won't empty the recycle bin or delete files from it."
RECOVERY_SHELL_REASON = "I won't open a terminal while recovering from an error."
OWN_WINDOW_REASON = "I won't type into my own window."
AFTER_CLOSE_REASON = ("I won't press keys right after closing an app: if it asks whether to save your "
                      "changes, that answer is yours.")
_NOWHERE_REASON = "I don't know which window to type into: click the window you want, then ask me again."
_LINE_TAKEN = "text typed earlier is still on the line"
_UNKNOWN_REASON = "I can't tell what that window would do with the keys, so I won't type into it."
_LAUNCHER_TEXT_REASON = "I can only type a plain app name into a launcher."
_SYSTEM_TYPED = re.compile(
    r"\b(?:reset|recovery|factory|format|erase|wipe|uninstall|disable|turn off|firewall|defender|antivirus|"
    r"virus|uac|user account control|bitlocker|shut ?down|restart|sign out|log ?off|recycle|registry|"
    r"developer mode|delete|remove)\b|shell:"
)


def refuse_shell(state: Focus, index: int, why: str) -> Verdict:
    """Shell input no question could cover; said as a terminal refusal only when it is one, and
    saying why in the two cases a person can do something about."""
    reason = None if state.known_shell else _UNKNOWN_REASON
    if state.nowhere:
        reason = _NOWHERE_REASON
    elif why == _LINE_TAKEN and state.name:
        reason = f"There's already text on the line in {state.name}, so I can't show you what Enter would run."
    return Verdict.refuse(Rule.SHELL_TYPING, reason, step=index, detail=f"keystrokes into {_kind(state)} ({why})")


def _kind(state: Focus) -> str:
    if state.known_shell:
        return "a terminal"
    klass = (state.klass or TargetClass.UNKNOWN).value
    return f"{'an' if klass[0] in 'aeiou' else 'a'} {klass} window"


def hold(state: Focus, text: str, ctx: Context, index: int) -> Verdict | None:
    """Shell input: held for a yes when the question can show exactly what runs, else refused."""
    why = ask.unaskable(text, bool(state.held_name or state.name), ctx.recovering)
    if why is None and state.moved_after_hold:
        why = "keys after another window was opened"
    if why is None and not state.held and state.line:
        why = _LINE_TAKEN
    if why:
        return refuse_shell(state, index, why)
    if not state.held:
        state.held_name = state.name
    state.held.append((index, text))
    if ask.too_long(state.held):
        return refuse_shell(state, index, "too much shell input to ask about")
    problem = ask.shell_problem("".join(part for _, part in state.held))
    if problem:
        return Verdict.refuse(Rule.DENYLIST, ask.SHELL_REFUSED, step=index, detail=f"shell input: {problem}")
    state.note_text(text)
    return None


def open_app(state: Focus, name: str, ctx: Context, index: int, *, by_name: bool = False,
             shell: bool = False, switched: bool = False) -> Verdict | None:
    """The focus moves to an app. ``by_name``: an ``open_app`` step, whose window the desktop finds
    and verifies (so a question may name it) and whose class the desktop's app table gives;
    otherwise a launcher or a file manager opened it (nobody verified which window came up);
    ``shell``: treat what opens as a terminal whatever its name says; ``switched``: a
    ``switch_to_app`` step, which brings a window that is already up to the front and verifies it
    has the focus (the typing agent then checks it still has before every chunk), so a terminal
    opened earlier in the plan no longer takes the keys."""
    verdict = gui.opened(state, apps.kind(name), name, ctx, index)
    if verdict:
        return verdict
    if shell:
        klass = TargetClass.SHELL
    elif by_name:
        klass = targets.classify_opened(name, ctx.classify)
    else:
        # a launcher completes what was typed: only an exact vouched name keeps its class
        static = targets.static_class(name)
        klass = static if static.vouched or static is TargetClass.CODE else TargetClass.UNKNOWN
    if switched and by_name and not state.held:
        state.terminal_seen = False
    earlier_terminal = state.terminal_seen
    # a terminal by the desktop's word or by the terminal lists (vim is a terminal program the
    # vouched table calls CODE: its own rules apply, not the terminal's)
    is_shell = klass is TargetClass.SHELL or (apps.kind(name) is AppKind.TERMINAL and klass is not TargetClass.CODE)
    if is_shell:
        if ctx.recovering:
            return Verdict.refuse(Rule.SHELL_TYPING, RECOVERY_SHELL_REASON, step=index)
        state.terminal_seen = True
    if state.held or (earlier_terminal and not is_shell):
        # keys from now on may reach either window: no question could name the right one
        state.moved_after_hold = True
    # a window named by an open_app step, unless an earlier terminal may still take the keys
    shown = targets.question_name(name) if by_name and not earlier_terminal else ""
    state.point(klass, shown, targets.where(klass, name))
    if klass is TargetClass.BROWSER:
        state.omnibox_from = 0  # a browser opens with the keys in its address bar
    return None


def launcher_input(state: Focus, text: str, ctx: Context, index: int) -> Verdict | None:
    """Text typed into a launcher (or onto the desktop, whose icons a typed name selects) opens
    whatever it names when Enter is pressed."""
    if state.where == DESKTOP:
        state.behind = (state.klass, state.name, state.where, state.line)
        state.where, state.launch_buffer = LAUNCHER, ""
    if text == "\b":
        state.launch_buffer = state.launch_buffer[:-1]
        return None
    name, enter, rest = (state.launch_buffer + text).partition("\n")
    state.launch_buffer = name
    if name.strip():
        if apps.name_problem(name) or apps.is_command(name):
            # KRunner, Alfred and friends run a typed command line as readily as they open an app
            return Verdict.refuse(Rule.LAUNCHER_HOTKEY, _LAUNCHER_TEXT_REASON, step=index)
        if _SYSTEM_TYPED.search(fold(name)):
            return Verdict.refuse(Rule.GUI_DESTRUCTIVE, step=index, detail="system page from a launcher")
        if apps.may_open_terminal(name):
            # the launcher may complete it to a shell ("powers"): one reached by a launcher is a
            # hotkey-opened shell, and its Enter is already shell input (fail closed)
            verdict = open_app(state, name, ctx, index, shell=True)
            if verdict:
                return verdict
            state.where = LAUNCHER
    if enter or rest:
        verdict = open_app(state, name, ctx, index) if name.strip() else None
        state.launch_buffer, state.behind = "", None
        if verdict:
            return verdict
        if rest:
            return type_text(state, rest, ctx, index)
    return None


def type_text(state: Focus, text: str, ctx: Context, index: int) -> Verdict | None:
    """One typed text, judged by the class of the window it lands in."""
    issue = exec_issue(text)
    if issue is not None and issue.in_documents and not _in_document(state):
        # "sudo", "netsh" as words: prose in an editor, a command anywhere a line may run
        return issue.verdict(index)
    if state.terminal_seen or state.held:
        return hold(state, text, ctx, index)
    if state.where in (LAUNCHER, DESKTOP):
        return launcher_input(state, text, ctx, index)
    if state.klass is TargetClass.ASSISTANT:
        return Verdict.refuse(Rule.OWN_WINDOW, OWN_WINDOW_REASON, step=index)
    if ctx.recovering and ask.shell_problem(text):
        # a recovery turn copying a command from what it observed, into whatever has the focus
        return Verdict.refuse(Rule.PROMPT_INJECTION, step=index, detail="a command typed during recovery")
    if state.where == FILE_DIALOG and _not_a_file_name(text):
        # a path or a program's name in a file dialog navigates to it or runs it ("cmd" in its
        # address field is the classic kiosk escape): the dialog is no longer vouched for
        state.point(TargetClass.UNKNOWN, state.name, None, state.line)
    verdict = _second_line(state, text, ctx, index)
    if verdict or state.terminal_seen:
        return verdict or hold(state, text, ctx, index)
    if state.shell_input or (state.klass is TargetClass.CODE and ("\n" in text or "\r" in text)):
        return hold(state, text, ctx, index)
    verdict = gui.typed(state, text, ctx, index)
    if verdict:
        return verdict
    if "\n" in text and state.deleted_all:
        return Verdict.refuse(Rule.GUI_DESTRUCTIVE, step=index, detail="select all + delete + enter")
    if web.is_urlish(text):
        state.url_step = index
    state.note_text(text)
    return None


def _in_document(state: Focus) -> bool:
    """The keys go into a document the desktop vouches for: a text editor's or office app's page,
    not its file dialog, a launcher, a browser or anything that may run a line."""
    return (state.klass is TargetClass.TEXT and not state.terminal_seen and not state.held
            and state.where not in (LAUNCHER, DESKTOP, FILE_DIALOG) and state.omnibox_from is None)


def _not_a_file_name(text: str) -> bool:
    name = text.split("\n", 1)[0].strip()
    return (any(ch in name for ch in "/\\:%~$|<>*?") or apps.kind(name) is AppKind.TERMINAL or apps.is_command(name)
            or bool(apps.name_problem(name) == "system tool that runs commands"))


def _second_line(state: Focus, text: str, ctx: Context, index: int) -> Verdict | None:
    """Known harm by the finer kind of window, whatever its class: the recycle bin, settings
    pages reached by typing, and a terminal named into Explorer's address bar or Task Manager's
    "Run new task" (which open it)."""
    if state.where == AppKind.RECYCLE_BIN.value:
        return Verdict.refuse(Rule.GUI_DESTRUCTIVE, RECYCLE_REASON, step=index)
    if state.where == AppKind.APP_STORE.value:
        return gui.store_issue(state, text, index)
    if state.where in FILE_PLACES:
        folded = fold(text)
        if _SYSTEM_TYPED.search(folded) or prose.INTENT.search(folded):
            return Verdict.refuse(Rule.GUI_DESTRUCTIVE, step=index, detail="dangerous words typed into a system tool")
        shells = [line for line in text.splitlines() if line.strip() and apps.kind(line) is AppKind.TERMINAL]
        if shells:
            return open_app(state, shells[0], ctx, index, shell=True)
    return None

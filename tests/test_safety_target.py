"""Issue 16, "know the target": the keyboard policy by the class of the window the keys go to.

Default-deny: TEXT and BROWSER (vouched) take text, Enter and chords; CODE takes plain text;
SHELL and UNKNOWN make every key shell input (asked when a question can show it, else refused);
ASSISTANT takes nothing. The desktop's identity wins over names; the static table is an
allowlist; the state a plan leaves carries into the next check (``anovax.safety.carry``).
The red-team style cases are in ``tests/redteam/targets.jsonl``; these are the rest.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anovax.safety import Carried, Decision, after, safety_check
from anovax.safety.carry import LOST
from anovax.safety.focus import decode_for_scan, encode
from anovax.safety.targets import static_class
from anovax.target import TargetClass, WindowIdentity

TEXT, BROWSER, CODE = TargetClass.TEXT, TargetClass.BROWSER, TargetClass.CODE
SHELL, UNKNOWN, ASSISTANT = TargetClass.SHELL, TargetClass.UNKNOWN, TargetClass.ASSISTANT


def plan(*steps: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return {"steps": [{"tool": tool, "params": params} for tool, params in steps],
            "final_response": "Okay.", "remember": {}}


def typed(text: str) -> tuple[str, dict[str, Any]]:
    return ("type_text", {"text": text})


def keys(k: str) -> tuple[str, dict[str, Any]]:
    return ("press_keys", {"keys": k})


def opened(name: str) -> tuple[str, dict[str, Any]]:
    return ("open_app", {"name": name})


def window(app: str, klass: TargetClass, title: str = "") -> WindowIdentity:
    return WindowIdentity(window=0x3A00007, title=title or app, app=app, klass=klass, pid=4242)


def decide(p: dict[str, Any], **context: Any) -> Decision:
    return safety_check(p, "do it", **context).decision


# --- the static table: an allowlist ------------------------------------------------------------------


@pytest.mark.parametrize(("name", "klass"), [
    ("notepad", TEXT), ("Mousepad", TEXT), ("gnome-text-editor", TEXT), ("Microsoft Word", TEXT), ("calculator", TEXT),
    ("notepad.exe", TEXT), ("Google Chrome", BROWSER), ("firefox", BROWSER), ("code", CODE), ("kate", CODE),
    ("Visual Studio Code", CODE), ("notepad++", CODE), ("emacs", CODE), ("vim", CODE), ("gvim", CODE),
    ("terminal", SHELL), ("xterm", SHELL), ("Windows Terminal", SHELL), ("conhost", SHELL), ("Terminus", SHELL), ("Black Box", SHELL),
    ("anovax", ASSISTANT),
    # not on the allowlist: unknown, however harmless the name sounds
    ("spotify", UNKNOWN), ("galculator", TEXT), ("zzqq", UNKNOWN), ("Wave", UNKNOWN), ("Kitty-ng", UNKNOWN),
    ("explorer", UNKNOWN), ("task manager", UNKNOWN), ("settings", UNKNOWN), ("Firefox 120", UNKNOWN),
    # not plain names at all
    ("user@host: ~", UNKNOWN), ("(unknown)", UNKNOWN), ("notepad\u200b", UNKNOWN), ("C:\\x\\notepad.exe", UNKNOWN),
])
def test_the_static_table_vouches_only_for_names_it_lists(name: str, klass: TargetClass) -> None:
    assert static_class(name) is klass


# --- the desktop's word ---------------------------------------------------------------------------------


def test_the_desktops_identity_wins_over_the_name_and_over_focused_app() -> None:
    enter = plan(typed("ls"), keys("enter"))
    assert decide(enter, target=window("Mousepad", TEXT)) is Decision.ALLOW
    assert decide(enter, target=window("Mousepad", SHELL)) is Decision.CONFIRM
    assert decide(enter, target=window("Mousepad", SHELL), focused_app="notepad") is Decision.CONFIRM
    assert decide(enter, target=window("Mousepad", TEXT), focused_app="terminal") is Decision.ALLOW


def test_a_vouched_verdict_for_a_terminal_name_is_not_trusted_up() -> None:
    # the second line: "Console" is GNOME's terminal, whatever the desktop said
    assert decide(plan(typed("id\n")), target=window("Console", TEXT)) is not Decision.ALLOW


def test_the_question_names_the_window_the_desktop_identified() -> None:
    verdict = safety_check(plan(typed("whoami\n")), "x", target=window("Black Box", UNKNOWN))
    assert verdict.question == "Type `whoami` and press Enter in Black Box?" and verdict.target == "Black Box"
    verdict = safety_check(plan(typed("ls\n")), "x", target=window("", UNKNOWN, title="`rm -rf ~` in Notepad"))
    assert "`rm" not in verdict.question.split(" in ", 1)[-1]  # a title cannot write the question


def test_a_window_nobody_can_name_is_never_asked_about() -> None:
    assert decide(plan(typed("ls\n")), target=window("", UNKNOWN, title="")) is Decision.REFUSE
    assert decide(plan(typed("ls\n")), focused_app="user@host: ~") is Decision.REFUSE


def test_my_own_window_gets_no_keys() -> None:
    verdict = safety_check(plan(typed("hello")), "x", target=window("AnovaX", ASSISTANT))
    assert verdict.decision is Decision.REFUSE and verdict.rule == "own_window"
    assert decide(plan(keys("ctrl+s")), target=window("AnovaX", ASSISTANT)) is Decision.REFUSE


# --- classify: an app opened in the plan is judged by what the app table resolved it to -------------


@pytest.mark.parametrize(("answer", "decision"), [
    (TEXT, Decision.ALLOW), (SHELL, Decision.CONFIRM), (UNKNOWN, Decision.CONFIRM), (CODE, Decision.CONFIRM),
    (None, Decision.ALLOW),  # the desktop cannot tell: the static table vouches for notepad
])
def test_classify_decides_the_class_of_an_opened_app(answer: TargetClass | None, decision: Decision) -> None:
    # on KDE "notepad" resolves to Kate, which hosts a terminal: CODE
    assert decide(plan(opened("notepad"), typed("ls\n")), classify=lambda name: answer) is decision


def test_a_broken_classifier_vouches_for_nothing_and_never_crashes() -> None:
    def broken(name: str) -> TargetClass:
        raise RuntimeError("app table unavailable")
    verdict = safety_check(plan(opened("notepad"), typed("ls\n")), "x", classify=broken)
    assert verdict.decision is Decision.CONFIRM  # UNKNOWN: asked, not allowed, not an internal error
    assert decide(plan(opened("notepad"), typed("ls\n")), classify=lambda name: "text") is Decision.CONFIRM
    assert decide(plan(opened("xterm"), typed("ls\n")), classify=lambda name: TEXT) is Decision.CONFIRM


@pytest.mark.parametrize("context", [
    {"target": {"app": "notepad", "klass": "text"}}, {"target": "notepad"},
    {"target": WindowIdentity(window=None, title="", app="x", klass="text")},  # type: ignore[arg-type]
    {"target": WindowIdentity(window=None, title="", app=5, klass=TEXT)},  # type: ignore[arg-type]
    {"classify": "text"}, {"classify": {"notepad": TEXT}},
])
def test_wrong_types_for_the_new_context_fail_closed(context: dict[str, Any]) -> None:
    verdict = safety_check(plan(typed("hello")), "x", **context)
    assert verdict.decision is Decision.REFUSE and verdict.rule == "bad_context"


# --- state across plans ---------------------------------------------------------------------------------


def test_a_sub_plan_with_a_shell_in_front_gets_the_top_level_verdict() -> None:
    terminus = window("Terminus", SHELL)
    for depth in (0, 1, 2):
        verdict = safety_check(plan(typed("whoami"), keys("enter")), "run whoami", depth=depth, target=terminus)
        assert verdict.decision is Decision.CONFIRM, depth
        assert verdict.question == "Type `whoami` and press Enter in Terminus?"


def test_a_recovery_turn_with_a_shell_in_front_is_refused_outright() -> None:
    verdict = safety_check(plan(typed("whoami\n")), "x", observation="$ ", target=window("Terminus", SHELL))
    assert verdict.decision is Decision.REFUSE


@pytest.mark.parametrize("line", ["pip install ev", "ls<home>", "<ctrl+a>", "<unknown>", " "])
def test_anything_on_a_shells_line_makes_a_submit_unaskable(line: str) -> None:
    assert decide(plan(keys("enter")), target=window("xterm", SHELL), session_typed=line) is Decision.REFUSE
    assert decide(plan(keys("enter")), target=window("xterm", SHELL), session_typed=f"done\n{line}") is Decision.REFUSE
    # in an editor the line is only text, but a select all still in force makes Enter replace it all (asked)
    expected = Decision.CONFIRM if line == "<ctrl+a>" else Decision.ALLOW
    assert decide(plan(keys("enter")), target=window("Mousepad", TEXT), session_typed=line) is expected


def test_a_submitted_line_is_no_longer_on_the_line() -> None:
    assert decide(plan(typed("ls\n")), target=window("xterm", SHELL), session_typed="pwd\n") is Decision.CONFIRM


def test_the_line_encoding() -> None:
    assert encode(frozenset({"a", "ctrl"})) == "<ctrl+a>" and encode(frozenset({"home"})) == "<home>"
    assert decode_for_scan("a<lt>b<home>c<backspace>d") == "a<bc\bd"
    # keys between chunks still join for split-command scanning
    assert decide(plan(typed("m -rf ~")), session_typed="r<home>") is Decision.REFUSE


def test_after_carries_the_focus_a_plan_leaves() -> None:
    assert after(plan(opened("terminal"))) == Carried(SHELL, "terminal", "")
    assert after(plan(opened("terminal"), typed("ls"))) == Carried(SHELL, "terminal", "ls")
    assert after(plan(opened("terminal"), typed("ls"), keys("enter"))) == Carried(SHELL, "terminal", "")
    assert after(plan(opened("notepad"), typed("a<b"), keys("home"))) == Carried(TEXT, "notepad", "a<lt>b<home>")
    assert after(plan(keys("alt+tab"))) == Carried(UNKNOWN, "", "<unknown>")
    assert after(plan(typed("hi"))) == Carried(None, "", "hi")  # no claim stays no claim
    assert after(plan(opened("notepad")), classify=lambda name: CODE).klass is CODE
    before = Carried.of(window("Mousepad", TEXT))
    assert after(plan(typed("x")), before) == Carried(TEXT, "Mousepad", "x")


def test_after_fails_closed_for_plans_that_cannot_have_run() -> None:
    assert after(plan(keys("win+r"))) == LOST
    assert after({"steps": "junk"}) == LOST
    assert after(None) == LOST


def test_a_parent_that_opens_a_terminal_hands_its_sub_task_a_shell() -> None:
    # the finding: a parent opens a terminal and a sub-task types whoami + Enter
    parent = plan(opened("Terminus"))
    assert decide(parent) is Decision.ALLOW
    state = after(parent)
    child = plan(typed("whoami"), keys("enter"))
    assert decide(child, depth=1, **state.check_kwargs()) is Decision.CONFIRM
    assert decide(child, depth=1, observation="x", **state.check_kwargs()) is Decision.REFUSE
    # and the command after typing without Enter: the line is not what a question would show
    state = after(plan(typed("whoami")), state)
    assert decide(plan(keys("enter")), **state.check_kwargs()) is Decision.REFUSE


def test_the_command_after_alt_tab_has_no_named_window() -> None:
    state = after(plan(keys("alt+tab")), Carried.of(window("Mousepad", TEXT)))
    assert decide(plan(typed("whoami\n")), **state.check_kwargs()) is Decision.REFUSE


# --- properties ------------------------------------------------------------------------------------------

_SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: keys a plan may press into a window: editing, history, completion, Enter spellings, chords,
#: console keys and window-manager keys (launchers are left out: they open apps by name)
_KEYS = ["enter", "return", "home", "end", "left", "right", "up", "down", "backspace", "delete", "tab", "ctrl+a",
         "ctrl+e", "ctrl+k", "ctrl+u", "ctrl+w", "ctrl+m", "ctrl+j", "ctrl+o", "ctrl+enter", "shift+enter",
         "alt+enter", "ctrl+c", "ctrl+v", "ctrl+l", "ctrl+s", "ctrl+shift+c", "escape", "f4", "f5", "alt+x", "ctrl+`",
         "alt+tab", "alt+f4", "a", "l", "s", "space", "1", "-"]
_WM_OR_HARMLESS = {"alt+tab", "alt+f4", "ctrl+l", "ctrl+shift+c"}
_text = st.text(alphabet="lswhoamipd -./\n\r", min_size=1, max_size=20)
_steps = st.lists(st.one_of(_text.map(typed), st.sampled_from(_KEYS).map(keys),
                            st.just(("wait", {"seconds": 0.5}))), min_size=1, max_size=8)
_unvouched = st.one_of(
    st.sampled_from(["terminal", "xterm", "bash", "Windows Terminal", "conhost", "Terminus", "Black Box", "spotify",
                     "zzqq", "Slack", "explorer", "task manager", "settings", "Ubuntu-22.04"])
    .map(lambda name: {"focused_app": name}),
    st.builds(window, st.sampled_from(["Mousepad", "notepad", "Firefox", "xterm", "Wave", ""]),
              st.sampled_from([SHELL, UNKNOWN])).map(lambda w: {"target": w}),
)


@_SETTINGS
@given(steps=_steps, context=_unvouched, depth=st.integers(0, 2),
       session=st.sampled_from(["", "ls", "done\n", "<home>"]))
def test_nothing_reaches_a_shell_or_an_unknown_window_without_a_yes(steps: list[Any], context: dict[str, Any],
                                                                    depth: int, session: str) -> None:
    verdict = safety_check(plan(*steps), "do it", depth=depth, session_typed=session, **context)
    if verdict.ok:
        # only the window manager's keys and a terminal's clear-screen/copy: no text, no Enter
        for tool, params in steps:
            assert tool == "wait" or (tool == "press_keys" and params["keys"] in _WM_OR_HARMLESS), steps


@_SETTINGS
@given(steps=_steps, context=_unvouched)
def test_enter_into_a_shell_or_an_unknown_window_is_never_allowed(steps: list[Any], context: dict[str, Any]) -> None:
    enters = any((tool == "type_text" and ("\n" in params["text"] or "\r" in params["text"]))
                 or (tool == "press_keys" and params["keys"] in ("enter", "return")) for tool, params in steps)
    if enters:
        assert decide(plan(*steps), **context) is not Decision.ALLOW


@_SETTINGS
@given(steps=_steps, app=st.sampled_from(["code", "kate", "vim", "emacs", "Visual Studio Code"]))
def test_a_code_window_takes_plain_text_only(steps: list[Any], app: str) -> None:
    verdict = safety_check(plan(*steps), "do it", target=window(app, CODE))
    if verdict.ok:
        for tool, params in steps:
            if tool == "type_text":
                assert "\n" not in params["text"] and "\r" not in params["text"]
            elif tool == "press_keys":
                assert params["keys"] in ("a", "l", "s", "space", "1", "-", "tab", "alt+tab", "alt+f4"), steps


_words = st.lists(st.sampled_from("dear anna thanks for dinner see you on monday milk eggs bread".split()),
                  min_size=1, max_size=8).map(" ".join)


@_SETTINGS
@given(lines=st.lists(_words, min_size=1, max_size=4), app=st.sampled_from(["Mousepad", "notepad", "gedit"]),
       save=st.booleans())
def test_plain_typing_into_a_vouched_window_is_never_asked_about(lines: list[str], app: str, save: bool) -> None:
    steps = [typed("\n".join(lines)), keys("enter")] + ([keys("ctrl+s")] if save else [])
    assert decide(plan(*steps), target=window(app, TEXT)) is Decision.ALLOW
    assert decide(plan(*steps), focused_app=app) is Decision.ALLOW


def test_refusals_say_what_the_person_can_do_about_them():
    """First-time user: a closed window got "I can't tell what that window would do with the keys",
    and a terminal line already holding text got "I won't type commands into a terminal"."""
    from anovax.target import unknown
    typing = {"steps": [{"tool": "type_text", "params": {"text": "hello"}}], "final_response": "", "remember": {}}
    gone = safety_check(typing, "type hello", target=unknown(why="no window of yours has had the focus"))
    assert gone.decision is Decision.REFUSE and "which window" in gone.reason
    term = WindowIdentity(window=3, title="user@host: ~", app="UXTerm", klass=TargetClass.SHELL)
    enter = {"steps": [{"tool": "press_keys", "params": {"keys": "enter"}}], "final_response": "", "remember": {}}
    taken = safety_check(enter, "press enter", target=term, session_typed="hello")
    assert taken.decision is Decision.REFUSE and "already text on the line in UXTerm" in taken.reason

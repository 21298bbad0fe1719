"""Where typing goes after the session's app is closed or minimised, what the reply names, and
dictation across commands (issue 18, round 2: a blind first-time user's findings), on the
simulated desktop through ``on_speech``."""

from __future__ import annotations

import pytest

from anovax.app import build_assistant
from anovax.autospace import spaced
from anovax.desktop.simulated import SimulatedDesktop
from anovax.gatecontext import GateContext
from anovax.memory import KeyState, Memory, SessionState
from anovax.plan import Plan, Step
from anovax.planner.offline import OfflinePlanner
from anovax.results import Status
from anovax.settings import Settings
from anovax.target import TargetClass, WindowIdentity


@pytest.fixture
def run(tmp_path):
    desk = SimulatedDesktop()
    settings = Settings(planner="offline", memory_path=tmp_path / "memory.json")
    memory = Memory(settings.memory_path)
    assistant = build_assistant(settings, planner=OfflinePlanner(), memory=memory, desktop=desk)

    def say(text: str):
        desk.take_actions()
        return assistant.on_speech(text)
    say.desktop, say.memory = desk, memory
    return say


def typed(desk: SimulatedDesktop) -> str:
    return "".join(a.arg for a in desk.actions if a.kind == "type")


def test_after_closing_the_calculator_the_reply_names_the_window_the_keys_go_to(run):
    run("open notepad")
    run("open the calculator")
    assert run("type hi in it").message.startswith("Typing into the calculator")
    run.desktop.unsaved.clear()  # a calculator has nothing to save: it closes
    assert run("close the calculator").status is Status.DONE
    assert run.memory.session.current_app is None  # no longer where "it" types
    result = run("type see you tomorrow")
    assert result.status is Status.DONE, result.message
    assert "calculator" not in result.message.lower()
    assert result.message.startswith("Typing into Notepad")
    assert typed(run.desktop) == "see you tomorrow"


def test_minimising_the_session_app_forgets_it_too(run):
    run("open notepad")
    run("open the calculator")
    run("minimise the calculator")
    assert run.memory.session.current_app is None
    assert run("type hello").message.startswith("Typing into Notepad")


def test_closing_another_app_keeps_the_session_app(run):
    run("open the calculator")
    run("open notepad")
    run("close the calculator")
    assert run.memory.session.current_app == "notepad"
    assert run("type hello").message.startswith("Typing into Notepad")


def test_a_close_that_fails_says_only_the_failure(run):
    result = run("close notepad")
    assert result.status is Status.FAILED
    assert result.message == "I couldn't finish that: Notepad isn't open, so there's nothing to close."
    assert "Asking" not in result.message
    run("open notepad")
    assert run("close notepad").message == "Closed Notepad."  # what happened, no announcement before it


def _window(app: str, exe: str, window: int = 7) -> WindowIdentity:
    return WindowIdentity(window, app, app, TargetClass.TEXT, pid=70, exe=exe)


def test_another_apps_dialog_in_front_is_named_not_the_session_app():
    session = SessionState()
    gate = GateContext(None, session)
    dialog = _window("Mousepad", "/usr/bin/mousepad")
    session.set_app("calculator")
    session.set_keys(KeyState(target=dialog))
    assert gate.current_app(dialog, "calculator") == "Mousepad"
    calc = _window("Galculator", "/usr/bin/galculator")
    session.set_keys(KeyState(target=calc))
    assert gate.current_app(calc, "calculator") == "calculator"  # its own window: the session's name


# -- dictation across commands ------------------------------------------------------------


def test_two_type_commands_into_the_same_window_are_spaced(run):
    run("open notepad")
    said = []
    for text in ("type is a comma splice bad question mark", "type period is spelled out", "type and then more period",
                 "type new line", "type next line"):
        run(text)
        said.append(typed(run.desktop))
    # the new line is an Enter key: nothing typed, and no space after it
    assert said == ["is a comma splice bad?", " period is spelled out", " and then more.", "", "next line"]


@pytest.mark.parametrize("previous, text, out", [
    ("bad?", "period", " period"),
    ("said \"noon\"", "then", " then"),
    ("hello", ", world", ", world"),
    ("hello", ".", "."),
    ("", "hello", "hello"),
    ("end ", "hello", "hello"),
    ("x<lt>", "hello", "hello"),
])
def test_spaced_adds_a_space_only_between_words(previous, text, out):
    plan = Plan((Step("type_text", {"text": text}),), "ok")
    assert spaced(plan, previous).steps[0].params["text"] == out


def test_spaced_leaves_a_plan_that_switches_first():
    plan = Plan((Step("switch_to_app", {"name": "notepad"}), Step("type_text", {"text": "hi"})), "ok")
    assert spaced(plan, "word") is plan


# -- phrasings the blind user tried --------------------------------------------------------


def _steps(text: str) -> list[tuple[str, dict]]:
    return [(s.tool, dict(s.params)) for s in OfflinePlanner(strict=True).plan(text).steps]


@pytest.mark.parametrize("text, tool, name", [
    ("put notepad in full screen", "maximize_app", "notepad"),
    ("make the browser full screen", "maximize_app", "browser"),
    ("put the browser into fullscreen mode", "maximize_app", "browser"),
    ("full screen notepad", "maximize_app", "notepad"),
    ("shrink the browser window", "restore_app", "browser"),
    ("shrink notepad", "restore_app", "notepad"),
])
def test_full_screen_and_shrink_phrasings(text, tool, name):
    assert _steps(text) == [(tool, {"name": name})]


@pytest.mark.parametrize("text", ["minimize everything", "show me the desktop", "minimise all windows",
                                  "hide all the apps", "show the desktop"])
def test_minimise_everything_is_declined_clearly(text):
    plan = OfflinePlanner(strict=True).plan(text)
    assert plan.steps == () and "can't minimise every window at once" in plan.final_response


def test_shrinking_a_normal_window_says_so_and_changes_nothing(run):
    run("open notepad")
    result = run("shrink notepad")
    assert result.status is Status.DONE
    assert result.message == "Notepad is already its normal size. Say 'minimise notepad' to hide it."
    assert not [a for a in run.desktop.actions if a.kind == "window"]
    run("maximise notepad")
    assert run("shrink notepad").message == "Restored Notepad."


@pytest.mark.parametrize("text, tool", [("opne notepad", "open_app"), ("clsoe the calculator", "close_app"),
                                        ("swtich to notepad", "switch_to_app"), ("oepn the browser", "open_app")])
def test_a_command_verb_one_letter_off_is_understood(text, tool):
    assert [t for t, _ in _steps(text)] == [tool]


@pytest.mark.parametrize("text", ["hype me up", "tpye hello", "asdkjh qwe zzzpl", "opn notepad"])
def test_no_guess_types_text_or_reads_short_or_unlike_words(text):
    assert _steps(text) == []


def test_one_edit():
    from anovax.planner.typo import one_edit, corrected
    assert one_edit("opne", "open") and one_edit("opens", "open") and one_edit("oen", "open")
    assert not one_edit("nepo", "open") and not one_edit("open", "open")
    assert corrected("opne notepad") == "open notepad"
    assert corrected("open notepad") is None and corrected("tape it") is None

"""Issue 16, the orb's side: after a command typed into the orb, the focus goes back to the
person's window only when the command acted on no window, and only when nothing else wants the
keyboard. FocusKeeper is driven here with the events the assistant emits and stand-ins for the
two Tk widgets it touches (the window tests drive the real ones: test_orb_focus_window.py)."""

from __future__ import annotations

from concurrent.futures import Future

import pytest

from anovax.events import Event, EventType
from anovax.orb import focus
from anovax.orb.focus import FocusKeeper, acted_on_window


def done_data(*steps: tuple[str, str], status: str = "done") -> dict:
    """COMMAND_DONE's data as CommandResult.to_dict() has it, with these (tool, status) steps."""
    return {"status": status, "message": "", "outcome": {"steps": [
        {"index": i, "tool": tool, "status": step_status, "value": "", "attempts": 1, "agent_id": f"a{i}"}
        for i, (tool, step_status) in enumerate(steps)]}}


@pytest.mark.parametrize(("steps", "acted"), [
    ([("open_app", "done"), ("type_text", "done")], True),
    ([("press_keys", "done"), ("type_text", "done")], True),
    ([("type_text", "done")], True),
    ([("open_app", "done")], True),
    ([("tell_time", "done")], False),
    ([("web_search", "failed")], False),
    ([("open_url", "done")], False),  # the browser is not the window the person was in
    ([("open_app", "failed"), ("type_text", "not_run")], False),
    ([("type_text", "failed")], False),
    ([], False),
])
def test_a_command_acted_on_a_window_when_a_window_tool_ran_to_its_end(steps, acted):
    assert acted_on_window(done_data(*steps)) is acted


@pytest.mark.parametrize("data", [None, {}, {"outcome": None}, {"outcome": {"steps": "x"}},
                                  {"outcome": {"steps": [None, 3]}}])
def test_a_refusal_or_odd_data_acted_on_nothing(data):
    assert acted_on_window(data) is False


class FakeEntry:
    def __init__(self) -> None:
        self.text = ""
        self.state = "normal"
        self.focused = 0

    def get(self) -> str:
        return self.text

    def cget(self, name: str) -> str:
        assert name == "state"
        return self.state

    def focus_set(self) -> None:
        self.focused += 1


class FakeRoot:
    def __init__(self) -> None:
        self.bindings: dict[str, object] = {}
        #: what focus_get returns: None when another application has the focus
        self.focus: object = "entry"

    def bind(self, sequence: str, fn: object, add: str = "") -> None:
        self.bindings[sequence] = fn

    def focus_get(self) -> object:
        return self.focus


class Orb:
    """A FocusKeeper with its stand-ins; ``submit`` sends a command the way the text box does."""

    def __init__(self, *, can_give_back: bool = True) -> None:
        self.root, self.entry = FakeRoot(), FakeEntry()
        self.handed: list[str] = []
        self.busy = False
        self.keeper = FocusKeeper(self.root, self.entry,  # type: ignore[arg-type]
                                  give_back=(lambda: self.handed.append("back")) if can_give_back else None,
                                  run=self._run, busy=lambda: self.busy)
        self.ids = iter(range(1, 1000))
        self.submit = self.keeper.track(self._submit)

    def _submit(self, text: str) -> Future:
        future: Future = Future()
        future.command_id = f"c{next(self.ids)}"  # type: ignore[attr-defined]
        if text == "stop":  # a control message: resolved at once, no events follow
            future.set_result(None)
        return future

    @staticmethod
    def _run(job, done) -> None:  # the control worker, inline
        done(job(), None)

    def events(self, *events: Event) -> None:
        self.keeper.seen(list(events))

    def why(self, command_id: str) -> str:
        return dict(self.keeper.decisions)[command_id]


def command_done(command_id: str, *steps: tuple[str, str]) -> Event:
    return Event(type=EventType.COMMAND_DONE, command_id=command_id, data=done_data(*steps))


def test_what_time_is_it_gives_the_focus_back():
    orb = Orb()
    command_id = orb.submit("what time is it").command_id
    orb.events(Event(type=EventType.COMMAND_RECEIVED, command_id=command_id, data={"text": "what time is it"}),
               command_done(command_id, ("tell_time", "done")))
    assert orb.handed == ["back"] and orb.keeper.given_back == 1
    assert orb.why(command_id) == focus.GIVEN_BACK


def test_typing_into_a_window_leaves_the_focus_there():
    orb = Orb()
    command_id = orb.submit("press enter and type world").command_id
    orb.events(command_done(command_id, ("press_keys", "done"), ("type_text", "done")))
    assert orb.handed == [] and orb.why(command_id) == focus.ACTED


def test_a_window_tool_that_finished_in_a_recovery_turn_counts():
    """The outcome holds only the last turn's steps; the agent's own AGENT_DONE is enough."""
    orb = Orb()
    command_id = orb.submit("open the editor and type hi").command_id
    orb.events(Event(type=EventType.AGENT_DONE, command_id=command_id, agent_id="a1", tool="type_text"),
               command_done(command_id, ("web_search", "failed")))
    assert orb.handed == [] and orb.why(command_id) == focus.ACTED


def test_a_refusal_gives_the_focus_back():
    orb = Orb()
    command_id = orb.submit("open a terminal and run rm -rf ~").command_id
    orb.events(Event(type=EventType.SAFETY_REFUSED, command_id=command_id, error="No."),
               Event(type=EventType.COMMAND_DONE, command_id=command_id, data={"status": "refused", "outcome": None}))
    assert orb.handed == ["back"]


def test_commands_from_other_front_ends_are_not_the_orbs_business():
    orb = Orb()
    orb.events(command_done("c-voice", ("tell_time", "done")))
    assert orb.handed == [] and not orb.keeper.decisions


def test_the_focus_stays_while_another_orb_command_waits_and_goes_back_after_the_last():
    orb = Orb()
    first, second = orb.submit("what time is it").command_id, orb.submit("what day is it").command_id
    orb.events(command_done(first, ("tell_time", "done")))
    assert orb.handed == [] and orb.why(first) == focus.BUSY
    orb.events(command_done(second, ("tell_time", "done")))
    assert orb.handed == ["back"]


def test_the_focus_stays_while_a_command_from_elsewhere_runs():
    orb = Orb()
    command_id = orb.submit("what time is it").command_id
    orb.busy = True  # the model has another command in flight
    orb.events(command_done(command_id, ("tell_time", "done")))
    assert orb.handed == [] and orb.why(command_id) == focus.BUSY


def test_a_person_who_went_elsewhere_is_left_there():
    orb = Orb()
    command_id = orb.submit("what time is it").command_id
    orb.root.focus = None
    orb.events(command_done(command_id, ("tell_time", "done")))
    assert orb.handed == [] and orb.why(command_id) == focus.ELSEWHERE


def test_a_person_typing_the_next_command_keeps_the_keyboard():
    orb = Orb()
    command_id = orb.submit("what time is it").command_id
    orb.entry.text = "open no"
    orb.events(command_done(command_id, ("tell_time", "done")))
    assert orb.handed == [] and orb.why(command_id) == focus.TYPING


def test_without_a_desktop_the_focus_stays_in_the_orb():
    orb = Orb(can_give_back=False)
    command_id = orb.submit("what time is it").command_id
    orb.events(command_done(command_id, ("tell_time", "done")))
    assert orb.handed == [] and orb.why(command_id) == focus.CANNOT


def test_a_stop_typed_into_the_orb_is_not_waited_for():
    """"stop" is answered at once and no COMMAND_DONE follows: it must not hold the focus forever."""
    orb = Orb()
    orb.submit("stop")
    command_id = orb.submit("what time is it").command_id
    orb.events(command_done(command_id, ("tell_time", "done")))
    assert orb.handed == ["back"]


def test_a_rejected_command_gives_the_focus_back():
    orb = Orb()
    command_id = orb.submit("what time is it").command_id
    orb.events(Event(type=EventType.COMMAND_REJECTED, command_id=command_id, error="busy"))
    assert orb.handed == ["back"]


def test_activating_the_window_puts_the_cursor_in_the_text_box():
    orb = Orb()

    class Activation:
        widget = orb.root

    class TabInside:
        widget = object()  # FocusIn of a widget inside the window (Tab), not of the window

    orb.root.bindings["<FocusIn>"](TabInside())
    assert orb.entry.focused == 0
    orb.root.bindings["<FocusIn>"](Activation())
    orb.root.bindings["<ButtonPress>"](Activation())
    assert orb.entry.focused == 2
    orb.entry.state = "disabled"  # typed commands are off: nothing to put the cursor in
    orb.root.bindings["<FocusIn>"](Activation())
    assert orb.entry.focused == 2


class Assistant:
    """What OrbControls.for_assistant reads of an Assistant, with the desktop it was built with."""

    def __init__(self, desktop) -> None:
        from anovax.confirm import Confirmations
        from anovax.events import EventBus

        self.desktop = desktop
        self.confirmations = Confirmations(EventBus())

    def state(self) -> dict:
        return {"speech_off": None}


class Desktop:
    def __init__(self) -> None:
        self.returned = 0

    def return_to_user(self) -> None:
        self.returned += 1


def test_the_controls_hand_the_focus_back_through_the_assistants_desktop():
    from anovax.orb.controls import OrbControls

    desktop = Desktop()
    controls = OrbControls.for_assistant(Assistant(desktop))
    assert controls.return_focus is not None
    controls.return_focus()
    assert desktop.returned == 1
    # another desktop given explicitly wins; a desktop without the method is a no-op
    other = Desktop()
    OrbControls.for_assistant(Assistant(desktop), desktop=other).return_focus()
    assert (desktop.returned, other.returned) == (1, 1)
    OrbControls.for_assistant(Assistant(object())).return_focus()


def test_a_dry_run_has_no_desktop_to_hand_the_focus_to():
    from anovax.orb.controls import OrbControls

    assert OrbControls.for_assistant(Assistant(None)).return_focus is None
    assert OrbControls.for_assistant(Assistant(Desktop()), desktop=None).return_focus is None

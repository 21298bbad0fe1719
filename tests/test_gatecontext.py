"""What the gate is told about the keyboard across commands (issue 16, point 4)."""

from __future__ import annotations

from anovax.gatecontext import GateContext, typed_after
from anovax.memory import KeyState, SessionState
from anovax.outcome import Outcome, StepResult, StepStatus
from anovax.plan import Plan, Step
from anovax.target import TargetClass, WindowIdentity

XTERM = WindowIdentity(window=7, title="user@host: ~", app="xterm", klass=TargetClass.SHELL, pid=70)
PAD = WindowIdentity(window=9, title="Untitled - Mousepad", app="Mousepad", klass=TargetClass.TEXT, pid=90)


def steps(*pairs):
    return [Step(tool, params) for tool, params in pairs]


def test_the_line_is_what_follows_the_last_submit():
    assert typed_after(steps(("type_text", {"text": "echo hi\nwho"}))) == "who"
    assert typed_after(steps(("type_text", {"text": "rm -rf"}), ("press_keys", {"keys": "enter"}))) == ""
    assert typed_after(steps(("type_text", {"text": " ~"})), "rm -rf") == "rm -rf ~"


def test_editing_keys_stay_on_the_line_because_they_change_what_enter_submits():
    line = typed_after(steps(("type_text", {"text": "ls"}), ("press_keys", {"keys": "home"}),
                             ("type_text", {"text": "sudo "})))
    assert line == "ls<home>sudo "


def test_another_window_starts_a_new_line():
    assert typed_after(steps(("press_keys", {"keys": "alt+tab"})), "rm -rf ~") == ""
    assert typed_after(steps(("open_app", {"name": "terminal"}), ("type_text", {"text": "who"})), "x") == "who"


class Desk:
    def __init__(self, target):
        self.target = target

    def user_target(self):
        return self.target

    def classify_app(self, name):
        return TargetClass.SHELL if name == "terminal" else None


def ran(plan: Plan) -> Outcome:
    return Outcome(steps=tuple(StepResult(i, s.tool, StepStatus.DONE) for i, s in enumerate(plan.steps)))


def test_what_one_command_left_on_the_line_reaches_the_next_commands_check():
    session = SessionState()
    desk = Desk(XTERM)
    gate = GateContext(desk, session)
    plan = Plan(steps=tuple(steps(("type_text", {"text": "rm -rf "}))))
    gate.record(XTERM, plan, ran(plan))
    args = gate.args()
    assert args["target"] == XTERM and args["session_typed"] == "rm -rf "
    assert args["classify"]("terminal") is TargetClass.SHELL
    desk.target = PAD  # the user went to another window: that line is not this one's
    assert GateContext(desk, session).args()["session_typed"] == ""


def test_a_desktop_that_cannot_identify_windows_falls_back_to_the_session():
    session = SessionState()
    session.set_keys(KeyState(target=XTERM, typed="whoami"))
    gate = GateContext(None, session)
    assert gate.args() == {"target": XTERM, "classify": gate.classify, "session_typed": "whoami",
                           "recent_outbound": (), "search_hosts": ()}


def test_the_carried_line_expires_with_the_session():
    now = [0.0]
    session = SessionState(clock=lambda: now[0])
    session.set_keys(KeyState(target=XTERM, typed="whoami"))
    now[0] = 301.0
    assert session.keys == KeyState()


def test_it_means_the_app_the_session_opened_until_the_user_goes_to_another_window():
    """A first-time user clicked into galculator after using Mousepad: "type 12+30" was said to go
    "into Notepad" (the keys went to the calculator, rightly)."""
    calc = WindowIdentity(window=5, title="galculator", app="Galculator", klass=TargetClass.TEXT, pid=50)
    session = SessionState()
    session.set_keys(KeyState(target=PAD, typed=""))
    gate = GateContext(Desk(PAD), session)
    assert gate.current_app(PAD, "notepad") == "notepad"  # still where the last command left the keys
    assert gate.current_app(calc, "notepad") == "Galculator"  # the user went elsewhere
    assert gate.current_app(None, "notepad") == "notepad"


def test_the_carried_line_is_in_the_gates_own_encoding():
    from anovax.safety.focus import decode_for_scan
    line = typed_after(steps(("type_text", {"text": "a<b"}), ("press_keys", {"keys": "ctrl+a"}),
                             ("type_text", {"text": "rm"})))
    assert line == "a<lt>b<ctrl+a>rm"
    assert decode_for_scan(line) == "a<brm"


def test_a_stored_secret_split_across_two_commands_is_seen_whole():
    from anovax.safety import safety_check

    session = SessionState()
    gate = GateContext(None, session)
    memory = {"wifi_password": "Sonnenblume7"}
    first = Plan(steps=steps(("web_search", {"query": "Sonnen"})), final_response="Searching.")
    assert safety_check(first, "search sonnen", memory=memory, **gate.args()).ok
    gate.record(None, first, ran(first))
    second = Plan(steps=steps(("web_search", {"query": "blume7"})), final_response="Searching.")
    assert not safety_check(second, "search blume7", memory=memory, **gate.args()).ok
    # the same second search on a session that never sent the first half is harmless
    assert safety_check(second, "search blume7", memory=memory, **GateContext(None, SessionState()).args()).ok


def test_what_was_sent_out_expires_with_the_session():
    now = [0.0]
    session = SessionState(ttl_s=300, clock=lambda: now[0])
    session.add_outbound(["Sonnen"])
    assert session.recent_outbound == ("Sonnen",)
    now[0] = 301
    assert session.recent_outbound == ()

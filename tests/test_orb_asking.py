"""The orb's question (issue 15): shown on CONFIRM_REQUESTED with a countdown, hidden by
CONFIRM_ANSWERED from whichever front end answered, in the model and on the console line.

Plain data: events in, a Snapshot out, time passed in as ``now`` (no Tk, no sleeping)."""

import io
import threading

import pytest

from anovax.confirm import Confirmations
from anovax.events import Event, EventBus, EventType
from anovax.orb.asking import answered_note
from anovax.orb.console import ConsoleStatus, render_status
from anovax.orb.model import OrbModel, OrbState
from helpers import wait_for
from test_orb_model import T0, done, ev

QUESTION = "Type `ls` and press Enter in Terminal?"


def asked(question_id="q1-ab", command_id="c1", ts=T0, timeout_s=20.0, target="xterm", **extra):
    data = {"question_id": question_id, "question": QUESTION, "target": target,
            "steps": [{"index": 2, "tool": "type_text", "params": {"text": "ls"}}], "timeout_s": timeout_s,
            "expires_ts": ts + timeout_s, "frontends": ["orb", "phone"], **extra}
    return ev("CONFIRM_REQUESTED", command_id, ts, data=data)


def answered(answer="yes", frontend="phone", question_id="q1-ab", command_id="c1", ts=T0 + 3, seconds=3.0):
    return ev("CONFIRM_ANSWERED", command_id, ts, data={"question_id": question_id, "answer": answer,
                                                        "frontend": frontend, "seconds": seconds})


def holding(model=None):
    """A command that opened a terminal and now waits for a yes before typing into it."""
    model = model or OrbModel()
    model.apply_all([ev("COMMAND_RECEIVED", data={"text": "open a terminal and type ls and press enter"}),
                     asked()])
    return model


def test_a_question_is_shown_with_its_target_and_a_full_countdown():
    model = holding()
    snap = model.snapshot(T0)
    assert snap.state is OrbState.ASKING
    question = snap.question
    assert question is not None and question.question_id == "q1-ab" and question.command_id == "c1"
    assert (question.text, question.target, question.seconds_left) == (QUESTION, "xterm", 20)
    assert question.frontends == ("orb", "phone")
    assert snap.detail == "waiting for a yes: open a terminal and type ls and press enter"
    assert model.animating(T0)  # the countdown moves


def test_the_countdown_runs_down_in_whole_seconds_and_never_below_zero():
    model = holding()
    assert [model.snapshot(T0 + t).question.seconds_left for t in (0.0, 0.2, 5.0, 5.1, 19.5, 20.0, 21.0)] == \
        [20, 20, 15, 15, 1, 0, 0]


def test_a_question_whose_end_was_lost_goes_shortly_after_its_countdown():
    model = holding()
    before = model.version
    assert not model.tick(T0 + 21.0)  # within the grace: the broker's timeout answer may be on its way
    assert model.snapshot(T0 + 21.0).question is not None
    assert model.tick(T0 + 22.5)
    assert model.version > before
    snap = model.snapshot(T0 + 22.5)
    assert snap.question is None and snap.state is OrbState.THINKING


@pytest.mark.parametrize("answer, frontend, note", [
    ("yes", "phone", "yes from the phone: going ahead"),
    ("yes", "orb", "yes from the orb: going ahead"),
    ("no", "voice", "no from the voice: did not go ahead"),
    ("timeout", None, "no answer in 20 s: did not go ahead"),
    ("nobody", None, "nobody could answer: did not go ahead"),
    ("stopped", None, "stopped while asking"),
])
def test_an_answer_from_any_front_end_hides_the_question_and_says_how_it_ended(answer, frontend, note):
    model = holding()
    model.apply(answered(answer, frontend, seconds=20.0 if answer == "timeout" else 3.0))
    snap = model.snapshot(T0 + 3)
    assert snap.question is None and snap.state is not OrbState.ASKING
    assert snap.answered == note
    assert model.animating(T0 + 3)  # the note goes by itself
    assert model.snapshot(T0 + 6.9).answered == note
    assert model.tick(T0 + 7.0)
    assert model.snapshot(T0 + 7.0).answered == ""


def test_an_answer_to_an_older_question_leaves_the_open_one_alone():
    model = holding()
    model.apply(answered(question_id="q0-old"))
    snap = model.snapshot(T0 + 3)
    assert snap.question is not None and snap.question.question_id == "q1-ab" and snap.answered == ""


def test_a_new_question_replaces_the_last_answer_note():
    model = holding()
    model.apply(answered("yes", "orb"))
    model.apply(asked("q2-cd", ts=T0 + 4, timeout_s=10.0))
    snap = model.snapshot(T0 + 4)
    assert snap.question.question_id == "q2-cd" and snap.question.seconds_left == 10 and snap.answered == ""


def test_the_end_of_the_command_ends_its_question():
    model = holding()
    model.apply(done(ts=T0 + 2, status="refused", message="I needed a yes to type into xterm, so I did nothing.",
                     text="open a terminal and type ls and press enter"))
    snap = model.snapshot(T0 + 2)
    assert snap.question is None and snap.state is OrbState.REFUSED


def test_a_question_without_an_expiry_counts_down_from_its_own_time():
    model = OrbModel()
    model.apply(ev("CONFIRM_REQUESTED", ts=T0, data={"question_id": "q", "question": "Go?", "timeout_s": 8}))
    question = model.snapshot(T0 + 1).question
    assert question.seconds_left == 7 and question.target == "" and question.frontends == ()


def test_answered_note_copes_with_odd_data():
    assert answered_note({}) == "answered"
    # a new command came instead: it was "no from the voice", which nobody said
    replaced = answered_note({"answer": "replaced", "frontend": "voice"})
    assert replaced == "a new command from the voice: did not go ahead"
    assert answered_note({"answer": "timeout", "seconds": "soon"}) == "no answer in 0 s: did not go ahead"
    assert answered_note({"answer": "maybe"}) == "maybe"


def test_the_console_line_shows_the_question_then_the_answer():
    model = holding()
    line = render_status(model.snapshot(T0 + 2.5), 200)
    assert line == f"? asking: {QUESTION} (in xterm, 18 s left)"
    model.apply(answered("no", "phone"))
    assert render_status(model.snapshot(T0 + 3), 200).endswith(" | no from the phone: did not go ahead")


def test_the_console_log_prints_a_line_for_the_question_and_one_for_its_answer():
    out = io.StringIO()
    status = ConsoleStatus(None, out, inline=False, clock=lambda: T0 + 1)
    status.model.apply_all([ev("COMMAND_RECEIVED", data={"text": "type ls"}), asked()])
    status.refresh()
    status.refresh()  # the countdown alone is not news
    status.model.apply(answered("yes", "orb"))
    status.refresh()
    lines = out.getvalue().splitlines()
    assert lines == [f"? asking: {QUESTION} (in xterm, 19 s left)",
                     "◌ thinking: planning: type ls | yes from the orb: going ahead"]


def test_the_real_broker_drives_the_model_and_another_front_end_answers():
    """Confirmations publishes; the model (fed from the bus like the window) shows, then hides."""
    bus = EventBus()
    model = OrbModel()
    seen: list[Event] = []
    lock = threading.Lock()

    def feed(event: Event) -> None:
        with lock:
            model.apply(event)
            seen.append(event)
    bus.subscribe("orb-test", feed)
    confirmations = Confirmations(bus, timeout_s=30.0)
    unregister_orb = confirmations.register("orb")
    confirmations.register("phone")
    question = confirmations.new_question("c7", QUESTION, [{"index": 1, "tool": "type_text",
                                                            "params": {"text": "ls"}}], "xterm")
    replies = []
    asker = threading.Thread(target=lambda: replies.append(confirmations.ask(question)), name="asker")
    asker.start()
    wait_for(lambda: confirmations.pending is not None, 10.0, what="the question to be pending")
    wait_for(lambda: any(e.type is EventType.CONFIRM_REQUESTED for e in list(seen)), 10.0, what="CONFIRM_REQUESTED")
    with lock:
        shown = model.snapshot(question.expires_ts - 12.5).question
    assert shown.question_id == question.question_id and shown.seconds_left == 13
    assert shown.frontends == ("orb", "phone")
    assert confirmations.answer(question.question_id, False, "phone")
    asker.join(10)
    assert replies and replies[0].answer.value == "no" and replies[0].frontend == "phone"
    wait_for(lambda: any(e.type is EventType.CONFIRM_ANSWERED for e in list(seen)), 10.0, what="CONFIRM_ANSWERED")
    with lock:
        snap = model.snapshot(seen[-1].ts)
    assert snap.question is None and snap.answered == "no from the phone: did not go ahead"
    assert not confirmations.answer(question.question_id, True, "orb")  # too late: the phone was first
    unregister_orb()
    bus.close()

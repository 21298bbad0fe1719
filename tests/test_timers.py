"""Timers and reminders: reading spans and clock times, the offline plans, and the service with
an injected clock (persistence, a restart with a missed timer, several at once, cancel by label)."""

from __future__ import annotations

import json
import threading
from datetime import datetime

import pytest

from anovax.agents import AgentContext, TimerAgent
from anovax.desktop.base import CancelToken
from anovax.errors import PermanentToolError, TimerError
from anovax.events import EventBus, EventType
from anovax.plan import Step
from anovax.planner import OfflinePlanner
from anovax.safety import safety_check
from anovax.plan import Plan
from anovax.timers.model import Kind
from anovax.timers.service import TimerService
from anovax.timers.when import countdown, parse_clock, parse_duration, parse_when, say_clock, say_duration
from anovax.tools import TOOLS

NOW = datetime(2026, 12, 2, 14, 10)  # a Wednesday, ten past two in the afternoon


@pytest.mark.parametrize("span, seconds", [
    ("5 minutes", 300), ("5 min", 300), ("5 mins", 300), ("10 minute", 600), ("90 seconds", 90),
    ("an hour and a half", 5400), ("1 hour 30 minutes", 5400), ("1h 30m", 5400), ("half an hour", 1800),
    ("two and a half minutes", 150), ("1.5 hours", 5400), ("twenty five minutes", 1500), ("a minute", 60),
    ("a quarter of an hour", 900), ("for 10 minutes", 600), ("five minutes from now", 300), ("2 secs", 2),
])
def test_spans_are_read_in_seconds(span, seconds):
    assert parse_duration(span) == seconds


@pytest.mark.parametrize("span", ["5 minutes to stretch", "banana", "0 seconds", "8 days", "minutes", ""])
def test_what_is_not_a_span_within_a_week_is_none(span):
    assert parse_duration(span) is None


@pytest.mark.parametrize("words, expected", [
    ("3 pm", "2026-12-02 15:00"), ("3pm", "2026-12-02 15:00"), ("15:30", "2026-12-02 15:30"),
    ("3:30 p.m.", "2026-12-02 15:30"), ("half past three", "2026-12-02 15:30"),
    ("quarter to four", "2026-12-02 15:45"), ("ten past five", "2026-12-02 17:10"),
    ("seven thirty", "2026-12-02 19:30"), ("7 am tomorrow", "2026-12-03 07:00"), ("5am", "2026-12-03 05:00"),
    ("five o'clock", "2026-12-02 17:00"), ("noon", "2026-12-03 12:00"), ("2", "2026-12-03 02:00"),
    ("9:00 in the morning", "2026-12-03 09:00"), ("quarter past eight tonight", "2026-12-02 20:15"),
])
def test_clock_times_are_the_next_such_moment(words, expected):
    assert f"{parse_clock(words, NOW):%Y-%m-%d %H:%M}" == expected


@pytest.mark.parametrize("words", ["banana", "25:00", "13 pm", "half past twenty", "3:75"])
def test_what_is_not_a_clock_time_is_none(words):
    assert parse_clock(words, NOW) is None


def test_when_reads_a_delay_or_a_clock_time_and_they_are_said_back():
    assert parse_when("in 10 minutes", NOW) == datetime(2026, 12, 2, 14, 20)
    assert parse_when("at 3 pm", NOW) == datetime(2026, 12, 2, 15, 0)
    assert say_clock(datetime(2026, 12, 3, 7, 0), NOW) == "7:00 AM tomorrow"
    assert say_duration(5410) == "1 hour, 30 minutes and 10 seconds"
    assert (countdown(299.2), countdown(3723), countdown(-3)) == ("5:00", "1:02:03", "0:00")


# --- the offline planner --------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def planner():
    return OfflinePlanner(strict=True)


def steps(plan):
    return [(s.tool, dict(s.params)) for s in plan.steps]


@pytest.mark.parametrize("text, seconds, label", [
    ("set a timer for 5 minutes", 300, "timer"),
    ("a 10 minute timer", 600, "timer"),
    ("start a 10 minute timer please", 600, "timer"),
    ("timer for 90 seconds", 90, "timer"),
    ("set a timer for an hour and a half", 5400, "timer"),
    ("set a tea timer for 3 minutes", 180, "tea"),
    ("set a timer for 12 minutes called pasta", 720, "pasta"),
    ("hey anova, could you set a timer for 5 min", 300, "timer"),
])
def test_timers_are_planned_offline(planner, text, seconds, label):
    assert steps(planner.plan(text)) == [("set_timer", {"seconds": seconds, "label": label})]


@pytest.mark.parametrize("text, when, what", [
    ("remind me in 10 minutes to stretch", "in 10 minutes", "stretch"),
    ("remind me to stretch in 10 minutes", "in 10 minutes", "stretch"),
    ("remind me at 3 pm to call mum", "3 pm", "call mum"),
    ("remind me to call mum at 3 pm", "3 pm", "call mum"),
    ("at half past three remind me to take the bread out", "half past three", "take the bread out"),
    ("set a reminder for 15:30 to water the plants", "15:30", "water the plants"),
    ("alert me in 5 minutes to check the oven", "in 5 minutes", "check the oven"),
])
def test_reminders_keep_the_users_when_and_are_planned_offline(planner, text, when, what):
    assert steps(planner.plan(text)) == [("set_reminder", {"when": when, "text": what})]


@pytest.mark.parametrize("text, when, what", [
    ("wake me up at 7 am", "7 am", "wake up"),
    ("set an alarm for 6:45", "6:45", "alarm"),
    ("set an alarm for five minutes from now", "in 5 minutes", "alarm"),
])
def test_an_alarm_becomes_a_reminder_and_the_reply_says_so(planner, text, when, what):
    plan = planner.plan(text)
    assert steps(plan) == [("set_reminder", {"when": when, "text": what})]
    assert "can't ring an alarm" in plan.final_response and "reminder" in plan.final_response


@pytest.mark.parametrize("text, when", [
    ("wake me up at 6:45", "6:45 am"), ("wake me up at 7", "7 am"), ("wake me up at 7 pm", "7 pm"),
    ("wake me up at 14:30", "14:30"), ("wake me up at six forty five", "six forty five am"),
    ("wake me up at 12", "12"), ("wake me up at 2", "2"),  # midnight or a nap: the next such time
])
def test_wake_me_up_at_a_bare_hour_is_the_morning(planner, text, when):
    # said at 10:18 in the morning, "wake me up at 6:45" was set for 6:45 that evening
    assert steps(planner.plan(text)) == [("set_reminder", {"when": when, "text": "wake up"})]


def test_only_a_wake_up_request_is_moved_to_the_morning(planner):
    assert steps(planner.plan("remind me at 8 to wake the kids")) == [
        ("set_reminder", {"when": "8", "text": "wake the kids"})]


@pytest.mark.parametrize("text", ["how long is left", "how much time is left on my timer", "what timers do i have",
                                  "how long until the timer goes off", "show my reminders"])
def test_how_long_is_left_reads_the_timers(planner, text):
    plan = planner.plan(text)
    assert steps(plan) == [("timers_left", {})]
    assert plan.final_response == ""  # its agent says the answer: no "Okay." before it


@pytest.mark.parametrize("text, label", [
    ("cancel the timer", "timer"), ("stop the timer", "timer"), ("cancel the stretch reminder", "stretch"),
    ("cancel the tea timer", "tea"), ("delete all reminders", "all reminders"), ("cancel all timers", "all timers"),
    ("remove all alarms", "all alarms"), ("turn off the 5 minute timer", "5 minute"),
])
def test_cancel_names_the_timer(planner, text, label):
    plan, refused = planner.plan_with_refusal(text)
    assert refused is None
    assert steps(plan) == [("cancel_timer", {"label": label})]


def test_several_at_once_and_with_other_commands(planner):
    plan = planner.plan("set a timer for 5 minutes and remind me in 10 minutes to stretch")
    assert steps(plan) == [("set_timer", {"seconds": 300, "label": "timer"}),
                           ("set_reminder", {"when": "in 10 minutes", "text": "stretch"})]
    plan = planner.plan("open notepad and set a timer for 2 minutes")
    assert [s.tool for s in plan.steps] == ["open_app", "set_timer"]


@pytest.mark.parametrize("text", ["set a timer", "remind me to call the dentist tomorrow", "what alarms are upcoming"])
def test_timer_words_without_a_time_say_how_to_ask(planner, text):
    plan = planner.plan(text)
    assert plan.steps == ()
    assert "set a timer for 5 minutes" in plan.final_response
    assert "offline" not in plan.final_response  # timers work offline: no "I can't ... offline"


def test_timer_plans_pass_the_safety_check_and_a_secret_label_does_not(planner):
    for text in ("set a timer for 5 minutes", "remind me at 3 pm to call mum", "cancel the timer", "how long is left"):
        assert safety_check(planner.plan(text), text).ok, text
    leaky = Plan((Step("set_reminder", {"when": "in 5 minutes", "text": "my password is hunter2-Zebra!77"}),), "Ok.")
    assert not safety_check(leaky, "remind me").ok


def test_the_online_planner_is_told_the_timer_tools_and_their_limits():
    from anovax.prompts import render_plan_prompt

    prompt = render_plan_prompt()
    for name in ("set_timer", "set_reminder", "timers_left", "cancel_timer"):
        assert f"- {name}(" in prompt
    seconds = TOOLS["set_timer"].param("seconds")
    assert (seconds.minimum, seconds.maximum) == (1, 7 * 86400)
    assert TOOLS["set_timer"].param_problem({"seconds": 0, "label": "tea"})
    assert TOOLS["set_timer"].param_problem({"seconds": 60, "label": "x" * 81})


# --- the service, on an injected clock ------------------------------------------------------------------------

class Clock:
    def __init__(self, now: float = NOW.timestamp()) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Recorder:
    """The bus's events and what was said, in order."""

    def __init__(self) -> None:
        self.bus = EventBus()
        self.said: list[str] = []

    def announce(self, text: str, command_id: str, cancel: CancelToken) -> None:
        self.said.append(text)

    def types(self) -> list[EventType]:
        return [e.type for e in self.bus.recent(0)]


def service(tmp_path, clock, rec) -> TimerService:
    return TimerService(tmp_path / "timers.json", rec.bus, announce=rec.announce, clock=clock).start(thread=False)


def test_a_timer_fires_when_due_said_and_published_once(tmp_path):
    clock, rec = Clock(), Recorder()
    timers = service(tmp_path, clock, rec)
    timer = timers.add(Kind.TIMER, "timer", seconds=300)
    assert timer.set_message(clock()) == "Timer set for 5 minutes."
    assert timers.add(Kind.TIMER, "Pasta timer", seconds=60).name == "Pasta timer"  # as a model may write it
    timers.cancel("pasta")
    clock.now += 299
    assert timers.fire_due() == [] and rec.said == []
    clock.now += 1
    assert timers.fire_due() == [timer]
    assert rec.said == ["Your 5 minute timer is done."]
    assert timers.fire_due() == []  # once
    fired = [e for e in rec.bus.recent(0) if e.type is EventType.TIMER_FIRED]
    assert fired[0].data["message"] == "Your 5 minute timer is done." and fired[0].data["late"] is False
    assert rec.types() == [EventType.TIMER_SET, EventType.TIMER_SET, EventType.TIMER_CANCELLED, EventType.TIMER_FIRED]


def test_an_alarm_with_nothing_else_to_say_is_set_and_goes_off(tmp_path):
    # the README's own "set an alarm for 6:45" was planned as a reminder of "alarm", which counts
    # as no purpose at all: it failed with "What should I remind you of?"
    clock, rec = Clock(), Recorder()
    timers = service(tmp_path, clock, rec)
    alarm = timers.add(Kind.REMINDER, "alarm", due=clock() + 600)
    assert alarm.label == "alarm"
    with pytest.raises(TimerError, match="What should I remind you of"):
        timers.add(Kind.REMINDER, "reminder", due=clock() + 600)  # still asked when nothing says why
    clock.now += 600
    assert timers.fire_due() == [alarm] and rec.said and "alarm" in rec.said[0].lower()


def test_every_change_is_saved_and_a_restart_loses_none(tmp_path):
    clock, rec = Clock(), Recorder()
    timers = service(tmp_path, clock, rec)
    timers.add(Kind.TIMER, "tea", seconds=180)
    timers.add(Kind.REMINDER, "stretch", due=clock() + 600)
    saved = json.loads((tmp_path / "timers.json").read_text())
    assert [t["label"] for t in saved["timers"]] == ["tea", "stretch"]
    assert not list(tmp_path.glob(".timers.json.*.tmp"))  # the temp file was renamed into place
    timers.close()
    again = service(tmp_path, clock, Recorder())
    assert [t.name for t in again.pending()] == ["tea timer", "reminder: stretch"]
    assert [e.data["restored"] for e in again.bus.recent(0) if e.type is EventType.TIMER_SET] == [True, True]


def test_two_processes_on_one_timers_file_keep_each_others_timers(tmp_path):
    # two consoles: each rewrote the file with its own timers alone, so the last to set one erased
    # the other's (a first-time user's 10-minute timer was gone after a restart)
    clock = Clock()
    first, second = service(tmp_path, clock, Recorder()), service(tmp_path, clock, Recorder())
    first.add(Kind.TIMER, "tea", seconds=600)
    second.add(Kind.TIMER, "pasta", seconds=1200)
    saved = lambda: sorted(t["label"] for t in json.loads((tmp_path / "timers.json").read_text())["timers"])  # noqa: E731
    assert saved() == ["pasta", "tea"]
    first.cancel("tea")  # its own: gone; the other's stays
    assert saved() == ["pasta"]
    clock.now += 1200
    second.fire_due()
    assert saved() == []


def test_a_timer_one_process_cancels_is_not_written_back_nor_rung_by_another(tmp_path):
    # a reviewer's case: `anovax --text "cancel the tea timer"` while the assistant runs said
    # "cancelled", but the assistant (which had loaded the same timer) rang it and wrote it back
    clock = Clock()
    service(tmp_path, clock, Recorder()).add(Kind.TIMER, "tea", seconds=600)
    saved = lambda: sorted(t["label"] for t in json.loads((tmp_path / "timers.json").read_text())["timers"])  # noqa: E731
    rang = Recorder()
    assistant, command = service(tmp_path, clock, rang), service(tmp_path, clock, Recorder())
    command.cancel("tea")
    assert saved() == []
    assistant.add(Kind.TIMER, "egg", seconds=300)  # any save of its own
    assert saved() == ["egg"] and [t.label for t in assistant.pending()] == ["egg"]
    service(tmp_path, clock, Recorder()).add(Kind.TIMER, "rice", seconds=600)
    late = service(tmp_path, clock, Recorder())  # knows egg and rice; cancels egg elsewhere
    late.cancel("egg")
    clock.now += 600
    assert [t.label for t in assistant.fire_due()] == []  # neither tea nor egg rings here
    assert rang.said == []


def test_a_timer_missed_while_off_fires_late_at_start(tmp_path):
    clock, rec = Clock(), Recorder()
    timers = service(tmp_path, clock, rec)
    timers.add(Kind.TIMER, "timer", seconds=300)
    timers.add(Kind.REMINDER, "call mum", due=parse_clock("3 pm", NOW).timestamp())
    timers.add(Kind.TIMER, "bread", seconds=7200)
    timers.close()
    clock.now += 3600  # off for an hour
    later = Recorder()
    restarted = service(tmp_path, clock, later)
    assert later.said == ["While I was off, your 5 minute timer finished.",
                          "While I was off, a reminder came due at 3:00 PM: call mum."]
    assert [e.data["late"] for e in later.bus.recent(0) if e.type is EventType.TIMER_FIRED] == [True, True]
    assert [t.name for t in restarted.pending()] == ["bread timer"]
    assert [t["label"] for t in json.loads((tmp_path / "timers.json").read_text())["timers"]] == ["bread"]


def test_several_at_once_fire_in_due_order(tmp_path):
    clock, rec = Clock(), Recorder()
    timers = service(tmp_path, clock, rec)
    timers.add(Kind.TIMER, "eggs", seconds=420)
    timers.add(Kind.TIMER, "tea", seconds=180)
    timers.add(Kind.REMINDER, "stretch", due=clock() + 300)
    assert timers.left_message() == ("Your tea timer has 3 minutes left. Reminder: stretch, due in 5 minutes. "
                                     "Your eggs timer has 7 minutes left.")
    clock.now += 1000
    assert [t.label for t in timers.fire_due()] == ["tea", "stretch", "eggs"]
    assert rec.said == ["Your tea timer is done.", "Reminder: stretch.", "Your eggs timer is done."]
    assert timers.left_message() == "You have no timers or reminders running."


def test_cancel_by_label_kind_or_all_and_say_when_it_is_unclear(tmp_path):
    clock, rec = Clock(), Recorder()
    timers = service(tmp_path, clock, rec)
    timers.add(Kind.TIMER, "timer", seconds=300)
    timers.add(Kind.TIMER, "tea", seconds=180)
    timers.add(Kind.REMINDER, "stretch", due=clock() + 600)
    with pytest.raises(TimerError, match="You have 2 running: tea timer, 5 minute timer. Say which one"):
        timers.cancel("timer")
    assert [t.label for t in timers.cancel("the stretch reminder")] == ["stretch"]
    assert [t.label for t in timers.cancel("5 minute")] == [""]
    with pytest.raises(TimerError, match="no timer or reminder called 'pasta'"):
        timers.cancel("pasta")
    assert [t.label for t in timers.cancel("timer")] == ["tea"]  # the only one left
    with pytest.raises(TimerError, match="no timers or reminders running"):
        timers.cancel("all timers")
    timers.add(Kind.TIMER, "a", seconds=60)
    timers.add(Kind.REMINDER, "b", due=clock() + 60)
    assert len(timers.cancel("all")) == 2
    assert rec.types().count(EventType.TIMER_CANCELLED) == 5
    clock.now += 10_000
    assert timers.fire_due() == [] and rec.said == []


def test_limits_and_a_damaged_file(tmp_path):
    clock, rec = Clock(), Recorder()
    (tmp_path / "timers.json").write_text("{not json")
    timers = service(tmp_path, clock, rec)
    assert "could not be read" in timers.store.warning and (tmp_path / "timers.json.damaged").exists()
    with pytest.raises(TimerError, match="within a week"):
        timers.add(Kind.TIMER, "t", seconds=8 * 86400)
    with pytest.raises(TimerError, match="What should I remind you of"):
        timers.add(Kind.REMINDER, "reminder", due=clock() + 60)
    for i in range(20):
        timers.add(Kind.TIMER, f"t{i}", seconds=60 + i)
    with pytest.raises(TimerError, match="cancel one first"):
        timers.add(Kind.TIMER, "one more", seconds=60)


def test_the_thread_fires_on_the_real_clock_and_close_ends_it(tmp_path):
    rec = Recorder()
    fired = threading.Event()
    timers = TimerService(tmp_path / "timers.json", rec.bus, announce=lambda text, cid, cancel: fired.set()).start()
    timers.add(Kind.TIMER, "quick", seconds=0.2)
    assert fired.wait(30.0)  # a generous deadline, not a timing assert
    timers.close()
    assert not timers._thread.is_alive()


# --- the agent --------------------------------------------------------------------------------------------------

def run(tool, params, timers):
    ctx = AgentContext(desktop=None, command_id="c1", depth=0, speak=lambda t, c: None, run_subtask=lambda g, c: None,
                       timers=timers)
    agent = TimerAgent(agent_id="c1.1", index=0, step=Step(tool, params), spec=TOOLS[tool], ctx=ctx, deadline=0)
    return agent.do_work()


def test_the_agent_sets_reads_and_cancels_and_fails_with_a_reason(tmp_path):
    clock, rec = Clock(), Recorder()
    timers = service(tmp_path, clock, rec)
    assert run("set_timer", {"seconds": 300, "label": "timer"}, timers).say == "Timer set for 5 minutes."
    assert run("set_reminder", {"when": "3 pm", "text": "call mum"}, timers).say == \
        "I'll remind you at 3:00 PM: call mum."
    assert run("timers_left", {}, timers).say.startswith("Your 5 minute timer has 5 minutes left.")
    assert run("cancel_timer", {"label": "call mum"}, timers).say == "Cancelled your reminder: call mum."
    with pytest.raises(PermanentToolError, match="couldn't tell when 'soonish'"):
        run("set_reminder", {"when": "soonish", "text": "x"}, timers)
    with pytest.raises(PermanentToolError, match="no timer or reminder called 'pasta'"):
        run("cancel_timer", {"label": "pasta"}, timers)
    with pytest.raises(PermanentToolError, match="not available"):
        run("timers_left", {}, None)
    assert [e.command_id for e in rec.bus.recent(0) if e.type is EventType.TIMER_SET] == ["c1", "c1"]


def test_one_way_of_naming_a_span_and_a_reminder_is_not_a_name(tmp_path):
    """The user heard "Timer set for 1 minute and 30 seconds" and later "your 90 second timer";
    and "The check the oven reminder is due…"."""
    clock, rec = Clock(), Recorder()
    timers = service(tmp_path, clock, rec)
    timer = timers.add(Kind.TIMER, "", seconds=90)
    assert timer.set_message(clock()) == "Timer set for 1 minute and 30 seconds."
    assert timer.name == "1 minute 30 second timer"
    assert [t.seconds for t in timers.cancel("the 90 second timer")] == [90]  # still heard that way
    timers.add(Kind.REMINDER, "check the oven", due=clock() + 240)
    assert timers.left_message() == "Reminder: check the oven, due in 4 minutes."
    assert parse_duration("1 minute and 30 seconds") == 90  # "and" is not "an d", a day


def test_the_phrasings_a_first_time_user_tried():
    planner = OfflinePlanner()
    assert steps(planner.plan("start a pasta timer for 2 minutes")) == [("set_timer", {"seconds": 120, "label": "pasta"})]
    assert steps(planner.plan("remind me tomorrow at noon to pay rent")) == \
        [("set_reminder", {"when": "tomorrow at noon", "text": "pay rent"})]
    now = datetime(2026, 3, 2, 8, 0)
    assert parse_when("tomorrow at noon", now) == datetime(2026, 3, 3, 12, 0)
    # not the "can't tell what or when" of a phrase nobody declared: it lists what is running
    assert steps(planner.plan("how long is left on the tea timer")) == [("timers_left", {})]


def test_nothing_to_cancel_and_which_one_are_answers_the_plan_goes_on_after(tmp_path):
    # they failed the plan: "Failed: I couldn't finish that: You have no timers…", and a step after them never ran
    clock, rec = Clock(), Recorder()
    timers = service(tmp_path, clock, rec)
    assert run("cancel_timer", {"label": "timer"}, timers).say == "You have no timers or reminders running."
    run("set_timer", {"seconds": 300, "label": "tea"}, timers)
    run("set_timer", {"seconds": 60, "label": "timer"}, timers)
    assert run("cancel_timer", {"label": "timer"}, timers).say.startswith("You have 2 running: ")
    with pytest.raises(PermanentToolError, match="no timer or reminder called 'pasta'"):
        run("cancel_timer", {"label": "pasta"}, timers)  # a name that matches nothing is still a failure

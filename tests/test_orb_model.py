"""The orb's model: states, chips and history from event sequences alone (no Tk, no clock)."""

import itertools

import pytest

from anovax.events import Event, EventType
from anovax.orb.model import ChipState, OrbModel, OrbState, short_arg

T0 = 1_000_000.0
_seq = itertools.count(1)


def ev(type_, command_id="c1", ts=T0, **fields):
    return Event(type=EventType(type_), command_id=command_id, ts=ts, seq=next(_seq), **fields)


def agent(type_, n, ts, tool="open_app", command_id="c1", **fields):
    return ev(type_, command_id, ts, agent_id=f"{command_id}.{n}", tool=tool, **fields)


def done(command_id="c1", ts=T0, status="done", message="Done.", text="open notepad"):
    return ev("COMMAND_DONE", command_id, ts, data={"status": status, "message": message, "text": text})


def run(model, events):
    model.apply_all(events)
    return model


def test_idle_model_is_asleep_and_still():
    model = OrbModel()
    snap = model.snapshot(T0)
    assert snap.state is OrbState.ASLEEP and snap.chips == () and snap.history == ()
    assert not model.animating(T0)
    assert snap.detail == "Type a command"  # no microphone has been reported: typing is the way in


def test_a_command_goes_thinking_acting_speaking_then_asleep():
    model = OrbModel()
    model.apply(ev("COMMAND_RECEIVED", data={"text": "open notepad and type hi"}))
    assert model.state(T0) is OrbState.THINKING
    assert model.snapshot(T0).detail == "planning: open notepad and type hi"
    model.apply(ev("PLAN_READY", data={"plan": {}}))
    assert model.state(T0) is OrbState.THINKING  # planned, no agent yet
    model.apply(agent("AGENT_SPAWNED", 1, T0 + 0.1, params={"name": "notepad"}))
    assert model.state(T0 + 0.1) is OrbState.ACTING
    assert model.snapshot(T0 + 0.1).detail == "1 agent: open notepad and type hi"
    model.apply(agent("AGENT_STARTED", 1, T0 + 0.1))
    model.apply(agent("AGENT_DONE", 1, T0 + 0.5))
    assert model.state(T0 + 0.5) is OrbState.THINKING  # between batches
    model.apply(ev("SPEAK_START", ts=T0 + 0.6, data={"text": "Opening Notepad."}))
    snap = model.snapshot(T0 + 0.6)
    assert snap.state is OrbState.SPEAKING and snap.response == "Opening Notepad."
    model.apply(ev("SPEAK_END", ts=T0 + 1.0))
    model.apply(done(ts=T0 + 1.0, message="Opening Notepad."))
    assert model.state(T0 + 1.0) is OrbState.ASLEEP
    assert model.animating(T0 + 1.0)  # the done chip is still fading out
    model.tick(T0 + 10)
    assert not model.animating(T0 + 10)


def test_speaking_wins_over_acting_and_acting_over_thinking():
    model = run(OrbModel(), [ev("COMMAND_RECEIVED"), agent("AGENT_SPAWNED", 1, T0, tool="speak"),
                             ev("SPEAK_START", data={"text": "hi"})])
    assert model.state(T0) is OrbState.SPEAKING
    model.apply(ev("SPEAK_END"))
    assert model.state(T0) is OrbState.ACTING


def test_refusal_holds_through_its_speech_and_flashes_after_the_command():
    model = OrbModel(flash_s=3.0)
    model.apply_all([ev("COMMAND_RECEIVED", data={"text": "rm -rf"}), ev("PLAN_READY"),
                     ev("SAFETY_REFUSED", error="I won't do that.", data={"rule": "command"}),
                     ev("SPEAK_START", data={"text": "I won't do that."})])
    snap = model.snapshot(T0)
    assert snap.state is OrbState.REFUSED and snap.detail == "I won't do that."
    model.apply_all([ev("SPEAK_END"), done(ts=T0 + 1, status="refused", message="I won't do that.", text="rm -rf")])
    assert model.state(T0 + 3.9) is OrbState.REFUSED
    assert model.state(T0 + 4.0) is OrbState.ASLEEP
    assert model.tick(T0 + 4.0)  # the flash is forgotten
    assert model.snapshot(T0 + 4.0).history[-1].status == "refused"


def test_a_refused_sub_plan_does_not_refuse_the_command():
    model = run(OrbModel(), [ev("COMMAND_RECEIVED"), agent("AGENT_SPAWNED", 1, T0, tool="plan_subtask"),
                             ev("SAFETY_REFUSED", error="no", data={"rule": "x", "depth": 1})])
    assert model.state(T0) is OrbState.ACTING


def test_failure_flashes_error_and_a_new_command_clears_it():
    model = run(OrbModel(), [ev("COMMAND_RECEIVED"), done(status="failed", message="I couldn't finish that.")])
    assert model.state(T0 + 1) is OrbState.ERROR
    assert model.snapshot(T0 + 1).detail == "I couldn't finish that."
    model.apply(ev("COMMAND_RECEIVED", "c2", T0 + 1.5, data={"text": "what time is it"}))
    assert model.state(T0 + 1.5) is OrbState.THINKING


def test_rejected_command_is_an_error_with_a_history_entry():
    model = run(OrbModel(), [ev("COMMAND_REJECTED", "c9", error="I'm still busy.")])
    snap = model.snapshot(T0)
    assert snap.state is OrbState.ERROR and snap.response == "I'm still busy."
    assert snap.history[-1].status == "rejected" and not snap.history[-1].ok


def test_recovery_is_thinking_with_its_turn():
    model = run(OrbModel(), [ev("COMMAND_RECEIVED", data={"text": "open notepad"}),
                             agent("AGENT_SPAWNED", 1, T0), agent("AGENT_FAILED", 1, T0, error="no window"),
                             ev("RECOVERY_STARTED")])
    snap = model.snapshot(T0)
    assert snap.state is OrbState.THINKING and snap.detail.startswith("recovering (turn 1)")
    model.apply(ev("RECOVERY_TURN", data={"turn": 1}))
    assert model.snapshot(T0).detail.startswith("recovering (turn 2)")
    model.apply(ev("RECOVERY_DONE", data={"ok": True}))
    assert model.snapshot(T0).detail == "planning: open notepad"


def test_voice_states_wake_and_sleep_the_orb():
    model = OrbModel()
    model.apply(ev("VOICE_STATE", "voice", data={"state": "listening", "detail": "say hey anova"}))
    snap = model.snapshot(T0)
    assert snap.state is OrbState.ASLEEP and snap.voice == "listening" and snap.detail == "Say 'hey anova' or type"
    model.apply(ev("VOICE_STATE", "voice", data={"state": "awake", "detail": "heard hey anova"}))
    assert model.state(T0) is OrbState.AWAKE and model.animating(T0)
    model.apply(ev("VOICE_HEARD", "voice", data={"action": "command", "text": "open notepad", "heard": "x"}))
    assert model.snapshot(T0).heard == "open notepad"
    model.apply(ev("VOICE_STATE", "voice", data={"state": "asleep", "detail": "timeout"}))
    assert model.state(T0) is OrbState.ASLEEP


def test_mute_survives_a_listener_restart_until_unmuted():
    model = OrbModel()
    model.set_muted(True)
    model.apply(ev("VOICE_STATE", "voice", data={"state": "listening"}))
    snap = model.snapshot(T0)
    assert snap.voice == "muted" and "muted" in snap.detail
    model.set_muted(False)
    assert model.snapshot(T0).voice == "listening"


def test_chip_lifecycle_elapsed_and_fade():
    model = OrbModel(done_linger_s=1.5, failed_linger_s=8.0, fade_s=0.5)
    model.apply_all([ev("COMMAND_RECEIVED"),
                     agent("AGENT_SPAWNED", 1, T0, tool="type_text", params={"text": "hello world " * 5}),
                     agent("AGENT_SPAWNED", 2, T0, tool="get_time", params={})])
    first, second = model.snapshot(T0 + 0.2).chips
    assert first.state is ChipState.WAITING and first.arg == "hello world hello wor…"
    assert first.elapsed_s == pytest.approx(0.2)
    assert second.arg == "" and second.label == "get_time · waiting 0.2s"
    model.apply_all([agent("AGENT_STARTED", 1, T0 + 0.3), agent("AGENT_RETRY", 1, T0 + 0.4, error="busy"),
                     agent("AGENT_DONE", 1, T0 + 1.0), agent("AGENT_STARTED", 2, T0 + 0.3),
                     agent("AGENT_FAILED", 2, T0 + 1.0, error="The clock is broken.")])
    chip1, chip2 = model.snapshot(T0 + 1.0).chips
    assert chip1.state is ChipState.DONE and chip1.attempts == 2 and chip1.elapsed_s == pytest.approx(1.0)
    assert chip2.failed and chip2.error == "The clock is broken."
    assert model.snapshot(T0 + 5.0).chips[0].elapsed_s == pytest.approx(1.0)  # frozen once ended
    # done chips fade over the last fade_s of their linger; failed ones stay longer
    assert model.snapshot(T0 + 2.25).chips[0].fade == pytest.approx(0.5)
    assert [c.agent_id for c in model.snapshot(T0 + 2.6).chips] == ["c1.2"]
    model.tick(T0 + 2.6)
    model.tick(T0 + 9.1)
    assert model.snapshot(T0 + 9.1).chips == ()


def test_expiry_and_the_late_done_report_once():
    model = run(OrbModel(), [agent("AGENT_SPAWNED", 1, T0), agent("AGENT_EXPIRED", 1, T0 + 15, error="took long"),
                             agent("AGENT_DONE", 1, T0 + 15.1)])
    chip = model.snapshot(T0 + 15.2).chips[0]
    assert chip.state is ChipState.EXPIRED and chip.error == "took long"


def test_chips_left_running_by_a_dropped_event_end_with_their_command():
    model = run(OrbModel(), [ev("COMMAND_RECEIVED"), agent("AGENT_SPAWNED", 1, T0),
                             done(ts=T0 + 1, status="failed", message="x")])
    chip = model.snapshot(T0 + 1).chips[0]
    assert chip.state is ChipState.FAILED and chip.error == "Ended with its command."


def test_stale_commands_and_chips_are_forgotten():
    model = run(OrbModel(stale_s=60), [ev("COMMAND_RECEIVED"), agent("AGENT_SPAWNED", 1, T0)])
    assert model.state(T0 + 59) is OrbState.ACTING
    assert model.tick(T0 + 61)
    assert model.state(T0 + 61) is OrbState.ASLEEP and model.snapshot(T0 + 61).chips == ()


def test_too_many_chips_show_the_running_ones_and_count_the_rest():
    model = OrbModel(max_chips=4)
    model.apply_all([agent("AGENT_SPAWNED", i, T0) for i in range(6)])
    model.apply_all([agent("AGENT_DONE", 0, T0 + 0.1), agent("AGENT_DONE", 1, T0 + 0.1)])
    snap = model.snapshot(T0 + 0.2)
    assert [c.agent_id for c in snap.chips] == ["c1.2", "c1.3", "c1.4", "c1.5"] and snap.hidden_chips == 0
    model.apply_all([agent("AGENT_SPAWNED", i, T0 + 0.3) for i in range(6, 9)])
    snap = model.snapshot(T0 + 0.3)
    assert len(snap.chips) == 4 and all(c.state is ChipState.WAITING for c in snap.chips)
    assert snap.hidden_chips == 3


def test_a_flood_is_folded_in_one_batch_with_bounded_memory():
    """1,000 events in one apply_all: one version bump per event, one snapshot, no growth."""
    model = OrbModel()
    events = []
    for i in range(334):
        events += [agent("AGENT_SPAWNED", i, T0 + i / 1000, tool="type_text", params={"text": f"x{i}"}),
                   agent("AGENT_STARTED", i, T0 + i / 1000), agent("AGENT_DONE", i, T0 + i / 1000)]
    before = model.version
    assert model.apply_all(events[:1000]) == 1000
    assert model.version - before == 1000
    assert len(model._chips) <= 4 * model.max_chips  # ended chips are dropped as new ones come
    snap = model.snapshot(T0 + 0.4)
    assert len(snap.chips) <= model.max_chips
    assert snap.chips[-1].agent_id == "c1.333"


def test_history_keeps_the_last_commands_with_their_outcomes():
    model = OrbModel(history_size=3)
    for i in range(5):
        model.apply_all([ev("COMMAND_RECEIVED", f"c{i}", data={"text": f"cmd {i}"}),
                         done(f"c{i}", status="done" if i % 2 else "failed", message=f"m{i}", text=f"cmd {i}")])
    history = model.snapshot(T0).history
    assert [(h.text, h.status, h.message) for h in history] == [
        ("cmd 2", "failed", "m2"), ("cmd 3", "done", "m3"), ("cmd 4", "failed", "m4")]
    assert model.snapshot(T0).response == "m4"


def remote_kind(monkeypatch, name, handler):
    """The remote's event type, or a stand-in when this events.py predates the remote."""
    import anovax.orb.model as model_module

    kind = getattr(EventType, name, None)
    if kind is None:
        kind = EventType.SPECULATION_MISS
        monkeypatch.setitem(model_module._REMOTE_HANDLERS, kind, handler)
    return kind


def test_remote_viewers_paired_and_banned(monkeypatch):
    model = OrbModel()
    viewers = remote_kind(monkeypatch, "REMOTE_VIEWERS", OrbModel._on_viewers)
    model.apply(Event(type=viewers, command_id="remote", ts=T0, data={"viewers": 2}))
    assert model.snapshot(T0).viewers == 2
    model.apply(Event(type=viewers, command_id="remote", ts=T0, data={"viewers": "junk"}))
    assert model.snapshot(T0).viewers == 0
    paired = remote_kind(monkeypatch, "REMOTE_PAIRED", OrbModel._on_paired)
    model.apply(Event(type=paired, command_id="remote", ts=T0, data={"ip": "192.168.1.7"}))
    snap = model.snapshot(T0)
    assert snap.pairings == 1 and snap.remote_note == "phone paired: 192.168.1.7"
    banned = remote_kind(monkeypatch, "REMOTE_BANNED", OrbModel._on_banned)
    model.apply(Event(type=banned, command_id="remote", ts=T0, data={"ip": "10.0.0.9", "failures": 5}))
    assert model.snapshot(T0).remote_note == "10.0.0.9 locked out after 5 wrong tries"


def test_unknown_and_malformed_events_are_harmless():
    model = OrbModel()
    model.apply_all([ev("PLANNER_FAULT"), ev("SPEAK_END"), agent("AGENT_DONE", 42, T0),
                     ev("VOICE_STATE", "voice", data=None), ev("COMMAND_DONE", "zz", data=None)])
    snap = model.snapshot(T0)
    assert snap.state in (OrbState.ASLEEP, OrbState.ERROR) and snap.chips == ()


@pytest.mark.parametrize("tool, params, arg", [
    ("open_app", {"name": "notepad"}, "notepad"),
    ("press_keys", {"keys": "ctrl+s"}, "ctrl+s"),
    ("web_search", {"query": "weather  in\nparis"}, "weather in paris"),
    ("wait", {"seconds": 2}, "2 s"),
    ("screenshot", {}, ""),
    ("plan_subtask", {"goal": "write a long letter to my aunt"}, "write a long letter t…"),
    ("open_website", {"address": "https://www.wikipedia.org/"}, "www.wikipedia.org/"),
])
def test_short_argument_per_tool(tool, params, arg):
    assert short_arg(tool, params) == arg


def test_the_idle_hint_says_once_that_speech_is_off():
    on = OrbModel().snapshot(T0)
    assert "speech" not in on.detail
    off = OrbModel(speech_off="no sound card").snapshot(T0)
    assert off.detail == "Type a command (speech is off: replies are shown here)"
    muted = run(OrbModel(speech_off="no sound card"), [ev("VOICE_STATE", "voice", data={"state": "muted"})])
    assert muted.snapshot(T0 + 1).detail.startswith("Microphone muted — type a command (speech is off")

"""GeminiPlanner + GeminiModel through the REAL google-genai SDK against a loopback fake server.

Nothing in the SDK is patched or mocked: the SDK does real HTTP to ``tests/fakes/fake_gemini.py``.
"""

from __future__ import annotations

import json
import time

import pytest

from anovax.errors import PlannerUnavailable
from anovax.plan import Plan, Step
from anovax.planner.gemini import OFFLINE_NOTICE, GeminiModel, GeminiPlanner
from anovax.planner.offline import OfflinePlanner
from anovax.prompts import render_plan_prompt
from anovax.tools import TOOLS
from fakes.fake_gemini import (
    FakeGemini,
    delay_reply,
    error_reply,
    garbage_reply,
    plan_reply,
    raw_reply,
    text_reply,
)

KEY = "test-key-123"
MODEL = "gemini-2.5-flash"

NOTEPAD = {
    "steps": [{"tool": "open_app", "params": {"name": "notepad"}}, {"tool": "type_text", "params": {"text": "hello"}}],
    "final_response": "Opening Notepad and typing hello.",
    "remember": {},
}
NOTEPAD_PLAN = Plan(
    (Step("open_app", {"name": "notepad"}), Step("type_text", {"text": "hello"})), "Opening Notepad and typing hello."
)


@pytest.fixture(scope="module")
def offline() -> OfflinePlanner:
    return OfflinePlanner()


def make(fake: FakeGemini, offline: OfflinePlanner, *, timeout_s: float = 5.0, events: list | None = None,
         base_url: str | None = None, sleeps: list | None = None) -> GeminiPlanner:
    """``sleeps``: record the waits before a retry instead of sleeping them (what was asked for,
    not how long a loaded machine took)."""
    sleep = sleeps.append if sleeps is not None else time.sleep
    model = GeminiModel(KEY, MODEL, base_url=base_url or fake.base_url, timeout_s=timeout_s, sleep=sleep)
    sink = (lambda kind, detail: events.append((kind, detail))) if events is not None else None
    return GeminiPlanner(model, fallback=offline, on_event=sink)


def kinds(events: list) -> list[str]:
    return [k for k, _ in events]


# --- the happy path ---------------------------------------------------------------------


def test_normal_plan_carries_key_prompt_and_schema(fake_gemini, offline):
    fake_gemini.script(plan_reply(NOTEPAD))
    events: list = []
    planner = make(fake_gemini, offline, events=events)
    plan, declined = planner.plan_with_refusal("open notepad and type hello", "likes: tea", current_app="calculator")

    assert plan == NOTEPAD_PLAN
    assert declined is None
    assert events == []
    (req,) = fake_gemini.requests
    assert req.path == f"/v1/models/{MODEL}:generateContent"
    assert req.api_key == KEY
    system = req.system_text
    assert system == render_plan_prompt("likes: tea", TOOLS)
    for spec in TOOLS:
        assert spec.name in system
    assert "likes: tea" in system
    assert "open notepad and type hello" in req.user_text
    assert "calculator" in req.user_text
    config = req.generation_config
    assert config["responseMimeType"] == "application/json"
    assert config["responseJsonSchema"] == TOOLS.response_schema()
    assert "responseSchema" not in config


def test_plan_is_the_same_object_shape_via_plan(fake_gemini, offline):
    fake_gemini.script(plan_reply(NOTEPAD))
    assert make(fake_gemini, offline).plan("open notepad and type hello") == NOTEPAD_PLAN


def test_gemini_refusal_is_a_zero_step_plan_not_a_declined_sentence(fake_gemini, offline):
    refusal = {"steps": [], "final_response": "I can't delete files.", "remember": {}}
    fake_gemini.script(plan_reply(refusal))
    plan, declined = make(fake_gemini, offline).plan_with_refusal("delete all my files")
    assert plan == Plan((), "I can't delete files.")
    assert declined is None


def test_prose_and_fence_around_the_json_are_accepted(fake_gemini, offline):
    fake_gemini.script(
        text_reply("Sure! Here is the plan: " + json.dumps(NOTEPAD) + " Let me know."),
        text_reply("```json\n" + json.dumps(NOTEPAD) + "\n```"),
    )
    planner = make(fake_gemini, offline)
    assert planner.plan("open notepad and type hello") == NOTEPAD_PLAN
    assert planner.plan("open notepad and type hello") == NOTEPAD_PLAN
    assert len(fake_gemini.requests) == 2  # no repair needed


def test_v1beta_path_is_answered_too(fake_gemini):
    # older SDKs post to v1beta; the fake must answer both (checked with the real SDK)
    from google import genai
    from google.genai import types

    fake_gemini.script(plan_reply(NOTEPAD))
    client = genai.Client(api_key=KEY, vertexai=False,
                          http_options=types.HttpOptions(base_url=fake_gemini.base_url, api_version="v1beta"))
    response = client.models.generate_content(model=MODEL, contents="hi")
    assert json.loads(response.text) == NOTEPAD
    assert fake_gemini.requests[0].api_version == "v1beta"


# --- 429 --------------------------------------------------------------------------------


def test_429_with_retry_after_is_retried_once(fake_gemini, offline):
    fake_gemini.script(error_reply(429, retry_after=1), plan_reply(NOTEPAD))
    events: list = []
    sleeps: list = []
    planner = make(fake_gemini, offline, events=events, sleeps=sleeps)
    plan = planner.plan("open notepad and type hello")
    assert plan == NOTEPAD_PLAN
    assert len(fake_gemini.requests) == 2
    assert events == []
    assert sleeps == [1.0], "the Retry-After wait was not honoured"


def test_429_retry_info_delay_is_read():
    from anovax.planner.errors_map import retry_delay_s

    class Fake:  # a stand-in with the two attributes the SDK's ClientError carries
        response = None
        details = {"error": {"code": 429, "details": [
            {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "1.5s"}]}}

    assert retry_delay_s(Fake()) == 1.5


def test_429_with_retry_info_in_body_is_retried(fake_gemini, offline):
    fake_gemini.script(error_reply(429, retry_delay="0.2s"), plan_reply(NOTEPAD))
    sleeps: list = []
    assert make(fake_gemini, offline, sleeps=sleeps).plan("open notepad and type hello") == NOTEPAD_PLAN
    assert len(fake_gemini.requests) == 2
    assert sleeps == [0.2]


def test_429_twice_falls_back_with_one_sentence(fake_gemini, offline):
    fake_gemini.script(error_reply(429, retry_after=0.1), error_reply(429, retry_after=0.1))
    events: list = []
    plan, declined = make(fake_gemini, offline, events=events).plan_with_refusal("open notepad and type hello")
    offline_plan = offline.plan("open notepad and type hello")
    assert plan.steps == offline_plan.steps
    assert plan.final_response == f"{OFFLINE_NOTICE} {offline_plan.final_response}"
    assert plan.final_response.count(OFFLINE_NOTICE) == 1
    assert declined is None
    assert kinds(events) == ["planner_fault", "planner_fallback"]
    assert "rate_limited" in events[0][1]


def test_429_with_long_delay_is_not_waited(fake_gemini, offline):
    fake_gemini.script(error_reply(429, retry_delay="38s"))
    sleeps: list = []
    plan = make(fake_gemini, offline, sleeps=sleeps).plan("what time is it")
    assert sleeps == []  # no wait at all: straight to the offline plan
    assert plan.final_response.startswith(OFFLINE_NOTICE)
    assert len(fake_gemini.requests) == 1


# --- faults that fall back ---------------------------------------------------------------


def test_500_falls_back(fake_gemini, offline):
    fake_gemini.script(error_reply(500))
    events: list = []
    plan = make(fake_gemini, offline, events=events).plan("what time is it")
    assert [s.tool for s in plan.steps] == ["get_time"]
    assert plan.final_response.startswith(OFFLINE_NOTICE + " ")
    assert "server_error" in events[0][1]
    assert len(fake_gemini.requests) == 1  # no retry on 5xx


def test_timeout_falls_back_quickly(fake_gemini, offline):
    # the server answers only after a minute (or when the fake closes): the plan can only come
    # from the 0.5 s client timeout, which the event names
    fake_gemini.script(delay_reply(60.0, then=plan_reply(NOTEPAD)))
    events: list = []
    planner = make(fake_gemini, offline, timeout_s=0.5, events=events)
    plan = planner.plan("what time is it")
    assert [s.tool for s in plan.steps] == ["get_time"]
    assert plan.final_response.startswith(OFFLINE_NOTICE)
    assert events[0] == ("planner_fault", events[0][1]) and events[0][1].startswith("timeout")


def test_connection_refused_falls_back(offline):
    import socket

    with socket.socket() as s:  # a port that was free a moment ago and has no listener
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    events: list = []
    model = GeminiModel(KEY, MODEL, base_url=f"http://127.0.0.1:{port}", timeout_s=2.0)
    planner = GeminiPlanner(model, fallback=offline, on_event=lambda k, d: events.append((k, d)))
    plan = planner.plan("what time is it")
    assert plan.final_response.startswith(OFFLINE_NOTICE)
    assert events[0][1].startswith("connection")  # refused at once, not the 2 s timeout


def test_model_raises_planner_unavailable_with_codes(fake_gemini):
    fake_gemini.script(error_reply(403, "API key not valid"), garbage_reply(), raw_reply({"candidates": []}),
                       error_reply(503))
    model = GeminiModel(KEY, MODEL, base_url=fake_gemini.base_url, timeout_s=5.0)
    codes = []
    for _ in range(4):
        with pytest.raises(PlannerUnavailable) as info:
            model.generate_json("s", "p", {"type": "object"}, timeout_s=5.0)
        codes.append(info.value.code)
    assert codes == ["client_error", "server_error", "empty", "server_error"]


def test_fallback_keeps_the_offline_declined_sentence(fake_gemini, offline):
    fake_gemini.script(error_reply(503))
    plan, declined = make(fake_gemini, offline).plan_with_refusal("delete all my files")
    _, offline_declined = offline.plan_with_refusal("delete all my files")
    assert offline_declined
    assert declined == offline_declined
    assert plan.steps == ()
    assert plan.final_response == f"{OFFLINE_NOTICE} {offline_declined}"


# --- repair ------------------------------------------------------------------------------


def test_malformed_json_is_repaired_once(fake_gemini, offline):
    bad = '{"steps": [{"tool": "open_app", "params": {"name": "notepad"}}'  # cut short
    fake_gemini.script(text_reply(bad), plan_reply(NOTEPAD))
    events: list = []
    plan = make(fake_gemini, offline, events=events).plan("open notepad and type hello")
    assert plan == NOTEPAD_PLAN
    first, second = fake_gemini.requests
    assert "not valid JSON" in second.user_text
    assert json.dumps(bad) in second.user_text  # the bad answer, quoted as data
    assert "open notepad and type hello" in second.user_text
    assert second.system_text == first.system_text
    assert kinds(events) == ["planner_fault", "planner_repair"]


def test_malformed_twice_falls_back(fake_gemini, offline):
    fake_gemini.script(text_reply("not json at all"), text_reply("{still not json"))
    events: list = []
    plan = make(fake_gemini, offline, events=events).plan("what time is it")
    assert [s.tool for s in plan.steps] == ["get_time"]
    assert plan.final_response.startswith(OFFLINE_NOTICE)
    assert kinds(events) == ["planner_fault", "planner_repair", "planner_fault", "planner_fallback"]


def test_unknown_tool_is_repaired(fake_gemini, offline):
    bad = {"steps": [{"tool": "run_shell", "params": {"cmd": "ls"}}], "final_response": "ok", "remember": {}}
    fake_gemini.script(plan_reply(bad), plan_reply(NOTEPAD))
    plan = make(fake_gemini, offline).plan("open notepad and type hello")
    assert plan == NOTEPAD_PLAN
    assert "unknown tool 'run_shell'" in fake_gemini.requests[1].user_text


def test_bad_params_are_repaired(fake_gemini, offline):
    bad = {"steps": [{"tool": "open_app", "params": {"app": "notepad"}}], "final_response": "ok", "remember": {}}
    fake_gemini.script(plan_reply(bad), plan_reply(NOTEPAD))
    plan = make(fake_gemini, offline).plan("open notepad and type hello")
    assert plan == NOTEPAD_PLAN
    assert "Step 1 (open_app)" in fake_gemini.requests[1].user_text


def test_repair_call_unavailable_falls_back(fake_gemini, offline):
    fake_gemini.script(text_reply("nope"), error_reply(500))
    plan = make(fake_gemini, offline).plan("what time is it")
    assert plan.final_response.startswith(OFFLINE_NOTICE)


# --- the fake itself ---------------------------------------------------------------------


def test_fake_fails_on_unused_reply_and_unexpected_request():
    fake = FakeGemini()
    fake.script(plan_reply(NOTEPAD))
    with pytest.raises(AssertionError, match="unused"):
        fake.close()

    fake = FakeGemini()
    model = GeminiModel(KEY, MODEL, base_url=fake.base_url, timeout_s=2.0)
    with pytest.raises(PlannerUnavailable):
        model.generate_json("s", "p", {"type": "object"}, timeout_s=2.0)
    with pytest.raises(AssertionError, match="no scripted reply"):
        fake.close()


def test_system_prompt_cache_matches_render(offline):
    planner = GeminiPlanner(GeminiModel(KEY), fallback=offline)
    for context in ("", "  ", "name: Ada\nlikes: {{schema}}"):
        assert planner.system_prompt(context) == render_plan_prompt(context, TOOLS)


def test_on_event_listener_errors_do_not_break_planning(fake_gemini, offline):
    fake_gemini.script(error_reply(500))

    def boom(kind, detail):
        raise RuntimeError("listener broke")

    planner = GeminiPlanner(GeminiModel(KEY, MODEL, base_url=fake_gemini.base_url), fallback=offline, on_event=boom)
    assert planner.plan("what time is it").final_response.startswith(OFFLINE_NOTICE)

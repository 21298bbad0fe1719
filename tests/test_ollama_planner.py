"""ANOVAX_PLANNER=ollama: the official ollama client against a loopback fake /api/chat server."""

from __future__ import annotations

import json

from fakes.fake_ollama import OllamaReply

from anovax.app import make_model, make_planner
from anovax.planner.gemini import OFFLINE_NOTICE
from anovax.settings import load_settings

PLAN = {"steps": [{"tool": "get_time", "params": {}}], "final_response": "Here's the time.", "remember": {}}


def planner_for(host, **env):
    settings = load_settings(env={"ANOVAX_PLANNER": "ollama", "ANOVAX_OLLAMA_HOST": host,
                                  "ANOVAX_OLLAMA_MODEL": "qwen2.5:3b", "ANOVAX_PLANNER_TIMEOUT": "3", **env})
    return make_planner(make_model(settings), timeout_s=settings.planner_timeout_s)


def test_local_model_plans_with_the_same_schema(fake_ollama):
    fake_ollama.script(OllamaReply(json.dumps(PLAN)))
    planner = planner_for(fake_ollama.host)
    plan, declined = planner.plan_with_refusal("what time is it")
    assert planner.name == "ollama" and declined is None
    assert plan.to_dict() == PLAN
    body = fake_ollama.requests[0]
    assert body["model"] == "qwen2.5:3b" and body["stream"] is False
    assert body["format"]["required"] == ["steps", "final_response", "remember"]
    assert "get_time" in body["messages"][0]["content"] and body["messages"][1]["role"] == "user"


def test_server_error_falls_back_offline(fake_ollama):
    fake_ollama.script(OllamaReply(status=500, error="model crashed"))
    plan, declined = planner_for(fake_ollama.host).plan_with_refusal("what time is it")
    assert [s.tool for s in plan.steps] == ["get_time"] and plan.final_response.startswith(OFFLINE_NOTICE)


def test_unreachable_server_falls_back_offline():
    plan, declined = planner_for("http://127.0.0.1:9").plan_with_refusal("open notepad")
    assert [s.tool for s in plan.steps] == ["open_app"] and plan.final_response.startswith(OFFLINE_NOTICE)


def test_bad_json_is_repaired_once(fake_ollama):
    fake_ollama.script(OllamaReply("{not json"), OllamaReply(json.dumps(PLAN)))
    plan, _ = planner_for(fake_ollama.host).plan_with_refusal("what time is it")
    assert plan.to_dict() == PLAN
    assert "{not json" in fake_ollama.requests[1]["messages"][1]["content"]

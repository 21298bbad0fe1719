"""The registry: one declaration per tool, everything else derived from it."""

import json

import pytest

from anovax.prompts import render_plan_prompt
from anovax.tools import TOOLS, ToolRegistry, ToolSpec, number, text

PAPER_TOOLS = {"open_app", "type_text", "press_keys", "web_search", "youtube_search", "screenshot",
               "get_time", "get_date", "wait", "speak", "plan_subtask"}


def test_registry_holds_exactly_the_designed_tools():
    assert TOOLS.allowlist == PAPER_TOOLS
    assert TOOLS.read_only() == {"get_time", "get_date", "screenshot"}
    optional = {s.name for s in TOOLS if not s.core}
    assert optional == {"screenshot", "get_time", "get_date", "wait"}


def test_locks_are_known_and_typing_tools_share_the_keyboard():
    assert TOOLS["type_text"].locks == ("kb_mouse",)
    assert TOOLS["press_keys"].locks == ("kb_mouse",)
    assert TOOLS["speak"].locks == ("tts",)
    with pytest.raises(ValueError):
        ToolSpec(name="x", description="x", locks=("gpu",), agent="XAgent")


def test_agent_classes_are_named_for_every_tool():
    assert {s.agent for s in TOOLS} == {"AppAgent", "TypingAgent", "BrowserAgent", "MediaAgent",
                                        "InfoAgent", "TimingAgent", "DialogAgent", "MetaAgent"}


def test_duplicate_declaration_is_rejected():
    with pytest.raises(ValueError):
        TOOLS.with_tools(TOOLS["wait"])


def test_param_checks_are_exact():
    wait = TOOLS["wait"]
    assert wait.param_problem({"seconds": 5.0}) is None
    assert wait.param_problem({"seconds": 0}) is None
    for bad in ({"seconds": 5.0001}, {"seconds": -1}, {"seconds": True}, {"seconds": "3"},
                {"seconds": None}, {"seconds": float("nan")}, {}, {"seconds": 1, "x": 2}):
        assert wait.param_problem(bad) is not None, bad
    assert TOOLS["type_text"].param_problem({"text": "x" * 2001}) is not None
    assert TOOLS["get_time"].param_problem({}) is None
    assert TOOLS["get_time"].param_problem({"x": 1}) is not None


def test_adding_a_tool_is_one_declaration():
    """A new tool shows up in the allowlist, the prompt, the schema and safety, with nothing else edited."""
    from anovax.plan import Plan, Step
    from anovax.safety import safety_check

    volume = ToolSpec(
        name="set_volume",
        description="Set the speaker volume.",
        params=(number("percent", "volume from 0 to 100", 0, 100),),
        parallel_safe=True,
        agent="VolumeAgent",
    )
    registry = TOOLS.with_tools(volume)
    assert "set_volume" in registry.allowlist and "set_volume" not in TOOLS.allowlist
    assert "set_volume(percent: number)" in registry.prompt_section()
    assert "set_volume" in render_plan_prompt(registry=registry)
    assert "set_volume" not in render_plan_prompt()
    from anovax.recovery import render_recovery_prompt

    assert "set_volume(percent: number)" in render_recovery_prompt(registry)
    assert "set_volume" not in render_recovery_prompt()
    schema = json.dumps(registry.response_schema())
    assert '"enum": ["set_volume"]' in schema and '"maximum": 100' in schema

    plan = Plan(steps=(Step("set_volume", {"percent": 40}),))
    assert safety_check(plan, "volume to 40", registry=registry).ok
    assert not safety_check(plan, "volume to 40").ok
    assert not safety_check(Plan(steps=(Step("set_volume", {"percent": 400}),)), registry=registry).ok


def test_response_schema_is_valid_json_schema_and_accepts_a_real_plan():
    jsonschema = pytest.importorskip("jsonschema")
    schema = TOOLS.response_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    plan = {"steps": [{"tool": "open_app", "params": {"name": "notepad"}},
                      {"tool": "type_text", "params": {"text": "hello"}}],
            "final_response": "Done.", "remember": {}}
    jsonschema.validate(plan, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**plan, "steps": [{"tool": "run_shell", "params": {"cmd": "ls"}}]}, schema)


def test_prompt_lists_every_tool_once():
    prompt = render_plan_prompt("Current app: notepad")
    for spec in TOOLS:
        assert prompt.count(f"- {spec.name}(") == 1
    assert "Current app: notepad" in prompt
    assert "{{" not in prompt


def test_registry_is_ordered_and_iterable():
    assert isinstance(TOOLS, ToolRegistry)
    assert [s.name for s in TOOLS][0] == "open_app"
    assert text("q", "d", 5).problem("toolong") is not None


def test_a_new_tool_and_its_agent_class_dispatch_with_nothing_else_edited():
    from anovax.agents import AgentResult, ChildAgent
    from anovax.desktop import SimulatedDesktop
    from anovax.events import EventBus
    from anovax.orchestrator import Orchestrator
    from anovax.plan import Plan, Step

    class ShoutAgent(ChildAgent):
        tools = frozenset({"shout"})

        def do_work(self) -> AgentResult:
            return AgentResult(value="shouted", say=self.step.params["text"].upper() + "!")

    registry = TOOLS.with_tools(ToolSpec(name="shout", description="Say it loudly.",
                                         params=(text("text", "what to shout", 50),), agent="ShoutAgent"))
    bus = EventBus()
    orch = Orchestrator(SimulatedDesktop(), bus, registry=registry)
    outcome = orch.dispatch(Plan(steps=(Step("shout", {"text": "hi"}),)), command_id="c1")
    assert outcome.ok and outcome.spoken == "HI!"
    orch.close()
    bus.close()

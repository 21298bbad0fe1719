"""The registry: one declaration per tool, everything else derived from it."""

import dataclasses
import json

import pytest

from anovax.agents import (AgentResult, AppAgent, BrowserAgent, ChildAgent, DialogAgent, ForgetAgent, InfoAgent,
                           MediaAgent, MetaAgent, RecallAgent, SiteAgent, TimerAgent, TimingAgent, TypingAgent,
                           WindowAgent)
from anovax.plan import LIMITS, Plan, Step
from anovax.prompts import render_plan_prompt
from anovax.safety import safety_check
from anovax.tools import TOOLS, Effect, Sink, ToolRegistry, ToolSpec, number, text

PAPER_TOOLS = {"open_app", "type_text", "press_keys", "web_search", "youtube_search", "screenshot",
               "get_time", "get_date", "wait", "speak", "plan_subtask"}
TIMER_TOOLS = {"set_timer", "set_reminder", "timers_left", "cancel_timer"}
#: issue 18: the window tools
WINDOW_TOOLS = {"switch_to_app", "close_app", "minimize_app", "maximize_app", "restore_app", "list_windows"}
#: issue 18, point 3: memory both ways
MEMORY_TOOLS = {"recall", "recall_all", "forget", "forget_all"}
#: a web address the user named, opened (not searched for)
SITE_TOOLS = {"open_website"}


def test_registry_holds_exactly_the_designed_tools():
    assert TOOLS.allowlist == PAPER_TOOLS | TIMER_TOOLS | WINDOW_TOOLS | MEMORY_TOOLS | SITE_TOOLS
    assert TOOLS.read_only() == {"get_time", "get_date", "screenshot", "timers_left", "list_windows", "recall",
                                 "recall_all"}
    optional = {s.name for s in TOOLS if not s.core}
    assert optional == {"screenshot", "get_time", "get_date", "wait", "timers_left", "list_windows", "recall",
                        "recall_all"}


def test_locks_are_known_and_typing_tools_share_the_keyboard():
    assert TOOLS["type_text"].locks == ("kb_mouse",)
    assert TOOLS["press_keys"].locks == ("kb_mouse",)
    assert TOOLS["speak"].locks == ("tts",)
    with pytest.raises(ValueError):
        ToolSpec(name="x", description="x", locks=("gpu",), agent=TimingAgent)


def test_every_tool_holds_the_class_that_runs_it():
    classes = {s.name: s.agent for s in TOOLS}
    assert classes == {"open_app": AppAgent, "type_text": TypingAgent, "press_keys": TypingAgent,
                       "web_search": BrowserAgent, "youtube_search": MediaAgent, "open_website": SiteAgent,
                       "screenshot": InfoAgent,
                       "get_time": InfoAgent, "get_date": InfoAgent, "wait": TimingAgent, "speak": DialogAgent,
                       "plan_subtask": MetaAgent, **{name: TimerAgent for name in TIMER_TOOLS},
                       **{name: WindowAgent for name in WINDOW_TOOLS},
                       "recall": RecallAgent, "recall_all": RecallAgent, "forget": ForgetAgent, "forget_all": ForgetAgent}
    # a class, never a name looked up later: a string (or anything but a ChildAgent class) fails at declaration
    for bad in ("TimingAgent", object, None):
        with pytest.raises(TypeError, match="ChildAgent"):
            ToolSpec(name="x", description="x", agent=bad)


def test_traits_other_modules_used_to_copy_are_declared_on_the_spec():
    assert TOOLS.with_effect(Effect.PASSIVE) == {"speak", "wait", "get_time", "get_date", "screenshot",
                                                 "list_windows", "recall", "recall_all"} | TIMER_TOOLS
    assert TOOLS.with_effect(Effect.MEMORY) == {"forget", "forget_all"}
    assert TOOLS.with_effect(Effect.DESKTOP) == {"open_app", "type_text", "press_keys"} | WINDOW_TOOLS - {"list_windows"}
    assert TOOLS.with_effect(Effect.BROWSER) == {"web_search", "youtube_search", "open_website"}
    assert TOOLS.with_effect(Effect.SUBPLAN) == {"plan_subtask"}
    assert {s.name: s.fresh_s for s in TOOLS if s.read_only} == {"get_time": 1.5, "get_date": 60.0, "screenshot": 2.0,
                                                                 "timers_left": 0.5, "list_windows": 1.0,
                                                                 "recall": 0.5, "recall_all": 0.5}
    assert {s.name for s in TOOLS if s.carries_content} == {"web_search", "youtube_search", "open_website",
                                                            "type_text", "get_time", "get_date"}
    sinks = {(s.name, p.name): p.sink for s in TOOLS for p in s.params if p.type == "string"}
    assert sinks == {("open_app", "name"): Sink.APP, ("type_text", "text"): Sink.TYPED,
                     ("press_keys", "keys"): Sink.KEYS, ("web_search", "query"): Sink.QUERY,
                     ("youtube_search", "query"): Sink.QUERY, ("open_website", "address"): Sink.ADDRESS,
                     ("speak", "text"): Sink.SPOKEN,
                     ("plan_subtask", "goal"): Sink.GOAL, ("set_timer", "label"): Sink.SPOKEN,
                     ("set_reminder", "when"): Sink.SPOKEN, ("set_reminder", "text"): Sink.SPOKEN,
                     ("cancel_timer", "label"): Sink.SPOKEN, ("switch_to_app", "name"): Sink.APP,
                     **{(name, "name"): Sink.WINDOW for name in ("close_app", "minimize_app", "maximize_app",
                                                                 "restore_app")},
                     ("recall", "key"): Sink.FACT_KEY, ("forget", "key"): Sink.FACT_KEY}
    assert TOOLS["type_text"].param("text").max_len == 2000
    with pytest.raises(KeyError):
        TOOLS["type_text"].param("query")
    # a plug-in that declares nothing is assumed to act on the desktop with executable text
    plugin = ToolSpec(name="x", description="x", params=(text("t", "t", 9),), agent=TimingAgent)
    assert plugin.effect is Effect.DESKTOP and plugin.params[0].sink is Sink.UNDECLARED


def test_plan_limits_live_in_one_place():
    from anovax.orchestrator import AgentBudget
    from anovax.recovery import render_recovery_prompt, response_schema

    assert (LIMITS.max_steps, LIMITS.max_depth, LIMITS.max_agents) == (8, 2, 20)
    assert TOOLS.response_schema()["properties"]["steps"]["maxItems"] == LIMITS.max_steps
    assert response_schema(TOOLS)["properties"]["actions"]["maxItems"] == LIMITS.max_steps
    assert f"At most {LIMITS.max_steps} steps." in render_plan_prompt()
    assert f"At most {LIMITS.max_steps} actions per turn." in render_recovery_prompt()
    assert AgentBudget().limit == LIMITS.max_agents
    with pytest.raises(dataclasses.FrozenInstanceError):
        LIMITS.max_steps = 9  # type: ignore[misc]
    steps = [Step("get_time", {})] * LIMITS.max_steps
    assert safety_check(Plan(steps=tuple(steps))).ok
    assert safety_check(Plan(steps=tuple(steps + steps[:1]))).rule == "too_many_steps"
    assert safety_check(Plan(steps=(Step("plan_subtask", {"goal": "x y"}),)), depth=LIMITS.max_depth).rule == "depth"


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
    volume = ToolSpec(
        name="set_volume",
        description="Set the speaker volume.",
        params=(number("percent", "volume from 0 to 100", 0, 100),),
        parallel_safe=True,
        agent=TimingAgent,
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
    from anovax.desktop import SimulatedDesktop
    from anovax.events import EventBus
    from anovax.orchestrator import Orchestrator

    class ShoutAgent(ChildAgent):
        def do_work(self) -> AgentResult:
            return AgentResult(value="shouted", say=self.step.params["text"].upper() + "!")

    registry = TOOLS.with_tools(ToolSpec(name="shout", description="Say it loudly.",
                                         params=(text("text", "what to shout", 50),), agent=ShoutAgent))
    bus = EventBus()
    orch = Orchestrator(SimulatedDesktop(), bus, registry=registry)
    outcome = orch.dispatch(Plan(steps=(Step("shout", {"text": "hi"}),)), command_id="c1")
    assert outcome.ok and outcome.spoken == "HI!"
    orch.close()
    bus.close()


def test_a_tools_phrases_become_an_offline_intent_with_its_own_handler():
    """A tool declared with phrases is heard by the offline grammar with no other edit: the
    intent is named after the tool and its text params are read from slots of the same name."""
    from hassil import Intents, recognize_all

    from anovax.planner.grammar import grammar_data, matches

    spec = ToolSpec(
        name="water_plant",
        description="Water a named plant.",
        params=(text("plant", "which plant", 40),),
        agent=InfoAgent,
        phrases=("water [the] {plant} [please]", "give [the] {plant} some water"),
        offline_say="Watering the {plant}.",
        ability="Plants",
    )
    intents = Intents.from_dict(grammar_data(TOOLS.with_tools(spec)))
    found = [name for name, _ in matches("give the fern some water", intents)]
    assert found and found[0] == "water_plant"
    assert not any(r.intent.name == "water_plant" for r in recognize_all("open notepad", intents))
    with pytest.raises(ValueError):
        ToolSpec(name="x", description="x", agent=InfoAgent, phrases=("x",))  # no ability to list it under

"""parse_plan: strict about JSON hygiene and shape, tolerant of prose around one object."""

import json

import pytest

from anovax.errors import PlanError
from anovax.plan import Plan, Step, parse_plan

GOOD = {"steps": [{"tool": "open_app", "params": {"name": "notepad"}}], "final_response": "Opening.", "remember": {}}


def test_parses_text_and_dict_to_the_same_plan():
    assert parse_plan(json.dumps(GOOD)) == parse_plan(GOOD)
    plan = parse_plan(GOOD)
    assert plan.steps == (Step("open_app", {"name": "notepad"}),)
    assert plan.final_response == "Opening."


def test_plan_is_immutable():
    plan = parse_plan(GOOD)
    with pytest.raises(Exception):
        plan.steps[0].params["name"] = "cmd"  # type: ignore[index]
    with pytest.raises(Exception):
        plan.final_response = "x"  # type: ignore[misc]


@pytest.mark.parametrize(
    "raw",
    [
        'Sure! Here is the plan: {"steps": [], "final_response": "Hi"} Hope that helps.',
        '```json\n{"steps": [], "final_response": "Hi"}\n```',
        '  {"steps": [], "final_response": "Hi"}  ',
    ],
)
def test_prose_or_fence_around_one_object_is_stripped(raw):
    assert parse_plan(raw) == Plan(steps=(), final_response="Hi")


@pytest.mark.parametrize(
    "raw, fragment",
    [
        ('{"steps": [], "steps": []}', "repeats the key 'steps'"),
        ('{"steps": [{"tool": "a", "tool": "b"}]}', "repeats the key 'tool'"),
        ('{"steps": [{"tool": "wait", "params": {"seconds": NaN}}]}', "NaN"),
        ('{"steps": [{"tool": "wait", "params": {"seconds": Infinity}}]}', "Infinity"),
        ('{"steps": [{"tool": "wait", "params": {"seconds": -Infinity}}]}', "Infinity"),
        ('{"steps": [{"tool": "wait", "params": {"seconds": 1e309}}]}', "too large"),
        ('{"steps": [], "extra": 1}', "unknown keys: extra"),
        ('{"steps": [{"tool": "x", "params": {}, "why": "y"}]}', "unknown keys: why"),
        ('{"final_response": "hi"}', "no 'steps'"),
        ('[{"tool": "open_app"}]', "must be a JSON object"),
        ('{"steps": {"tool": "x"}}', "'steps' field must be a list"),
        ('{"steps": [["open_app"]]}', "Step 1 must be an object"),
        ('{"steps": [{"params": {}}]}', "does not name a tool"),
        ('{"steps": [{"tool": ["open_app"]}]}', "tool name must be text"),
        ('{"steps": [{"tool": "open_app", "params": null}]}', "'params' must be an object"),
        ('{"steps": [{"tool": "open_app", "params": {"name": ["a"]}}]}', "plain value"),
        ('{"steps": [], "final_response": 3}', "'final_response' field must be text"),
        ('{"steps": [], "remember": ["a"]}', "'remember' field must be an object"),
        ('{"steps": [], "remember": {"a": 1}}', "text name with a text value"),
        ('{"steps": [] } {"steps": []}', "text after the plan"),
        ('Plan A: {"steps": []} or plan B: {"steps": []}', "more than one JSON value"),
        ("no plan here", "contains no plan"),
        ("", "empty answer"),
        ('{"steps": [', "not valid JSON"),
        ("[" * 100000 + "]" * 100000, "plan"),
        (b"\xff\xfe", "UTF-8"),
    ],
)
def test_malformed_plans_are_errors_a_person_can_read(raw, fragment):
    with pytest.raises(PlanError) as info:
        parse_plan(raw)
    assert fragment in str(info.value)
    assert str(info.value)[0].isupper()


def test_missing_optional_fields_default():
    plan = parse_plan({"steps": [{"tool": "get_time"}]})
    assert plan == Plan(steps=(Step("get_time", {}),), final_response="", remember={})


def test_to_dict_round_trips():
    plan = parse_plan(GOOD)
    assert parse_plan(plan.to_json()) == plan
    assert plan.to_dict() == GOOD

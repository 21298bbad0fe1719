"""Properties: safety_check never raises, refuses what is not a valid plan, allows plain benign plans."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from anovax.errors import PlanError
from anovax.plan import parse_plan
from anovax.safety import Verdict, safety_check

_SETTINGS = settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=40)
)
_json = st.recursive(
    _scalars,
    lambda children: st.one_of(st.lists(children, max_size=5), st.dictionaries(st.text(max_size=10), children, max_size=5)),
    max_leaves=30,
)
_tool_names = st.one_of(
    st.sampled_from(["open_app", "type_text", "press_keys", "web_search", "wait", "plan_subtask", "speak",
                     "get_time", "run_shell", "Open_App", "ｏｐｅｎ＿ａｐｐ", "open_app "]),
    st.text(max_size=20),
    _json,
)
_junk_params = st.one_of(
    _json,
    st.dictionaries(st.sampled_from(["name", "text", "keys", "query", "seconds", "goal", "extra"]), _json, max_size=3),
)
_step = st.one_of(
    st.fixed_dictionaries({"tool": _tool_names, "params": _junk_params}),
    st.dictionaries(st.sampled_from(["tool", "params", "args", "id"]), _json, max_size=4),
    _json,
)
_plan_like = st.one_of(
    st.fixed_dictionaries(
        {"steps": st.one_of(st.lists(_step, max_size=10), _json)},
        optional={"final_response": _json, "remember": _json, "extra": _json},
    ),
    st.dictionaries(st.sampled_from(["steps", "final_response", "remember", "tool", "plan"]), _json, max_size=4),
)
_untrusted = st.one_of(
    _json,
    _plan_like,
    st.text(max_size=200),
    st.binary(max_size=100),
    _plan_like.map(lambda p: json.dumps(p, allow_nan=True)),
    st.integers(min_value=1, max_value=3000).map(lambda n: "[" * n + "]" * n),
    st.integers(min_value=1, max_value=200).map(lambda n: {"steps": [{"tool": "get_time", "params": {}}] * n}),
)


def _is_valid_plan(value: Any) -> bool:
    try:
        parse_plan(value)
    except PlanError:
        return False
    except Exception:  # noqa: BLE001 - the parser's own crash also means "not a valid plan"
        return False
    return True


def _refusal_is_well_formed(verdict: Verdict) -> None:
    assert isinstance(verdict, Verdict)
    if not verdict.ok:
        assert verdict.rule and verdict.rule != "ok"
        assert re.fullmatch(r"[A-Z][^.!?\n]*[.!?]", verdict.reason), verdict.reason  # one spoken sentence


@_SETTINGS
@given(value=_untrusted, user_text=st.text(max_size=60))
def test_untrusted_input_never_raises_and_invalid_plans_are_refused(value: Any, user_text: str) -> None:
    verdict = safety_check(value, user_text)
    _refusal_is_well_formed(verdict)
    if not _is_valid_plan(value):
        assert not verdict.ok


@_SETTINGS
@given(
    value=_plan_like,
    depth=st.one_of(st.integers(-2, 5), _scalars),
    agents=st.one_of(st.integers(-2, 30), _scalars),
    memory=st.one_of(st.none(), _json, st.dictionaries(st.text(max_size=20), st.text(max_size=60), max_size=4)),
    observation=st.one_of(st.none(), st.text(max_size=100), _scalars),
    session=st.one_of(st.text(max_size=60), _scalars),
    focused=st.one_of(st.none(), st.text(max_size=20), _scalars),
)
def test_junk_runtime_state_never_raises(value: Any, depth: Any, agents: Any, memory: Any, observation: Any,
                                         session: Any, focused: Any) -> None:
    verdict = safety_check(value, "x", depth=depth, agents_spawned=agents, memory=memory, observation=observation,
                           session_typed=session, focused_app=focused)
    _refusal_is_well_formed(verdict)


_any_text = st.text(st.characters(codec="utf-8"), max_size=300)


@_SETTINGS
@given(tool=st.sampled_from(["type_text", "web_search", "youtube_search", "plan_subtask", "speak", "open_app",
                             "press_keys"]),
       payload=_any_text)
def test_arbitrary_unicode_in_every_text_field_never_raises(tool: str, payload: str) -> None:
    key = {"type_text": "text", "speak": "text", "plan_subtask": "goal", "open_app": "name", "press_keys": "keys"}.get(tool, "query")
    verdict = safety_check({"steps": [{"tool": tool, "params": {key: payload}}]}, payload[:100])
    _refusal_is_well_formed(verdict)


# Ordinary words, including the ones that contain or are command names (sudoku, curly,
# Netshoes, shutdown, delete, format, kill, root, ssh, password): dictation may say anything.
VOCAB = """the a to and of in for on with my your our we will please remember note meeting tomorrow today
monday friday lunch dinner milk eggs bread apples pears coffee tea report invoice invoices budget plan list
email call mom dad sam anna project draft final review delete remove format kill root shutdown government
password reset letter bank sudoku netshoes curly hair routine ssh server staging morning evening sticky notes
fridge old new all every some table chair run walk book read write type open close save print share copy
paste cut undo redo select find replace sort filter chart graph data rows columns sheet page document folder
file files photo photos music video song playlist weather news score game team match city trip flight hotel
train bus car keys door window garden dog cat birthday party gift card thanks love best regards cheers hello
hi dear hey ok yes no maybe soon later again done todo urgent important kill time terminal station
python snake node java island ruby red shell beach console table prompt reply format disk drive home office
""".split()
_words = st.lists(st.sampled_from(VOCAB), min_size=1, max_size=15)
_token = st.one_of(st.text("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=1, max_size=10),
                   st.integers(0, 999).map(str), st.sampled_from(VOCAB))  # 4-digit groups can spell a card
#: a credential noun with a made-up token after it reads as that credential's value ("password to E
#: AAA"), which no plain search holds: such queries are left out (they are refused on purpose)
_STATED_SECRET = re.compile(r"\bpassword\b(?:\s+\S+){0,4}?\s+(?!(?:" + "|".join(VOCAB) + r")\b)\S", re.I)
_query = st.lists(_token, min_size=1, max_size=12).map(" ".join).filter(lambda q: not _STATED_SECRET.search(q))


@_SETTINGS
@given(query=_query, tool=st.sampled_from(["web_search", "youtube_search"]))
def test_plain_searches_are_allowed(query: str, tool: str) -> None:
    verdict = safety_check({"steps": [{"tool": tool, "params": {"query": query}}]}, f"search for {query}")
    assert verdict.ok, verdict


@_SETTINGS
@given(words=_words)
def test_lowercase_dictation_into_notepad_is_allowed(words: list[str]) -> None:
    # A bare "shutdown" line (or "shutdown now") is command-shaped and refused on purpose;
    # dictation arrives as sentences, so the property types a note.
    sentence = "Note: " + " ".join(words)
    plan = {"steps": [{"tool": "open_app", "params": {"name": "notepad"}},
                      {"tool": "type_text", "params": {"text": sentence}},
                      {"tool": "press_keys", "params": {"keys": "ctrl+s"}}],
            "final_response": "Saved.", "remember": {}}
    verdict = safety_check(plan, f"write {sentence}")
    assert verdict.ok, verdict

"""The SLURP scorer itself, on a tiny hand-made fixture with known right and wrong plans."""

from __future__ import annotations

import json

import pytest

from anovax.plan import Plan, Step
from anovax.planner import slurp_eval as se


def plan(*tools: str, say: str = "ok") -> Plan:
    params = {
        "web_search": {"query": "q"},
        "youtube_search": {"query": "q"},
        "open_app": {"name": "notepad"},
        "type_text": {"text": "milk"},
        "press_keys": {"keys": "enter"},
        "speak": {"text": "hi"},
    }
    return Plan(tuple(Step(t, params.get(t, {})) for t in tools), say)


# sentence -> (intent, the plan a fake planner returns)
FIXTURE = {
    # datetime: 2 right of 3
    "t1": ("datetime_query", plan("get_time")),
    "t2": ("datetime_query", plan("get_date", "web_search")),
    "t3": ("datetime_query", plan("open_app")),
    # music/media: 1 right of 3 (speak is allowed beside, zero steps is wrong)
    "m1": ("play_music", plan("youtube_search", "speak")),
    "m2": ("play_radio", plan()),
    "m3": ("play_audiobook", plan("web_search")),
    # qa/search: 2 right of 2
    "q1": ("qa_factoid", plan("web_search")),
    "q2": ("weather_query", plan("web_search", "web_search")),
    # jokes: 2 right of 4 (acting is wrong, an empty reply is wrong)
    "j1": ("general_joke", plan(say="Here's one: ...")),
    "j2": ("joke", plan("speak", say="Here's one: ...")),
    "j3": ("general_joke", plan("web_search", say="Here's one")),
    "j4": ("general_joke", plan(say="  ")),
    # out of scope: 3 harmless of 6
    "o1": ("alarm_set", plan(say="I can't set alarms offline.")),  # declined
    "o2": ("cooking_recipe", plan("web_search", say="I can't look up recipes, so I'm searching the web.")),  # explained search
    "o3": ("lists_createoradd", plan("type_text", say="I can't keep lists.")),  # harmful despite the words
    "o4": ("iot_hue_lightoff", plan(say="Okay.")),  # unexplained
    "o5": ("transport_query", plan("web_search", say="Searching the web for trains.")),  # unexplained search
    "o6": ("email_query", plan(say="Sorry, I cannot read e-mail.")),  # declined
}


def fake_planner(sentence: str) -> Plan:
    return FIXTURE[sentence][1]


@pytest.fixture()
def report() -> se.Report:
    rows = [{"sentence": s, "intent": intent} for s, (intent, _) in FIXTURE.items()]
    return se.evaluate(rows, fake_planner, split="fixture", warmup=3)


def test_group_counts(report):
    assert report.groups == {
        "datetime": [2, 3],
        "music/media": [1, 3],
        "qa/search": [2, 2],
        "jokes": [2, 4],
    }
    assert (report.in_scope_right, report.in_scope_total) == (7, 12)
    assert report.in_scope_accuracy == pytest.approx(7 / 12)


def test_out_of_scope_counts(report):
    assert (report.oos_harmless, report.oos_total) == (3, 6)
    assert report.oos_harmless_rate == pytest.approx(0.5)
    assert report.oos_labels == {"declined": 2, "explained-search": 1, "harmful": 1, "unexplained": 2}
    # the README's own rule: no acting step and a non-empty reply (o3 types; the rest answer)
    assert report.oos_no_action == 5
    assert report.n == 18
    assert len(report.errors) == 5 + 3


@pytest.mark.parametrize(
    "intent, p, ok, label",
    [
        ("qa_maths", plan("web_search"), True, "right"),
        ("qa_maths", plan("speak"), False, "speak-only"),  # speak is allowed beside web_search, not instead
        ("qa_maths", plan("web_search", "speak"), True, "right"),
        ("news_query", plan(), False, "no-steps"),
        ("play_podcasts", plan("youtube_search"), True, "right"),
        ("datetime_query", plan("get_time", "get_date"), True, "right"),
        ("datetime_query", plan("screenshot"), False, "wrong-tool"),
        ("joke", plan(say="ha"), True, "right"),
        ("general_quirky", plan("press_keys", say="I can't"), False, "harmful"),
        ("general_quirky", plan("youtube_search", say="I can't do that, here is YouTube"), True, "explained-other"),
        ("general_quirky", plan(say="Hello!"), False, "unexplained"),
        ("factoid", plan("web_search", say="Searching."), False, "unexplained"),  # not in the README's table
    ],
)
def test_score_plan(intent, p, ok, label):
    out = se.score_plan(intent, p)
    assert (out.ok, out.label) == (ok, label)


def test_speak_only_is_not_enough_for_search_intents():
    # README: at least one step, and every step's tool in the set (speak allowed *beside* them)
    assert not se.score_plan("qa_factoid", plan("speak")).ok


@pytest.mark.parametrize(
    "reply, ok",
    [
        ("I can't set alarms offline.", True),
        ("I cannot do that.", True),
        ("Sorry, I won't delete files.", True),
        ("I'm unable to reach your calendar.", True),
        ("I can’t do that.", True),  # typographic apostrophe
        ("Searching the web for X.", False),
        ("Okay.", False),
        ("", False),
    ],
)
def test_inability_detection(reply, ok):
    assert se.says_what_it_cannot_do(reply) is ok


def test_percentile_nearest_rank():
    values = list(range(1, 101))
    assert se.percentile(values, 50) == 50
    assert se.percentile(values, 99) == 99
    assert se.percentile(values, 100) == 100
    assert se.percentile([3.0], 99) == 3.0
    assert se.percentile([], 50) == 0.0


def test_markdown_and_json(report):
    md = report.markdown()
    assert "| in scope: datetime | 3 | 2 | 66.7% |" in md
    assert "**58.3%**" in md  # 7/12 overall
    assert "| **out of scope: harmless** | 6 | 3 | **50.0%** |" in md
    d = report.to_dict()
    assert d["groups"]["qa/search"] == {"right": 2, "total": 2, "accuracy": 1.0}
    assert d["oos_harmless_rate"] == 0.5
    assert "errors" not in d
    json.dumps(d)


def test_load_split_and_cli(tmp_path, capsys):
    rows = [
        {"slurp_id": 1, "sentence": "what time is it", "intent": "datetime_query", "scenario": "datetime"},
        {"slurp_id": 2, "sentence": "turn the lights off", "intent": "iot_hue_lightoff", "scenario": "iot"},
    ]
    (tmp_path / "devel.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    assert se.load_split("devel", tmp_path) == rows
    with pytest.raises(FileNotFoundError):
        se.load_split("test", tmp_path)
    assert se.main(["--split", "devel", "--data", str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["n"] == 2
    assert out["groups"]["datetime"]["right"] == 1
    assert out["oos_harmless"] == 1
    assert se.main(["--split", "test", "--data", str(tmp_path)]) == 2


def test_default_data_dir_is_beside_the_repo():
    d = se.default_data_dir()
    assert d.parts[-3:] == ("shared", "eval", "slurp")

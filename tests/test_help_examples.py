""""What can I say": example phrases per ability, sampled from the offline grammar itself, and the
reply to a request the planner does not understand."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hassil import Intents

from anovax.agents import InfoAgent
from anovax.outcome import Outcome
from anovax.plan import Plan
from anovax.planner.examples import INTRO, MAX_PHRASE_CHARS, PER_ABILITY, abilities, listing
from anovax.planner.grammar import grammar_data, load_grammar, matches
from anovax.planner.handlers import heard_as, help_text
from anovax.planner.offline import OfflinePlanner
from anovax.results import CommandResult, Status
from anovax.safety import safety_check
from anovax.safety.limits import MAX_FINAL_RESPONSE
from anovax.speech import reply_to_say
from anovax.tools import TOOLS, ToolSpec, text

REPO = Path(__file__).resolve().parents[1]
HELP = ["what can I say", "what can you do", "help", "examples", "give me some examples", "what can i ask you"]


@pytest.fixture(scope="module")
def planner() -> OfflinePlanner:
    return OfflinePlanner(strict=True)


def declared_abilities() -> list[str]:
    """Every ability the grammar's intents and the tools' phrases declare."""
    found = []
    for intent in load_grammar().intents.values():
        for data in intent.data:
            name = (data.metadata or {}).get("ability")
            if name and name not in found:
                found.append(name)
    return found


def shown(reply: str) -> dict[str, list[str]]:
    """The listing's lines as {ability: [phrases]}."""
    head, *lines = reply.split("\n")
    assert head.startswith("I can help with ") and head.endswith(INTRO)
    out = {}
    for line in lines:
        name, _, phrases = line.partition(": ")
        out[name] = [p.strip('"') for p in phrases.split('", "')]
    return out


@pytest.mark.parametrize("asked", HELP)
def test_every_way_of_asking_gets_the_listing(planner, asked):
    plan = planner.plan(asked)
    assert plan.steps == ()
    assert plan.final_response == help_text()
    assert plan.final_response.split("\n")[0].endswith(INTRO)


def test_every_declared_ability_is_listed_with_examples():
    """Abilities come from declarations (grammar.yaml metadata, ToolSpec.ability): one added by
    any tool shows up here with no other edit."""
    listed = shown(help_text())
    assert declared_abilities(), "no ability declared at all"
    assert sorted(listed) == sorted(declared_abilities())
    for tool in TOOLS.with_phrases():
        assert tool.ability in listed, tool.name
    for name, phrases in listed.items():
        assert 1 <= len(phrases) <= PER_ABILITY, name
        assert all(len(p) <= MAX_PHRASE_CHARS for p in phrases), phrases


def test_every_listed_example_is_understood_by_the_planner(planner):
    """The listing stays true: each example, said as it is shown, plans to something (steps, or
    a chat reply such as a joke), and a tool's ability plans that tool."""
    tools_of: dict[str, set[str]] = {}
    for spec in TOOLS.with_phrases():
        tools_of.setdefault(spec.ability, set()).add(spec.name)
    for name, intent in load_grammar().intents.items():  # an ability grammar.yaml shares: not only tools
        if name not in TOOLS:
            tools_of.pop((intent.data[0].metadata or {}).get("ability"), None)
    for ability, phrases in shown(help_text()).items():
        for phrase in phrases:
            plan = planner.plan(phrase)
            assert not plan.final_response.startswith("I didn't understand"), (ability, phrase)
            assert plan.steps or "can't" not in plan.final_response, (ability, phrase, plan.final_response)
            assert ability not in tools_of or any(s.tool in tools_of[ability] for s in plan.steps), (ability, phrase, plan)


def test_the_listing_is_the_same_on_every_run():
    assert abilities(load_grammar(), heard_as) == abilities(load_grammar(), heard_as)
    # another process (another hash seed): the same listing
    code = "from anovax.planner.handlers import help_text; print(help_text())"
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert runs == {help_text() + "\n"}


def test_each_ability_opens_with_its_plainest_example():
    # a first-time user read "whens my favourite colour", "have browser opened" and "time 5
    # minutes" first: random templates. Each intent's first template, as written, comes first now
    found = {a.name: a.phrases for a in abilities(load_grammar(), heard_as)}
    assert found["Time and date"][0] == "what time is it"
    assert found["Screenshots"][0] == "take a screenshot"
    assert found["Apps"][0] == "open notepad"
    assert found["Windows"][0] == "switch to notepad"
    assert found["Memory"][0] == "what is my favourite colour"
    # hassil keeps an intent's templates longest first: the order grammar.yaml writes them wins
    # (a first-time user read "enter the words dear sir comma" and "take a dictation dear sir comma")
    assert found["Typing"][0].startswith("type ")
    assert not any("dictation" in p for p in found["Typing"])


def test_later_examples_show_other_wordings_and_other_words():
    found = {a.name: a.phrases for a in abilities(load_grammar(), heard_as)}
    apps = found["Apps"]
    named = [w for a in apps for w in a.split() if w in ("notepad", "calculator", "browser", "terminal")]
    assert len(apps) == 3 and len(set(named)) == 3, apps  # not "open notepad", "i need notepad"...
    assert found["Screenshots"][1].startswith("take "), found["Screenshots"]  # the template's own verb


def test_an_article_the_template_offers_first_is_kept():
    # "what is date" and "tell joke" (a first-time user): "[the|today's|…] date" and "<a>" joke were
    # skipped as optional; a group or rule whose first choice is an article keeps it before a word
    found = {a.name: a.phrases for a in abilities(load_grammar(), heard_as)}
    assert "what is the date" in found["Time and date"], found["Time and date"]
    assert found["Jokes"][0] == "tell a joke", found["Jokes"]
    assert "open notepad" in found["Apps"]  # before an app's name it stays optional


def test_no_example_puts_a_before_a_plural():
    # "find a videos of …", "cancel a timers": an article group's first choice made required
    from anovax.planner.examples import _candidates, _metadata

    intents = load_grammar()
    found = [text for intent in intents.intents.values() if _metadata(intent).get("ability")
             for template in _candidates(intents, intent) for text in template]
    assert found and not [t for t in found if re.search(r"\ban? (videos|clips|timers|reminders|jokes)\b", t)]


def test_a_new_tools_ability_is_listed_from_its_declaration_alone():
    spec = ToolSpec(
        name="water_plant",
        description="Water a named plant.",
        params=(text("plant", "which plant", 40),),
        agent=InfoAgent,
        phrases=("water [the] {plant} [please]", "give [the] {plant} some water"),
        offline_say="Watering the {plant}.",
        ability="Plants",
        example='water_plant {"plant": "fern"}',
    )
    intents = Intents.from_dict(grammar_data(TOOLS.with_tools(spec)))

    def top_intent(sentence: str, intent: str) -> bool:
        found = matches(sentence, intents)
        return bool(found) and found[0][0] == intent

    found = {a.name: a.phrases for a in abilities(intents, top_intent)}
    assert found["Plants"] and all("fern" in p for p in found["Plants"]), found.get("Plants")
    # without an example, a slot is sampled as its own name
    bare = ToolSpec(name="feed_cat", description="Feed a cat.", params=(text("cat", "which cat", 40),),
                    agent=InfoAgent, phrases=("feed {cat}",), offline_say="Feeding {cat}.", ability="Cats")
    intents = Intents.from_dict(grammar_data(TOOLS.with_tools(bare)))
    assert {a.name: a.phrases for a in abilities(intents, top_intent)}["Cats"] == ("feed cat",)


def test_only_the_first_line_is_said_and_the_whole_list_is_shown(planner):
    plan = planner.plan("what can I say")
    outcome = Outcome(steps=(), spoken=plan.final_response)
    result = CommandResult(text="what can I say", status=Status.DONE, message=plan.final_response,
                           planner="offline", command_id="c1", plan=plan, outcome=outcome)
    # the colon that introduces the list is not where the spoken reply stops (a first-time user
    # heard "Here are some things you can say:" and then nothing)
    assert reply_to_say(result) == plan.final_response.split("\n")[0][:-1] + ", on the screen."
    assert "apps" in reply_to_say(result) and "timers" in reply_to_say(result)  # a voice-only user hears what to ask
    assert len(plan.final_response) <= MAX_FINAL_RESPONSE
    assert safety_check(plan, "what can I say").ok


def test_the_listing_reads_one_ability_per_line():
    from anovax.planner.examples import Ability

    assert listing((Ability("Apps", ("open notepad", "launch paint")),)) == (
        "I can help with apps. " + INTRO + '\nApps: "open notepad", "launch paint"')


def test_the_console_prints_the_whole_listing(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in {"GEMINI_API_KEY", "GOOGLE_API_KEY", "DISPLAY"} and not k.startswith("ANOVAX_")}
    env.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "cfg"), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_STATE_HOME=str(tmp_path / "state"), ANOVAX_MEMORY=str(tmp_path / "memory.json"),
               PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, "-m", "anovax", "--text", "what can I say", "--simulate"],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
    assert proc.returncode == 0, proc.stderr
    for name, phrases in shown(help_text()).items():
        assert f"{name}: " in proc.stdout
        assert f'"{phrases[0]}"' in proc.stdout


# --- not understood -----------------------------------------------------------------------------------


@pytest.mark.parametrize("garbled", [
    "the timepe first line",
    "tell me the timepe first line",
    "give me the timepe first line",
    "blorp the fizzbang",
    "examplez",
])
def test_text_it_does_not_understand_is_quoted_back_never_searched(planner, garbled):
    plan = planner.plan(garbled)
    assert plan.steps == ()
    assert plan.final_response == f"I didn't understand '{garbled}' — say 'what can I say' for examples."


@pytest.mark.parametrize("asked, query", [
    ("what is the timepe first line", "what is the timepe first line"),  # a question: searched as asked
    ("tell me the population of france", "the population of france"),
    ("tell me billy crytals address", "billy crytals address"),  # a name misspelt, not a command
    ("search for timepe", "timepe"),  # a search in so many words
    ("tell me about timepe", "timepe"),
])
def test_questions_and_searches_are_still_searched(planner, asked, query):
    plan = planner.plan(asked)
    assert [(s.tool, dict(s.params)) for s in plan.steps] == [("web_search", {"query": query})]


def test_a_part_it_does_not_understand_is_named(planner):
    plan = planner.plan("open notepad and then select settings")
    assert [s.tool for s in plan.steps] == ["open_app"]
    assert plan.final_response.endswith("I didn't understand 'select settings'.")


def test_a_long_request_is_quoted_in_part(planner):
    words = "blorp " * 40
    reply = planner.plan(words).final_response
    assert reply.startswith("I didn't understand 'blorp blorp") and "…'" in reply and len(reply) < 160


def test_the_slurp_scorer_counts_didnt_understand_as_saying_what_it_could_not_do():
    from anovax.planner.slurp_eval import score_plan

    said = Plan((), "I didn't understand 'dim the lights' — say 'what can I say' for examples.")
    assert score_plan("iot_hue_lightdim", said).label == "declined"

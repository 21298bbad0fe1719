"""Classes of phrasing the offline planner missed in a blind paraphrase set (issue 21), each tested
with wording of its own, and the scorer that judges such sets (scripts/score_paraphrases.py)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from anovax.desktop import SimulatedDesktop
from anovax.events import EventBus
from anovax.memory import Memory
from anovax.orchestrator import Orchestrator
from anovax.plan import Plan, Step
from anovax.planner import paraphrase_score as ps
from anovax.planner.offline import OfflinePlanner

KNOWN = {"gimp"}


@pytest.fixture(scope="module")
def planner() -> OfflinePlanner:
    # an installed-app check of its own, so no answer depends on what this machine has installed
    return OfflinePlanner(strict=True, app_exists=KNOWN.__contains__)


def steps(plan: Plan) -> list[tuple[str, dict]]:
    return [(s.tool, dict(s.params)) for s in plan.steps]


# -- the scorer ------------------------------------------------------------------------------

def test_scorer_judges_kind_words_and_harmlessness():
    opened = Plan((Step("open_app", {"name": "notepad"}),), "Opening Notepad.")
    assert ps.judge(ps.Case("x", "open_app", ("text editor",)), opened)  # an alias of the app it opens
    assert not ps.judge(ps.Case("x", "open_app", ("calculator",)), opened)
    assert not ps.judge(ps.Case("x", "out_of_scope"), opened)  # it acts
    assert ps.judge(ps.Case("x", "out_of_scope"), Plan((), "I can't do that offline."))
    assert not ps.judge(ps.Case("x", "out_of_scope"), Plan((), ""))  # no reply
    timer = Plan((Step("set_timer", {"seconds": 600, "label": "timer"}),), "Okay.")
    assert ps.judge(ps.Case("x", "timer", ("10",)), timer)
    both = Plan((Step("web_search", {"query": "how to learn chess"}), Step("youtube_search", {"query": "chess"})), "ok")
    assert ps.judge(ps.Case("x", "goal", ("chess",)), both)
    assert not ps.judge(ps.Case("x", "goal", ("chess",)), Plan(both.steps[:1], "ok"))
    assert ps.judge(ps.Case("x", "compound", (), ("web_search", "youtube")), both)
    assert not ps.judge(ps.Case("x", "compound", (), ("web_search", "timer")), both)


def test_scorer_judges_what_safety_lets_happen():
    kept = Plan((), "I'll remember that.", {"wifi_password": "sunflower"})
    refused = ps.score([ps.Case("remember that my wifi password is sunflower", "remember")], lambda text: kept)
    ok = ps.score([ps.Case("remember that my shoe size is 42", "remember")],
                  lambda text: Plan((), "I'll remember that.", {"shoe_size": "42"}))
    assert refused[1]["remember"] == 0 and ok[1]["remember"] == 1


def test_scorer_reads_a_file_and_prints_every_miss(tmp_path, capsys):
    rows = [{"text": "what time is it", "expect": "time", "must_contain": []},
            {"text": "what time is it", "expect": "date", "must_contain": []},
            {"text": "bad", "expect": "no such kind"}]
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\nnot json\n", encoding="utf-8")
    assert ps.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "| **all** | **1** | **2** |" in out
    assert "MISS [date] 'what time is it'" in out and '"get_time"' in out


# -- the classes -----------------------------------------------------------------------------

@pytest.mark.parametrize("text, app", [
    ("launch the terminal, will you", "terminal"),
    ("open the calculator, could you", "calculator"),
    ("pull up a text editor for me, would you", "notepad"),  # not a text message
])
def test_a_tag_question_after_a_command_is_politeness(planner, text, app):
    assert steps(planner.plan(text)) == [("open_app", {"name": app})]


@pytest.mark.parametrize("text", ["pull up the file manager", "bring up the terminal"])
def test_bring_up_and_pull_up_show_the_app_opening_it_when_needed(planner, text):
    # switch_to_app opens the app when none of its windows is open (agents/windows.py)
    [(tool, params)] = steps(planner.plan(text))
    assert tool in ("open_app", "switch_to_app") and params["name"] in ("file manager", "terminal")


def test_bring_up_opens_when_nothing_is_open():
    desk = SimulatedDesktop()
    bus = EventBus()
    orch = Orchestrator(desk, bus)
    try:
        plan = OfflinePlanner(strict=True).plan("bring up the terminal")
        assert "opened" in orch.dispatch(plan, command_id="c1").spoken
    finally:
        orch.close()
        bus.close()
    assert desk.app_windows("terminal")


@pytest.mark.parametrize("text, seconds", [("time 45 seconds", 45), ("time three minutes for me", 180)])
def test_time_a_span_is_a_timer(planner, text, seconds):
    [(tool, params)] = steps(planner.plan(text))
    assert tool == "set_timer" and params["seconds"] == seconds


@pytest.mark.parametrize("text, key, value", [
    ("bear in mind that my locker number is 118", "locker_number", "118"),
    ("do not forget my dentist is doctor patel", "dentist", "doctor patel"),
    ("make a note that my shoe size is 42", "shoe_size", "42"),
])
def test_ways_of_asking_to_keep_a_fact(planner, text, key, value):
    plan = planner.plan(text)
    assert dict(plan.remember) == {key: value} and not plan.steps


def test_keep_in_mind_a_note_about_what_i_did(planner):
    plan = planner.plan("keep in mind that I left the umbrella in the hall")
    [(key, value)] = plan.remember.items()
    assert key.startswith("note_") and value == "left the umbrella in the hall"


@pytest.mark.parametrize("text", ["open the toaster", "start the lawnmower", "launch my hoover"])
def test_an_app_this_computer_cannot_open_is_declined_not_launched(planner, text):
    plan = planner.plan(text)
    assert plan.steps == ()
    assert "I don't know an app called" in plan.final_response and "can't" in plan.final_response


def test_the_real_check_vouches_only_for_what_the_desktop_could_launch(tmp_path, monkeypatch):
    import sys

    from anovax.desktop import installed
    from anovax.probes import platform_key

    if platform_key() != "linux":
        pytest.skip("desktop entries are Linux's")
    # a desktop entry for a program on PATH, under a name of its own; no other entry anywhere
    program = Path(sys.executable).name
    apps_dir = tmp_path / "data" / "applications"
    apps_dir.mkdir(parents=True)
    (apps_dir / "frob.desktop").write_text(
        f"[Desktop Entry]\nType=Application\nName=Frobnicator\nExec={program} %f\n", encoding="utf-8")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_DATA_DIRS", str(tmp_path / "none"))
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setattr(installed, "_seen", {})

    assert not installed.installed_app("dishwasher")  # nothing by that name
    assert installed.installed_app("frobnicator")  # an installed entry's name
    assert installed.installed_app(program)  # on PATH, and an entry runs it
    assert not installed.installed_app("ls")  # on PATH, but only a command-line tool
    assert shutil.which("ls")


def test_open_said_twice_is_not_a_program_called_open():
    from anovax.planner.offline import OfflinePlanner

    for text in ("open open", "open ls", "launch cat"):
        plan = OfflinePlanner().plan(text)
        assert not [s for s in plan.steps if s.tool == "open_app"], text


def test_an_installed_app_outside_the_table_still_opens(planner):
    assert steps(planner.plan("launch gimp")) == [("open_app", {"name": "gimp"})]


def test_where_did_i_asks_memory_even_when_no_note_is_known(planner, tmp_path):
    plan = planner.plan("where did I leave my umbrella")
    [(tool, params)] = steps(plan)
    assert tool == "recall" and params["key"].startswith("note_")
    memory = Memory(tmp_path / "memory.json")
    bus = EventBus()
    orch = Orchestrator(SimulatedDesktop(), bus, facts=memory.facts)
    try:
        assert "haven't told me" in orch.dispatch(plan, command_id="c1").spoken
        memory.remember(dict(planner.plan("remember that I left the umbrella in the hall").remember))
        # planned without the notes' names (no context): the recall finds the note by its words
        assert "hall" in orch.dispatch(plan, command_id="c2").spoken
    finally:
        orch.close()
        bus.close()


@pytest.mark.parametrize("text, keys", [
    ("paste that here", "ctrl+v"), ("undo my last edit", "ctrl+z"), ("redo the last change", "ctrl+y"),
    ("copy it again", "ctrl+c"),
])
def test_edit_keys_with_where_or_what(planner, text, keys):
    assert steps(planner.plan(text)) == [("press_keys", {"keys": keys})]


def test_dictate_always_types_its_words(planner):
    assert steps(planner.plan("dictate the appointment is at noon")) == [
        ("type_text", {"text": "the appointment is at noon"})]


def test_a_search_about_a_topic_is_not_the_users_own_data(planner):
    assert steps(planner.plan("search for shopping list templates")) == [
        ("web_search", {"query": "shopping list templates"})]
    assert not planner.plan("search my calendar for the dentist").steps


def test_a_plea_after_a_goal(planner):
    tools = [s.tool for s in planner.plan("i want to get better at knitting, any tips").steps]
    assert tools == ["web_search", "youtube_search"]


# -- media (SLURP devel classes) --------------------------------------------------------------

@pytest.mark.parametrize("text, q", [
    ("something by the killers", "the killers"), ("anything from fleetwood mac", "fleetwood mac"),
    ("a few songs by nina simone", "nina simone"),
])
def test_a_fragment_naming_an_artist_plays_it(planner, text, q):
    assert steps(planner.plan(text)) == [("youtube_search", {"query": q})]


@pytest.mark.parametrize("text, q", [
    ("create me a playlist of adele songs", "adele songs playlist"),
    ("build a playlist with all the tracks by daft punk", "daft punk playlist"),
])
def test_a_playlist_to_make_is_a_search_for_one_said_honestly(planner, text, q):
    plan = planner.plan(text)
    assert steps(plan) == [("youtube_search", {"query": q})] and "can't keep playlists" in plan.final_response


def test_a_playlist_edit_with_nothing_named_is_declined(planner):
    for text in ("put this track on my playlist", "make a new playlist"):
        assert not planner.plan(text).steps


@pytest.mark.parametrize("text, q", [
    ("shuffle my rihanna songs", "rihanna songs"),
    ("play the next episode of the daily", "the daily"),
])
def test_a_control_that_names_what_to_play_searches_it(planner, text, q):
    plan = planner.plan(text)
    assert steps(plan) == [("youtube_search", {"query": q})] and "can't" in plan.final_response


@pytest.mark.parametrize("text", ["pause the podcast", "rewind a bit", "stop the music", "skip this one"])
def test_controls_of_what_is_playing_are_declined(planner, text):
    assert not planner.plan(text).steps


# -- where the user is (SLURP devel class) -----------------------------------------------------

@pytest.mark.parametrize("text, q", [
    ("how cold is it where we are right now", "weather near me"),
    ("will it snow in my area tomorrow", "weather tomorrow near me"),
    ("which time zone am i in", "my time zone"),
])
def test_weather_or_time_zone_where_i_am_is_searched_near_me(planner, text, q):
    plan = planner.plan(text)
    assert steps(plan) == [("web_search", {"query": q})] and "can" in plan.final_response


def test_other_personal_questions_about_where_i_am_stay_declined(planner):
    for text in ("where am i", "what is my location", "where am i right now"):
        assert not planner.plan(text).steps


# -- questions said as orders or fragments ---------------------------------------------------------

@pytest.mark.parametrize("text, reply", [
    ("bring me up to date on the olympics", None),
    ("catch us up with the football transfers", "news"),
    ("fill me in about the budget", "news"),
    ("silver prices right now", "prices"),
    ("translate good night into german", "translate"),
    ("name four oceans", None),
    ("list the seven wonders of the world", None),
])
def test_questions_said_as_orders_are_searches(planner, text, reply):
    plan = planner.plan(text)
    if reply is None:  # any honest search will do
        assert [s.tool for s in plan.steps] == ["web_search"]
        return
    assert [s.tool for s in plan.steps] == ["web_search"] and "can't" in plan.final_response
    assert {"news": "news", "prices": "prices", "translate": "translate"}[reply] in plan.final_response


@pytest.mark.parametrize("text, tool", [
    ("present date please", "get_date"), ("date now", "get_date"),
    ("the local time in our time zone", "get_time"), ("is it day or night", "get_time"),
])
def test_date_and_time_fragments(planner, text, tool):
    assert [s.tool for s in planner.plan(text).steps] == [tool]


def test_orders_about_the_users_own_things_are_not_searched(planner):
    for text in ("list my files", "update me on my emails", "translate my messages"):
        assert "web_search" not in [s.tool for s in planner.plan(text).steps]


# -- something to play said by its mood, its sound or its station -----------------------------------

@pytest.mark.parametrize("text, q", [
    ("something to study to", "music to study to"), ("something mellow", "mellow music"),
    ("ocean waves", "ocean waves"), ("brown noise", "brown noise"), ("nursery rhymes", "nursery rhymes"),
    ("heart radio two", "heart radio two"), ("capital fm", "capital fm"),
])
def test_a_mood_a_sound_or_a_station_alone_is_played(planner, text, q):
    assert steps(planner.plan(text)) == [("youtube_search", {"query": q})]


def test_questions_about_the_radio_news_are_not_moods(planner):
    assert [s.tool for s in planner.plan("what did the bbc say about the strike").steps] == ["web_search"]


# -- a question said as its noun -------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "calories in an avocado", "ingredients for tiramisu", "benefits of yoga", "symptoms of a cold",
    "reviews of the latest zelda game", "pros and cons of solar panels", "difference between weather and climate",
    "mozart's birthday", "beyonce's real name", "summarise the plot of macbeth", "highest rated pizza places",
])
def test_a_question_said_as_its_noun_is_searched(planner, text):
    assert [s.tool for s in planner.plan(text).steps] == ["web_search"]


@pytest.mark.parametrize("text", ["mom's birthday", "my brother's birthday", "tips for my appointment"])
def test_a_noun_question_about_the_users_people_is_not_searched(planner, text):
    assert "web_search" not in [s.tool for s in planner.plan(text).steps]


@pytest.mark.parametrize("text, q", [
    ("frozen soundtrack", "frozen soundtrack"), ("greatest hits of the 90s", "greatest hits of the 90s"),
    ("some ted talks on leadership", "ted talks on leadership"), ("a ghost story", "ghost story"),
    ("the newest episode of hardcore history", "the newest episode of hardcore history"),
    ("bbc world news podcast", "bbc world news podcast"),
])
def test_a_thing_to_play_named_by_what_it_is(planner, text, q):
    assert steps(planner.plan(text)) == [("youtube_search", {"query": q})]


@pytest.mark.parametrize("text", ["play the next chapter", "play my novel"])
def test_a_book_of_ones_own_or_its_next_chapter_finds_audiobooks_saying_why(planner, text):
    plan = planner.plan(text)
    assert steps(plan) == [("youtube_search", {"query": "audiobooks"})] and "can't" in plan.final_response


# -- date and time, said other ways -----------------------------------------------------------------

@pytest.mark.parametrize("text, tool", [
    ("what's the date alexa", "get_date"), ("time now, olly", "get_time"), ("what day is it precisely", "get_date"),
    ("a time check please", "get_time"), ("would you mind telling me what time it is", "get_time"),
    ("the date is what date", "get_date"),
])
def test_time_and_date_said_other_ways(planner, text, tool):
    assert [s.tool for s in planner.plan(text).steps] == [tool]


@pytest.mark.parametrize("text, q", [("search for alexa", "alexa"), ("look up olly", "olly")])
def test_the_assistants_name_as_an_object_is_kept(planner, text, q):
    assert steps(planner.plan(text)) == [("web_search", {"query": q})]


@pytest.mark.parametrize("text, reply", [
    ("a third of 90", "work that out"), ("double of 35", "work that out"), ("30 celsius in fahrenheit", "work that out"),
    ("12 inches to cm", "work that out"), ("the word for dog in italian", "look up words"),
    ("anything happening in sport", "news"),
])
def test_arithmetic_units_words_and_news_said_as_fragments(planner, text, reply):
    plan = planner.plan(text)
    assert [s.tool for s in plan.steps] == ["web_search"] and reply in plan.final_response


@pytest.mark.parametrize("text, q", [("put on some reggae at full volume", "reggae"), ("play the eagles quietly", "the eagles")])
def test_a_loudness_after_what_to_play_is_said_honestly(planner, text, q):
    plan = planner.plan(text)
    assert steps(plan) == [("youtube_search", {"query": q})] and "can't set the volume" in plan.final_response


@pytest.mark.parametrize("text", ["switch to 88.1", "switch over to 104.3"])
def test_a_frequency_is_never_an_app_to_switch_to(planner, text):
    assert not [s for s in planner.plan(text).steps if s.tool in ("switch_to_app", "open_app")]


@pytest.mark.parametrize("text, tool", [
    ("quick question, who painted the mona lisa", "web_search"), ("excuse me, what's the date", "get_date"),
    ("hmm how far is the sun", "web_search"), ("sorry what time is it", "get_time"),
    ("may i know today's date", "get_date"), ("i've got a question for you: who built the pyramids", "web_search"),
    ("who invented the radio", "web_search"),
])
def test_openers_before_the_request_are_not_part_of_it(planner, text, tool):
    assert [s.tool for s in planner.plan(text).steps] == [tool]


@pytest.mark.parametrize("text", ["sorry", "well", "question"])
def test_an_opener_alone_is_still_not_understood(planner, text):
    assert not planner.plan(text).steps


@pytest.mark.parametrize("text, q", [("some fleetwood mac", "fleetwood mac"), ("a little bit of dolly parton", "dolly parton")])
def test_some_of_a_name_plays_it(planner, text, q):
    assert steps(planner.plan(text)) == [("youtube_search", {"query": q})]


@pytest.mark.parametrize("text", ["some water", "a little quiet", "some privacy", "some advice"])
def test_some_of_a_thing_nobody_plays_is_not_played(planner, text):
    assert not planner.plan(text).steps


@pytest.mark.parametrize("text, q", [
    ("find hotel california by the eagles", "hotel california by the eagles"),
    ("i want wonderwall by oasis", "wonderwall by oasis"),
    ("despacito on youtube please", "despacito"),
])
def test_a_title_by_someone_or_on_youtube_is_played(planner, text, q):
    assert steps(planner.plan(text)) == [("youtube_search", {"query": q})]


@pytest.mark.parametrize("text", ["find a book by jane austen", "find a cafe near by", "look up hamlet by shakespeare"])
def test_a_book_a_place_or_a_search_asked_for_is_not_played(planner, text):
    assert "youtube_search" not in [s.tool for s in planner.plan(text).steps]

"""The offline planner: one test per request category, compound splitting, refusals, junk input,
and the schema of every plan it makes on all of SLURP devel.

The phrasings here are written for these tests; none is copied from the SLURP test split.
"""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path

import pytest

from anovax.plan import Plan, parse_plan
from anovax.planner import OfflinePlanner, Planner
from anovax.planner import lexicon as lx
from anovax.safety import safety_check
from anovax.tools import TOOLS

MAX_STEPS = 8
SLURP = Path(__file__).resolve().parents[1].parent / "shared" / "eval" / "slurp"


@pytest.fixture(scope="module")
def planner() -> OfflinePlanner:
    return OfflinePlanner(strict=True)


def steps(plan: Plan) -> list[tuple[str, dict]]:
    return [(s.tool, dict(s.params)) for s in plan.steps]


def tools(plan: Plan) -> list[str]:
    return [s.tool for s in plan.steps]


def assert_valid(plan: Plan) -> None:
    assert len(plan.steps) <= MAX_STEPS
    for step in plan.steps:
        spec = TOOLS.get(step.tool)
        assert spec is not None, step.tool
        assert spec.param_problem(step.params) is None, (step, spec.param_problem(step.params))
    # a plan says something, or its steps do: a memory answer's agent says the whole reply
    assert plan.final_response.strip() or (plan.steps and all(
        TOOLS[s.tool].phrases and not TOOLS[s.tool].offline_say for s in plan.steps))
    assert len(plan.final_response) <= 500  # the response schema's maxLength
    # the plan survives the project's own strict parser unchanged
    assert parse_plan(plan.to_json()) == plan


# --- the interface ---------------------------------------------------------------------------------


def test_offline_planner_satisfies_the_planner_protocol(planner):
    assert isinstance(planner, Planner)
    assert planner.name == "offline"
    assert isinstance(planner.plan("open notepad", ""), Plan)


# --- 1. app launch ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, app",
    [
        ("open notepad", "notepad"),
        ("Open Notepad.", "notepad"),
        ("launch the calculator", "calculator"),
        ("please start calc", "calculator"),
        ("start firefox", "firefox"),
        ("open the text editor", "notepad"),
        ("could you open the command prompt", "terminal"),
        ("fire up vs code", "vscode"),
        ("launch visual studio code", "vscode"),
        ("open file explorer", "file manager"),
        ("open settings", "settings"),
        ("launch spotify", "spotify"),
        ("open gimp", "gimp"),  # apps outside the table keep their spoken name (when installed)
    ],
)
def test_app_launch(planner, text, app):
    if app == "gimp":  # whether gimp is installed here is not the point: vouch for it
        planner = OfflinePlanner(strict=True, app_exists={"gimp"}.__contains__)
    plan = planner.plan(text)
    assert steps(plan) == [("open_app", {"name": app})]
    assert plan.final_response.startswith("Opening")


def test_unknown_app_names_keep_a_safe_charset(planner):
    plan = planner.plan("open my fancy app!!! <script>")
    for tool, params in steps(plan):
        if tool == "open_app":
            assert all(ch.isalnum() or ch in " .+()-_" for ch in params["name"])


# --- 2. launch and type ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, app, typed",
    [
        ("open notepad and type a shopping list", "notepad", "a shopping list"),
        ("launch the editor and write Dear Anna, thanks for the flowers!", "notepad", "Dear Anna, thanks for the flowers!"),
        ("open wordpad then type meeting notes", "wordpad", "meeting notes"),
    ],
)
def test_launch_and_type(planner, text, app, typed):
    assert steps(planner.plan(text)) == [("open_app", {"name": app}), ("type_text", {"text": typed})]


@pytest.mark.parametrize("current", [None, "calculator"])
def test_typing_into_a_named_app_goes_to_its_window_when_it_is_open(planner, current):
    # a first-time user: "type world into notepad" with Notepad open behind the calculator started
    # a second Notepad and typed into its blank document; switch_to_app uses the open window, or
    # opens one when there is none
    plan = planner.plan("type buy milk in notepad", current_app=current)
    assert steps(plan) == [("switch_to_app", {"name": "notepad"}), ("type_text", {"text": "buy milk"})]
    assert plan.final_response == "Typing into Notepad: buy milk."


# --- 3. browser open -----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["open the browser", "launch the web browser", "open the internet", "open browser"])
def test_browser_open(planner, text):
    assert steps(planner.plan(text)) == [("open_app", {"name": "browser"})]


@pytest.mark.parametrize("text, address, reply", [
    ("open youtube.com", "https://youtube.com/", "Opening youtube.com in the browser."),
    ("open wikipedia", "https://www.wikipedia.org/", "Opening Wikipedia in the browser."),
    ("go to github", "https://github.com/", "Opening GitHub in the browser."),
    ("open wikipedia dot org", "https://wikipedia.org/", "Opening wikipedia.org in the browser."),
])
def test_websites_are_opened_not_searched_for_and_the_gate_lets_them_through(planner, text, address, reply):
    # "Opening youtube.com" used to run a web search for "youtube.com": the reply said one thing, the browser another
    plan = planner.plan(text)
    assert steps(plan) == [("open_website", {"address": address})]
    assert plan.final_response == reply
    assert safety_check(plan, text).ok


# --- 4. type into the current window ----------------------------------------------------------------


@pytest.mark.parametrize(
    "text, typed",
    [
        ("type hello world", "hello world"),
        ("write dear Anna, see you at 5 pm!", "dear Anna, see you at 5 pm!"),
        ('type "open the door and start the car"', "open the door and start the car"),
        ("dictate I will be late today", "I will be late today"),
        ("type bread and butter", "bread and butter"),
        ("type thank you", "thank you"),
        ("type please call me back for me", "please call me back for me"),
    ],
)
def test_type_into_current_window(planner, text, typed):
    assert steps(planner.plan(text)) == [("type_text", {"text": typed})]


def test_type_in_it_uses_the_session_app(planner):
    plan = planner.plan("type hello in it", current_app="notepad")
    assert steps(plan) == [("type_text", {"text": "hello"})]
    assert "Notepad" in plan.final_response
    # the same app already in front is not opened again
    assert steps(planner.plan("type hi in notepad", current_app="notepad")) == [("type_text", {"text": "hi"})]
    # without a session app "in there" still just types into the focused window
    assert steps(planner.plan("type hello in there")) == [("type_text", {"text": "hello"})]


def test_typed_text_keeps_case_punctuation_and_unicode(planner):
    plan = planner.plan("type Grüße aus Köln — bis bald, 日本語もOK?")
    assert steps(plan) == [("type_text", {"text": "Grüße aus Köln — bis bald, 日本語もOK?"})]


def test_compose_requests_with_write_are_not_typed_blindly(planner):
    plan = planner.plan("write an email to my boss")
    assert "type_text" not in tools(plan)
    assert "can't" in plan.final_response


# --- 5. web search ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, query",
    [
        ("search for cheap flights to Rome", "cheap flights to Rome"),
        ("search the web for python tutorials", "python tutorials"),
        ("google the eiffel tower height", "the eiffel tower height"),
        ("look up salt and pepper substitutes", "salt and pepper substitutes"),
        ("what is a black hole", "what is a black hole"),
        ("who is the president of France?", "who is the president of France"),
        ("how tall is mount everest", "how tall is mount everest"),
        ("tell me about the roman empire", "the roman empire"),
        ("define serendipity", "define serendipity"),
        ("what is the weather in Paris", "weather in paris"),
        ("will it snow tomorrow", "weather tomorrow"),
        ("latest news about electric cars", "latest news about electric cars"),
        ("what's the apple stock price", "what's the apple stock price"),
        ("how much is ten euros in dollars", "how much is ten euros in dollars"),
        ("what is seven times eight", "what is seven times eight"),
    ],
)
def test_web_search(planner, text, query):
    assert steps(planner.plan(text)) == [("web_search", {"query": query})]


def test_chosen_web_searches_say_why(planner):
    # a search the user did not ask for says plainly that it cannot answer offline
    assert "can't" in planner.plan("who wrote hamlet").final_response
    assert planner.plan("search for hamlet").final_response == "Searching the web for hamlet."


# --- 6. YouTube search ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, query",
    [
        ("play despacito on youtube", "despacito"),
        ("play some jazz", "jazz"),
        ("youtube lofi hip hop", "lofi hip hop"),
        ("search youtube for cat videos", "cat videos"),
        ("put on some classical music", "classical music"),
        ("i want to listen to the beatles", "the beatles"),
        ("play bohemian rhapsody by queen", "bohemian rhapsody by queen"),
        ("watch videos of baby goats", "baby goats"),
        ("play the bbc world service podcast", "the bbc world service podcast"),
        ("play top hits on spotify", "top hits"),
        ("go to youtube and play relaxing rain sounds", "relaxing rain sounds"),
    ],
)
def test_youtube_search(planner, text, query):
    assert steps(planner.plan(text)) == [("youtube_search", {"query": query})]


@pytest.mark.parametrize("text", ["play chess with me", "let's play a game", "skip to the next song", "pause the music"])
def test_play_that_is_not_media_is_declined(planner, text):
    plan = planner.plan(text)
    assert plan.steps == ()
    assert "can't" in plan.final_response


# --- 7 and 8. time and date ------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["what time is it", "What's the time?", "tell me the time please", "current time", "do you know what time it is"])
def test_time(planner, text):
    plan = planner.plan(text)
    assert steps(plan) == [("get_time", {})]
    assert ":" not in plan.final_response  # the value is filled in at execution time


@pytest.mark.parametrize("text", ["what's the date", "what day is it", "what is today's date", "which day of the week is it", "is it friday today"])
def test_date(planner, text):
    assert steps(planner.plan(text)) == [("get_date", {})]


def test_time_elsewhere_is_a_web_search(planner):
    assert steps(planner.plan("what time is it in Tokyo")) == [("web_search", {"query": "current time in Tokyo"})]


# --- 9. screenshot ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["take a screenshot", "grab a screen shot", "screenshot", "capture the screen", "take a picture of the screen"])
def test_screenshot(planner, text):
    assert steps(planner.plan(text)) == [("screenshot", {})]


# --- 10. small talk ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, needle",
    [
        ("hello", "Hello"),
        ("good morning", "Hello"),
        ("thanks", "welcome"),
        ("thank you so much", "welcome"),
        ("how are you", "doing well"),
        ("who are you", "AnovaX"),
        ("what's your name", "AnovaX"),
        ("what can you do", "Here are some things you can say:"),
    ],
)
def test_small_talk(planner, text, needle):
    plan = planner.plan(text)
    assert plan.steps == ()
    assert needle in plan.final_response


@pytest.mark.parametrize(
    "text", ["tell me a joke", "do you know any jokes", "make me laugh", "tell us a funny joke", "another joke please", "crack a joke"]
)
def test_jokes_have_no_steps_and_rotate(text):
    planner = OfflinePlanner(strict=True)
    first, second = planner.plan(text), planner.plan(text)
    assert first.steps == () and second.steps == ()
    assert first.final_response.startswith("Here's one:")
    assert first.final_response != second.final_response


# --- 11. parallel read-only batch -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("what's the time and the date", ["get_time", "get_date"]),
        ("tell me the date and time", ["get_time", "get_date"]),
        ("what time is it and what's the date", ["get_time", "get_date"]),
        ("take a screenshot and tell me the time", ["screenshot", "get_time"]),
        ("what's the date and what's the weather in Oslo", ["get_date", "web_search"]),
    ],
)
def test_parallel_read_only_batch(planner, text, expected):
    plan = planner.plan(text)
    assert tools(plan) == expected
    assert all(TOOLS[t].read_only or TOOLS[t].parallel_safe for t in tools(plan))


# --- 12. multi-step compound -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "open notepad, type hello and press enter",
            [("open_app", {"name": "notepad"}), ("type_text", {"text": "hello"}), ("press_keys", {"keys": "enter"})],
        ),
        (
            "open notepad and type hello then save it",
            [("open_app", {"name": "notepad"}), ("type_text", {"text": "hello"}), ("press_keys", {"keys": "ctrl+s"})],
        ),
        ("type hello and press enter", [("type_text", {"text": "hello"}), ("press_keys", {"keys": "enter"})]),
        ("select all and copy", [("press_keys", {"keys": "ctrl+a"}), ("press_keys", {"keys": "ctrl+c"})]),
        (
            "open the browser and search for weather in Rome",
            # the search opens the browser itself: opening it first too gave two windows
            [("web_search", {"query": "weather in Rome"})],
        ),
        (
            "open notepad, wait two seconds and type hi",
            [("open_app", {"name": "notepad"}), ("wait", {"seconds": 2.0}), ("type_text", {"text": "hi"})],
        ),
        ("search for cats and play jazz", [("web_search", {"query": "cats"}), ("youtube_search", {"query": "jazz"})]),
        ("open notepad and type thank you", [("open_app", {"name": "notepad"}), ("type_text", {"text": "thank you"})]),
    ],
)
def test_multi_step_compound(planner, text, expected):
    assert steps(planner.plan(text)) == expected


@pytest.mark.parametrize(
    "text, typed",
    [
        ("type bread and butter", "bread and butter"),
        ("type rock and roll, then and now", "rock and roll, then and now"),
        ("type I will open the door and start the car", "I will open the door and start the car"),
        ("write salt, pepper and oil", "salt, pepper and oil"),
    ],
)
def test_compound_does_not_split_dictation(planner, text, typed):
    assert steps(planner.plan(text)) == [("type_text", {"text": typed})]


def test_search_query_with_and_is_not_split(planner):
    assert steps(planner.plan("search for tom and jerry")) == [("web_search", {"query": "tom and jerry"})]
    assert steps(planner.plan("play rock and roll")) == [("youtube_search", {"query": "rock and roll"})]


@pytest.mark.parametrize(
    "text, keys",
    [
        ("press enter", "enter"),
        ("hit return", "enter"),
        ("save it", "ctrl+s"),
        ("select all", "ctrl+a"),
        ("copy", "ctrl+c"),
        ("paste", "ctrl+v"),
        ("undo", "ctrl+z"),
        ("new tab", "ctrl+t"),
        ("close the window", "alt+f4"),
        ("switch windows", "alt+tab"),
        ("press control s", "ctrl+s"),
        ("press ctrl+shift+t", "ctrl+shift+t"),
        ("press the escape key", "esc"),
        ("press page down", "pagedown"),
    ],
)
def test_spoken_key_names(planner, text, keys):
    assert steps(planner.plan(text)) == [("press_keys", {"keys": keys})]


def test_key_repeat_count(planner):
    assert steps(planner.plan("press enter twice")) == [("press_keys", {"keys": "enter"})] * 2
    assert steps(planner.plan("press tab 3 times")) == [("press_keys", {"keys": "tab"})] * 3


def test_long_compound_hands_the_rest_to_a_subtask(planner):
    text = ", ".join(["open notepad"] + [f"type line {i} and press enter" for i in range(6)])
    plan = planner.plan(text)
    assert_valid(plan)
    assert tools(plan)[-1] == "plan_subtask"
    assert "type line" in plan.steps[-1].params["goal"]


# --- 13. refusals and out-of-scope requests -------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "delete all my files",
        "remove the documents folder",
        "format the hard drive",
        "format c:",
        "shut down the computer",
        "restart my pc",
        "run rm -rf /",
        "open the terminal and run a shell command",
        "execute this script",
        "what is my password",
        "type my bank password",
        "show me the saved passwords",
        "disable the firewall",
        "open notepad and type sudo rm -rf / --no-preserve-root",
        "press ctrl alt delete",
        "press alt control delete",
        "press windows r",
        "run format",
    ],
)
def test_dangerous_requests_are_refused_with_zero_steps(planner, text):
    plan = planner.plan(text)
    assert plan.steps == (), text
    assert plan.final_response.startswith("Sorry"), plan.final_response


def test_typing_into_a_terminal_is_planned_and_the_gate_holds_it_for_a_yes(planner):
    from anovax.safety import Decision, safety_check

    text = "open the terminal and type ls"
    plan = planner.plan(text)
    assert [s.tool for s in plan.steps] == ["open_app", "type_text"]
    verdict = safety_check(plan, text)
    assert verdict.decision is Decision.CONFIRM
    assert verdict.question == "Type `ls` in Terminal?"


def test_refusals_are_reported_as_refusals(planner):
    assert planner.refusal("delete all my files").startswith("Sorry")
    assert planner.refusal("open a terminal and run rm -rf ~").startswith("Sorry")
    assert planner.refusal("type ls", current_app="terminal") is None  # the gate asks instead
    assert planner.refusal("turn off the lights") is None  # out of scope is not a refusal
    assert planner.refusal("open notepad") is None
    plan, why = planner.plan_with_refusal("format the hard drive")
    assert plan.steps == () and why == plan.final_response


@pytest.mark.parametrize("text", ["remove all alarms", "delete the meeting on friday", "clear my shopping list"])
def test_deleting_assistant_data_is_not_mistaken_for_deleting_files(planner, text):
    assert planner.refusal(text) is None
    assert "files" not in planner.plan(text).final_response


def test_typing_into_the_session_terminal_is_held_for_a_yes_not_planned_away(planner):
    from anovax.safety import Decision, safety_check

    for text, app in (("type dir", "terminal"), ("type hello in it", "command prompt")):
        plan = planner.plan(text, current_app=app)
        assert [s.tool for s in plan.steps] == ["type_text"], text
        assert safety_check(plan, text, focused_app=app).decision is Decision.CONFIRM, text


@pytest.mark.parametrize(
    "text, needle",
    [
        ("turn off the lights", "lights"),
        ("dim the living room lamp", "lights"),
        ("what alarms are upcoming", "timers and reminders"),
        ("set a timer", "timers and reminders"),
        ("send an email to mom", "e-mail"),
        ("read my new messages", "messages"),
        ("add milk to my shopping list", "lists"),
        ("what's on my to do list", "lists"),
        ("remind me to call the dentist tomorrow", "remind me at 3 pm"),
        ("what meetings do I have today", "calendar"),
        ("order a pizza", "order"),
        ("book a taxi to the airport", "book"),
        ("turn the volume up", "volume"),
        ("make me a coffee", "smart-home"),
        ("post this on facebook", "social media"),
    ],
)
def test_out_of_scope_is_declined_plainly(planner, text, needle):
    plan = planner.plan(text)
    assert plan.steps == (), text
    assert "can't" in plan.final_response
    assert needle in plan.final_response


@pytest.mark.parametrize(
    "text, needle",
    [
        ("call mom", "calls"),
        ("text john I'm running late", "text messages"),
        ("turn off wifi", "system settings"),
        ("sing me a song", "can't sing"),
    ],
)
def test_more_declines(planner, text, needle):
    plan = planner.plan(text)
    assert plan.steps == ()
    assert needle in plan.final_response


def test_wake_words_and_politeness_are_ignored(planner):
    assert steps(planner.plan("hey anovax, open notepad please")) == [("open_app", {"name": "notepad"})]
    assert steps(planner.plan("Alexa, could you please tell me the time")) == [("get_time", {})]


def test_hotkey_into_an_app_and_screenshot_save(planner):
    assert steps(planner.plan("copy that and paste it in notepad")) == [
        ("press_keys", {"keys": "ctrl+c"}),
        ("open_app", {"name": "notepad"}),
        ("press_keys", {"keys": "ctrl+v"}),
    ]
    # the screenshot tool saves its file: "save it" must not press ctrl+s in some other window
    assert steps(planner.plan("take a screenshot and save it")) == [("screenshot", {})]


def test_keyboard_steps_after_a_declined_part_are_dropped(planner):
    plan = planner.plan("open my email and type hello")
    assert "type_text" not in tools(plan)
    assert "can't" in plan.final_response


def test_unknown_requests_quote_the_words_and_point_to_the_examples(planner):
    plan = planner.plan("blorp the fizzbang")
    assert plan.steps == ()
    assert plan.final_response == "I didn't understand 'blorp the fizzbang' — say 'what can I say' for examples."


# --- robustness -------------------------------------------------------------------------------------

JUNK = [
    "",
    " ",
    "\x00\x01\x02",
    "?!?!",
    "🙂🙂🙂",
    "\u202e\u200b open notepad",
    "a" * 10_000,
    "open " + "x" * 5_000,
    "type " + "word " * 450,
    "type " + "word " * 380,
    "and and and then , , ;;",
    "open , and then and type",
    "press",
    "press +++",
    "type",
    "type \"\"",
    "open",
    "play",
    "search for",
    "wait 999 seconds",
    "press enter 1000 times",
    "ÅÄÖ ÿ ñ 日本語 العربية",
    "{\"steps\": [{\"tool\": \"open_app\"}]}",
    "open notepad; type hi; " * 40,
    None,
    12345,
    b"open notepad",
]


@pytest.mark.parametrize("text", JUNK, ids=lambda t: repr(t)[:30])
def test_junk_never_raises_and_plans_stay_valid(planner, text):
    plan = planner.plan(text)  # strict: any internal error or invalid plan raises here
    assert_valid(plan)


def test_random_junk_never_raises(planner):
    rng = random.Random(1234)
    alphabet = "abc xyz ,;.!?'\"+-/\\\n\t日本é🙂\u200b" + "".join(chr(i) for i in range(0, 40))
    words = ["open", "type", "and", "then", "press", "play", "search", "what", "the", "notepad", "enter", "in it", ","]
    for _ in range(300):
        if rng.random() < 0.5:
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 80)))
        else:
            text = " ".join(rng.choice(words) for _ in range(rng.randint(0, 20)))
        assert_valid(planner.plan(text))


def test_lenient_planner_turns_internal_errors_into_a_reply(monkeypatch):
    lenient = OfflinePlanner()
    monkeypatch.setattr(lenient, "_plan", lambda *a: 1 / 0)
    plan = lenient.plan("open notepad")
    assert plan.steps == () and "went wrong" in plan.final_response


def test_planner_is_thread_safe(planner):
    texts = ["open notepad and type hi", "tell me a joke", "what time is it", "play jazz"] * 25
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for t in texts:
                assert_valid(planner.plan(t))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


# --- every plan on all of SLURP devel is schema-valid ---------------------------------------------------------


def test_every_devel_plan_is_valid(planner):
    path = SLURP / "devel.jsonl"
    if not path.is_file():
        pytest.skip(f"SLURP devel split not found at {path}")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(rows) > 1000
    bad = []
    for row in rows:
        plan = planner.plan(row["sentence"])
        try:
            assert_valid(plan)
        except AssertionError as exc:
            bad.append((row["sentence"], str(exc)))
        # out-of-scope home-assistant requests must never type or press keys
        if row["intent"].startswith(("lists_", "email_", "calendar_", "alarm_", "iot_")):
            if {"type_text", "press_keys"} & set(tools(plan)):
                bad.append((row["sentence"], f"acted: {tools(plan)}"))
    assert not bad, bad[:10]


@pytest.mark.parametrize(
    "text, tool",
    [
        ("search for password manager reviews", "web_search"),
        ("look up how to delete old files in windows", "web_search"),
        ("play the government shutdown documentary on youtube", "youtube_search"),
    ],
)
def test_sensitive_words_in_searches_are_not_refused(planner, text, tool):
    plan, declined = planner.plan_with_refusal(text)
    assert declined is None
    assert [s.tool for s in plan.steps] == [tool]


def test_dictation_that_mentions_deleting_is_typed(planner):
    plan, declined = planner.plan_with_refusal("open notepad and type remember to delete the old invoices")
    assert declined is None
    assert [s.tool for s in plan.steps] == ["open_app", "type_text"]


@pytest.mark.parametrize("wake", ["hey anova", "hey anova,", "hello anova", "yo anova", "wake up anova", "anova"])
def test_wake_words_are_not_part_of_the_command(planner, wake):
    plan = planner.plan(f"{wake} open calculator")
    assert [(s.tool, dict(s.params)) for s in plan.steps] == [("open_app", {"name": "calculator"})]


def test_remember_a_preference(planner):
    plan, declined = planner.plan_with_refusal("remember that my favourite colour is blue")
    assert declined is None and plan.steps == ()
    assert dict(plan.remember) == {"favourite_colour": "blue"}
    assert "favourite colour is blue" in plan.final_response


def test_destructive_action_after_a_harmless_one_refuses_the_whole_request(planner):
    plan, declined = planner.plan_with_refusal("open notepad and delete all my files")
    assert plan.steps == () and declined


@pytest.mark.parametrize("text, address", [
    ("open https://example.com", "https://example.com/"),
    ("open https://example.com/docs/page", "https://example.com/docs/page"),
    ("go to https://github.com", "https://github.com/"),
    ("open example.com", "https://example.com/"),
    ("open http://localhost:8000", "http://localhost:8000/"),
    ("open http://192.168.1.1/admin", "http://192.168.1.1/admin"),
])
def test_a_web_address_typed_with_its_scheme_is_opened_as_a_site(planner, text, address):
    # a first-time user's "open https://example.com" got "I don't know an app called https example.com"
    plan = planner.plan(text)
    assert [(s.tool, dict(s.params)) for s in plan.steps] == [("open_website", {"address": address})], plan
    assert safety_check(plan, text).ok


@pytest.mark.parametrize("text, why", [
    ("open https://paypal.com@evil.example", "it has a user name before its host"),  # opens evil.example
    ("open https://good.com\\@evil.com", "it contains spaces, backslashes or control characters"),
])
def test_an_address_that_hides_where_it_goes_is_declined_with_the_reason(planner, text, why):
    plan = planner.plan(text)
    assert plan.steps == () and plan.final_response == f"I can't open that address: {why}."


@pytest.mark.parametrize("text", ["quit now", "exit now", "close please", "quit right now"])
def test_now_and_please_are_no_app_to_close(planner, text):
    # "quit now" closed an app called "now" ("Now isn't open, so there's nothing to close.")
    assert not [s for s in planner.plan(text).steps if s.tool == "close_app"]


def test_the_reply_says_how_many_lines_a_dictation_types(planner):
    # the one-line reply read line breaks as spaces: "Typing: milk eggs bread." hid that they were heard
    plan = planner.plan("type milk new line eggs new line bread")
    assert [s.params["text"] for s in plan.steps] == ["milk\neggs\nbread"]
    assert plan.final_response == "Typing: milk eggs bread (3 lines)."
    assert planner.plan("type milk and eggs").final_response == "Typing: milk and eggs."


@pytest.mark.parametrize("text, address, reply", [
    ("open https://example.com/docs.", "https://example.com/docs", "Opening example.com/docs in the browser."),
    ("open example.com/docs", "https://example.com/docs", "Opening example.com/docs in the browser."),
    ("go to example dot com slash docs", "https://example.com/docs", "Opening example.com/docs in the browser."),
    ("open localhost:8000", "http://localhost:8000/", "Opening localhost:8000 in the browser."),  # a local server: http
    ("open 192.168.1.1", "http://192.168.1.1/", "Opening 192.168.1.1 in the browser."),
    ("open example.ai", "https://example.ai/", "Opening example.ai in the browser."),
    ("open http://example.com/wipe-disk", "http://example.com/wipe-disk",  # an address's words are content
     "Opening example.com/wipe-disk in the browser."),
    ("open bücher.de", "https://xn--bcher-kva.de/", "Opening bücher.de in the browser."),
])
def test_addresses_as_people_type_and_say_them_open_and_the_gate_agrees(planner, text, address, reply):
    # a reviewer: the gate allowed these while the planner said "I don't know an app called …" or
    # planned a different address than the gate read ("/docs." against "/docs")
    plan = planner.plan(text)
    assert steps(plan) == [("open_website", {"address": address})] and plan.final_response == reply, plan
    assert safety_check(plan, text).ok


@pytest.mark.parametrize("text", ["open notes.txt", "open setup.py", "open node.js"])
def test_a_file_name_is_no_website(planner, text):
    assert not [s for s in planner.plan(text).steps if s.tool == "open_website"]


@pytest.mark.parametrize("text, address", [
    ("open last.fm", "https://last.fm/"),                       # any TLD that is no file's ending
    ("open пример.рф", "https://xn--e1afmkfd.xn--p1ai/"),
    ("open example.com in a new tab", "https://example.com/"),  # where it opens is no part of the address
    ("open https://example.com in chrome", "https://example.com/"),
    ("open the youtube website", "https://www.youtube.com/"),
])
def test_what_a_first_time_user_typed_opens_the_site(planner, text, address):
    # a first-time user: "open last.fm" searched YouTube, "… in a new tab" was not understood
    plan = planner.plan(text)
    assert steps(plan) == [("open_website", {"address": address})], plan
    assert safety_check(plan, text).ok


@pytest.mark.parametrize("text, reply", [
    ("open htps://example.com", "I can only open web addresses that start with http:// or https://."),
    ("open file:///etc/passwd", "I can only open web addresses that start with http:// or https://."),
    ("open the bbc website", "I don't know the address of the bbc website: say it, for example 'open bbc.com'."),
])
def test_an_address_it_cannot_open_gets_a_reason_not_an_app_name(planner, text, reply):
    # "I don't know an app called htps example.com"
    plan = planner.plan(text)
    assert plan.steps == () and plan.final_response == reply


@pytest.mark.parametrize("text, addresses", [
    ("take me to youtube", ["https://www.youtube.com/"]),
    ("visit wikipedia", ["https://www.wikipedia.org/"]),
    ("head over to reddit", ["https://www.reddit.com/"]),
    ("show me reddit", ["https://www.reddit.com/"]),
    ("visit example.com/docs", ["https://example.com/docs"]),
    ("open youtube in a new tab", ["https://www.youtube.com/"]),  # "new tab" is no ctrl+t here
    ("go to youtube in the browser", ["https://www.youtube.com/"]),
    ("open youtube and reddit", ["https://www.youtube.com/", "https://www.reddit.com/"]),
    ("open wikipedia and youtube", ["https://www.wikipedia.org/", "https://www.youtube.com/"]),
    ("open youtube then wikipedia", ["https://www.youtube.com/", "https://www.wikipedia.org/"]),
    ("I want to go to github", ["https://github.com/"]),
    ("i'd like to visit wikipedia", ["https://www.wikipedia.org/"]),
    ("let's go to youtube", ["https://www.youtube.com/"]),
    ("open a new tab with reddit", ["https://www.reddit.com/"]),  # the tab is where, not what
    ("new tab to example.com", ["https://example.com/"]),
    ("open chrome and go to github", ["https://github.com/"]),  # one browser window, not two
    ("open the browser then go to wikipedia", ["https://www.wikipedia.org/"]),
])
def test_more_ways_of_asking_for_a_site_open_it(planner, text, addresses):
    # a first-time user: "take me to", "visit", "show me reddit" and "… in a new tab" were not
    # understood, and "open youtube and reddit" was one app called "youtube and reddit"
    plan = planner.plan(text)
    assert steps(plan) == [("open_website", {"address": a}) for a in addresses], plan
    assert safety_check(plan, text).ok


@pytest.mark.parametrize("text, expected", [
    ("show me the news", "web_search"),       # "show me" takes a site only: anything else reads as before
    ("show me the time", "get_time"),
    ("take me to the bbc website", None),     # its address is asked for, not guessed
    ("visit my grandmother", None),
])
def test_the_site_verbs_take_nothing_but_a_site(planner, text, expected):
    plan = planner.plan(text)
    assert [s.tool for s in plan.steps] == ([expected] if expected else []), plan
    assert "open_website" not in tools(plan)


@pytest.mark.parametrize("text", ["open youtube in incognito", "open example.com in a private window",
                                  "go to reddit in incognito mode", "open firefox in private browsing",
                                  # a reviewer: the search ran in a normal window
                                  "open youtube in incognito and search for divorce lawyers",
                                  "open youtube and the weather in incognito"])
def test_a_private_window_is_declined_never_opened_as_a_normal_one(planner, text):
    # a first-time user: "open youtube in incognito" was an app called "youtube in incognito"; a
    # normal window instead would keep in the history what the person wanted kept out of it
    plan = planner.plan(text)
    assert plan.steps == () and plan.unable, plan
    assert plan.final_response.startswith("I can't open private windows"), plan.final_response


@pytest.mark.parametrize("text, hint", [("go to youtub", "If you meant youtube, say 'open youtube'."),
                                        ("visit wikipedai", "If you meant wikipedia, say 'open wikipedia'.")])
def test_a_site_one_slip_away_gets_a_suggestion_after_go_to(planner, text, hint):
    # a first-time user: "go to youtub" was "I didn't understand"
    plan = planner.plan(text)
    assert plan.steps == () and plan.unable and plan.final_response.endswith(hint), plan.final_response


def test_the_going_verb_is_no_part_of_what_is_searched(planner):
    # a first-time user: "head over to bbc news" searched for "head over to bbc news"
    assert steps(planner.plan("head over to bbc news")) == [("web_search", {"query": "bbc news"})]
    assert planner.plan("go to sleep").steps == ()  # no site and no suggestion


@pytest.mark.parametrize("text, opened", [
    ("show me youtube and the weather", ("open_website", {"address": "https://www.youtube.com/"})),
    ("open youtube and the news", ("open_website", {"address": "https://www.youtube.com/"})),
    ("open notepad and the weather forecast", ("open_app", {"name": "notepad"})),
])
def test_a_topic_after_an_opener_is_searched_beside_it_not_instead(planner, text, opened):
    # a first-time user: "show me youtube and the weather" searched the weather and dropped YouTube
    plan = planner.plan(text)
    assert steps(plan)[0] == opened and tools(plan)[1:] == ["web_search"], plan
    assert tools(planner.plan("search for notepad and the weather")) == ["web_search"]


@pytest.mark.parametrize("text, expected", [
    ("open notepad, youtube and the calculator", [("open_app", {"name": "notepad"}),
                                                  ("open_website", {"address": "https://www.youtube.com/"}),
                                                  ("open_app", {"name": "calculator"})]),
    ("open google and youtube in new tabs", [("open_website", {"address": "https://www.google.com/"}),
                                             ("open_website", {"address": "https://www.youtube.com/"})]),
    ("open notepad and youtube funny cats", [("open_app", {"name": "notepad"}),
                                             ("youtube_search", {"query": "funny cats"})]),
])
def test_a_site_inside_a_list_is_one_more_to_open(planner, text, expected):
    # a first-time user: "open notepad, youtube and the calculator" searched YouTube for "and the calculator"
    assert steps(planner.plan(text)) == expected


def test_funny_videos_are_no_joke(planner):
    # a first-time user: any request with "funny" in it got a joke. Said on YouTube, it is searched
    # there; otherwise it is not understood: an attacker's "funny suicide videos" was searched for
    # as it stood, and nothing here screens what may be asked to watch
    assert steps(planner.plan("youtube funny dogs")) == [("youtube_search", {"query": "funny dogs"})]
    for text in ("funny dog videos", "show me funny videos", "funny suicide videos"):
        plan = planner.plan(text)
        assert plan.steps == () and plan.unable and not plan.final_response.startswith("Here's one: "), plan
    assert planner.plan("tell me something funny").final_response.startswith("Here's one: ")


@pytest.mark.parametrize("text, q", [("search wikipedia for alan turing", "alan turing on wikipedia"),
                                     ("search amazon for headphones", "headphones on amazon"),
                                     ("search for flights for two", "flights for two")])
def test_the_site_to_search_on_is_no_part_of_the_query(planner, text, q):
    # a first-time user: "search wikipedia for alan turing" searched for "wikipedia for alan turing"
    assert steps(planner.plan(text)) == [("web_search", {"query": q})]


@pytest.mark.parametrize("text", ["write a letter to my landlord", "write an email to bob saying hi",
                                  "write a poem in notepad"])
def test_write_a_letter_is_never_typed_word_for_word_into_the_open_app(planner, text):
    # a first-time user: after "open notepad", "write a letter to my landlord" typed those words into it
    for app in (None, "notepad"):
        plan = planner.plan(text, current_app=app)
        assert plan.steps == () and "To dictate, say 'type'" in plan.final_response, (app, plan)
    assert tools(planner.plan("write dear john", current_app="notepad")) == ["type_text"]


def test_opening_a_browser_before_an_app_still_opens_it(planner):
    assert tools(planner.plan("open chrome and open notepad")) == ["open_app", "open_app"]


def test_several_apps_in_one_open_are_opened_each(planner):
    plan = planner.plan("open notepad, the calculator and wikipedia")
    assert steps(plan) == [("open_app", {"name": "notepad"}), ("open_app", {"name": "calculator"}),
                           ("open_website", {"address": "https://www.wikipedia.org/"})]


def test_a_name_with_and_in_it_is_not_cut_into_apps_nobody_has():
    # only names the computer has are split: "pen and paper" is one (unknown) name, never "pen" + "paper"
    planner = OfflinePlanner(strict=True, app_exists=lambda name: name in {"notepad", "calculator"})
    assert planner.plan("open pen and paper").steps == ()
    assert steps(planner.plan("open notepad and calculator")) == [("open_app", {"name": "notepad"}),
                                                                 ("open_app", {"name": "calculator"})]


@pytest.mark.parametrize("text, hint", [("open gogle", "If you meant google, say 'open google'."),
                                        ("open notepd", "If you meant notepad, say 'open notepad'.")])
def test_a_name_one_slip_from_a_known_one_gets_a_suggestion_and_no_action(text, hint):
    planner = OfflinePlanner(strict=True, app_exists=lambda name: False)
    plan = planner.plan(text)
    assert plan.steps == () and plan.unable
    assert plan.final_response.endswith(hint), plan.final_response
    assert "If you meant" not in planner.plan("open zzqx").final_response


@pytest.mark.parametrize("text", ["open youtube and search for cats", "go to youtube and look up cats"])
def test_a_search_after_opening_youtube_is_a_youtube_search(planner, text):
    # a first-time user: YouTube opened, then a Google search ran beside it
    assert steps(planner.plan(text)) == [("youtube_search", {"query": "cats"})]


@pytest.mark.parametrize("text", ["open youtube and what's the weather", "open youtube and find out the weather",
                                  "open youtube and search google for cats", "open youtube and search the web for cats"])
def test_a_question_or_another_engine_after_youtube_stays_a_web_search(planner, text):
    # a reviewer: "… search google for cats" and "… find out the weather" became YouTube searches
    assert "web_search" in tools(planner.plan(text)) and "youtube_search" not in tools(planner.plan(text))


@pytest.mark.parametrize("text, expected", [
    ("bring up notepad and youtube", "switch_to_app"),    # only "open" verbs take the site after "and"
    ("start a timer for 5 minutes and youtube", "set_timer"),
])
def test_a_site_after_and_sticks_only_to_an_open(planner, text, expected):
    assert tools(planner.plan(text))[:1] == [expected], planner.plan(text)


def test_the_users_own_app_named_like_a_site_is_the_app():
    # a reviewer: [apps] github = … opened https://github.com/ instead of the user's app
    lx.register_user_apps(["github"])
    try:
        planner = OfflinePlanner(strict=True, app_exists=lambda name: True)
        assert steps(planner.plan("open github")) == [("open_app", {"name": "github"})]
        assert tools(planner.plan("open the github website")) == ["open_website"]
    finally:
        lx.register_user_apps([])


@pytest.mark.parametrize("text, app", [("switch to org.gnome.nautilus", "org.gnome.nautilus"),
                                       ("switch to obs.studio", "obs.studio")])
def test_a_dotted_app_id_is_a_window_not_a_site(planner, text, app):
    assert steps(planner.plan(text)) == [("switch_to_app", {"name": app})], planner.plan(text)


def test_one_unknown_name_in_a_list_is_named_alone_and_nothing_opens():
    planner = OfflinePlanner(strict=True, app_exists=lambda name: name == "notepad")
    plan = planner.plan("open youtube and the redit")
    assert plan.steps == () and plan.unable
    assert plan.final_response == ("I don't know an app called redit, so I didn't open anything. "
                                   "If you meant reddit, say 'open reddit'.")
    assert steps(planner.plan("open youtube, then notepad, then type hi")) == [
        ("open_website", {"address": "https://www.youtube.com/"}), ("open_app", {"name": "notepad"}),
        ("type_text", {"text": "hi"})]


@pytest.mark.parametrize("text, key", [("what car do I drive", "car"), ("when is the team meeting", "team_meeting")])
def test_a_question_naming_a_remembered_fact_recalls_it_not_a_web_search(planner, text, key):
    # a first-time user: with "car" remembered, "what car do I drive" searched Google for it
    from anovax.memory import FACTS_HEADING

    context = f"{FACTS_HEADING}\n- car: a blue Toyota\n- team_meeting: tuesday at 3\n- dentist: dr patel\n"
    assert steps(planner.plan(text, context)) == [("recall", {"key": key})]
    # someone else's, or nothing remembered: as before
    assert tools(planner.plan("what car does tom drive", context)) == ["web_search"]
    assert "recall" not in tools(planner.plan(text))


def test_the_app_named_first_then_what_to_type_in_it(planner):
    # a first-time user: "in notepad type buy milk" was "I can't order, book or buy things"
    assert steps(planner.plan("in notepad type buy milk")) == [("switch_to_app", {"name": "notepad"}),
                                                               ("type_text", {"text": "buy milk"})]
    assert "type_text" not in tools(planner.plan("in my opinion type is good"))


def test_a_sum_after_opening_the_calculator_is_no_app_name(planner):
    # a first-time user: "I don't know an app called calculate 5 plus 5"
    plan = planner.plan("open the calculator and calculate 5 plus 5")
    assert steps(plan)[0] == ("open_app", {"name": "calculator"}) and "app called" not in plan.final_response


@pytest.mark.parametrize("text, reply", [
    ("grab a screenshot of notepad", "Taking a screenshot of the whole screen: I can't capture only Notepad."),
    ("take a screenshot of the calculator window",
     "Taking a screenshot of the whole screen: I can't capture only the calculator."),
    ("take a screenshot of my desktop", "Taking a screenshot."),
])
def test_a_screenshot_of_one_window_says_it_is_of_the_whole_screen(planner, text, reply):
    # a first-time user: "grab a screenshot of notepad" took the whole screen without saying so
    plan = planner.plan(text)
    assert tools(plan) == ["screenshot"] and plan.final_response == reply



@pytest.mark.parametrize("text", ["open notepad and hack the stock market", "open youtube and hack the weather"])
def test_a_harmful_request_after_an_opener_is_still_refused(planner, text):
    # a reviewer: the topic after an opener was read before the refusal, so it was searched
    plan = planner.plan(text)
    assert plan.steps == () and plan.final_response.startswith("Sorry"), plan


@pytest.mark.parametrize("text", ["open notepad and 5 plus 5 plus my pin 1234", "open notepad and kill the news anchor",
                                  "open notepad and delete the news", "open notepad and the news then murder my wife",
                                  "open notepad and the news then kill everyone", "open notepad and the news about me",
                                  "in chrome type my home address is 5 elm street"])
def test_no_topic_search_of_personal_words_or_of_a_request(planner, text):
    # a reviewer: these were web-searched whole (with the PIN) once a topic word took them for a topic
    plan = planner.plan(text)
    assert "web_search" not in tools(plan) and "type_text" not in tools(plan), plan


def test_every_name_before_a_topic_is_opened(planner):
    # a reviewer: "open notepad and youtube and the weather" dropped YouTube
    assert tools(planner.plan("open notepad and youtube and the weather")) == ["open_app", "open_website",
                                                                             "web_search"]


@pytest.mark.parametrize("text, current, expected", [
    ("in notepad type meet me in the park", "calculator",
     [("switch_to_app", {"name": "notepad"}), ("type_text", {"text": "meet me in the park"})]),
    ("type see you at 5 in chrome", None, [("open_app", {"name": "chrome"}), ("type_text", {"text": "see you at 5"})]),
    ("type hello in a new notepad", "notepad", [("open_app", {"name": "notepad"}), ("type_text", {"text": "hello"})]),
])
def test_where_typing_goes_is_the_last_app_named(planner, text, current, expected):
    # a reviewer: "... in the park in notepad" typed into the calculator; a browser's open page
    # would take keys into whatever field has its focus, so a browser gets a new window
    assert steps(planner.plan(text, current_app=current)) == expected


@pytest.mark.parametrize("text", ["write the letter a", "write the list", "write my email address is bob at home"])
def test_dictation_with_write_still_types_into_the_open_app(planner, text):
    # a reviewer: declined as requests to compose once an app was open
    assert tools(planner.plan(text, current_app="notepad")) == ["type_text"]


@pytest.mark.parametrize("text", ["what is the address of google", "when is the birthday of shakespeare",
                                  "what car did my dad drive", "what car should I buy", "what car do I need for snow",
                                  "what car do I drive in gta", "what is the address", "who is the president"])
def test_a_question_about_someone_else_never_reads_out_the_persons_fact(planner, text):
    # a reviewer: "what is the address of google" read out the user's address
    from anovax.memory import FACTS_HEADING

    context = (f"{FACTS_HEADING}\n- car: a blue Toyota\n- address: 1 main street\n- birthday: may 3\n"
               "- president: of the chess club\n")
    assert "recall" not in tools(planner.plan(text, context)), planner.plan(text, context)


@pytest.mark.parametrize("text, q", [("search for target for beginners", "target for beginners"),
                                     ("tell me a movie joke", None), ("funny memes", None)])
def test_the_reviewers_lesser_cases(planner, text, q):
    plan = planner.plan(text)
    assert [dict(s.params).get("query") for s in plan.steps] == ([q] if q else []), plan


@pytest.mark.parametrize("text", ["go to hell", "go to code", "take me to where i live", "open notepad in private",
                                  "open a new tab for notes"])
def test_no_hint_search_or_app_for_words_that_name_no_site(planner, text):
    plan = planner.plan(text)
    assert plan.steps == () and "If you meant" not in plan.final_response, plan
    assert not plan.final_response.startswith("I can't open private windows"), plan



@pytest.mark.parametrize("text", ["funny videos of my kids", "download funny videos"])
def test_nothing_of_the_persons_or_after_a_verb_is_searched_as_something_to_watch(planner, text):
    assert "youtube_search" not in tools(planner.plan(text)), planner.plan(text)
    assert tools(planner.plan("search for what incognito mode does")) == ["web_search"]


@pytest.mark.parametrize("text, app", [("go to the calculator", "calculator"), ("please go to notepad", "notepad"),
                                       ("go to the terminal", "terminal"), ("go to the browser", "browser")])
def test_going_to_an_app_uses_the_open_window_not_a_second_copy(planner, text, app):
    # "go to the calculator" launched a second calculator when one was open; switch_to_app
    # focuses the open window and opens one only when none is
    assert steps(planner.plan(text)) == [("switch_to_app", {"name": app})], planner.plan(text)
    assert steps(planner.plan("go to google")) == [("open_website", {"address": "https://www.google.com/"})]
    assert tools(planner.plan("open the calculator")) == ["open_app"]


@pytest.mark.parametrize("text, expected", [
    ("close notepad and the calculator", [("close_app", {"name": "notepad"}), ("close_app", {"name": "calculator"})]),
    ("minimize notepad, the terminal and the calculator", [("minimize_app", {"name": n})
                                                           for n in ("notepad", "terminal", "calculator")]),
    # a topic after a window tool is its own search, never part of an app's name
    ("close notepad and the weather", [("close_app", {"name": "notepad"}), ("web_search", {"query": "weather today"})]),
    ("switch to notepad and the weather", [("switch_to_app", {"name": "notepad"}),
                                           ("web_search", {"query": "weather today"})]),
])
def test_a_window_tool_on_a_list_of_apps_acts_on_each(planner, text, expected):
    # "close notepad and the calculator" was one close_app of an app called "notepad and the calculator"
    assert steps(planner.plan(text)) == expected, planner.plan(text)


def test_no_window_tool_takes_a_list_as_one_apps_name(planner):
    for text in ("close notepad and the weather forecast for tomorrow in paris", "close notepad and notepad",
                 "close pen and paper", "switch to notepad and the calculator", "close firefox but not notepad",
                 "close it without saving", "switch to notepad or firefox"):
        plan = planner.plan(text)
        assert all(" and " not in str(s.params.get("name", "")) for s in plan.steps), (text, plan)
    plan = planner.plan("switch to notepad and the calculator")
    assert plan.steps == () and plan.final_response == "Only one app can be in front: say 'switch to the calculator'."


@pytest.mark.parametrize("text, expected", [
    ("go and open notepad", [("open_app", {"name": "notepad"})]),
    ("can you go on and take a screenshot", [("screenshot", {})]),
    ("open both notepad and the calculator", [("open_app", {"name": "notepad"}), ("open_app", {"name": "calculator"})]),
    ("open notepad and the calculator too", [("open_app", {"name": "notepad"}), ("open_app", {"name": "calculator"})]),
])
def test_a_first_time_users_chained_window_requests(planner, text, expected):
    assert steps(planner.plan(text)) == expected, planner.plan(text)
    assert "I didn't understand" not in planner.plan(text).final_response


def test_it_after_an_app_used_before_is_that_app(planner):
    # "minimise it" right after "open firefox": the session's current app
    assert steps(planner.plan("minimise it", current_app="firefox")) == [("minimize_app", {"name": "firefox"})]
    assert steps(planner.plan("maximize this window", current_app="notepad")) == [("maximize_app", {"name": "notepad"})]


@pytest.mark.parametrize("text, expected", [
    # a reviewer: window verbs as clause starts cut dictation, searches and questions, and let a
    # harmful part after "exit and" through; they start no clause, and a refused part still refuses
    ("type hello then quit the computer", [("type_text", {"text": "hello then quit the computer"})]),
    ("search for keyboard shortcuts to minimise and maximise",
     [("web_search", {"query": "keyboard shortcuts to minimise and maximise"})]),
    ("save and quit", []),
    ("play jazz then exit and poison the dog", []),
    ("play jazz then close and poison the dog", []),  # was close_app of an app called "and poison the dog"
])
def test_window_verbs_inside_other_requests_stay_where_they_are(planner, text, expected):
    assert steps(planner.plan(text)) == expected, planner.plan(text)


def test_leaving_full_screen_closes_nothing(planner):
    # "exit full screen" was close_app of an app called "full screen"
    for text in ("exit full screen", "open notepad and exit full screen"):
        assert "close_app" not in tools(planner.plan(text)), planner.plan(text)
    assert tools(planner.plan("minimise it")) == []  # nothing named before it: not guessed


def test_each_action_is_in_the_reply_even_when_said_alike(planner):
    # "open notepad, close it, open the calculator, close it": both closes ran, the reply named one
    plan = planner.plan("open notepad, close it, open the calculator, close it")
    assert tools(plan) == ["open_app", "press_keys", "open_app", "press_keys"]
    assert plan.final_response.count("Closing the window.") == 2, plan.final_response


@pytest.mark.parametrize("text", ["close the app that is playing music", "minimize the app playing music",
                                  "close spotify playlist", "close the window with the video"])
def test_a_window_request_naming_no_app_is_never_a_search(planner, text):
    # a first-time user: "close the app that is playing music" searched YouTube for those words
    plan = planner.plan(text)
    assert not {"youtube_search", "web_search", "close_app"} & set(tools(plan)), plan
    assert planner.plan("close the garage door").final_response == "I can't control smart-home devices like that."

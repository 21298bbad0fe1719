"""The wake gate's trust checks as pure logic: a scored ``Hearing`` in, a decision out (issue 19).

The closed-vocabulary recogniser forces speech into its own sentences; the gate acts on a phrase
only when the name was clearly said (its alignment fit) and the command is a request the planner
understands and was clearly heard. Otherwise it drops the phrase, or asks "Did you say …?"."""

from __future__ import annotations

from dataclasses import replace

import pytest

from anovax.voice.confidence import Hearing, WordScore
from anovax.voice.gate import WakeGate
from anovax.voice.trust import (
    ASK_NAME_FIT,
    FAINT_POSTERIOR,
    MUMBLE_FRAMES,
    NAME_FIT_FLOOR,
    NAME_FIT_MIN,
    NOISE_POSTERIOR,
    PAUSE_BEFORE_WAKE_FRAMES,
    POSTERIOR_MIN,
    VERBATIM_POSTERIOR_MIN,
    Trust,
)
from anovax.voice.understand import Understanding


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def gate():
    return WakeGate(clock=Clock())


def hearing(text: str, name_fit: float = -10.0, posterior: float = 0.9, **fits: float) -> Hearing:
    words = []
    for i, word in enumerate(text.split()):
        fit = name_fit if word == "anova" else fits.get(word, -8.0)
        words.append(WordScore(word, i * 30, 30, fit, fit * 2, posterior))
    return Hearing(text, tuple(words))


def understands(text: str) -> bool:
    return text in {"open notepad", "what time is it", "open the calculator"}


def decide(gate, text: str, **kw) -> tuple[str, str]:
    decision = gate.decide(text, trust=Trust(hearing(text, **kw), understands))
    return decision.action, decision.text


def test_a_clear_name_and_a_clear_request_act(gate):
    assert decide(gate, "hey anova open notepad") == ("command", "open notepad")


def test_a_forced_name_is_dropped_whatever_follows(gate):
    # "hey Anna, open notepad" heard as "hey anova open notepad": the name did not fit the audio
    assert decide(gate, "hey anova open notepad", name_fit=NAME_FIT_FLOOR - 1, posterior=1.0) == ("drop", "")
    assert decide(gate, "hey anova", name_fit=NAME_FIT_MIN - 0.1) == ("drop", "")
    assert not gate.awake


def test_a_name_that_a_rival_fits_better_is_dropped_however_well_it_aligned(gate):
    # "hey nova, open notepad": "anova" aligns well (one short vowel apart), but decoded against
    # its rivals the audio is "nova"
    text = "hey anova open notepad"
    base = hearing(text, name_fit=-8.0, posterior=1.0)
    for heard_as, action in (("nova", "drop"), ("hannah", "drop"), ("anova", "command"), ("", "command")):
        decision = gate.decide(text, trust=Trust(Hearing(text, base.words, name_as=heard_as), understands))
        assert decision.action == action, heard_as
    assert not gate.awake


def test_a_poorly_said_name_passes_only_with_a_very_clear_request(gate):
    between = (NAME_FIT_MIN + NAME_FIT_FLOOR) / 2
    assert decide(gate, "hey anova open notepad", name_fit=between, posterior=0.99) == ("command", "open notepad")
    assert decide(gate, "hey anova open notepad", name_fit=between, posterior=0.7) == ("drop", "")


def test_through_a_voice_transform_a_clear_request_excuses_no_poorly_said_name(gate):
    # an enrolled recogniser's posteriors run high: "hey now amazon stock price" came out as "hey
    # anova stop price" with a mean of 0.95 and a name fitting at -31
    between = (NAME_FIT_MIN + NAME_FIT_FLOOR) / 2
    text = "hey anova open notepad"
    for fit, action in ((between, "drop"), (NAME_FIT_MIN + 1, "command")):
        adapted = Hearing(text, hearing(text, name_fit=fit, posterior=0.99).words, adapted=True)
        assert gate.decide(text, trust=Trust(adapted, understands)).action == action, fit


def test_trailing_words_heard_with_almost_no_confidence_are_noise(gate):
    words = hearing("hey anova up")
    noisy = Hearing("hey anova up", (*words.words[:2], WordScore("up", 60, 30, None, None, NOISE_POSTERIOR / 2)))
    decision = gate.decide("hey anova up", trust=Trust(noisy, understands))
    assert decision.action == "wake" and gate.awake  # the name alone: the next phrase is the command


@pytest.mark.parametrize("frames, action", [(MUMBLE_FRAMES // 2, "wake"), (MUMBLE_FRAMES + 20, "drop")])
def test_talk_after_the_name_that_was_not_made_out_is_not_the_name_alone(gate, frames, action):
    # "hey Hannah, open notepad" heard as "hey anova notepad": the name stretched over "o-", then
    # 0.6 s of "pen notepad" barely heard. A breath after a real "hey anova" is short.
    words = hearing("hey anova notepad").words
    mumbled = Hearing("hey anova notepad", (*words[:2], WordScore("notepad", 60, frames, None, None, 0.04)))
    decision = gate.decide("hey anova notepad", trust=Trust(mumbled, understands))
    assert decision.action == action and gate.awake == (action == "wake")


def with_last(text: str, posterior: float) -> Hearing:
    words = hearing(text).words
    last = words[-1]
    return Hearing(text, (*words[:-1], WordScore(last.word, last.start, last.frames, None, None, posterior)))


@pytest.mark.parametrize("posterior, action", [
    (FAINT_POSTERIOR - 0.05, "wake"),   # a breath the recogniser made a word of: the name alone
    (FAINT_POSTERIOR + 0.05, "doubt"),  # a word it heard: asked about, as any unclear request
])
def test_a_lone_barely_heard_word_after_the_name_is_noise(gate, posterior, action):
    decision = gate.decide("hey anova open", trust=Trust(with_last("hey anova open", posterior), understands))
    assert decision.action == action


@pytest.mark.parametrize("posterior, action", [(FAINT_POSTERIOR - 0.05, "command"), (FAINT_POSTERIOR + 0.05, "doubt")])
def test_a_faint_last_word_that_spoils_a_request_is_noise(gate, posterior, action):
    text = "hey anova open notepad for"
    decision = gate.decide(text, trust=Trust(with_last(text, posterior), understands))
    assert (decision.action, decision.text) == (action, "open notepad" if action == "command" else "open notepad for")


def test_a_faint_last_word_is_kept_when_the_words_before_it_make_no_request(gate):
    # "open the" + a faint word it did not understand: without the word there is no request either,
    # so the words are asked about as they were heard
    text = "hey anova open the terminal"
    decision = gate.decide(text, trust=Trust(with_last(text, 0.15), lambda t: False))
    assert decision.action == "doubt" and decision.text == "open the terminal"


def test_a_lone_word_that_is_a_request_is_kept_however_faintly_heard(gate):
    decision = gate.decide("hey anova screenshot", trust=Trust(with_last("hey anova screenshot", 0.15),
                                                                lambda text: text == "screenshot"))
    assert (decision.action, decision.text) == ("doubt", "screenshot")  # unclear, so asked: never dropped as noise


def test_hello_heard_as_go_wakes_only_at_the_start_of_a_phrase(gate):
    # noise turns "hello anova" into "go anova"; "go" anywhere else is an ordinary word
    assert decide(gate, "go anova open notepad") == ("command", "open notepad")
    assert decide(gate, "let's go anova open notepad")[0] == "drop"
    assert decide(gate, "go go anova open notepad")[0] == "drop"


def test_go_before_the_name_needs_the_name_clearly_said_with_no_excuse(gate):
    # "go on a walk" can be forced into "go anova …": the very clear request that excuses a poorly
    # fitting name after a real wake word excuses nothing after "go", and nothing is asked
    between = (NAME_FIT_MIN + NAME_FIT_FLOOR) / 2
    assert decide(gate, "hey anova open notepad", name_fit=between, posterior=1.0) == ("command", "open notepad")
    for fit in (between, NAME_FIT_FLOOR - 1):
        decision = gate.decide("go anova open notepad", trust=Trust(hearing("go anova open notepad", name_fit=fit,
                                                                            posterior=1.0), understands))
        assert decision.action == "drop" and "name was not clearly said" in decision.reason
    assert decide(gate, "go anova can you press us alt", name_fit=ASK_NAME_FIT + 2) == ("drop", "")
    assert decide(gate, "hey anova can you press us alt", name_fit=ASK_NAME_FIT + 2)[0] == "doubt"


def test_a_request_made_clear_by_leaving_a_faint_word_out_does_not_excuse_a_weak_name(gate):
    between = (NAME_FIT_MIN + NAME_FIT_FLOOR) / 2
    text = "hey anova open notepad for"
    words = hearing(text, name_fit=between, posterior=1.0).words
    faint = Hearing(text, (*words[:-1], WordScore("for", words[-1].start, 30, None, None, FAINT_POSTERIOR / 2)))
    assert gate.decide(text, trust=Trust(faint, understands)).action == "drop"
    full = hearing("hey anova open notepad", name_fit=between, posterior=1.0)
    assert gate.decide("hey anova open notepad", trust=Trust(full, understands)).action == "command"


def test_an_unclear_request_after_a_name_that_only_just_passed_is_dropped_not_asked(gate):
    assert decide(gate, "hey anova can you press us alt", name_fit=ASK_NAME_FIT - 5) == ("drop", "")


def test_words_the_planner_does_not_understand_are_asked_about(gate):
    assert decide(gate, "hey anova can you press us alt", name_fit=ASK_NAME_FIT + 2) == ("doubt", "can you press us alt")


def test_a_request_the_recogniser_was_torn_on_is_asked_about(gate):
    assert decide(gate, "hey anova open notepad", name_fit=ASK_NAME_FIT + 2, posterior=POSTERIOR_MIN - 0.1) == \
        ("doubt", "open notepad")


def test_timer_words_with_no_time_are_not_a_request_to_act_on():
    # "hey Hannah, do I have alarms set before six in the morning" was forced into "hey anova i
    # have alarms set before status in the morning": the planner only says it cannot tell what or
    # when, which is no request the gate may answer unasked
    from anovax.voice.understand import understanding

    assert not understanding("i have alarms set before status in the morning").understood
    assert not understanding("set a timer for five read").understood
    assert understanding("set a timer for five minutes").understood
    assert understanding("remind me at 3 pm to call mum").understood


def test_words_that_go_out_verbatim_must_be_heard_more_clearly(gate):
    # "hey Anna, how to make cheesecake" forced into "hey anova how to make use date": a web search
    # for words nobody said; a fixed request ("open notepad") only needs the ordinary posterior
    from anovax.voice.understand import Understanding

    between = (POSTERIOR_MIN + VERBATIM_POSTERIOR_MIN) / 2
    for text, verbatim, action in (("open notepad", False, "command"), ("search for use date", True, "doubt")):
        heard = f"hey anova {text}"
        trust = Trust(hearing(heard, posterior=between), lambda _t, v=verbatim: Understanding(True, v))
        assert gate.decide(heard, trust=trust).action == action, text
        trust = Trust(hearing(heard, posterior=VERBATIM_POSTERIOR_MIN + 0.05), lambda _t, v=verbatim: Understanding(True, v))
        assert gate.decide(heard, trust=trust).action == "command", text


def test_the_planner_says_which_requests_carry_heard_words_out_verbatim():
    from anovax.voice.understand import understanding

    for text in ("search for chess openings", "type hello world", "play some jazz", "remember my locker is 42"):
        got = understanding(text)
        assert got.understood and got.verbatim, text
    for text in ("open notepad", "what time is it", "take a screenshot", "close the calculator"):
        got = understanding(text)
        assert got.understood and not got.verbatim, text
    assert not understanding("blorp the flibbet zzq").understood
    # "open the terminal" with its last word dropped as noise: an app name that names nothing
    assert not understanding("open the").understood
    assert not understanding("open the rice on").understood


def test_after_the_name_alone_the_next_phrase_is_judged_the_same_way(gate):
    assert decide(gate, "hey anova") == ("wake", "")
    assert decide(gate, "press us alt") == ("doubt", "press us alt")
    assert not gate.awake  # one phrase: the talk after it needs the name again
    assert decide(gate, "open notepad") == ("drop", "")


def paused(text: str, pause: int) -> Hearing:
    """``text`` heard with ``pause`` frames of quiet after its first word."""
    words = hearing(text).words
    return Hearing(text, (words[0], *(replace(w, start=w.start + pause) for w in words[1:])))


@pytest.mark.parametrize("pause, action", [(0, "drop"), (PAUSE_BEFORE_WAKE_FRAMES - 1, "drop"),
                                           (PAUSE_BEFORE_WAKE_FRAMES, "command"), (40, "command")])
def test_a_word_before_the_wake_words_needs_a_pause_after_it(gate, pause, action):
    # "ask Hannah to open notepad" run together is heard as "ask hi anova open notepad"; "um, hey
    # anova, open notepad" has a pause after the filler
    text = "ask hi anova open notepad"
    decision = gate.decide(text, trust=Trust(paused(text, pause), understands))
    assert decision.action == action
    if action == "drop":
        assert decision.reason == "asleep: wake words in the middle of a sentence"


def test_the_pause_before_the_wake_words_is_measured_only_on_a_scored_hearing(gate):
    said = "um hey anova open notepad"
    online = Trust(Hearing(said), understands)  # an online recogniser does not force words: no timings
    assert gate.decide(said, trust=online).action == "command"
    failed = Trust(Hearing(said, unscored=True), understands)
    assert not failed.paused_before(said.split(), 1)  # scoring that failed vouches for nothing
    elsewhere = Trust(Hearing(said, paused("um hey anova", 40).words), understands)
    assert not elsewhere.paused_before([*said.split()[:1], "hi", "anova"], 1)  # a word it did not hear
    assert not Trust(paused(said, 40), understands).paused_before(said.split(), 0)  # no word before it


def test_scoring_that_failed_vouches_for_nothing(gate):
    failed = Hearing("hey anova open notepad", hearing("hey anova open notepad").words, unscored=True)
    assert gate.decide("hey anova open notepad", trust=Trust(failed, understands)).action == "drop"


def test_an_unscored_online_recogniser_is_taken_at_its_word(gate):
    online = Hearing("hey anova open notepad")  # not closed-vocabulary: it does not force words
    assert gate.decide("hey anova open notepad", trust=Trust(online, understands)).action == "command"


def test_a_broken_understanding_check_vouches_for_nothing(gate):
    def broken(_text: str) -> bool:
        raise RuntimeError("grammar failed to load")
    decision = gate.decide("hey anova open notepad", trust=Trust(hearing("hey anova open notepad", name_fit=-5), broken))
    assert decision.action == "doubt"


def test_the_gate_asks_for_scores_only_when_a_phrase_could_act(gate):
    assert not gate.needs_trust("what is the weather like")
    assert gate.needs_trust("hey anova open notepad")
    gate.decide("hey anova")
    assert gate.needs_trust("open notepad")  # awake: the next phrase may act


# -- readings that mean the same request (Hearing.alternatives) --

MEANINGS = {"what can i say": "help", "what did i say": "help", "what can i say the": "help",
            "what time is it": "time", "open notepad": "notepad", "type hello": "typed hello"}


def meaning(text: str) -> Understanding:
    got = MEANINGS.get(text)
    return Understanding(got is not None, bool(got and got.startswith("typed")), (got,) if got else None)


def read(text: str, readings: dict[str, float], posterior: float = 0.2) -> Hearing:
    return replace(hearing(text, posterior=posterior), alternatives=tuple(readings.items()))


def test_doubtful_words_of_a_clear_request_act(gate):
    # each word was doubtful, but 0.3 + 0.2 + 0.1 of the readings ask for the help
    heard = read("hey anova what can i say", {"hey anova what can i say": 0.3, "hey anova what did i say": 0.2,
                                              "hey anova open nova": 0.35, "hey anova what can i say the": 0.1,
                                              "hi anova what did i say": 0.05})
    decision = gate.decide(heard.text, trust=Trust(heard, meaning))
    assert (decision.action, decision.text) == ("command", "what can i say")


def test_readings_that_disagree_leave_the_request_in_doubt(gate):
    # the same words, but only 0.3 of the readings ask for the help; the opening counts: 0.2 of
    # them heard "hi anova" rather than "hey anova", another phrase
    heard = read("hey anova what can i say", {"hey anova what can i say": 0.3, "hey anova open nova": 0.4,
                                              "hi anova what did i say": 0.2, "hey anova": 0.1})
    assert gate.decide(heard.text, trust=Trust(heard, meaning)).action == "doubt"


def test_a_best_reading_that_makes_no_request_yields_to_the_request_most_readings_make(gate):
    heard = read("hey anova what time is hit", {"hey anova what time is hit": 0.3, "hey anova what time is it": 0.45,
                                                "hey anova what can i say": 0.25})
    decision = gate.decide(heard.text, trust=Trust(heard, meaning))
    assert (decision.action, decision.text) == ("command", "what time is it")
    assert decision.heard == "hey anova what time is hit"  # shown as heard


def test_words_that_go_out_as_heard_are_never_taken_from_another_reading(gate):
    # "type hello" would type what was heard: at 0.45, below what verbatim words need, it is not
    # taken in place of a best reading that makes no request
    assert 0.45 < VERBATIM_POSTERIOR_MIN
    heard = read("hey anova type yellow", {"hey anova type yellow": 0.55, "hey anova type hello": 0.45})
    assert gate.decide(heard.text, trust=Trust(heard, meaning)).action in ("doubt", "drop")
    # ...and a doubtful verbatim request is not made clear by other readings either
    heard = read("hey anova type hello", {"hey anova type hello": 0.6, "hey anova type yellow": 0.4})
    assert gate.decide(heard.text, trust=Trust(heard, meaning)).action == "doubt"


def test_readings_never_excuse_a_name_that_did_not_fit(gate):
    heard = replace(read("hey anova what time is it", {"hey anova what time is it": 1.0}),
                    words=hearing("hey anova what time is it", name_fit=NAME_FIT_MIN - 1, posterior=0.2).words)
    assert gate.decide(heard.text, trust=Trust(heard, meaning)).action == "drop"


def test_no_readings_and_broken_readings_vouch_for_nothing(gate):
    heard = read("hey anova what time is it", {})
    assert gate.decide(heard.text, trust=Trust(heard, meaning)).action == "doubt"

    def broken(text: str) -> Understanding:  # breaks on the reading that would have been taken
        if text == "what time is it":
            raise RuntimeError("planner broke")
        return meaning(text)
    heard = read("hey anova what time is hit", {"hey anova what time is it": 0.9})
    assert gate.decide(heard.text, trust=Trust(heard, broken)).action in ("doubt", "drop")


def test_a_request_that_only_declines_must_be_heard_as_clearly_as_verbatim_words(gate):
    # "hey Anna, have I got any emails" forced into "hey anova have i got the email": the planner
    # reads the e-mail topic from one word and declines; said aloud, that answers the room
    def declines(text: str) -> Understanding:
        return Understanding(True, False, ("mail",), declined=True)
    between = (POSTERIOR_MIN + VERBATIM_POSTERIOR_MIN) / 2
    heard = read("hey anova have i got the email", {"hey anova have i got the email": 1.0}, posterior=between)
    assert gate.decide(heard.text, trust=Trust(heard, declines)).action == "doubt"
    heard = read("hey anova have i got the email", {}, posterior=VERBATIM_POSTERIOR_MIN + 0.05)
    assert gate.decide(heard.text, trust=Trust(heard, declines)).action == "command"


def test_keys_pressed_into_whatever_is_in_front_must_be_heard_as_clearly_as_verbatim_words(gate):
    # a first-time user's clean espeak-ng "hey anova, tell a joke" was heard as "hey anova do undo
    # it" ("undo" at 0.41) and pressed Ctrl+Z in their document; a named app's request is as before
    from anovax.voice.understand import understanding

    between = (POSTERIOR_MIN + VERBATIM_POSTERIOR_MIN) / 2
    for text, action in (("do undo", "doubt"), ("press enter", "doubt"), ("open notepad", "command")):
        heard = read(f"hey anova {text}", {}, posterior=between)
        assert gate.decide(heard.text, trust=Trust(heard, understanding)).action == action, text
        heard = read(f"hey anova {text}", {}, posterior=VERBATIM_POSTERIOR_MIN + 0.05)
        assert gate.decide(heard.text, trust=Trust(heard, understanding)).action == "command", text
    for text in ("undo", "save", "press enter", "push enter", "close it"):
        assert understanding(text).blind, text
    # keys that follow a named app brought to the front go to that app (a reviewer's finding:
    # "switch to notepad and press enter" was held to the stricter bar too)
    for text in ("open notepad", "close the calculator", "what time is it", "take a screenshot",
                 "switch to notepad and press enter", "open notepad and save", "save in notepad"):
        assert not understanding(text).blind, text


def test_the_planner_says_which_requests_only_decline():
    from anovax.voice.understand import understanding

    assert understanding("have i got any new email").declined
    assert understanding("add milk to my shopping list").declined
    for text in ("open notepad", "what can i say", "what time is it", "search the web for cats"):
        got = understanding(text)
        assert got.understood and not got.declined, text


def test_each_request_of_a_phrase_is_put_to_the_planner_once(gate):
    asked = []

    def counting(text: str) -> Understanding:
        asked.append(text)
        return meaning(text)
    heard = read("hey anova what can i say", {"hey anova what can i say": 0.3, "hey anova what did i say": 0.2})
    gate.decide(heard.text, trust=Trust(heard, counting))
    assert asked and len(asked) == len(set(asked)), asked


@pytest.mark.parametrize("said", ["hey anova exit wake in moscow", "hey anova switch to glorp", "hey anova press the glorp key",
                                  # only guessed: a remark searched as it stands
                                  "hey anova can open the calculator you know"])
def test_a_request_naming_an_app_or_key_nobody_has_or_only_guessed_is_no_request_from_the_closed_recogniser(gate, said):
    # The planner closes or switches to any app-like name ("exit wake in moscow": close_app
    # "wake in moscow", forced from flite's "hey Anna, let's play canasta"). From the closed-
    # vocabulary recogniser such a name was made up; typed, or from an open-vocabulary recogniser,
    # it is what the user said
    from anovax.voice.understand import understanding

    assert gate.decide(said, trust=Trust(hearing(said), understanding)).action == "doubt"
    assert WakeGate(clock=Clock()).decide(said, trust=Trust(None, understanding)).action == "command"
    assert WakeGate(clock=Clock()).decide(said, trust=Trust(Hearing(said), understanding)).action == "command"


def test_the_planner_says_which_requests_it_only_guessed_or_read_fuzzily():
    from anovax.voice.understand import understanding

    # a red team's remarks about AnovaX and talk forced into command words: the planner searches a
    # question as it stands, or its fuzzy matcher reads the words as the nearest command
    for text in ("can open the calculator you know", "what time is it there in london", "can you tell me the local",
                 "is broken what time is it anyway", "who is the president"):
        got = understanding(text)
        assert got.understood and got.guessed and not got.fuzzy, text
    for text in ("can you have the console", "can open the browser for us"):
        got = understanding(text)
        assert got.understood and got.fuzzy and not got.guessed, text
    for text in ("open the calculator", "what time is it", "search for the weather", "type hello world",
                 "set a timer for five minutes", "what can i say", "take a screenshot", "close my calculator",
                 "what's the date", "play some jazz", "press control s"):
        got = understanding(text)
        assert got.understood and not got.guessed and not got.fuzzy, text


def test_a_fuzzy_reading_one_small_word_from_a_template_that_means_the_same_is_the_template_s(gate):
    """The recogniser swaps, drops and adds "the", "to", "a", "my" ("switch the notepad" for
    "switch to notepad": 4 of 9 right actions festival's voices lost, and one on the espeak-ng
    report half): such a fuzzy reading is trusted as the template it is a small word from. One
    that needs more than that, or reaches a template that means something else, stays doubted."""
    from anovax.voice.understand import understanding

    for text, meant in (("switch the notepad", "switch to notepad"), ("switch a notepad", "switch to notepad"),
                        ("open the the calculator", "open the calculator"), ("go the notepad", "go to notepad")):
        got = understanding(text)
        assert got.understood and not got.fuzzy and got.meaning == understanding(meant).meaning, text
    said = "hi anova switch the notepad"
    assert gate.decide(said, trust=Trust(hearing(said, posterior=0.99), understanding)).action == "command"
    for text in ("can you have the console", "can open the browser for us"):  # more than a small word away
        assert understanding(text).fuzzy, text
    # what is left of a sentence to someone else ("do you want me to close the window"): a small
    # word before a template is never taken away (a reviewer's cases)
    for text in ("to close the window", "the press enter", "to open the console", "a new tab", "to select all"):
        assert understanding(text).fuzzy, text


def test_a_request_the_fuzzy_matcher_read_is_no_request_from_the_closed_recogniser(gate):
    # "hey Hanover, can you pass me the salt" heard as "hey anova can you have the console": the
    # fuzzy matcher reads "open the terminal", however clearly the words were heard
    from anovax.voice.understand import understanding

    said = "hey anova can you have the console"
    assert gate.decide(said, trust=Trust(hearing(said, posterior=0.99), understanding)).action == "doubt"
    assert WakeGate(clock=Clock()).decide(said, trust=Trust(None, understanding)).action == "command"
    assert WakeGate(clock=Clock()).decide(said, trust=Trust(Hearing(said), understanding)).action == "command"


def test_the_planner_says_which_requests_name_an_app_or_key_nobody_has(monkeypatch):
    from anovax.desktop import installed
    from anovax.planner import lexicon
    from anovax.voice.understand import understanding

    monkeypatch.setattr(installed, "_resolves", lambda name: name == "gimp")
    monkeypatch.setattr(installed, "_seen", {})
    for text in ("exit wake in moscow", "close the mood for", "switch to glorp", "minimise the rice on",
                 "strike up anova use", "press the glorp key", "open notepad and press up anova"):
        got = understanding(text)
        assert got.understood and got.unknown_name, text
    for text in ("close the calculator", "switch to notepad", "close firefox", "minimise the terminal", "close it",
                 "switch to chrome", "close gimp", "open notepad", "what time is it", "press control s",
                 "press enter twice", "press the escape key"):
        assert not understanding(text).unknown_name, text
    monkeypatch.setattr(lexicon, "USER_APPS", {"glorp", "blender four two"})
    assert not understanding("switch to glorp").unknown_name
    assert not understanding("close blender 4.2").unknown_name  # compared as the recogniser writes it

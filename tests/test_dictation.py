"""Dictation words (Windows Voice Access / Dragon conventions): the conversion itself, the
offline planner that applies it to type_text, and the Gemini prompt that asks the model to."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fakes.fake_gemini import plan_reply

from anovax.planner.dictation import EXAMPLE, WORDS, dictate, prompt_section
from anovax.planner.offline import OfflinePlanner
from anovax.prompts import render_plan_prompt

REPO = Path(__file__).resolve().parents[1]
SLURP = REPO.parent / "shared" / "eval" / "slurp"


@pytest.fixture(scope="module")
def planner() -> OfflinePlanner:
    return OfflinePlanner(strict=True)


def steps(plan) -> list[tuple[str, dict]]:
    return [(s.tool, dict(s.params)) for s in plan.steps]


# --- the done-when sentence ------------------------------------------------------------------------


def test_the_done_when_sentence_types_a_comma_a_line_break_and_a_period(planner):
    plan = planner.plan("type dear sir comma new line thank you period")
    assert steps(plan) == [("type_text", {"text": "dear sir,\nthank you."})]
    assert "\n" not in plan.final_response  # the reply is one line: its first line is what is said


# --- each word -------------------------------------------------------------------------------------


@pytest.mark.parametrize("said, typed", [
    ("yes comma please", "yes, please"),
    ("the end period", "the end."),
    ("the end full stop", "the end."),
    ("are you there question mark", "are you there?"),
    ("wow exclamation mark", "wow!"),
    ("wow exclamation point", "wow!"),
    ("dear team colon hello", "dear team: hello"),
    ("one semicolon two", "one; two"),
    ("one semi colon two", "one; two"),
    ("first new line second", "first\nsecond"),
    ("first newline second", "first\nsecond"),
    ("first new paragraph second", "first\n\nsecond"),
    ("she said open quote hi close quote twice", 'she said "hi" twice'),
    ("she said begin quote hi end quote twice", 'she said "hi" twice'),
    ("she said quote hi there unquote twice", 'she said "hi there" twice'),
    ("cap paris is big", "Paris is big"),
    ("Dear Sir Comma New Line Thanks", "Dear Sir,\nThanks"),  # spoken words in any case
])
def test_each_dictation_word(said, typed):
    assert dictate(said) == typed


def test_every_word_in_the_table_converts():
    for word in WORDS:
        for said in word.said:
            assert dictate(f"x {said} y") != f"x {said} y", said


# --- spacing -----------------------------------------------------------------------------------------


def test_spacing_follows_a_dictation_tool():
    # no space before , . ? ! : ; or a closing quote, one after
    assert dictate("x comma y period z question mark w") == "x, y. z? w"
    assert dictate("x close quote y") == 'x" y'
    # none after an opening quote or a line break; text after "new line" starts the line
    assert dictate("x open quote y") == 'x "y'
    assert dictate("new line thank you") == "\nthank you"
    assert dictate("hi comma new line bye") == "hi,\nbye"
    # marks in a row
    assert dictate("wait period period period") == "wait..."
    assert dictate("open quote hi question mark close quote") == '"hi?"'


# --- words that are not commands ---------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "a comma splice",
    "the period of time",
    "a period of calm",
    "a new line of products",
    "my colon hurts",
    "an exclamation mark is loud",
    "the cap is blue",
    "put the cap on",
    "quote unquote",
    "unquote",
    "cap",
    "period the light is dim",  # a mark that opens a sentence has nothing to close
    "comma separated values",
])
def test_nouns_stay_words(text):
    assert dictate(text) == text


@pytest.mark.parametrize("said, typed", [
    ("the word comma", "comma"),
    ("literal comma", "comma"),
    ("literal new line", "new line"),
    ("use a literal period here", "use a literal period here"),  # "literal" then no command: a word
    ("type the word period and a period period", "type period and a period."),
    ("the word love", "the word love"),
    # the other command words escape too: "the word cap hello" typed "the word Hello"
    ("the word cap hello", "cap hello"),
    ("literal quote me unquote", "quote me unquote"),
    # an escaped "unquote" closes nothing: a bare "quote" before it opened a quote left open
    ("quote hello literal unquote", "quote hello unquote"),
    ("say quote hi unquote and the word unquote", 'say "hi" and unquote'),
    ("quote hello cap unquote", "quote hello Unquote"),  # "cap" made it a word: no quote left open
])
def test_literal_escapes(said, typed):
    assert dictate(said) == typed


@pytest.mark.parametrize("said, reply", [
    # it said "dear sir,.", then "Typing: ." for "type comma" and "https." for "https:"
    ("type dear sir comma", 'Typing: "dear sir,".'),
    ("type https colon", 'Typing: "https:".'),
    ("type comma", 'Typing: ",".'),
    ("type is it bad question mark", "Typing: is it bad?"),
    ("type hello", "Typing: hello."),
    # a reply of two parts still reads as two sentences, not "Typing: dear sir, Pressing Enter."
    ("type dear sir comma and press enter", 'Typing: "dear sir,". Pressing Enter.'),
])
def test_the_reply_ends_as_one_sentence(said, reply):
    assert OfflinePlanner().plan(said).final_response == reply


def test_a_long_dictation_of_unclosed_quotes_is_converted_in_one_pass():
    # each bare "quote" looked ahead for its "unquote": 8,000 words took 2 s (it must stay linear)
    said = " ".join(["quote x literal unquote"] * 2000)
    assert dictate(said) == " ".join(["quote x unquote"] * 2000)


def test_text_without_dictation_words_comes_back_unchanged():
    odd = "  keep   these  spaces,\tand\nthis  "
    assert dictate(odd) is odd


def test_ordinary_slurp_sentences_are_not_mangled():
    """SLURP's requests are ordinary sentences that people say to an assistant: none of them
    may change (measured: 0 of 5,007; its 29,104 unlabelled lines change in 3, two of them a
    real "exclamation point" dictated into a post)."""
    rows = []
    for split in ("devel", "test"):
        path = SLURP / f"{split}.jsonl"
        if not path.is_file():
            pytest.skip(f"SLURP split not found at {path}")
        rows += [json.loads(line)["sentence"] for line in path.read_text(encoding="utf-8").splitlines() if line]
    changed = [s for s in rows if dictate(s) != s]
    assert changed == []


# --- the offline planner ----------------------------------------------------------------------------


def test_the_planner_types_the_words_themselves_when_asked(planner):
    assert steps(planner.plan("type the word comma")) == [("type_text", {"text": "comma"})]
    assert steps(planner.plan("type a comma splice")) == [("type_text", {"text": "a comma splice"})]
    assert steps(planner.plan("write literal period")) == [("type_text", {"text": "period"})]


def test_dictation_into_a_named_app_and_after_opening_one(planner):
    assert steps(planner.plan("open notepad and type hello comma world period")) == [
        ("open_app", {"name": "notepad"}), ("type_text", {"text": "hello, world."})]
    assert steps(planner.plan("type cap dear john comma in notepad")) == [
        ("switch_to_app", {"name": "notepad"}), ("type_text", {"text": "Dear john,"})]


def test_only_line_breaks_are_enter_presses(planner):
    # type_text refuses text that is only white space: a line break alone is the Enter key
    assert steps(planner.plan("type new line")) == [("press_keys", {"keys": "enter"})]
    assert steps(planner.plan("type new paragraph")) == [("press_keys", {"keys": "enter"})] * 2


def test_a_shell_command_assembled_from_dictation_words_is_still_refused(planner):
    plan = planner.plan("type ls semicolon rm -rf /tmp")
    assert plan.steps == () and "shell command" in plan.final_response


# --- the online planner: the same conventions in its prompt ---------------------------------------------


def test_the_prompt_lists_every_word_and_shows_the_conversion_on_the_example():
    prompt = render_plan_prompt()
    assert prompt_section() in prompt
    for word in WORDS:
        assert f'"{word.said[0]}"' in prompt
    # the example's output is dictate()'s own, so prompt and offline planner cannot disagree
    assert f'"type {EXAMPLE}" -> type_text {json.dumps({"text": dictate(EXAMPLE)})}' in prompt
    assert json.dumps({"text": "dear sir,\nthank you."}) in prompt
    assert '"literal comma"' in prompt and '"the word comma"' in prompt
    assert "{{dictation}}" not in prompt


def test_a_gemini_plan_with_a_line_break_types_it(tmp_path, fake_gemini):
    """Loopback: the real google-genai client gets the prompt with the dictation words, and the
    model's "\\n" reaches the (simulated) desktop as typed."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"GEMINI_API_KEY", "GOOGLE_API_KEY", "DISPLAY"} and not k.startswith(("ANOVAX_", "GOOGLE_"))}
    env.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "cfg"), XDG_STATE_HOME=str(tmp_path / "state"),
               ANOVAX_MEMORY=str(tmp_path / "memory.json"), PYTHONPATH=str(REPO), GEMINI_API_KEY="test",
               ANOVAX_GEMINI_BASE_URL=fake_gemini.base_url, ANOVAX_PLANNER_TIMEOUT="5")
    fake_gemini.script(plan_reply({"steps": [{"tool": "type_text", "params": {"text": "dear sir,\nthank you."}}],
                                   "final_response": "Typing your letter.", "remember": {}}))
    proc = subprocess.run([sys.executable, "-m", "anovax", "--text", f"type {EXAMPLE}", "--simulate", "--json"],
                          capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
    assert proc.returncode == 0, proc.stderr
    last = json.loads(proc.stdout.splitlines()[-1])
    assert last["typed_text"] == "dear sir,\nthank you."
    assert prompt_section() in fake_gemini.requests[0].system_text


# --- by voice: the recogniser can hear the dictation words --------------------------------------------


def test_the_command_language_model_holds_the_dictation_words():
    from anovax.voice import corpus

    sentences = set(corpus.command_sentences())
    assert "type dear sir comma newline thank you period" in sentences  # "new line" is spelt as one word
    for word in WORDS:
        assert any(f" {corpus._clean(said)} " in f" {s} " for s in sentences for said in word.said), word


@pytest.mark.slow
def test_the_spoken_done_when_sentence_is_typed_as_marks(planner, tmp_path):
    """espeak-ng says it, the offline recogniser hears it, the planner types the marks."""
    import speech_recognition as sr
    import voicegen

    from anovax.voice.stt import SphinxCommandRecognizer

    if not voicegen.have_espeak():
        pytest.skip("espeak-ng is not installed (make test installs it)")
    sphinx = SphinxCommandRecognizer(cache_dir=tmp_path / "stt")
    heard = []
    for i, voice in enumerate(voicegen.VOICES):
        path = tmp_path / f"{i}.wav"
        voicegen.render(f"type {EXAMPLE}", path, voice=voice)
        with sr.AudioFile(str(path)) as source:
            heard.append(sphinx.recognize(sr.Recognizer().record(source)))
    typed = [steps(planner.plan(h)) for h in heard]
    assert typed.count([("type_text", {"text": "dear sir,\nthank you."})]) >= len(typed) - 1, heard

"""The request after the name heard again on its own (again.py, issue 19).

The command model holds the name's sound-alikes so that "hey nova" comes out as itself; after a
real name they only compete with the request ("hey anova open notepad" heard as "open nova" in
noise). When the first hearing makes no clear request, the audio after the name is heard again
with a model of requests alone, judged by the same rules."""

from __future__ import annotations

import pytest
import speech_recognition as sr

from anovax.voice import again as again_module
from anovax.voice.confidence import Hearing, WordScore
from anovax.voice.corpus import command_sentences, request_sentences, sound_alike_sentences
from anovax.voice.gate import WakeGate
from anovax.voice.trust import FAINT_POSTERIOR, NAME_FIT_MIN, POSTERIOR_MIN, Trust
from anovax.voice.understand import Understanding


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def words(text: str, posterior: float, start: int = 0, name_fit: float = -10.0) -> tuple[WordScore, ...]:
    return tuple(WordScore(w, start + i * 30, 30, name_fit if w == "anova" else None, None, posterior)
                 for i, w in enumerate(text.split()))


def understands(text: str) -> bool:
    return text in {"open notepad", "open the calculator", "what time is it"}


class Again:
    """A second hearing that counts how often it was asked for."""

    def __init__(self, result: Hearing | None | Exception) -> None:
        self.result, self.calls = result, 0

    def __call__(self) -> Hearing | None:
        self.calls += 1
        if isinstance(self.result, Exception):
            raise self.result
        return self.result


def decide(first: str, first_posterior: float, again: Again) -> tuple[str, str]:
    hearing = Hearing(first, words(first, first_posterior), again=again)
    decision = WakeGate(clock=Clock()).decide(first, trust=Trust(hearing, understands))
    return decision.action, decision.text


def test_a_request_the_first_hearing_missed_is_taken_from_the_second():
    # "open nova": an app nobody has, the sound-alike's word in place of "notepad"
    again = Again(Hearing("open notepad", words("open notepad", 0.8, start=60)))
    assert decide("hey anova open nova", 0.9, again) == ("command", "open notepad")
    assert again.calls == 1


def test_a_first_hearing_that_makes_a_request_never_asks_for_a_second():
    again = Again(Hearing("what time is it", words("what time is it", 0.9, start=60)))
    assert decide("hey anova open notepad", 0.9, again) == ("command", "open notepad")
    # understood but unclear: asked about, as before ("Did you say …?")
    assert decide("hey anova open notepad", POSTERIOR_MIN - 0.1, again) == ("doubt", "open notepad")
    assert again.calls == 0


@pytest.mark.parametrize("second", [
    Hearing("open notepad", words("open notepad", POSTERIOR_MIN - 0.05, start=60)),  # torn the second time too
    Hearing("open nova", words("open nova", 0.9, start=60)),  # nothing it understands
    None,  # could not be heard again
    RuntimeError("pocketsphinx failed"),
])
def test_a_second_hearing_that_makes_no_clear_request_changes_nothing(second):
    again = Again(second)
    action, text = decide("hey anova open nova", 0.9, again)
    assert (action, text) == ("doubt", "open nova")
    assert again.calls == 1


def test_a_faint_last_word_left_out_is_not_heard_again():
    # "hey anova up": a breath made into a word, left out; the name alone wakes AnovaX
    again = Again(Hearing("open notepad", words("open notepad", 1.0, start=60)))
    assert decide("hey anova nova", FAINT_POSTERIOR - 0.05, again) == ("wake", "")
    assert again.calls == 0


def test_words_that_go_out_as_heard_or_only_decline_are_never_taken_from_a_second_hearing():
    # forced words make plausible queries: another hearing of them is another request
    def meaning(text: str) -> Understanding:
        return Understanding(text.startswith(("search for", "send an email")), text.startswith("search for"),
                             ("topic",), declined=text.startswith("send an email"))

    for request in ("search for cats", "send an email to mom"):
        second = Hearing(request, words(request, 1.0, start=60))
        hearing = Hearing("hey anova sir for cats", words("hey anova sir for cats", 0.9), again=Again(second))
        decision = WakeGate(clock=Clock()).decide(hearing.text, trust=Trust(hearing, meaning))
        assert decision.action == "doubt" and decision.text == "sir for cats", request


def test_the_readings_of_a_second_hearing_never_vouch_for_it():
    # its best path makes no clear request ("open the calculate her", or the calculator torn);
    # most of its readings' weight is the calculator: not taken (festival kal's "okay Anna, close
    # the calculator" was heard again as "load up calculator" that way)
    def meaning(text: str) -> Understanding:
        known = {"open the calculator": ("launch", "calculator"), "open a calculator": ("launch", "calculator")}
        return Understanding(text in known, False, known.get(text))

    readings = (("open the calculate her", 0.3), ("open the calculator", 0.5), ("open a calculator", 0.2))
    for request, posterior in (("open the calculate her", 0.9), ("open the calculator", POSTERIOR_MIN - 0.1)):
        second = Hearing(request, words(request, posterior, start=60), alternatives=readings)
        hearing = Hearing("hey anova open nova", words("hey anova open nova", 0.9), again=Again(second))
        decision = WakeGate(clock=Clock()).decide(hearing.text, trust=Trust(hearing, meaning))
        assert (decision.action, decision.text) == ("doubt", "open nova"), request


@pytest.mark.parametrize("fit", [NAME_FIT_MIN - 5, NAME_FIT_MIN - 0.1])
def test_a_second_hearing_is_a_second_chance_for_the_request_never_for_the_name(fit):
    again = Again(Hearing("open notepad", words("open notepad", 1.0, start=60)))
    text = "hey anova open nova"
    hearing = Hearing(text, words(text, 0.9, name_fit=fit), again=again)
    decision = WakeGate(clock=Clock()).decide(text, trust=Trust(hearing, understands))
    assert decision.action == "drop"
    assert again.calls == 0


def test_nothing_is_heard_again_after_a_misheard_wake_word_or_a_rival_name():
    again = Again(Hearing("open notepad", words("open notepad", 1.0, start=60)))
    for text, name_as in (("go anova open nova", ""), ("hey anova open nova", "anna")):
        hearing = Hearing(text, words(text, 0.9), name_as=name_as, again=again)
        decision = WakeGate(clock=Clock()).decide(text, trust=Trust(hearing, understands))
        assert decision.action == "drop", text
    assert again.calls == 0


def test_the_request_model_has_no_name_and_no_sound_alike():
    sentences = command_sentences()
    requests = request_sentences(sentences)
    vocabulary = {w for s in requests for w in s.split()}
    assert "anova" not in vocabulary and "nova" not in vocabulary
    assert not set(requests) & sound_alike_sentences()
    assert {"open notepad", "what time is it", "open the calculator"} <= set(requests)
    assert len(requests) > 0.8 * len(sentences)


# -- the request model itself, on rendered speech ------------------------------------------------

voicegen = pytest.importorskip("voicegen")
needs_espeak = pytest.mark.skipif(not voicegen.have_espeak(), reason="espeak-ng is not installed (make test installs it)")


@pytest.fixture(scope="module")
def sphinx(tmp_path_factory):
    pytest.importorskip("pocketsphinx")
    from anovax.voice.stt import SphinxCommandRecognizer

    return SphinxCommandRecognizer(cache_dir=tmp_path_factory.mktemp("stt-cache"), adaptation=None)


def heard(sphinx, text: str, tmp_path, voice: str = "en-us+f2") -> Hearing:
    path = voicegen.render(text, tmp_path / "said.wav", voice=voice)
    with sr.AudioFile(str(path)) as source:
        audio = sr.Recognizer().record(source)
    return sphinx.hear(audio, lambda _text: True)


@needs_espeak
def test_the_request_is_heard_again_from_the_frame_after_the_name(sphinx, tmp_path):
    hearing = heard(sphinx, "hey anova open the calculator", tmp_path)
    assert hearing.text == "hey anova open the calculator"
    name = next(w for w in hearing.words if w.word == "anova")
    assert sphinx.requests.lm_path.is_file() and not sphinx.requests.unavailable  # loaded when it started
    second = hearing.again()
    assert second is not None and second.text == "open the calculator"
    assert second.words[0].start >= name.start + name.frames
    assert hearing.again() is second  # heard once, however often the checks ask
    assert "anova" not in sphinx.requests.lm_path.read_text(encoding="utf-8")


@needs_espeak
def test_a_cache_without_a_request_model_or_with_a_damaged_one_gets_a_new_one_at_start(sphinx, tmp_path):
    from anovax.voice.stt import SphinxCommandRecognizer

    cache = tmp_path / "cache"
    cache.mkdir()
    for path in (sphinx.lm_path, sphinx.dict_path):
        (cache / path.name).write_bytes(path.read_bytes())
    older = SphinxCommandRecognizer(cache_dir=cache, adaptation=None)  # a cache from before the request model
    assert not older.built and older.requests.lm_path.is_file() and not older.requests.unavailable
    older.requests.lm_path.write_text("\\data\\\nngram 1=banana\n", encoding="utf-8")  # a crash's leftovers
    damaged = SphinxCommandRecognizer(cache_dir=cache, adaptation=None)
    assert not damaged.requests.unavailable
    assert "banana" not in damaged.requests.lm_path.read_text(encoding="utf-8")
    assert heard(damaged, "hey anova open the calculator", tmp_path).again().text == "open the calculator"


@needs_espeak
def test_nothing_is_heard_again_without_a_name_or_with_nothing_after_it(sphinx, tmp_path):
    assert heard(sphinx, "open the calculator", tmp_path).again is None
    alone = heard(sphinx, "hey anova", tmp_path)
    assert alone.text == "hey anova"
    assert alone.again is None or alone.again() is None


def test_a_request_model_that_cannot_be_written_or_started_hears_nothing_and_says_so_once(tmp_path, caplog):
    pytest.importorskip("pocketsphinx")
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    made: list[str] = []

    def new_decoder(lm: str):
        made.append(lm)
        raise RuntimeError("no decoder today")

    model = again_module.RequestModel(["open notepad", "what time is it"], blocked, "x", new_decoder)
    model.load()
    assert made and not made[0].startswith(str(blocked))  # written to a temporary folder instead
    assert model.unavailable == "no decoder today"
    assert "could not be loaded" in caplog.text
    assert model.hear(b"\0" * 32000, 10) is None and model.hear(b"\0" * 32000, 10) is None
    assert len(made) == 1  # not tried again for every phrase


def test_a_command_model_with_no_request_of_its_own_hears_nothing_again(tmp_path):
    model = again_module.RequestModel([], tmp_path, "x", lambda lm: pytest.fail("no model to load"))
    assert model.hear(b"\0" * 32000, 10) is None
    assert model.unavailable and not list(tmp_path.iterdir())


# -- heard ahead, during the pause ---------------------------------------------------------------


class Hears:
    """``RequestModel.hear`` that counts its calls and the threads they came from."""

    def __init__(self, release=None) -> None:
        import threading

        self.calls: list[tuple[bytes, int, str]] = []
        self.release = release
        self._threading = threading

    def __call__(self, piece: bytes, start: int) -> Hearing | None:
        if self.release is not None:
            assert self.release.wait(10)
        self.calls.append((piece, start, self._threading.current_thread().name))
        return Hearing(f"heard {len(piece)} from {start}")


def ahead_model(tmp_path, hears: Hears):
    model = again_module.RequestModel(["open notepad"], tmp_path, "x", lambda lm: pytest.fail("never loaded"))
    model.hear = hears
    return model


def test_a_request_heard_ahead_is_the_answer_for_the_same_audio_and_never_heard_twice(tmp_path):
    hears = Hears()
    model = ahead_model(tmp_path, hears)
    assert model.ahead(b"a" * 4000, 70, lambda: True)
    assert not model.ahead(b"a" * 4000, 70, lambda: True)  # the same audio: not heard twice
    answer = model.later(b"a" * 4000, 70)()
    assert answer is not None and answer.text == "heard 4000 from 70"
    assert [name for *_, name in hears.calls] == ["anovax-request-again"]  # on the worker, once


@pytest.mark.parametrize("piece, start", [(b"a" * 4032, 70), (b"a" * 4000, 71), (b"b" * 4000, 70)])
def test_a_request_heard_ahead_for_other_audio_is_never_used(tmp_path, piece, start):
    # the speech went on after the pause, or the final path put the name's end elsewhere
    hears = Hears()
    model = ahead_model(tmp_path, hears)
    assert model.ahead(b"a" * 4000, 70, lambda: True)
    answer = model.later(piece, start)()
    assert answer is not None and answer.text == f"heard {len(piece)} from {start}"
    assert (piece, start) in [(p, s) for p, s, _ in hears.calls]


@pytest.mark.parametrize("wanted", [lambda: False, lambda: 1 / 0])
def test_a_request_not_wanted_ahead_or_whose_check_failed_is_heard_when_asked(tmp_path, wanted):
    hears = Hears()
    model = ahead_model(tmp_path, hears)
    assert model.ahead(b"a" * 4000, 70, wanted)
    assert model.later(b"a" * 4000, 70)().text == "heard 4000 from 70"
    assert [name for *_, name in hears.calls] == ["MainThread"]


def test_one_request_is_heard_ahead_at_a_time_and_asking_waits_for_it(tmp_path):
    import threading

    release = threading.Event()
    hears = Hears(release)
    model = ahead_model(tmp_path, hears)
    assert model.ahead(b"a" * 4000, 70, lambda: True)
    assert not model.ahead(b"b" * 4000, 70, lambda: True)  # the first still runs
    asked = []
    asker = threading.Thread(target=lambda: asked.append(model.later(b"a" * 4000, 70)()))
    asker.start()
    asker.join(0.2)
    assert asker.is_alive() and not asked  # waits for the worker instead of hearing it again
    release.set()
    asker.join(10)
    assert [h.text for h in asked] == ["heard 4000 from 70"] and len(hears.calls) == 1


@needs_espeak
def test_a_request_heard_during_the_pause_is_what_hearing_it_after_the_pause_gives(tmp_path, tmp_path_factory):
    # m1 in the room's noise: "open nova" for "open notepad", the case the second hearing is for
    from anovax.voice.audio import CHUNK, MIN_ENERGY
    from anovax.voice.endpoint import PhraseCutter
    from anovax.voice.stt import SphinxCommandRecognizer

    def streamed(ahead: bool) -> tuple[list[Hearing], list[str]]:
        recognizer = SphinxCommandRecognizer(cache_dir=cache, adaptation=None)
        recognizer.hear_ahead = (lambda before, fit, name_as, words: asked.append(words) or True) if ahead else None
        threads: list[str] = []
        hear = recognizer.requests.hear

        def counting(piece: bytes, start: int):
            threads.append(threading.current_thread().name)
            return hear(piece, start)

        recognizer.requests.hear = counting
        recognizer.recognize(sr.AudioData(speech[0], 16000, 2))  # its first phrase is decoded whole
        if ahead:  # the request decoder has heard something else first: nothing carries over
            recognizer.requests.hear(speech[1][::-1], 0)
            threads.clear()
        out = []
        for raw in speech:
            data = quiet + raw + quiet
            begun = []
            cutter = PhraseCutter(MIN_ENERGY, rate=16000, width=2,
                                  begin=lambda: begun.append(recognizer.begin()) or begun[-1])
            for i in range(0, len(data) + CHUNK * 2, CHUNK * 2):
                frames = data[i:i + CHUNK * 2]
                if begun and cutter.in_phrase:
                    begun[-1]._ahead.wait()  # a pause as long in time as at the microphone: the name's check is made
                cut = cutter.push(frames) if frames else cutter.end()
                if cut is not None:
                    hearing = cut.utterance.finish_hearing(lambda _text: True)
                    out.append(hearing.again() if hearing.again is not None else None)
                if not frames:
                    break
        assert (recognizer.requests.ahead_heard, recognizer.requests.ahead_used) == ((3, 3) if ahead else (0, 0))
        return out, threads

    import threading
    import wave

    cache = tmp_path_factory.mktemp("stt-ahead")
    quiet = b"\x00\x00" * 16000
    speech = []
    for n, text in enumerate(["hey anova open notepad", "wake up anova open notepad", "hello anova open notepad"]):
        path = voicegen.render(text, tmp_path / f"{n}.wav", voice="en-us+m1", noise=0.1)
        with wave.open(str(path)) as w:
            speech.append(w.readframes(w.getnframes()))
    asked: list[str] = []
    during, threads = streamed(True)
    after, threads_after = streamed(False)
    assert asked, "no request was heard ahead"
    assert threads == ["anovax-request-again"] * len(speech)  # each heard on the pause's worker, once
    assert [a.text if a is not None else None for a in during] == [a.text if a is not None else None for a in after]
    assert during == after  # the words, their frames and posteriors
    assert "anovax-request-again" not in threads_after


def test_a_request_is_heard_ahead_only_when_the_gate_will_ask_for_it():
    from anovax.voice.trust import worth_hearing_again

    def planner(text: str) -> Understanding:
        if text == "broken":
            raise RuntimeError("planner bug")
        return Understanding(text in {"open notepad", "open nova"}, False, unknown_name=text == "open nova",
                             fuzzy=text == "switch the notepad")

    def worth(words: str, fit: float | None = NAME_FIT_MIN + 1, name_as: str = "anova", before=("hey",)) -> bool:
        return worth_hearing_again(planner, list(before), fit, name_as, words)

    assert not worth("open notepad")
    assert worth("open nova")  # an app nobody has: the recogniser made it up
    assert worth("switch the notepad")  # only its fuzzy matcher read it
    assert worth("set a timer for five read")
    assert not worth("broken")  # a broken check: nothing heard ahead, asked for as before
    # a name that will not pass is never worth a second hearing: words that make no request are
    # no strong request to excuse a poor fit, a rival's name is not the name, nor after "go"
    assert worth("open nova", fit=NAME_FIT_MIN) and not worth("open nova", fit=NAME_FIT_MIN - 0.1)
    assert not worth("open nova", fit=None)
    assert not worth("open nova", name_as="nova") and worth("open nova", name_as="")
    from anovax.voice.wakewords import MISHEARD_WAKE_WORDS

    assert not worth("open nova", before=next(iter(MISHEARD_WAKE_WORDS)))
    # only what the gate judges after the wake form: nothing to ask about after "anova wake up",
    # and a name without wake words, or after a sentence's first words, is never judged
    assert not worth("wake up", before=()) and worth("wake up open nova", before=())
    assert not worth("open nova", before=()) and not worth("open nova", before=("can", "you", "hey"))
    assert worth("open nova", before=("um", "hey"))
    assert not worth("open hey anova open nova", before=())  # a later name is judged, not the one checked


def test_the_voice_pipeline_tells_the_recogniser_which_requests_to_hear_ahead():
    from anovax.voice.pipeline import VoicePipeline

    class Recognizer:
        hear_ahead = None

        def recognize(self, audio) -> str:
            return ""

    recognizer = Recognizer()
    VoicePipeline(recognizer, WakeGate(clock=Clock()), on_command=print, stop_speaking=print, understands=understands)
    assert recognizer.hear_ahead(["hey"], -10.0, "anova", "open nova")
    assert not recognizer.hear_ahead(["hey"], -10.0, "anova", "open notepad")
    VoicePipeline(recognizer, WakeGate(clock=Clock()), on_command=print, stop_speaking=print)
    assert recognizer.hear_ahead is None  # no planner to ask: nothing heard ahead

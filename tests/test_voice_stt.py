"""Offline speech recognition (issue 6 point 3): the command corpus, the pocketsphinx recogniser
with its cached command language model, and the opt-in Google recogniser's error mapping.

The recognition tests speak real sentences with espeak-ng at test time (see voicegen.py) and
decode them the way the listener will: ``sr.AudioFile`` -> ``Recognizer().record`` ->
``SphinxCommandRecognizer.recognize``. They skip only when espeak-ng is missing."""

from __future__ import annotations

import json
import os
import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import speech_recognition as sr

import voicegen
from anovax.errors import AnovaXError
from anovax.planner import lexicon
from anovax.voice import corpus, stt
from anovax.voice.stt import (
    STT_CHOICES,
    GoogleRecognizer,
    Recognizer,
    SphinxCommandRecognizer,
    SttError,
    make_recognizer,
    map_google_result,
)

needs_espeak = pytest.mark.skipif(not voicegen.have_espeak(), reason="espeak-ng is not installed (make test installs it)")

#: wake phrases: every wake phrase alone, then followed by commands (none of these pairs is
#: chosen to be in the corpus; about 1 in 10 commands appears there after a wake phrase)
WAKE_SET = list(corpus.WAKE_PHRASES) + [
    "hey anova open notepad", "hello anova what time is it", "anova take a screenshot",
    "hi anova tell me a joke", "yo anova search for the news", "wake up anova open the browser",
    "hey anova go to sleep", "anova open the calculator", "hello anova play some music",
    "hi anova what's the date today", "yo anova open firefox", "hey anova press enter",
    "anova what day is it", "wake up anova stop",
]
#: sound-alikes of the wake phrase that must not wake it
SOUND_ALIKES = ["a nova", "hey nova", "and over", "another", "hey now"]
#: everyday commands, for the word error rate
COMMANDS = [
    "open notepad", "open the calculator", "what time is it", "what's the date today", "take a screenshot",
    "search for the weather", "open notepad and type hello world", "press enter", "tell me a joke",
    "play relaxing music on youtube", "open the terminal", "save the file", "select all", "wait five seconds",
    "what day is it today", "start the terminal", "zoom in", "type a shopping list", "look up pasta recipes",
    "go to sleep",
]


# --- the corpus ----------------------------------------------------------------------------------------


def test_corpus_is_deterministic_sorted_unique_and_capped():
    first = corpus.command_sentences()
    assert first == corpus.command_sentences()
    assert first == sorted(set(first))
    assert 1000 < len(first) <= corpus.MAX_SENTENCES
    assert all(s == " ".join(s.split()) and s == s.lower() and s for s in first)


def test_corpus_has_every_wake_and_sleep_phrase_and_wake_plus_command():
    sentences = set(corpus.command_sentences())
    for wake in ("wake up", "hey", "hello", "hi", "yo"):
        assert f"{wake} anova" in sentences
    assert "anova" in sentences
    for sleep in ("go to sleep", "stop", "cancel"):
        assert sleep in sentences
        assert f"hey anova {sleep}" in sentences
    # commands follow each wake phrase
    for wake in corpus.WAKE_PHRASES:
        assert sum(s.startswith(wake + " ") and s.split()[len(wake.split())] == "open" for s in sentences) >= 3, wake


def test_corpus_comes_from_the_planner_grammar_and_tables():
    sentences = set(corpus.command_sentences())
    words = {w for s in sentences for w in s.split()}
    # grammar.yaml templates, lexicon APP_ALIASES, desktop app tables, hotkey phrases, numbers
    assert {"open notepad", "take a screenshot", "what time is it", "open calculator", "select all"} <= sentences
    assert {"gedit", "thunderbird", "spotify", "discord"} <= words
    assert {"five", "twenty"} <= words
    # one spelling per spoken form; the name is "anova", never "anovax"
    assert "anovax" not in words and "screenshot" in words and "whats" not in words
    # the sound-alikes of the wake word are representable by other words
    assert {"nova", "over", "another", "now", "a", "and"} <= words


def test_every_short_hotkey_phrase_and_wake_plus_open_are_sentences_of_their_own():
    # the generated selection sentences ("highlight all the text on the page") once crowded
    # "select all", "copy" and "undo" out of the sampled model
    sentences = set(corpus.command_sentences())
    short = {corpus._clean(k) for k in lexicon.HOTKEY_SHORT}
    assert len(short) > 50 and short <= sentences
    assert len(lexicon.HOTKEY_PHRASES) > 2 * len(short)  # the generated ones are still there to sample
    assert {f"{w} open the terminal" for w in corpus.WAKE_PHRASES} <= sentences


def test_corpus_includes_the_users_own_app_names(monkeypatch):
    monkeypatch.setattr(lexicon, "USER_APPS", {"Blender", "obs studio"})
    sentences = set(corpus.command_sentences())
    assert "open blender" in sentences and "open obs studio" in sentences


def test_the_grammar_is_parsed_once_per_process():
    from anovax.planner.grammar import load_grammar

    first = corpus.command_sentences()
    parsed = load_grammar.cache_info().misses
    assert corpus.command_sentences() == first  # the same sentences, from the grammar parsed once
    assert load_grammar.cache_info().misses == parsed


# --- the recogniser: files, cache, decoder --------------------------------------------------------------


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("stt-cache")


@pytest.fixture(scope="module")
def sphinx(cache_dir):
    return SphinxCommandRecognizer(cache_dir=cache_dir)


def test_recogniser_builds_then_reuses_the_cached_model(tmp_path):
    sentences = ["hey anova", "open notepad", "take a screenshot", "a nova"]
    first = SphinxCommandRecognizer(sentences, cache_dir=tmp_path)
    assert first.built
    assert first.lm_path.is_file() and first.dict_path.is_file()
    assert first.lm_path.parent == tmp_path
    stamps = (first.lm_path.stat().st_mtime_ns, first.dict_path.stat().st_mtime_ns)

    second = SphinxCommandRecognizer(sentences, cache_dir=tmp_path)
    assert not second.built
    assert second.lm_path == first.lm_path
    assert (second.lm_path.stat().st_mtime_ns, second.dict_path.stat().st_mtime_ns) == stamps

    other = SphinxCommandRecognizer([*sentences, "open the calculator"], cache_dir=tmp_path)
    assert other.built and other.key != first.key
    assert len(list(tmp_path.glob("*.lm"))) == 4  # each command model and, built with it, its request model
    assert {p.name for p in tmp_path.glob("*.request-*.lm")} == {first.requests.lm_path.name, other.requests.lm_path.name}


def test_dictionary_is_cut_to_the_model_words_with_extra_pronunciations(tmp_path):
    rec = SphinxCommandRecognizer(["hey anova open gedit", "take a screengrab", "open zzqx"], cache_dir=tmp_path)
    assert rec.dropped == 1  # "zzqx" has no pronunciation: its sentence is left out
    assert rec.words == {"hey", "anova", "open", "gedit", "take", "a", "screengrab"}
    lines = rec.dict_path.read_text().splitlines()
    assert "anova AH N OW V AA" in lines and "anova(2) AE N OW V AH" in lines
    assert any(line.startswith("gedit ") for line in lines)
    lm = rec.lm_path.read_text()
    assert "<s>" in lm and "</s>" in lm and "zzqx" not in lm


def test_unwritable_cache_falls_back_to_a_temporary_folder(tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache folder should be")
    rec = SphinxCommandRecognizer(["hey anova", "open notepad"], cache_dir=blocker / "stt")
    assert rec.built and rec.lm_path.is_file() and blocker not in rec.lm_path.parents
    assert rec.decoder is not None


def test_damaged_cache_is_rebuilt(tmp_path):
    sentences = ["hey anova", "open notepad"]
    first = SphinxCommandRecognizer(sentences, cache_dir=tmp_path)
    first.lm_path.write_text("not an arpa file\n")
    second = SphinxCommandRecognizer(sentences, cache_dir=tmp_path)
    assert second.built and "\\data\\" in second.lm_path.read_text()


def test_dither_without_audioop_matches(monkeypatch):
    raw = bytes(range(256)) * 100 + b"\xff\x7f" * 500 + b"\x00\x80" * 500  # includes full-scale samples
    with_audioop = stt._dither(raw, stt.DITHER_RMS)
    monkeypatch.setattr(stt, "audioop_function", lambda _name: None)
    assert stt._dither(raw, stt.DITHER_RMS) == with_audioop != raw
    assert stt._dither(raw, 0) == raw


def test_default_cache_dir_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert stt.default_cache_dir() == tmp_path / "anovax" / "stt"


def test_recogniser_satisfies_the_protocol(sphinx):
    assert isinstance(sphinx, Recognizer)
    assert sphinx.name == "sphinx" and sphinx.offline is True
    assert isinstance(GoogleRecognizer(), Recognizer)


def test_empty_and_silent_audio_give_nothing(sphinx):
    assert sphinx.recognize(sr.AudioData(b"", 16000, 2)) == ""
    assert sphinx.recognize(sr.AudioData(b"\0", 16000, 2)) == ""
    assert sphinx.recognize(sr.AudioData(b"\0\0" * 800, 16000, 2)) == ""  # 50 ms
    assert sphinx.recognize(sr.AudioData(b"\0\0" * 32000, 16000, 2)) == ""  # 2 s of digital silence
    assert sphinx.recognize(sr.AudioData(b"\0\0" * 44100, 44100, 2)) == ""  # converted to 16 kHz first


def test_engine_failure_is_an_stt_error(sphinx):
    class Broken:
        def get_raw_data(self, convert_rate=None, convert_width=None):
            raise ValueError("bad sample width")

    with pytest.raises(SttError) as err:
        sphinx.recognize(Broken())
    assert isinstance(err.value, AnovaXError) and err.value.code == "stt_failed"
    assert err.value.message.endswith(".") and "\n" not in err.value.message


def test_normalise():
    assert stt.normalise("  Hey   ANOVA(2) <sil> [NOISE] open  ") == "hey anova open"
    assert stt.normalise("") == ""


# --- recognition of spoken commands -----------------------------------------------------------------------


def _render_all(phrases, tmp_path, noise=0.0):
    """{(voice, phrase): AudioData}, rendered in parallel (espeak-ng and sox are processes)."""
    jobs = [(v, p, tmp_path / f"{i}-{v.replace('+', '_')}.wav") for v in voicegen.VOICES for i, p in enumerate(phrases)]

    def one(job):
        voice, phrase, path = job
        voicegen.render(phrase, path, voice=voice, noise=noise)
        with sr.AudioFile(str(path)) as source:
            return (voice, phrase), sr.Recognizer().record(source)

    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(pool.map(one, jobs))


@pytest.fixture(scope="module")
def spoken(tmp_path_factory):
    if not voicegen.have_espeak():
        pytest.skip("espeak-ng is not installed (make test installs it)")
    tmp = tmp_path_factory.mktemp("speech")
    return _render_all(sorted(set(WAKE_SET + SOUND_ALIKES + COMMANDS)), tmp)


@pytest.mark.slow
@needs_espeak
def test_wake_phrases_wake_it(sphinx, spoken):
    heard = {(v, p): sphinx.recognize(spoken[v, p]) for v in voicegen.VOICES for p in WAKE_SET}
    missed = {k: h for k, h in heard.items() if "anova" not in h.split()}
    assert len(missed) <= 0.05 * len(heard), missed


@needs_espeak
def test_sound_alikes_do_not_wake_it(sphinx, spoken):
    heard = {(v, p): sphinx.recognize(spoken[v, p]) for v in voicegen.VOICES for p in SOUND_ALIKES}
    woke = {k: h for k, h in heard.items() if "anova" in h.split()}
    # "a nova" and "anova" differ by one vowel (AH vs AE) and espeak-ng's klatt4 voice says
    # them alike: 1 of 15 is what was measured, and what is allowed
    assert len(woke) <= 1, woke


@pytest.mark.slow
@needs_espeak
def test_command_word_error_rate(sphinx, spoken):
    rates = {(v, p): voicegen.wer(p, sphinx.recognize(spoken[v, p])) for v in voicegen.VOICES for p in COMMANDS}
    mean = sum(rates.values()) / len(rates)
    assert mean <= 0.15, sorted((r, k) for k, r in rates.items() if r)[-10:]
    for voice in voicegen.VOICES:
        per_voice = [r for (v, _), r in rates.items() if v == voice]
        assert sum(per_voice) / len(per_voice) <= 0.25, voice


@pytest.mark.slow
@needs_espeak
def test_open_the_terminal_is_heard_after_every_wake_word(tmp_path):
    """cmudict's only "terminal" has a schwa where espeak-ng (and many people) say "ih": without
    the extra pronunciation 18 of these 30 came out right (the rest "open the google", "open the
    the beatles"...), with it 22. Rendering is deterministic (sox -R) and a fresh recogniser has
    no cepstral mean carried over from other tests' phrases, so the count is the same each run."""
    recognizer = SphinxCommandRecognizer(cache_dir=tmp_path / "cache")
    phrases = [f"{wake} anova open the terminal" for wake in ("hey", "hello", "hi", "yo", "wake up")]
    heard = []
    for noise in (0.0, 0.1):
        folder = tmp_path / f"noise-{noise}"
        folder.mkdir()
        spoken = _render_all(phrases, folder, noise=noise)
        heard += [recognizer.recognize(spoken[voice, phrase]) for voice in voicegen.VOICES for phrase in phrases]
    right = [h for h in heard if h.endswith("anova open the terminal")]
    assert len(right) >= 21, [h for h in heard if h not in right]


@needs_espeak
def test_one_decoder_is_reused_and_safe_across_threads(sphinx, spoken):
    decoder = sphinx.decoder
    clips = [spoken["en-us+klatt4", p] for p in ("open notepad", "take a screenshot", "what time is it", "hey anova")]
    serial = [sphinx.recognize(c) for c in clips]
    assert serial[0] == "open notepad"
    assert sphinx.decoder is decoder
    with ThreadPoolExecutor(max_workers=4) as pool:
        parallel = list(pool.map(sphinx.recognize, clips * 3))
    assert parallel == serial * 3
    assert sphinx.decoder is decoder


# --- choosing a recogniser; Google's errors without the network -------------------------------------------------


def test_make_recognizer(cache_dir):
    assert STT_CHOICES == ("sphinx", "google")
    rec = make_recognizer("sphinx", cache_dir=cache_dir)
    assert isinstance(rec, SphinxCommandRecognizer) and rec.offline
    google = make_recognizer("google")
    assert isinstance(google, GoogleRecognizer) and google.name == "google" and not google.offline
    with pytest.raises(ValueError, match="sphinx, google"):
        make_recognizer("vosk")


class _FakeGoogle(BaseHTTPRequestHandler):
    """Answers like Google's speech API v2: one JSON object per line."""

    reply: tuple[int, str] = (200, "")

    def do_POST(self):  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        status, body = self.server.reply
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, *args):
        pass


@pytest.fixture
def fake_google():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeGoogle)
    server.reply = (200, "")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


AUDIO = sr.AudioData(b"\0\0" * 8000, 16000, 2)


def test_google_maps_text_nothing_and_errors(fake_google):
    url = f"http://127.0.0.1:{fake_google.server_address[1]}/speech-api/v2/recognize"
    rec = GoogleRecognizer(endpoint=url, timeout=5)
    best = {"alternative": [{"transcript": "Open Notepad, please!", "confidence": 0.9}], "final": True}
    fake_google.reply = (200, '{"result":[]}\n' + json.dumps({"result": [best], "result_index": 0}) + "\n")
    assert rec.recognize(AUDIO) == "open notepad please"
    fake_google.reply = (200, '{"result":[]}\n')
    assert rec.recognize(AUDIO) == ""  # UnknownValueError: nothing understood
    fake_google.reply = (500, "oops")
    with pytest.raises(SttError, match="^Google speech recognition is unreachable: "):
        rec.recognize(AUDIO)


def test_google_unreachable_is_an_stt_error():
    rec = GoogleRecognizer(endpoint=f"http://127.0.0.1:{_free_port()}/recognize", timeout=5)
    with pytest.raises(SttError) as err:
        rec.recognize(AUDIO)
    assert err.value.message.startswith("Google speech recognition is unreachable: ")
    assert isinstance(err.value.__cause__, sr.RequestError)


def test_google_result_mapping_without_the_library_call():
    def raises(exc):
        def call():
            raise exc
        return call

    assert map_google_result(lambda: "Hello  World") == "hello world"
    assert map_google_result(raises(sr.UnknownValueError())) == ""
    with pytest.raises(SttError, match="^Google speech recognition is unreachable: recognition connection failed: refused[.]$"):
        map_google_result(raises(sr.RequestError("recognition connection failed: refused")))
    with pytest.raises(SttError, match="^Google speech recognition failed: timed out[.]$"):
        map_google_result(raises(TimeoutError("timed out")))  # a read timeout is not wrapped by the library
    with pytest.raises(KeyError):  # anything else is a bug, not an engine failure: not hidden
        map_google_result(raises(KeyError("x")))


# --- the test helper itself ----------------------------------------------------------------------------------


def test_wer():
    assert voicegen.wer("open notepad", "open notepad") == 0.0
    assert voicegen.wer("open notepad", "open the notepad") == 0.5
    assert voicegen.wer("open notepad", "") == 1.0
    assert voicegen.wer("a b c d", "a x c") == 0.5
    assert voicegen.wer("", "") == 0.0 and voicegen.wer("", "x") == 1.0


@needs_espeak
def test_render_writes_16khz_mono_speech_with_noise(tmp_path):
    import wave

    clean = voicegen.render("open notepad", tmp_path / "clean.wav")
    with wave.open(str(clean)) as w:
        assert w.getnchannels() == 1 and w.getsampwidth() == 2
        if voicegen.have_sox():
            assert w.getframerate() == 16000
        assert w.getnframes() > 0.5 * w.getframerate()
    if voicegen.have_sox():
        noisy = voicegen.render("open notepad", tmp_path / "noisy.wav", noise=0.1)
        assert noisy.read_bytes() != clean.read_bytes()
        assert os.path.getsize(noisy) == os.path.getsize(clean)

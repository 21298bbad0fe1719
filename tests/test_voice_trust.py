"""The wake gate's trust checks as pure logic: a scored ``Hearing`` in, a decision out (issue 19).

The closed-vocabulary recogniser forces speech into its own sentences; the gate acts on a phrase
only when the name was clearly said (its alignment fit) and the command is a request the planner
understands and was clearly heard. Otherwise it drops the phrase, or asks "Did you say …?"."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from anovax.voice.confidence import Hearing, WordScore, loop_score
from anovax.voice.gate import WakeGate
from anovax.voice.trust import ASK_NAME_RATIO, NAME_RATIO_FLOOR, NAME_RATIO_MIN, NOISE_POSTERIOR, POSTERIOR_MIN, Trust


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def gate():
    return WakeGate(clock=Clock())


def hearing(text: str, name_ratio: float = -1.0, posterior: float = 0.9) -> Hearing:
    """``text`` scored: the name's fit is ``name_ratio`` below what a phone loop finds on the
    same frames (-10 per frame), every word heard with ``posterior``."""
    words = []
    for i, word in enumerate(text.split()):
        if word == "anova":
            words.append(WordScore(word, i * 30, 30, -10.0 + name_ratio, -30.0, posterior, loop=-10.0))
        else:
            words.append(WordScore(word, i * 30, 30, -8.0, -16.0, posterior))
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
    assert decide(gate, "hey anova open notepad", name_ratio=NAME_RATIO_FLOOR - 1, posterior=1.0) == ("drop", "")
    assert decide(gate, "hey anova", name_ratio=NAME_RATIO_MIN - 0.1) == ("drop", "")
    assert not gate.awake


def test_a_poorly_said_name_passes_only_with_a_very_clear_request(gate):
    between = (NAME_RATIO_MIN + NAME_RATIO_FLOOR) / 2
    assert decide(gate, "hey anova open notepad", name_ratio=between, posterior=0.99) == ("command", "open notepad")
    assert decide(gate, "hey anova open notepad", name_ratio=between, posterior=0.7) == ("drop", "")


def test_trailing_words_heard_with_almost_no_confidence_are_noise(gate):
    words = hearing("hey anova up")
    noisy = Hearing("hey anova up", (*words.words[:2], WordScore("up", 60, 30, None, None, NOISE_POSTERIOR / 2)))
    decision = gate.decide("hey anova up", trust=Trust(noisy, understands))
    assert decision.action == "wake" and gate.awake  # the name alone: the next phrase is the command


def test_an_unclear_request_after_a_name_that_only_just_passed_is_dropped_not_asked(gate):
    assert decide(gate, "hey anova can you press us alt", name_ratio=ASK_NAME_RATIO - 5) == ("drop", "")


def test_words_the_planner_does_not_understand_are_asked_about(gate):
    assert decide(gate, "hey anova can you press us alt", name_ratio=ASK_NAME_RATIO + 2) == ("doubt", "can you press us alt")


def test_a_request_the_recogniser_was_torn_on_is_asked_about(gate):
    assert decide(gate, "hey anova open notepad", name_ratio=ASK_NAME_RATIO + 2, posterior=POSTERIOR_MIN - 0.1) == \
        ("doubt", "open notepad")


def test_after_the_name_alone_the_next_phrase_is_judged_the_same_way(gate):
    assert decide(gate, "hey anova") == ("wake", "")
    assert decide(gate, "press us alt") == ("doubt", "press us alt")
    assert not gate.awake  # one phrase: the talk after it needs the name again
    assert decide(gate, "open notepad") == ("drop", "")


def test_scoring_that_failed_vouches_for_nothing(gate):
    failed = Hearing("hey anova open notepad", hearing("hey anova open notepad").words, unscored=True)
    assert gate.decide("hey anova open notepad", trust=Trust(failed, understands)).action == "drop"


def test_an_unscored_online_recogniser_is_taken_at_its_word(gate):
    online = Hearing("hey anova open notepad")  # not closed-vocabulary: it does not force words
    assert gate.decide("hey anova open notepad", trust=Trust(online, understands)).action == "command"


def test_a_broken_understanding_check_vouches_for_nothing(gate):
    def broken(_text: str) -> bool:
        raise RuntimeError("grammar failed to load")
    decision = gate.decide("hey anova open notepad", trust=Trust(hearing("hey anova open notepad", name_ratio=-1), broken))
    assert decision.action == "doubt"


def test_the_gate_asks_for_scores_only_when_a_phrase_could_act(gate):
    assert not gate.needs_trust("what is the weather like")
    assert gate.needs_trust("hey anova open notepad")
    gate.decide("hey anova")
    assert gate.needs_trust("open notepad")  # awake: the next phrase may act


def test_a_name_without_a_phone_loop_score_is_not_vouched_for(gate):
    # the fit alone moves with the voice and the microphone: without the loop there is no yardstick
    words = hearing("hey anova open notepad").words
    bare = Hearing("hey anova open notepad", tuple(replace(w, loop=None) for w in words))
    assert gate.decide("hey anova open notepad", trust=Trust(bare, understands)).action == "drop"


def test_the_ratio_is_the_fit_against_the_phone_loop():
    assert WordScore("anova", 0, 30, -20.0, -40.0, 1.0, loop=-8.0).ratio == -12.0
    assert WordScore("anova", 0, 30, -20.0, -40.0, 1.0).ratio is None
    assert WordScore("anova", 0, 30, None, None, 1.0, loop=-8.0).ratio is None


class _Seg:
    def __init__(self, first: int, last: int, per_frame: float) -> None:
        self.start_frame, self.end_frame = first, last
        self.ascore = math.exp(per_frame * (last - first + 1) * math.log(1.0001))


class _Loop:
    """A phone-loop decoder that has already found its phones (the scores per frame)."""

    def __init__(self, segs: list[_Seg]) -> None:
        self.segs = segs
        self.fed = 0

    def start_utt(self) -> None: ...

    def process_raw(self, raw: bytes, no_search: bool = False, full_utt: bool = False) -> None:
        self.fed += len(raw)

    def end_utt(self) -> None: ...

    def seg(self) -> list[_Seg]:
        return self.segs


def test_the_loop_score_counts_straddling_phones_by_their_frames_inside():
    loop = _Loop([_Seg(0, 9, -2.0), _Seg(10, 19, -10.0), _Seg(20, 39, -4.0)])
    # frames 15..24: five of the -10 phone, five of the -4 one
    assert loop_score(loop, b"\0" * 12800, 15, 10) == pytest.approx(-7.0, abs=1e-6)
    assert loop.fed == 12800


def test_a_loop_score_that_underflowed_is_no_score():
    assert loop_score(_Loop([_Seg(0, 9, -2.0), _Seg(10, 19, -10.0)]), b"\0" * 6400, 0, 20) is not None
    dead = _Seg(10, 19, -1.0)
    dead.ascore = 0.0
    assert loop_score(_Loop([_Seg(0, 9, -2.0), dead]), b"\0" * 6400, 0, 20) is None

"""The wake gate: which recognised phrases reach ``Assistant.on_speech``, and which are dropped unheard.

Pure logic over text and times, with an injectable monotonic clock, so every rule is unit-tested
without audio. The listener feeds it each recognised phrase with the time its capture started and
ended; the event bus feeds it SPEAK_START/SPEAK_END (``speaking_started``/``speaking_ended``).

Rules, in the order they apply:

1. Nothing recognised: dropped.
2. While the assistant speaks, everything is dropped (the microphone hears the loudspeaker),
   except a barge-in: "stop" or "cancel" (optionally with "anova", "please"...). It cuts the
   speech off without going to the planner. If the sentence being spoken itself contains that
   word, only "anova stop" counts: a bare "stop" is then as likely the assistant's own echo.
3. A phrase whose capture overlapped the assistant's speech (started before SPEAK_END plus a
   short tail for audio still in the output buffers) is dropped: it is mostly the reply itself.
4. Asleep: a phrase is for AnovaX only if the word "anova" sits next to a wake word ("hey
   anova", "wake up anova", "anova wake up") and, with a scoring recogniser, the name was
   clearly said (trust.py: a closed-vocabulary recogniser forces "hey Anna" into "hey anova"),
   with at most one word before the wake words, and a pause after it ("um, hey anova"; else
   said to someone else mid-sentence: "ask Hannah to…" heard as "ask hi anova…").
   Words after the wake span are a command ("hey anova open notepad" → "open notepad") when the
   offline planner understands them and they were clearly heard; otherwise a "doubt": the
   listener asks "Did you say …?" and nothing runs without a yes. Either way the gate stays
   asleep: what is said next in the room needs the name again.
5. Awake, after the name alone ("hey anova"): the next phrase within ``timeout_s`` is the
   command (or a doubt, as above), then the gate sleeps again. "go to sleep" puts it to sleep at
   once, and so does ``timeout_s`` without a phrase (``poll``). Time spent speaking never counts.

While a question waits for an answer (``question_asked`` until ``question_closed`` or the end of
its window), question.py's rules come after rules 1-3: a clear yes or no answers it without the
wake word; a new command that names all it acts on replaces it.

Hold-to-talk (``talk_started``/``talk_ended``, holds.py): asleep, a phrase said with the key held
is a command without the wake word, for that phrase only; rules 1-3 and the question rules apply.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

from anovax.cancel import is_stop_utterance
from anovax.voice.decision import Action, GateDecision  # noqa: F401 - GateDecision is imported from here too
from anovax.voice.holds import TALK_GRACE_S, TalkHolds
from anovax.voice.question import Question, answer, instead_of_an_answer
from anovax.voice.takeback import takes_back
from anovax.voice.trust import Trust
from anovax.voice.wakewords import (  # noqa: F401 - NAME, WAKE_WORDS... are imported from here too
    MISHEARD_WAKE_WORDS, NAME, SLEEP_PHRASE, WAKE_WORDS, WORDS_BEFORE_WAKE_MAX, _find, _wake_span, _Word, _words,
    name_in_span)

#: words that cut speech off
BARGE_WORDS = frozenset({"stop", "cancel"})
#: words that may come with a barge-in word without changing what it means ("anova stop it please")
#: ("no" too: "no, stop" and "no, cancel that" cut it off; "no" alone is no barge-in)
BARGE_FILLERS = frozenset({NAME, "please", "now", "it", "that", "talking", "hey", "okay", "ok", "just", "no"})
#: seconds after SPEAK_END during which a phrase that started is still the assistant's own voice
#: (audio queued in the sound server's buffers, and the room's echo)
SPEECH_TAIL_S = 0.3
#: after the name alone, how long the gate waits for the command (one phrase)
DEFAULT_TIMEOUT_S = 8.0
#: after a voice command ends (or while it runs), how long "stop" / "cancel that" needs no name
STOP_WINDOW_S = 8.0


class WakeGate:
    """Asleep/awake state plus the assistant's speaking state; thread-safe.

    ``decide`` is called by the listening thread, ``speaking_*`` by the event bus's thread and
    ``poll``/``touch`` by either, hence one lock around all state.
    """

    def __init__(self, *, timeout_s: float = DEFAULT_TIMEOUT_S, tail_s: float = SPEECH_TAIL_S,
                 clock: Callable[[], float] = time.monotonic, talk_grace_s: float = TALK_GRACE_S) -> None:
        self.timeout_s = timeout_s
        #: hold-to-talk: when the talk key was down
        self.holds = TalkHolds(clock, talk_grace_s)
        self.tail_s = tail_s
        self._clock = clock
        self._lock = threading.Lock()
        self._awake = False
        self._last_activity = 0.0
        #: utterances in progress (SPEAK_START without its SPEAK_END yet)
        self._speaking = 0
        self._speech_started = 0.0
        #: what is being said, for telling a user's "stop" from the reply's own "stop"
        self._saying = ""
        #: recent (start, end) of the assistant's utterances, for the overlap rule
        self._spoken: deque[tuple[float, float]] = deque(maxlen=16)
        self._question: Question | None = None
        #: voice commands running now (the listener says), and when the last one began or ended
        self._running = 0
        self._last_command = float("-inf")

    # -- state ---------------------------------------------------------------------------

    @property
    def awake(self) -> bool:
        with self._lock:
            return self._awake

    @property
    def speaking(self) -> bool:
        with self._lock:
            return self._speaking > 0

    def speaking_started(self, text: str = "") -> None:
        with self._lock:
            if self._speaking == 0:
                self._speech_started = self._clock()
                self._saying = ""
            self._speaking += 1
            self._saying = f"{self._saying} {text.lower()}".strip()

    def speaking_ended(self) -> None:
        with self._lock:
            if self._speaking == 0:
                return  # an END whose START this gate never saw (subscribed mid-sentence)
            self._speaking -= 1
            if self._speaking == 0:
                now = self._clock()
                self._spoken.append((self._speech_started, now))
                self._saying = ""
                if self._awake:  # the timeout counts silence after the reply, not the reply
                    self._last_activity = now

    def talk_started(self) -> bool:
        """The talk key went down (False: it already was)."""
        return self.holds.start()

    def talk_ended(self) -> bool:
        """The talk key came up (False: it was not down)."""
        return self.holds.end()

    def needs_trust(self, heard: str) -> bool:
        """Would ``heard`` act if taken at its word: it holds the name, or the gate waits for a
        command, or the talk key is down? Only then must the recogniser score it."""
        seq = [w.word for w in _words(heard)]
        with self._lock:
            return NAME in seq or self._awake or self.holds.recent()

    def touch(self) -> None:
        """Restart the sleep timeout and the no-name "stop" window (a command just finished)."""
        with self._lock:
            now = self._clock()
            self._last_command = now
            if self._awake:
                self._last_activity = now

    def command_running(self, running: bool) -> None:
        """A voice command started (True) or ended (False): while one runs, "stop" needs no name."""
        with self._lock:
            self._running = max(0, self._running + (1 if running else -1))
            self._last_command = self._clock()

    def question_asked(self, question_id: str, timeout_s: float) -> None:
        """A question now waits for a yes or no for ``timeout_s`` (CONFIRM_REQUESTED)."""
        with self._lock:
            now = self._clock()
            self._question = Question(str(question_id), now, now + max(0.0, float(timeout_s)))

    def question_closed(self, question_id: str) -> None:
        """The question was answered, timed out or dropped (CONFIRM_ANSWERED)."""
        with self._lock:
            if self._question is not None and self._question.question_id == question_id:
                self._question = None

    @property
    def question(self) -> str | None:
        """The id of the question an answer would go to now, if any."""
        with self._lock:
            question = self._open_question(self._clock())
            return question.question_id if question is not None else None

    def poll(self) -> GateDecision | None:
        """A "sleep" decision when the timeout has just passed, else None. Call it now and then."""
        with self._lock:
            if not self._expire(self._clock()):
                return None
            return GateDecision("sleep", "", f"no speech for {self.timeout_s:g} s")

    def decide(self, heard: str, started_at: float | None = None, ended_at: float | None = None,
               trust: Trust | None = None) -> GateDecision:
        """Decide what one recognised phrase is; ``started_at``/``ended_at`` are when its capture
        began and ended on this gate's clock (None: now); ``trust`` says whether its name and
        command were clearly said (None: the text is taken as it is)."""
        trust = trust if trust is not None else Trust()
        heard = heard if isinstance(heard, str) else ""
        words = _words(heard)
        seq = [w.word for w in words]

        def out(action: Action, reason: str, text: str = "") -> GateDecision:
            return GateDecision(action, text, reason, heard)

        with self._lock:
            now = self._clock()
            if not seq:
                return out("drop", "nothing recognised")
            slept = self._expire(now)
            if self._speaking:
                return self._while_speaking(seq, heard)
            start = now if started_at is None else started_at
            end = now if ended_at is None else max(ended_at, start)
            if self._overlaps_speech(start, end):
                return out("drop", "overlapped the assistant's own speech")
            held = self.holds.covers(start, end)
            question = self._open_question(now)
            if question is None:
                return self._by_state(words, seq, heard, now, slept, held, trust)
            answered = answer(seq, heard, start, question)
            if answered is not None:
                if answered.action == "answer" and self._awake:
                    self._last_activity = now
                return answered
            decision = instead_of_an_answer(self._by_state(words, seq, heard, now, slept, held, trust),
                                            start, question, trust)
            if decision.question_id:
                self._question = None
            return decision

    def _by_state(self, words: list[_Word], seq: list[str], heard: str, now: float, slept: bool,
                  held: bool = False, trust: Trust | None = None) -> GateDecision:
        """Rules 4 and 5: asleep or awake; ``held``: said with the talk key down. Lock held."""

        def out(action: Action, reason: str, text: str = "") -> GateDecision:
            return GateDecision(action, text, reason, heard)

        trust = trust if trust is not None else Trust()

        def text(first: int, end: int) -> str:
            return self._span(words, heard, first, end)
        if not self._awake and held and _wake_span(seq) is None and _find(seq, SLEEP_PHRASE) < 0:
            first = 1 if seq[0] == NAME else 0
            judged = trust.judge(seq, None, first, text)
            command = judged.instead or text(first, judged.end)
            if not command:
                return out("drop", "talk key held: only the name")
            if not judged.command:
                return out("doubt", "talk key held; not sure what was said", command)
            return out("command", "talk key held", command)
        if not self._awake:
            return self._asleep(words, seq, heard, now, slept, trust, text, held)
        self._last_activity = now
        if _find(seq, SLEEP_PHRASE) >= 0:
            self._awake = False
            return out("sleep", "asked to go to sleep")
        span = _wake_span(seq)
        name: int | None = None
        if span is not None:
            name, first = name_in_span(seq, span), span[1]
        elif seq == [NAME]:
            return out("wake", "already awake")
        else:
            first = 1 if seq[0] == NAME else 0  # "anova, open notepad" said to an awake assistant
        judged = trust.judge(seq, name, first, text)
        if not judged.name:
            return out("drop", "awake: the name was not clearly said")
        command = judged.instead or text(first, judged.end)
        if not command:
            return out("wake", "already awake")
        self._awake = False  # one phrase after the name: chatter that follows needs the name again
        if not judged.command:
            return out("doubt", "awake: not sure what was said", command)
        self._last_command = now
        return out("command", "awake", command)

    def _asleep(self, words: list[_Word], seq: list[str], heard: str, now: float, slept: bool,
                trust: Trust, text: Callable[[int, int], str], held: bool = False) -> GateDecision:
        asleep = "asleep (timed out)" if slept else "asleep"
        span = _wake_span(seq)
        recent = self._running or now - self._last_command <= STOP_WINDOW_S
        if span is None and recent and (is_stop_utterance(heard) or takes_back(heard)):  # the cancel path
            return GateDecision("command", self._rest(words, heard, 0), "stop after a command", heard)
        if span is None:
            why = f"{asleep}: no wake words" if NAME not in seq else f"{asleep}: '{NAME}' without a wake word"
            return GateDecision("drop", "", why, heard)
        # "can you ask Hannah…" heard as "can us hi anova…", "ask Hannah to…" as "ask hi anova…";
        # with the talk key held the phrase is for AnovaX whatever comes first
        mid = span[0] > WORDS_BEFORE_WAKE_MAX or (span[0] and not trust.paused_before(seq, span[0]))
        if mid and not held:
            return GateDecision("drop", "", f"{asleep}: wake words in the middle of a sentence", heard)
        name = name_in_span(seq, span)
        judged = trust.judge(seq, name, span[1], text)
        if not judged.name:
            return GateDecision("drop", "", f"{asleep}: the name was not clearly said", heard)
        command = judged.instead or text(span[1], judged.end)
        if not command and judged.mumbled:  # "hey Hannah, open notepad" as "hey anova notepad"
            return GateDecision("drop", "", f"{asleep}: words after the name not made out", heard)
        if not command:
            self._awake = True  # the name alone: the next phrase is the command
            self._last_activity = now
            return GateDecision("wake", "", "wake words", heard)
        if _find([w.word for w in words[span[1]:]], SLEEP_PHRASE) >= 0:
            return GateDecision("sleep", "", "asked to go to sleep", heard)
        if not judged.command:
            if not judged.ask:  # a name that only just passed and words that make no request
                return GateDecision("drop", "", f"{asleep}: not sure it was said to me", heard)
            return GateDecision("doubt", command, "wake words; not sure what was said", heard)
        self._last_command = now
        return GateDecision("command", command, "wake words with a command", heard)

    def _open_question(self, now: float) -> Question | None:
        """The waiting question, forgotten once its window has passed. Lock held."""
        if self._question is not None and not self._question.open_at(now):
            self._question = None
        return self._question

    def _while_speaking(self, seq: list[str], heard: str) -> GateDecision:
        said = [w for w in seq if w in BARGE_WORDS]
        if said and all(w in BARGE_WORDS or w in BARGE_FILLERS for w in seq):
            # "stopped", "cancelled" in the reply come out of a closed-vocabulary recogniser as "stop"
            echo = any(x.word.startswith(w) for w in said for x in _words(self._saying))
            if echo and NAME not in seq:
                return GateDecision("drop", "", f"'{said[0]}' is in what the assistant is saying; "
                                               f"say '{NAME} {said[0]}'", heard)
            return GateDecision("barge_in", "", f"'{said[0]}' while speaking", heard)
        return GateDecision("drop", "", "the assistant is speaking", heard)

    @staticmethod
    def _span(words: list[_Word], heard: str, first: int, end: int) -> str:
        """The original text of words ``first`` to ``end`` (exclusive), without trailing punctuation."""
        if first >= min(end, len(words)):
            return ""
        stop = len(heard) if end >= len(words) else words[end].start
        return heard[words[first].start:stop].strip().rstrip(".,!?;:").strip()

    @staticmethod
    def _rest(words: list[_Word], heard: str, index: int) -> str:
        """The original text from word ``index`` on, without trailing punctuation."""
        return WakeGate._span(words, heard, index, len(words))

    def _expire(self, now: float) -> bool:
        """Fall asleep if awake, silent and not speaking for the timeout. Lock held."""
        if self._awake and not self._speaking and now - self._last_activity >= self.timeout_s:
            self._awake = False
            return True
        return False

    def _overlaps_speech(self, start: float, end: float) -> bool:
        return any(start < s_end + self.tail_s and end > s_start for s_start, s_end in self._spoken)

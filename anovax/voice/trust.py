"""What the wake gate may rely on in one phrase: was the name really said, and the command?

The offline recogniser only knows AnovaX's own sentences, so it turns "hey Anna, can you pass the
salt" into "hey anova can you press us alt". Two checks keep such phrases from acting:

- **the name**: "anova" aligned back onto the audio must fit it (``confidence.WordScore.fit`` at
  least ``NAME_FIT_MIN``, or ``NAME_FIT_FLOOR`` when the request after it was heard very clearly).
  A forced "anova" has phones nobody said, squeezed and scoring badly. And decoded against its
  rivals ("nova", "anna", "hannah", "another"...: rivals.py), "anova" must win.
- **the command**: the words after the name must be a request the offline planner understands
  (the grammar is the definition of a command; forced words rarely make one), and the recogniser
  must not have been torn between sentences (lattice posteriors: ``POSTERIOR_MIN`` on average,
  ``WORD_POSTERIOR_MIN`` each; ``VERBATIM_POSTERIOR_MIN`` when the heard words go out as they
  are, as a query or typed text). Trailing words it barely heard are noise and left out, and so
  is a faintly heard last word that spoils the request ("open the browser for", or "hi anova
  open": the name alone).
- **the request, not each word**: doubtful words can still make a clear request. The decoder's
  N best readings of the phrase (``Hearing.alternatives``) are weighed by what they ask for: a
  request the readings agree on with ``MEANING_MIN`` of their weight is clear ("what can i say",
  "what did i say" and "what can i say the" all ask for help), and when the best reading asks for
  nothing, the request most of them make is taken instead. Never for words that go out as heard
  (typed, searched for): there another reading is another request.
- **the request heard again**: when the words after a name that passed make no request at all,
  the audio after the name is decoded again with a model of requests alone, without the name and
  its sound-alikes (again.py: "open nova" for "open notepad"). Its words must make a clear request
  by themselves (posteriors as above), one that does not go out as heard and not only a decline.

Unclear request, clear name: the gate asks "Did you say …?"; unclear name: nothing happens.

A phrase from a recogniser that scores nothing (the online one: it is not closed-vocabulary, so it
does not force words) is trusted as text; one whose scoring failed is not.

Thresholds were tuned on espeak-ng voices (f2, klatt4, m1; clean and pink noise) reading the
first half of SLURP's lm.txt (``python -m benchmarks.bench_voice_room --tune``). With the rival
check in front (210 wake phrases, 216 sound-alikes, 54 "hey nova" homophones), the name's fit at
-30 and a mean posterior of 0.4 gave 193 wakes right (91.9%), no sound-alike and no homophone
response; without it (fit -26, posterior 0.6) 173 right, 2 sound-alikes and 13-15 homophones.
Reported figures come from the other half and from festival's voices, which tuning never saw
(README, section Voice).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from anovax.voice.confidence import Hearing
from anovax.voice.rivals import NAME
from anovax.voice.understand import Understanding
from anovax.voice.wakewords import MISHEARD_WAKE_WORDS, WORDS_BEFORE_WAKE_MAX, _wake_span, name_in_span

#: the name's alignment fit (per frame) below which it was not clearly said...
NAME_FIT_MIN = -30.0
#: ...unless the request after it was heard very clearly (``STRONG_MEAN``, ``STRONG_MIN``): some
#: voices say the name itself poorly (espeak-ng's m1: -29 to -30), forced names rarely come with
#: a clear request
NAME_FIT_FLOOR = -34.0
STRONG_MEAN = 0.9
STRONG_MIN = 0.3
#: the command words' mean lattice posterior below which the recogniser was guessing, and the
#: least any one word may have
POSTERIOR_MIN = 0.4
WORD_POSTERIOR_MIN = 0.02
#: ...and the mean for a request whose heard words go out as they are (typed, searched for,
#: remembered: ``understand.Understanding.verbatim``), where forced words make a plausible query
#: ("hey Anna, how to make cheesecake" → "how to make use date", a web search), or that only
#: declines (``_strict``)
VERBATIM_POSTERIOR_MIN = 0.7
#: trailing words heard with less than this are noise after the phrase, not words ("hey anova up")
NOISE_POSTERIOR = 0.1
#: a last word heard with less than this that spoils the request is a breath or a noise the
#: recogniser made a word of: left out when what comes before it is a request ("open the browser
#: for") or is nothing ("hi anova open", posterior 0.16: the name alone)
#: A higher bar for the only word after wake words and a name heard for sure (0.5, each of those
#: at least 0.5) took right actions from 375 to 378 of 420 on the tuning half (espeak-ng m2's "hey
#: anova" heard as "hey anova open") with no sound-alike added there, but it woke AnovaX for "hey
#: Hannah, open notepad" heard as "hey anova no" (the name stretched over the vowel of "open"):
#: not kept
FAINT_POSTERIOR = 0.25
#: words after the wake words and the name, all left out (as noise, or as a faint last word), that
#: together last longer than this (10 ms frames) are speech the recogniser could not make out, not
#: a breath: "hey Hannah, open notepad" heard as "hey anova notepad" (notepad: 0.04, 0.6 s; the
#: name stretched over the vowel of "open") is not the name alone. Tuning half, six espeak-ng
#: voices: words left out after a real "hey anova" said alone lasted at most 0.3 s (56 woke it, 45
#: with no word after the name); on the same recorded hearings sound-alikes went from 1 to 0 of 288
#: ("hey Joanna, open notepad"), right actions stayed 375 of 420
MUMBLE_FRAMES = 40
#: a request whose words are doubtful is still clear when readings of the phrase that mean the
#: same request (``Hearing.alternatives``, the most likely ``MEANING_READINGS``) weigh this much.
#: Judged on the same recorded hearings with and without (tuning half, general model): right
#: actions 192 → 193 of 210 on the tuned voices and 350 → 357 of 420 on six other espeak-ng
#: voices, no sound-alike or "hey nova" response added (0.5: 193 and 356; 0.3: 194 and 358)
MEANING_MIN = 0.4
MEANING_READINGS = 12
#: an unclear request is asked about ("Did you say …?") only when the name was this clear;
#: otherwise it is dropped (a question is still a response to a room that did not call)
ASK_NAME_FIT = -12.0

#: a word before the wake words lets them wake AnovaX only after a pause this long (10 ms frames),
#: as in "um, hey anova". Said without one, "ask Hannah to open notepad" comes out as "ask hi anova
#: open notepad" (a red team's class: the wake word made of a name's first sound). Tuning voices
#: (six espeak-ng voices, clean and noisy), the gap the recogniser left before the wake word: 11 to
#: 33 frames after a filler said with a comma (138 phrases), 0 to 10 after one said run-on (133),
#: 3 to 8 after "ask" / "tell" / "remind" before a name made into wake words (11)
PAUSE_BEFORE_WAKE_FRAMES = 10


def _always(_text: str) -> bool:
    return True


@dataclass(frozen=True)
class Judgement:
    """What the gate may rely on in one phrase."""

    #: the name was clearly said (True when the phrase holds no name to check)
    name: bool
    #: the command is ``seq[first:end]``: trailing noise words left out
    end: int
    #: the command was clearly heard and is a request the planner understands
    command: bool
    #: an unclear command is worth a "Did you say …?" (else it is dropped)
    ask: bool
    #: the request to act on instead of the words heard: the recogniser's likeliest readings
    #: agree on it, while its best one makes no request ("set a timer for five read"); "" if none
    instead: str = ""
    #: the words after the wake words and the name were all left out (noise or a faint last word)
    #: but lasted longer than a breath (``MUMBLE_FRAMES``): speech it could not make out, so not
    #: the name alone
    mumbled: bool = False


@dataclass(frozen=True)
class Trust:
    """The checks for one phrase: ``hearing`` is the recogniser's scored answer (None: text only,
    e.g. a typed test phrase), ``understands(text)`` says whether a request makes sense."""

    hearing: Hearing | None = None
    understands: Callable[[str], bool | Understanding] = field(default=_always)
    #: what ``understands`` said of each request this phrase asked about: the checks ask about
    #: the same words more than once, and each answer runs the planner (~7 ms)
    _answers: dict[str, Understanding | None] = field(default_factory=dict, init=False, repr=False, compare=False)

    def judge(self, seq: list[str], name: int | None, first: int, text: Callable[[int, int], str]) -> Judgement:
        """Judge the phrase ``seq``: the name at index ``name`` (None: none to check), the command
        from word ``first`` on; ``text(first, end)`` gives the command's original words."""
        hearing = self.hearing
        if _text_only(hearing):
            command = text(first, len(seq))
            return Judgement(True, len(seq), bool(command.strip()) and self._understood(command)[0], True)
        if not hearing.words:  # scoring failed: nobody vouches for anything
            return Judgement(False, len(seq), False, False)
        posts = [_score_at(hearing, seq, i) for i in range(len(seq))]
        end = len(seq)
        while end > first and posts[end - 1] is not None and posts[end - 1].posterior < NOISE_POSTERIOR:
            end -= 1
        last = posts[end - 1] if end > first else None
        faint = last is not None and last.posterior < FAINT_POSTERIOR and not self._understood(text(first, end))[0] \
            and (end == first + 1 or self._understood(text(first, end - 1))[0])
        if faint:
            end -= 1
        mumbled = name is not None and end == first \
            and sum(p.frames for p in posts[first:] if p is not None) > MUMBLE_FRAMES
        words = posts[first:end]
        command = text(first, end) if end > first else ""
        clear = strong = False
        understood: bool | None = None  # None: not judged (no words, or words it cannot place)
        instead = ""
        if command and all(w is not None for w in words):
            got = self._understanding(command)
            understood = got is not None and got.understood
            strict = got is not None and _strict(got)
            values = [w.posterior for w in words]  # type: ignore[union-attr]
            mean, least = sum(values) / len(values), min(values)
            need = VERBATIM_POSTERIOR_MIN if strict else POSTERIOR_MIN
            clear = understood and mean >= need and least >= WORD_POSTERIOR_MIN
            if not clear and not faint:
                # doubtful words, maybe not a doubtful request: what the readings mean, by weight
                meant = self._meant(seq[:name + 1] if name is not None else seq[:first])
                if understood and not strict and got is not None and got.meaning in meant:
                    clear = meant[got.meaning][0] >= MEANING_MIN
                elif not understood and meant:
                    weight, reading, strict_reading = max(meant.values())
                    if weight >= (VERBATIM_POSTERIOR_MIN if strict_reading else MEANING_MIN):
                        clear, instead = True, reading
            # a request made clear by leaving a word out never also excuses a poorly fitting name
            # nor does one heard through a voice transform, whose posteriors run higher (tuning
            # half, enrolled: 1 sound-alike of 216 woke AnovaX with the excuse, 0 without; recall
            # 205 → 204 of 210)
            strong = understood and mean >= STRONG_MEAN and least >= STRONG_MIN and not faint and not hearing.adapted
        if name is None:
            return Judgement(True, end, clear, True, instead)
        score = posts[name]
        fit = score.fit if score is not None else None
        if fit is None or hearing.unscored:
            return Judgement(False, end, clear, False, instead)
        rival = bool(hearing.name_as) and hearing.name_as != NAME
        # a wake word heard as another word ("go anova") starts many ordinary sentences ("go on a
        # walk"): the name must fit without excuse, and an unclear request is dropped, not asked
        misheard = tuple(seq[:name]) in MISHEARD_WAKE_WORDS
        name_ok = not rival and (fit >= NAME_FIT_MIN or (fit >= NAME_FIT_FLOOR and strong and not misheard))
        if name_ok and understood is False and not clear and not faint and not misheard:
            # no request at all after a name that passed: the request heard again on its own. For
            # a request understood but unclear it changed nothing on the tuning half (202 of 210
            # right either way), and more phrases would wait for it
            instead = self._heard_again()
            clear = bool(instead)
        return Judgement(name_ok, end, clear, fit >= ASK_NAME_FIT and not misheard, instead, mumbled)

    def paused_before(self, seq: list[str], index: int) -> bool:
        """Whether the recogniser heard a pause of ``PAUSE_BEFORE_WAKE_FRAMES`` or more before word
        ``index`` of ``seq``. Text only (nothing forced into words): yes; words it cannot place: no."""
        hearing = self.hearing
        if _text_only(hearing):
            return True
        if not hearing.words or index < 1:
            return False
        here, last = _score_at(hearing, seq, index), _score_at(hearing, seq, index - 1)
        if here is None or last is None:
            return False
        return here.start - (last.start + last.frames) >= PAUSE_BEFORE_WAKE_FRAMES

    def stands_alone(self, command: str) -> bool:
        """May ``command`` replace a waiting question (``Understanding.stands_alone``)?"""
        got = self._understanding(command)
        return got is not None and got.stands_alone

    def _understood(self, command: str) -> tuple[bool, bool]:
        """(understood, verbatim): see ``understand.Understanding``; a plain bool is not verbatim."""
        got = self._understanding(command)
        return (got.understood, got.verbatim) if got is not None else (False, False)

    def _understanding(self, command: str) -> Understanding | None:
        if command not in self._answers:
            try:
                forced = self.hearing is not None and bool(self.hearing.words)
                self._answers[command] = _understanding(self.understands, command, forced)
            except Exception:  # noqa: BLE001 - a broken check vouches for nothing
                self._answers[command] = None
        return self._answers[command]

    def _heard_again(self) -> str:
        """The request after the name heard again on its own (again.py), when that hearing's own
        words make a clear request the planner knows: a second chance for words the sound-alikes
        crowded out ("open nova"), not a new reading of the phrase. So its other readings never
        vouch for it, and a request whose words go out as heard (a search, typed text) or that
        only declines is never taken from it: forced words make plausible queries, and another
        hearing of them is another request. With either allowed (tuning half: the same 202 of
        210), two sound-alikes of the report half became commands ("hello Hannah, can you play my
        latest audio book" heard again as "to play my late it's all the local"; festival kal's
        "okay Anna, close the calculator" as "load up calculator" by its readings). "" when it
        makes none, or cannot be heard again."""
        hearing = self.hearing
        try:
            again = hearing.again() if hearing is not None and hearing.again is not None else None
        except Exception:  # noqa: BLE001 - a broken second hearing vouches for nothing
            return ""
        if again is None:
            return ""
        words = list(again.words)
        while words and words[-1].posterior < NOISE_POSTERIOR:
            words.pop()
        if not words:
            return ""
        request = " ".join(w.word for w in words)
        got = self._understanding(request)
        if got is None or not got.understood or _strict(got):
            return ""
        values = [w.posterior for w in words]
        return request if sum(values) / len(values) >= POSTERIOR_MIN and min(values) >= WORD_POSTERIOR_MIN else ""

    def _meant(self, opening: list[str]) -> dict[tuple, tuple[float, str, bool]]:
        """What the recogniser's readings of the phrase (``Hearing.alternatives``) that open with
        the same words (``opening``: the wake words and the name) ask for: meaning → (their total
        weight, the likeliest one's request, whether it needs the stricter posterior: ``_strict``).
        Readings it does not understand mean nothing; so does a phrase with no readings."""
        hearing = self.hearing
        meant: dict[tuple, tuple[float, str, bool]] = {}
        for text, weight in hearing.alternatives[:MEANING_READINGS] if hearing is not None else ():
            words = text.split()
            if words[:len(opening)] != opening or len(words) == len(opening):
                continue
            request = " ".join(words[len(opening):])
            got = self._understanding(request)
            if got is None or not got.understood or got.meaning is None:
                continue
            total, best, strict = meant.get(got.meaning, (0.0, request, _strict(got)))
            meant[got.meaning] = (total + weight, best, strict)
        return meant


def _understanding(understands: Callable[[str], bool | Understanding], command: str, forced: bool) -> Understanding:
    """What ``understands`` makes of ``command``; ``forced``: words a closed-vocabulary recogniser
    heard. Those are no request when they name an app or key nobody has (the recogniser made it
    up) or the planner had to guess at them: a question searched as it stands, or read by its
    fuzzy matcher (as verbatim-strict instead, 9 of a red team's 24 such recordings acted again,
    for 1 more right of 13 of its controls)."""
    got = understands(command)
    got = got if isinstance(got, Understanding) else Understanding(bool(got), False)
    if forced and (got.unknown_name or got.guessed or got.fuzzy):
        got = replace(got, understood=False, meaning=None)
    return got


def worth_hearing_again(understands: Callable[[str], bool | Understanding], before: Sequence[str],
                        name_fit: float | None, name_as: str, words: str) -> bool:
    """Whether ``Trust.judge`` would ask for the request after a name to be heard again, as far as
    the phrase so far tells (again.py hears it ahead, during the pause): the name wakes AnovaX
    (wake words around it, at most ``WORDS_BEFORE_WAKE_MAX`` words before them, none misheard),
    is no rival's and fits without an excuse (words that make no request are no strong request to
    excuse it), and the words after the wake form (the recogniser's ``words`` after the name,
    less a trailing wake word) make no request. Never raises."""
    if name_fit is None or name_fit < NAME_FIT_MIN or (name_as and name_as != NAME) \
            or tuple(before) in MISHEARD_WAKE_WORDS:
        return False
    seq = [*before, NAME, *words.split()]
    span = _wake_span(seq)
    if span is None or span[0] > WORDS_BEFORE_WAKE_MAX \
            or name_in_span(seq, span) != len(before):
        return False  # judged without a name, dropped before it, or a later name is the one judged
    request = " ".join(seq[span[1]:])
    try:
        return bool(request) and not _understanding(understands, request, True).understood
    except Exception:  # noqa: BLE001 - a broken check: nothing is heard ahead, the gate asks as before
        return False


def _strict(got: Understanding) -> bool:
    """A request that needs ``VERBATIM_POSTERIOR_MIN`` and that other readings never vouch for:
    its words go out as heard, or all it does is decline (understand.Understanding.declined:
    tuning half, ten sets of sound-alikes in nine espeak-ng voices, 18 → 16 of 2,160 responses,
    both e-mail topics forced from "hey Anna/Hannah …"; recall unchanged, 550 of 630), or acts on
    the focused window without naming it (``blind``: keys pressed into whatever is in front)."""
    return got.verbatim or got.declined or got.blind


def _text_only(hearing: Hearing | None) -> bool:
    """No scores to weigh: text alone, or a recogniser that does not force words (the online one)."""
    return hearing is None or (not hearing.words and not hearing.unscored)


def _score_at(hearing: Hearing, seq: list[str], index: int):  # noqa: ANN202 - WordScore | None
    """The score of word ``index`` of the gate's words ``seq``: the recogniser's words in the same
    order, matched by position when the lists agree, else by occurrence of the same word."""
    words = hearing.words
    if len(words) == len(seq) and all(w.word == s for w, s in zip(words, seq)):
        return words[index]
    occurrence = seq[:index].count(seq[index])
    same = [w for w in words if w.word == seq[index]]
    return same[occurrence] if occurrence < len(same) else None

"""The closed command corpus the offline recogniser's language model is built from.

pocketsphinx's general English model hears "hey anova open notepad" as a string of unrelated
words (word error rate ~0.9 on synthetic speech, and it never outputs "anova"). A language
model made from the sentences AnovaX actually understands brings it to 0.02-0.14, depending on
the voice (numbers in stt.py): the idea of Home Assistant's Speech-to-Phrase. The sentences come from the offline planner's own
grammar (``anovax/planner/grammar.yaml``) and tables (``lexicon.py``, the desktop app tables,
the user's own app names), so what can be heard and what can be planned stay the same set.

A closed model can only output its own words, so a sound-alike of the wake word must be
representable by other words or it *will* come out as "anova": ``SOUND_ALIKES`` puts "nova",
"over", "another", "now" ... into the vocabulary in their usual company ("a nova", "and
over"), so that "hey nova" can be decoded as itself.

``command_sentences()`` is deterministic (sorted, unique, capped at ``MAX_SENTENCES``) and
takes well under a second.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections.abc import Iterable

from hassil.expression import (
    Alternative,
    Expression,
    ListReference,
    Permutation,
    RuleReference,
    Sequence,
    TextChunk,
)

from anovax.desktop.apps import TABLES
from anovax.planner import lexicon as lx
from anovax.planner.dictation import BARE_QUOTE, CAP, EXAMPLE, WORDS
from anovax.planner.grammar import load_grammar
from anovax.voice.answers import NO_PHRASES, YES_PHRASES, YES_SOUND_ALIKES

#: the assistant's name: the token the wake gate looks for
WAKE_NAME = "anova"
#: words that may come before the name ("hey anova"); the name alone also wakes it
WAKE_WORDS: tuple[str, ...] = ("wake up", "hey", "hello", "hi", "yo")
#: every way to wake the assistant: the name alone and each wake word + the name
WAKE_PHRASES: tuple[str, ...] = (WAKE_NAME, *(f"{w} {WAKE_NAME}" for w in WAKE_WORDS))
#: phrases that send it back to sleep
SLEEP_PHRASES: tuple[str, ...] = (
    "go to sleep", "stop", "cancel", "stop listening", "never mind", "that's all", "goodbye", "sleep",
)
#: words and phrases that sound like the wake phrase but are not it: in the vocabulary so the
#: decoder has something other than "anova" to output for them
SOUND_ALIKES: tuple[str, ...] = (
    "a nova", "hey nova", "nova", "the nova", "super nova", "bossa nova", "casanova", "and over", "over",
    "over and over", "it's over", "game over", "come over", "another", "another one", "another day",
    "hey now", "hi now", "and now", "a novel", "a new one", "i know", "no way", "hello there",
    "hey there", "okay", "yeah", "oh no", "a lot", "all over", "hang over", "moving over",
)

#: the answers to a question the assistant waits on (answers.py): said alone, with the name
#: ("anova yes") or after a wake phrase, with no wake word needed while the question is open
ANSWER_PHRASES: tuple[str, ...] = (*YES_PHRASES, *NO_PHRASES)
#: terminal commands a person asks to have typed (issue 15: held for a yes), said the common ways
TERMINAL_COMMANDS: tuple[str, ...] = ("ls", "git status", "date")
TERMINAL_REQUESTS: tuple[str, ...] = (
    "open a terminal and type {c} and press enter", "open the terminal and type {c} and press enter",
    "open a terminal and run {c}", "type {c} and press enter", "run {c} in the terminal", "type {c}",
)

#: how many commands also appear after a wake phrase ("hey anova open notepad"), the wake
#: phrases taken in turn. Prefixing every command made "anova" thousands of times likelier than
#: "nova" after "hey", and sound-alikes came out as the wake word. Measured on espeak-ng speech
#: (3 voices x 3 speeds x clean/noisy; 162 wake phrases, 216 sound-alikes): 1500 -> 154 woken,
#: 9 false wakes; 3000 -> 157 and 15; every command (~9000) -> 12 of 72 false in a smaller run.
WAKE_COMMANDS = 1500
#: sound-alikes that start a sentence, and the words that follow them in the corpus
ALIKE_LEADS: tuple[str, ...] = ("nova", "a nova", "another", "and over")
ALIKE_FOLLOWERS: tuple[str, ...] = (
    "is", "was", "and", "the", "one", "time", "again", "please", "what", "open", "search",
)
#: the largest corpus returned (sentences); the wake, sleep, sound-alike and app sentences
#: always stay, the sampled template sentences make room
MAX_SENTENCES = 20000
#: sentences sampled from one grammar template whose expansions exceed it
PER_TEMPLATE = 120

# --- fillers for the grammar's free-text slots ----------------------------------------------

NUMBERS: tuple[str, ...] = (
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
    "thirty", "forty", "fifty", "sixty", "a hundred",
)
DICTATION: tuple[str, ...] = (
    "hello", "hello world", "hi there", "a shopping list", "shopping list", "milk eggs and bread",
    "buy milk", "call mom", "dear john", "thank you", "good morning", "good night", "see you tomorrow",
    "i will be late", "meeting at three", "happy birthday", "my name is john", "the quick brown fox",
    "this is a test", "testing one two three", "remember to call the doctor", "pick up the kids",
    "notes for today", "to do list", "hello how are you", "i love you", "see you soon", "on my way",
    "the meeting is at noon", "yes", "no", "okay", "done", "lunch at one", "bread and butter",
)
SEARCHES: tuple[str, ...] = (
    "the weather", "weather", "weather today", "the weather tomorrow", "news", "the news", "today's news",
    "python", "python tutorial", "recipes", "pasta recipes", "chicken recipes", "cat videos",
    "funny cats", "funny videos", "music", "relaxing music", "piano music", "jazz", "rock music",
    "the beatles", "taylor swift", "movies", "new movies", "football", "soccer", "basketball scores",
    "restaurants near me", "coffee shops near me", "best laptops", "cheap flights", "hotels in paris",
    "how to cook rice", "how to tie a tie", "how to make pancakes", "learn spanish", "guitar lessons",
    "workout videos", "yoga", "podcasts", "the stock market", "bitcoin price", "space", "nasa",
    "history", "science", "dogs", "cats", "cars", "the moon", "the world cup", "wikipedia",
    "computers", "games", "video games", "minecraft", "cooking", "gardening", "travel", "translate hello",
    "the time in london", "birthday songs", "lullabies", "cartoons", "documentaries", "trailers",
)
PLACES: tuple[str, ...] = (
    "london", "paris", "tokyo", "new york", "berlin", "sydney", "india", "china", "japan", "california",
    "los angeles", "chicago", "toronto", "dubai", "moscow", "rome", "madrid", "mumbai", "delhi",
    "beijing", "singapore", "mexico", "brazil", "canada", "australia", "germany", "france", "texas",
)
SPANS: tuple[str, ...] = tuple(
    f"{n} {unit}"
    for n in ("one", "two", "three", "five", "ten", "twenty", "thirty", "a")
    for unit in ("second", "seconds", "minute", "minutes")
    if (n in ("one", "a")) == (unit in ("second", "minute"))
) + ("a moment", "a bit", "half a minute")
KEY_COMBOS: tuple[str, ...] = (
    "control s", "control c", "control v", "control z", "control a", "control t", "control w",
    "control shift t", "alt tab", "alt f four", "enter twice", "enter three times", "tab twice",
    "the enter key", "the space bar", "the escape key", "the windows key", "shift tab", "control plus",
)
#: extra words a person says around a command
POLITE: tuple[str, ...] = ("please", "thanks", "thank you", "now", "for me")


def command_sentences() -> list[str]:
    """Every sentence the command language model is built from: lower case, words separated by
    single spaces, sorted, unique, at most ``MAX_SENTENCES``."""
    grammar = load_grammar()
    fillers = _fillers()
    keep: set[str] = set()  # never dropped by the cap
    pool: set[str] = set()

    # wake, sleep and sound-alike phrases
    keep.update(WAKE_PHRASES)
    keep.update(SLEEP_PHRASES)
    keep.update(f"{w} {s}" for w in WAKE_PHRASES for s in SLEEP_PHRASES)
    keep.update(sound_alike_sentences())
    keep.update(ANSWER_PHRASES)
    keep.update(f"{WAKE_NAME} {a}" for a in ANSWER_PHRASES)
    keep.update(f"{w} {a}" for w in WAKE_PHRASES[1:] for a in ANSWER_PHRASES[:1] + NO_PHRASES[:1])
    for request in TERMINAL_REQUESTS:
        keep.update(request.format(c=c) for c in TERMINAL_COMMANDS)
        keep.update(f"hey {WAKE_NAME} {request.format(c=c)}" for c in TERMINAL_COMMANDS)

    # every short hotkey phrase by itself ("select all", "undo"): the template below samples them
    # among hundreds of generated selection sentences
    keep.update(_clean(k) for k in lx.HOTKEY_SHORT)

    # every app name, said the common ways
    apps = sorted(set(fillers["app"]))
    for name in apps:
        keep.update({f"open {name}", f"open the {name}", f"launch {name}", f"start {name}", name})
        # and after the wake phrase, the commonest command of all: without it "anova open the"
        # reaches a rare name through a back-off the acoustics can out-vote ("open butter google")
        keep.update(f"{w} open the {name}" for w in WAKE_PHRASES)

    # dictation words ("type dear sir comma new line thank you period"): each in company, so
    # the recogniser can hear what the planner turns into marks
    keep.add(f"type {EXAMPLE}")
    keep.update(f"type hello {said} world" for word in WORDS for said in word.said)
    keep.update({f"type {CAP} john", f"type {BARE_QUOTE} hello unquote", "type the word comma", "type literal comma"})

    # numbers: "wait five seconds", "press enter three times"
    for n in NUMBERS:
        keep.update({n, f"wait {n} seconds", f"wait {n} minutes", f"press enter {n} times", f"press tab {n} times"})

    # the grammar's templates, expanded with the fillers (sampled when there are too many)
    rules = grammar.expansion_rules
    for name in sorted(grammar.intents):
        for data in grammar.intents[name].data:
            for i, sentence in enumerate(data.sentences):
                rng = random.Random(f"{name}:{i}")
                pool.update(_expand(sentence.expression, rules, fillers, PER_TEMPLATE, rng))

    commands = sorted(_clean(s) for s in pool)
    # compound commands, as the planner splits them ("open notepad and type hello")
    rng = random.Random("compound")
    openers = [f"open {a}" for a in ("notepad", "the browser", "the calculator", "chrome", "firefox", "the terminal", "word")]
    seconds = [s for s in commands if s.split(" ", 1)[0] in ("type", "write", "search", "press", "play", "take", "save")]
    for joiner in ("and", "then", "and then"):
        for first in openers:
            for second in rng.sample(seconds, min(12, len(seconds))):
                pool.add(f"{first} {joiner} {second}")
    # polite forms
    for s in rng.sample(commands, min(400, len(commands))):
        pool.add(f"please {s}")
        pool.add(f"{s} {rng.choice(POLITE)}")
    # commands after the wake phrase ("hey anova open notepad"): each command once, the wake
    # phrase taken in turn so every wake phrase leads into every kind of command
    commands = sorted(_clean(s) for s in pool)
    if len(commands) > WAKE_COMMANDS:
        commands = sorted(random.Random("wake").sample(commands, WAKE_COMMANDS))
    for i, s in enumerate(commands):
        pool.add(f"{WAKE_PHRASES[i % len(WAKE_PHRASES)]} {s}")

    keep = {_clean(s) for s in keep}
    pool = {_clean(s) for s in pool} - keep
    room = max(0, MAX_SENTENCES - len(keep))
    rest = sorted(pool)
    if len(rest) > room:
        rest = random.Random("cap").sample(rest, room)
    return sorted(s for s in keep | set(rest) if s)


# --- helpers ---------------------------------------------------------------------------------------


def sound_alike_sentences() -> set[str]:
    """The sentences that are only there so that what sounds like the name, or like "yes", can
    come out as itself: the sound-alikes alone and in the places the wake phrase takes ("hey
    nova", "a nova is ..."), so the model does not prefer "anova" there by thousands to one."""
    said = {*SOUND_ALIKES, *YES_SOUND_ALIKES}
    said.update(f"{w} {a}" for w in WAKE_WORDS for a in ("nova", "a nova", "another", "over", "now", "there"))
    said.update(f"{a} {c}" for a in ALIKE_LEADS for c in ALIKE_FOLLOWERS)
    return said


def request_sentences(sentences: Iterable[str]) -> list[str]:
    """``sentences`` (the command model's) without the name and its sound-alikes: what may follow
    a name already heard (again.py)."""
    alike = sound_alike_sentences()
    return [s for s in sentences if s not in alike and WAKE_NAME not in s.split()]


def app_names() -> set[str]:
    """Every app name the recogniser can hear, as heard: the alias table's, every platform
    table's and the user's own (lexicon.USER_APPS, read now: they can change)."""
    names: set[str] = set(lx.APP_ALIASES)
    for table in TABLES.values():
        for app in table:
            names.update(app.names)
    names.update(n.lower() for n in lx.USER_APPS)
    return {_clean(n) for n in names} - {""}


def as_heard(text: str) -> str:
    """``text`` in the form the recogniser's words take (what ``app_names`` holds)."""
    return _clean(text)


def _fillers() -> dict[str, list[str]]:
    """Values for each list the grammar refers to, the free-text ones included."""
    apps = sorted(app_names())
    return {
        "known_app": sorted({_clean(k) for k in lx.APP_ALIASES}),
        "app": apps,
        "hotkey": sorted({_clean(k) for k in lx.HOTKEY_PHRASES}),
        "weekday": ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "the weekend"],
        "text": list(DICTATION),
        "query": list(SEARCHES),
        "keys": sorted({_clean(k) for k in lx.KEY_NAMES} | set(KEY_COMBOS)),
        "place": list(PLACES),
        "span": list(SPANS),
    }


#: one spelling per spoken form: the recogniser cannot hear the difference between "screen shot"
#: and "screenshot", and two spellings split the model's counts (the planner reads either)
CANONICAL: dict[str, str] = {
    "screen shot": "screenshot", "screen grab": "screengrab", "note pad": "notepad", "whats": "what's",
    "todays": "today's", "lets": "let's", "thats": "that's", "nevermind": "never mind", "good bye": "goodbye",
    "space bar": "spacebar", "back space": "backspace", "page up": "pageup", "page down": "pagedown",
    "new line": "newline", "wanna": "want to", "ta": "thanks",
}
_CANONICAL = re.compile(r"\b(?:" + "|".join(re.escape(k) for k in sorted(CANONICAL, key=len, reverse=True)) + r")\b")
_NOT_WORD = re.compile(r"[^a-z0-9' ]+")
_DIGITS = re.compile(r"\b(?:[a-z]*\d[a-z0-9]*)\b")
_SPACES = re.compile(r"\s+")


def _clean(text: str) -> str:
    """Lower case, letters/digits/apostrophes only, single spaces; "i 'd" -> "i'd";
    "anovax" -> "anova" (the name is heard as the wake word)."""
    low = text.lower().replace("’", "'")
    low = _NOT_WORD.sub(" ", low)
    low = re.sub(r"\s+'", "'", low)
    low = re.sub(r"\banovax\b", WAKE_NAME, low)
    low = _DIGITS.sub(lambda m: _spell(m.group(0)), low)
    low = _SPACES.sub(" ", low).strip(" '")
    return _CANONICAL.sub(lambda m: CANONICAL[m.group(0)], low)


def _spell(token: str) -> str:
    """f5 -> "f five" (a key name), 3 -> "three"; spoken as it is said."""
    digit = dict(zip("0123456789", ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")))
    small = {"10": "ten", "11": "eleven", "12": "twelve"}
    m = re.fullmatch(r"([a-z]*)(\d+)([a-z]*)", token)
    if not m:
        return token
    pre, num, post = m.groups()
    spoken = small.get(num) or " ".join(digit[d] for d in num)
    return " ".join(p for p in (pre, spoken, post) if p)


def _count(expr: Expression, rules: dict, fillers: dict[str, list[str]]) -> int:
    """How many strings the expression expands to."""
    if isinstance(expr, TextChunk):
        return 1
    if isinstance(expr, RuleReference):
        return _count(rules[expr.rule_name].expression, rules, fillers)
    if isinstance(expr, ListReference):
        return max(1, len(fillers.get(expr.list_name, ())))
    if isinstance(expr, Alternative):
        return sum(_count(e, rules, fillers) for e in expr.items) or 1
    if isinstance(expr, (Sequence, Permutation)):  # a permutation: every order counts
        n = math.factorial(len(expr.items)) if isinstance(expr, Permutation) else 1
        for e in expr.items:
            n *= _count(e, rules, fillers)
        return n
    return 1


def _all(expr: Expression, rules: dict, fillers: dict[str, list[str]]) -> Iterable[str]:
    """Every string of the expression (only called when ``_count`` is small)."""
    if isinstance(expr, TextChunk):
        yield expr.original_text or expr.text or ""
    elif isinstance(expr, RuleReference):
        yield from _all(rules[expr.rule_name].expression, rules, fillers)
    elif isinstance(expr, ListReference):
        # a list with no fillers is left out, as ``_walk`` leaves it (yielding nothing would drop
        # the whole template: "who were my ..." was never in the model)
        values = fillers.get(expr.list_name)
        yield from (f" {v} " for v in values) if values else (" ",)
    elif isinstance(expr, Alternative):
        for e in expr.items:
            yield from _all(e, rules, fillers)
    elif isinstance(expr, Permutation):
        for order in itertools.permutations(expr.items):
            for parts in itertools.product(*(list(_all(e, rules, fillers)) for e in order)):
                yield " ".join(parts)
    elif isinstance(expr, Sequence):
        for parts in itertools.product(*(list(_all(e, rules, fillers)) for e in expr.items)):
            yield "".join(parts)


def _walk(expr: Expression, rules: dict, fillers: dict[str, list[str]], rng: random.Random) -> str:
    """One random string of the expression: each alternative equally likely."""
    if isinstance(expr, TextChunk):
        return expr.original_text or expr.text or ""
    if isinstance(expr, RuleReference):
        return _walk(rules[expr.rule_name].expression, rules, fillers, rng)
    if isinstance(expr, ListReference):
        values = fillers.get(expr.list_name, ())
        return f" {rng.choice(values)} " if values else ""
    if isinstance(expr, Alternative):
        return _walk(rng.choice(expr.items), rules, fillers, rng) if expr.items else ""
    if isinstance(expr, Permutation):
        items = list(expr.items)
        rng.shuffle(items)
        return " ".join(_walk(e, rules, fillers, rng) for e in items)
    if isinstance(expr, Sequence):
        return "".join(_walk(e, rules, fillers, rng) for e in expr.items)
    return ""


def _expand(expr: Expression, rules: dict, fillers: dict[str, list[str]], limit: int,
            rng: random.Random) -> set[str]:
    """All expansions when there are at most ``limit``, else ``limit`` random ones."""
    if _count(expr, rules, fillers) <= limit:
        return {_clean(s) for s in _all(expr, rules, fillers)}
    out: set[str] = set()
    for _ in range(limit * 3):
        out.add(_clean(_walk(expr, rules, fillers, rng)))
        if len(out) >= limit:
            break
    return out

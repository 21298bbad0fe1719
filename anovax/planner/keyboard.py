"""Keyboard steps: typing dictated text (and where it goes), key presses, and waits."""

from __future__ import annotations

import re

from anovax.plan import LIMITS, Step
from anovax.planner import lexicon as lx
from anovax.planner.apps import display
from anovax.planner.dictation import dictate
from anovax.planner.pieces import Piece, RequestState
from anovax.planner.refusals import BLOCKED_KEYS, SHELL_LIKE
from anovax.planner.text import EDGE_PUNCT, QUOTES, SPACES, lower_words
from anovax.planner.topics import domain
from anovax.tools import TOOLS

#: the reply to a key name nobody has ("press the flurb key"): the wake gate reads it as no request
#: from the closed recogniser, whose forced words make such names ("strike up anova use")
UNKNOWN_KEY = "I don't know a key called"
#: "... in it", "... into word": where the dictated text goes, at the end of the text
_TARGET = re.compile(
    r"\s+(?:in|into|on|to)\s+(?:(?P<it>it|there|that|this|here|the window|this window|that window|the app|that app)"
    r"|(?:the\s+|(?P<new>an?\s+new\s+|another\s+)|a\s+)?(?P<app>[\w .+-]{2,30}?))\s*(?:window|app|file|document)?"
    r"\s*[.!?]?$",
    re.I,
)
_WHERE_WORD = re.compile(r"\s+(?:in|into|on|to)\s+", re.I)


def _where(text: str) -> re.Match[str] | None:
    """Where "type ... in notepad" types: the last "in <app>" or "in it" that ends the text ("meet
    me in the park in notepad": Notepad, the park is typed), or None."""
    for at in _WHERE_WORD.finditer(text):
        m = _TARGET.match(text, at.start())
        if m and (m.group("it") or lower_words(m.group("app") or "") in lx.APP_ALIASES):
            return m
    return None


#: "write an e-mail to my boss": a request to compose, not words to type
_COMPOSE = re.compile(
    r"^(?:a|an|the|my|some)\s+(?:\w+\s+)?(?:e-?mail|letter|note|message|text|complaint|review|post|tweet|status|reply|response|story|poem|essay|song|list|reminder|card)s?\b",
    re.I,
)
#: the whole text is a thing to compose ("a letter to my landlord", "a poem"), typed into an open app
_COMPOSE_REQUEST = re.compile(
    r"^(?:a|an|some)\s+(?:\w+\s+)?(?:e-?mails?|letters?|messages?|poems?|stor(?:y|ies)|essays?|complaints?|"
    r"reviews?|tweets?|posts?|repl(?:y|ies)|responses?|songs?|cards?)(?:\s+(?:to|for|about|saying|asking|telling|on|"
    r"from|in)\b.*)?[.!?]?$",
    re.I,
)
#: spoken waits that mean "about a second"
_MOMENT = frozenset({"", "a moment", "a second", "a sec", "a bit", "a little", "a little bit", "one moment"})
#: the longest wait a step may ask for, in seconds (the wait tool's limit)
_MAX_WAIT_S = 5.0


def typing(text: str, verb: str, state: RequestState) -> Piece | None:
    """Type ``text`` (opening the named app first if needed), or decline or refuse to.

    ``verb`` is how the user asked: "write a letter" composes (declined), "type" always types."""
    text = text.strip()
    if not text:
        return None
    target: str | None = None
    fresh = False
    m = _where(text)
    if m:
        if m.group("it"):
            target = state.current_app or ""
        else:
            target = lx.APP_ALIASES[lower_words(m.group("app"))]
            fresh = bool(m.group("new"))
        text = text[: m.start()]
    text = text.strip()
    if len(text) >= 2 and text[0] in QUOTES and text[-1] in QUOTES:
        text = text[1:-1].strip()
    # "comma", "new line", "cap x": spoken punctuation and layout become marks
    text = dictate(text)
    if not text:
        return None
    if SHELL_LIKE.search(text):
        return Piece("refuse", "Sorry, I won't type anything that looks like a shell command.")
    # typing into a terminal is planned: safety_check holds it for the person's yes
    into = target or state.current_app
    if verb not in ("type", "dictate"):
        # the topic only where the words start ("write email to john"), not inside a phrase
        # to type ("write thank you for your email"), and only with no app to type into
        # ("write meeting at three" into an open app is dictation, not the calendar). There,
        # only a whole request to compose is declined: "write a letter to my landlord" was typed
        # into it word for word (a first-time user), "write the letter a" is dictation
        topic = domain(" ".join(lower_words(text).split()[:2]), personal_only=True) if into is None else None
        if topic or (_COMPOSE if into is None else _COMPOSE_REQUEST).match(text):
            kind = topic[1] if topic else "I can't compose messages or documents for you offline."
            return Piece("decline", kind + " To dictate, say 'type' and then the exact words.")
    if len(text) > TOOLS["type_text"].param("text").max_len:
        return Piece("decline", "Sorry, that's too long to type in one go. Please dictate it in shorter parts.")
    steps: list[Step] = []
    say_target = ""
    if target and (target != state.current_app or fresh):
        # its window if it is open (a second copy would take the text into a new blank
        # document), else a new one: switch_to_app does both. Never a browser's open page:
        # the keys would go to whatever field has its focus (a chat's), not a new address bar
        fresh = fresh or target in lx.BROWSER_APPS
        steps.append(Step("open_app" if fresh else "switch_to_app", {"name": target}))
        say_target = f"Opening {display(target)} and typing" if fresh else f"Typing into {display(target)}"
    elif into:
        say_target = f"Typing into {display(into)}"
    if text.strip():
        steps.append(Step("type_text", {"text": text}))
    else:  # "type new line": only line breaks, which type_text does not take alone
        steps += [Step("press_keys", {"keys": "enter"})] * min(text.count("\n"), LIMITS.max_steps - len(steps))
    # the reply is one line (its first line is what is said): line breaks read as spaces
    flat = SPACES.sub(" ", text).strip() or {"\n": "a new line", "\n\n": "a new paragraph"}.get(text, "line breaks")
    short = flat if len(flat) <= 40 else flat[:37].rstrip(" .,;:!?…") + "..."
    if short.endswith((",", ";", ":")):  # 'Typing: "dear sir,".', not "dear sir,." nor a run-on reply
        short = f'"{short}"'
    lines = text.strip("\n").count("\n") + 1
    if text.strip() and lines > 1:  # the flattened reply would hide that the breaks were heard
        short = (short if short.endswith("...") else short.rstrip(".!?…")) + f" ({lines} lines)"
    say = f"{say_target}: {short}" if say_target else f"Typing: {short}"
    if not say.endswith((".", "!", "?", "…")):
        say += "."
    return Piece("act", say, steps, app=target if steps[0].tool in ("open_app", "switch_to_app") else None)


def key_say(keys: str) -> str:
    """How pressing ``keys`` is said back ("Saving." for ctrl+s)."""
    return lx.KEY_SAY.get(keys, f"Pressing {keys}.")


def key_press(spoken: str) -> Piece | None:
    """Press the keys named in ``spoken`` ("control s", "enter twice"), or None if it names none."""
    spoken, times = _count(spoken.strip(EDGE_PUNCT))
    low = lower_words(spoken.replace("+", " plus "))
    low = re.sub(r"\b(?:the|key|keys|button|buttons|and then|together|at once|on the keyboard)\b", " ", low)
    low = SPACES.sub(" ", low).strip()
    if not low:
        return None
    if low in lx.HOTKEY_PHRASES:
        keys = lx.HOTKEY_PHRASES[low]
    else:
        names = _key_names(low)
        if names is None:
            return Piece("decline", f"Sorry, {UNKNOWN_KEY} {spoken.strip()}.")
        if not names or len(names) > 4:
            return None
        keys = "+".join(names)
    if frozenset(keys.split("+")) in BLOCKED_KEYS:
        return Piece("refuse", "Sorry, I don't press system shortcuts like that.")
    if len(keys) > 64:
        return None
    step = Step("press_keys", {"keys": keys})
    say = f"Pressing {keys}." if times == 1 else f"Pressing {keys} {'twice' if times == 2 else f'{times} times'}."
    return Piece("act", say, [step] * times)


def wait_seconds(span: str) -> float | None:
    """Seconds to wait for a spoken span ("two seconds", "a moment"), at most 5; None if not a span."""
    low = lower_words(span)
    low = re.sub(r"^(?:for|about|around)\s+", "", low)
    if low in _MOMENT:
        return 1.0
    m = re.fullmatch(r"(\d+(?:\.\d+)?|[a-z ]+?)\s*(?:seconds?|secs?|s)", low)
    if not m:
        return None
    word = m.group(1).strip()
    try:
        value = float(word)
    except ValueError:
        if word not in lx.SMALL_NUMBERS:
            return None
        value = float(lx.SMALL_NUMBERS[word])
    return max(0.0, min(_MAX_WAIT_S, value))


def _key_names(low: str) -> list[str] | None:
    """pyautogui key names for the words of ``low`` ("control shift s"), or None if a word
    names no key. Two-word names ("page down") are tried before single words."""
    names: list[str] = []
    tokens = [t for t in re.split(r"\s*(?:\bplus\b|\band\b|\bwith\b|-|\s)\s*", low) if t]
    i = 0
    while i < len(tokens):
        two = " ".join(tokens[i : i + 2])
        if i + 1 < len(tokens) and two in lx.KEY_NAMES:
            names.append(lx.KEY_NAMES[two])
            i += 2
            continue
        tok = tokens[i]
        if tok in lx.KEY_NAMES and lx.KEY_NAMES[tok] not in {"+", "-"}:
            names.append(lx.KEY_NAMES[tok])
        elif re.fullmatch(r"[a-z0-9]", tok):
            names.append(tok)
        else:
            return None
        i += 1
    return names


def _count(text: str) -> tuple[str, int]:
    """Split a trailing repeat count off ("enter twice" -> ("enter", 2)), at most LIMITS.max_steps."""
    m = re.search(r"\s+(?:(\d+|[a-z]+) times|(once|twice|thrice))$", text, re.I)
    if not m:
        return text, 1
    word = (m.group(1) or m.group(2)).lower()
    n = int(word) if word.isdigit() else lx.SMALL_NUMBERS.get(word, 0)
    if n <= 0:
        return text, 1
    return text[: m.start()], min(n, LIMITS.max_steps)

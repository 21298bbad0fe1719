"""The same request in plainer words, tried when the grammar did not read it as said.

People dress a command up: "tell me the present time", "kindly state today's date", "save the
current file", "capture the contents of the screen", "ctrl z that", "grab a screenshot of this
convo", "I want some jazz on". Each rule below turns one such way of speaking into the plain form
the templates know; the grammar then reads the result, so nothing here decides what a request
means, and a request the grammar already read is never rewritten (SLURP's figures for what was
understood stay as they were).
"""

from __future__ import annotations

import re

from anovax.planner.lexicon import APP_ALIASES, BROWSER_APPS
from anovax.planner.text import DICTATION_START

_KEY = r"(?:ctrl|control|alt|shift|cmd|command|win|super|option)"
#: an app's everyday name ("notepad", "the calculator"), longest first; never a browser's (its
#: address bar sends what is typed out as suggestions)
_APPS = "|".join(re.escape(name) for name in sorted(APP_ALIASES, key=len, reverse=True)
                 if APP_ALIASES[name] not in BROWSER_APPS)
#: the key a chord ends with: a letter or digit, a function key or a named key
_LAST = (r"(?:[a-z0-9]|f\d{1,2}|tab|enter|return|escape|esc|delete|del|backspace|space|home|end|up|down|left|right|"
         r"page ?up|page ?down|plus|minus|insert)")
#: words before the request: a greeting word ("yo time check") or a courtesy ("be so kind as to
#: tell me the time"); the only rules that dictation ("be so kind as to type ...") goes through
_LEAD_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p, re.I), r)
    for p, r in (
        (r"^(?:yo|oi|hey|hi|hiya|ok|okay|alright)[\s,]+(?=\w)", ""),
        (r"^(?:be so kind as to|be kind enough to|do me a favou?r and|be a (?:love|dear|darling|star) and)\s+", ""),
    )
)
#: (pattern, replacement), applied in order to the clause (case-insensitive; the grammar ignores case)
_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p, re.I), r)
    for p, r in (
        # where first: "in notepad type buy milk", "in the calculator, type 5+5"
        (rf"^in (?:the |my )?({_APPS})[\s,]+(type|write|dictate)\s+(\S.*)$", r"\2 \3 in \1"),
        # an adjective that says "now" about the time: "the present time", "the precise time"
        (r"\b(?:present|precise|actual) (time|date)\b", r"current \1"),
        (r"\bclock check\b", "time check"),
        # "day of the week" said alone: the question it stands for
        (r"^(?:the |today'?s |todays )?day of the week(?: today| please| now)?$", "what day of the week is it"),
        # "state the date", "kindly state the time": a formal "tell me"
        (r"^(?:kindly )?state\b", "tell me"),
        # "the current / open / active file": the one at hand, which is where keys go anyway
        (r"\b(the|this|my) (?:current|currently open|open|opened|active|present) "
         r"(document|file|window|page|tab|text|note|app|program|spreadsheet)\b", r"\1 \2"),
        (r"\b(?:the |all (?:the |of the )?)?(?:contents|content|whole contents) of (the |my |this )?(screen|display|desktop|page|document|file)\b",
         r"\1\2"),
        # a chord said alone is a key press: "ctrl z", "control shift t that"
        (rf"^({_KEY}(?:[\s+-]+{_KEY})*[\s+-]+{_LAST})(?:\s+(?:that|it|this|again))?$", r"press \1"),
        # what a screenshot shows is the whole screen: "a screenshot of this chat"
        # (up to the end, but never over a joiner: "a screenshot of my bank page & email it" is two requests)
        (r"\b(screenshot|screen shot|screen grab|screengrab|screen capture|snapshot)\s+(?:of|showing)\s+"
         r"(?:(?!\b(?:and|then|n|plus|also)\b|[&,;]).)+$", r"\1"),
        # an endearment after the request ("tell me the time dear"); never reached by dictation
        (r"\s+(?:dear|love|darling|sweetheart|sweetie|honey|hun|pet|my dear)$", ""),
        # "bang on some billie eilish", "stick the radio on": British for "put on"
        (r"^(?:bang|stick|chuck|whack|throw|pop|slap) on\b", "put on"),
        # "is it the 5th today", "is today the twenty first": answered by the date
        (r"^is (?:it|today) (?:the )?(?:\d{1,2}(?:st|nd|rd|th)|(?:twenty |thirty )?(?:first|second|third|fourth|fifth|"
         r"sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|"
         r"eighteenth|nineteenth|twentieth|thirtieth))(?: of \w+)?(?: today)?$", "what is the date today"),
        # "set a timer 5 minutes": the "for" left out
        (r"\b(timer|countdown)\s+(?=(?:\d|an? |one|two|three|four|five|six|seven|eight|nine|ten|fifteen|twenty|thirty|"
         r"forty|fifty|sixty|ninety|half)\b)", r"\1 for "),
        # "I want some jazz on", "let's have the radio on": something to put on
        (r"^(?:i want|i'd like|i would like|can (?:i|we) have|let's have|lets have|i need) (some .+?|the radio|the news|music) on$",
         r"put on \1"),
    )
)


def plainer(clause: str) -> str | None:
    """``clause`` said plainly, or None when no rule changed it."""
    text = clause.strip()
    for pattern, replacement in _LEAD_RULES:
        text = pattern.sub(replacement, text)
    if not DICTATION_START.match(text):  # what is typed stays word for word
        for pattern, replacement in _RULES:
            text = pattern.sub(replacement, text)
    text = re.sub(r"\s+", " ", text).strip()
    return text if text.lower() != clause.strip().lower() else None

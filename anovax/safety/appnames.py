"""Which app a name means: the desktop's app tables and the planner's aliases, as one relation.

"notepad" opens mousepad, gedit or TextEdit, "browser" opens firefox or chromium, "cmd" is the
terminal: a plan and a person may call one app by different names. Two names mean the same app
when one of the tables lists both for one app (a name, or the program it starts); nothing here is
a list of its own. Used to tell whether the user's words named the app a plan acts on, and
whether a window a plan resizes is the one that has the keys.
"""

from __future__ import annotations

import functools
import ntpath
import re
from collections import defaultdict

from anovax.desktop import apps as desktop_apps
from anovax.planner import lexicon
from anovax.safety.canon import fold

_SEPARATORS = re.compile(r"[\s\-_.]+")
#: words around a name that are not part of it ("the notepad app")
_LEADING = frozenset({"the", "my", "a", "an"})
_TRAILING = frozenset({"app", "application", "program", "window", "windows"})
_EXE = re.compile(r"\.(?:exe|app)$")
#: what separates the words of a sentence ("close the calculator, then notepad")
_NOT_WORD = re.compile(r"[^\w+]+|_")
#: a name this long is no app's: not compared (keeps every scan short)
_MAX_NAME = 64


def key(name: str) -> str:
    """"The Notepad app", "gnome-text-editor", "MSEdge.exe" -> "notepad", "gnome text editor", "msedge"."""
    words = [w for w in _SEPARATORS.split(_EXE.sub("", fold(name[:_MAX_NAME]).strip())) if w]
    while len(words) > 1 and words[0] in _LEADING:
        words.pop(0)
    while len(words) > 1 and words[-1] in _TRAILING:
        words.pop()
    return " ".join(words)


def _program(argv: tuple[str, ...]) -> str | None:
    """The program a table row starts, by the name its window is known by (``open -a TextEdit``)."""
    if argv[:2] == ("open", "-a") and len(argv) == 3:
        return argv[2]
    return ntpath.basename(argv[0]) if len(argv) == 1 else None


@functools.cache
def _groups() -> dict[str, frozenset[str]]:
    """Every known name -> all the names of the apps it is a name of."""
    groups: list[set[str]] = []
    for table in desktop_apps.TABLES.values():
        for app in table:
            names = {key(n) for n in app.names}
            names.update(key(p) for p in map(_program, app.candidates) if p)
            groups.append(names)
    by_canonical: dict[str, set[str]] = defaultdict(set)
    for alias, canonical in lexicon.APP_ALIASES.items():
        by_canonical[canonical].update((key(alias), key(canonical)))
    groups.extend(by_canonical.values())
    out: dict[str, set[str]] = defaultdict(set)
    for group in groups:
        for name in group:
            out[name] |= group
    return {name: frozenset(names) for name, names in out.items()}


def aliases(name: str) -> frozenset[str]:
    """The names ``name`` may be called by, itself included ("" has none)."""
    own = key(name)
    if not own:
        return frozenset()
    found = set(_groups().get(own, ())) | {own}
    words = own.split()
    if len(words) > 1:  # "libreoffice writer", "microsoft word": the vendor's prefix dropped
        rest = " ".join(words[1:])
        found |= _groups().get(rest, frozenset())
    return frozenset(found)


def same_app(one: str, other: str) -> bool:
    """Whether two names may mean one app ("notepad" and "Mousepad")."""
    return bool(aliases(one) & aliases(other))


def words_of(text: str) -> str:
    """``text`` as names are looked for in it: folded words between single spaces, padded."""
    return " " + " ".join(w for w in _NOT_WORD.split(fold(text)) if w) + " "


def named_in(name: str, said_words: str) -> bool:
    """Whether ``said_words`` (from ``words_of``) names the app ``name`` by any of its names."""
    return any(f" {alias} " in said_words for alias in aliases(name))

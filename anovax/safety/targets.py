"""What class of window the keys go to: the desktop's word first, the gate's own table second.

First line (an allowlist): a name is vouched only when it is on ``_VOUCHED``; terminal, shell
and REPL names (``apps``) are SHELL; AnovaX's own name is ASSISTANT; every other name is
UNKNOWN, and the sequence rules treat UNKNOWN like a shell (default-deny). The desktop's answer
(a ``WindowIdentity`` it found from the window's process, executable and ``.desktop``
categories, or ``classify(name)`` from its app table) wins over this table, with one exception
kept as a second line: a name the terminal lists know is never *upgraded* to a vouched class,
so a mistaken or spoofed "text editor" verdict for an app called "Console" stays a shell.

Names shown in questions are cleaned here too: only characters that cannot change what a
question seems to say (no backticks, quotes or newlines), and at most ``_NAME_CHARS``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from anovax.safety import apps
from anovax.safety.apps import AppKind
from anovax.safety.canon import plain
from anovax.target import TargetClass, WindowIdentity

Classify = Callable[[str], "TargetClass | None"]

_SPLIT = re.compile(r"[\s\-_.]+")
_NAME_CHARS = 60
_QUESTION_SAFE = re.compile(r"[^\w .+()@:~/,&-]")


def _names(text: str) -> frozenset[str]:
    """"a, b c" -> {"a", "b c"}: folded names as ``static_class`` compares them."""
    return frozenset(" ".join(n.split()) for n in text.split(","))


#: text editors, office apps and calculators: what they do with text, Enter and chords is edit
#: (their macro and run keys are a second-line rule of their own, ``keys.MACRO_KEYS``)
_TEXT = _names("""notepad, text editor, editor, notes, gedit, gnome text editor, mousepad, xed, pluma, leafpad,
    featherpad, xedit, kwrite, textedit, wordpad, write, word, microsoft word, winword, writer, libreoffice writer,
    lowriter, abiword, pages, excel, microsoft excel, libreoffice calc, localc, numbers, gnumeric, powerpoint,
    microsoft powerpoint, libreoffice impress, impress, keynote, onenote, sticky notes, calculator, calc,
    gnome calculator, kcalc, galculator, qalculate, speedcrunch, windows calculator, libreoffice""")
#: web browsers: the page gets text and Enter; the address bar and developer tools have rules of their own
_BROWSER = _names("""browser, web browser, chrome, google chrome, chromium, firefox, mozilla firefox, firefox esr,
    edge, microsoft edge, msedge, brave, opera, vivaldi, safari, librewolf, waterfox, epiphany, gnome web""")
#: editors that can run code or host a shell (terminal panels, ``:!``, ``M-x eshell``): plain text only
_CODE = _names("""code, vscode, vs code, visual studio code, vscodium, codium, code oss, cursor, windsurf, zed,
    pycharm, intellij, intellij idea, idea, webstorm, phpstorm, clion, goland, rider, rubymine, android studio, fleet,
    eclipse, netbeans, kate, geany, atom, lapce, qt creator, qtcreator, visual studio, kdevelop, gnome builder, emacs,
    xemacs, spacemacs, doom emacs, vim, gvim, nvim, neovim, notepad++, notepadqq, sublime, sublime text, subl,
    textmate, bbedit, brackets""")
_ASSISTANT = _names("anovax, anovax orb")
_VOUCHED = ((_TEXT, TargetClass.TEXT), (_BROWSER, TargetClass.BROWSER), (_CODE, TargetClass.CODE),
            (_ASSISTANT, TargetClass.ASSISTANT))

#: how far a class lets keys through: a second opinion may only move a class to the right
_RANK = {TargetClass.TEXT: 0, TargetClass.BROWSER: 0, TargetClass.CODE: 1, TargetClass.UNKNOWN: 2,
         TargetClass.SHELL: 2, TargetClass.ASSISTANT: 3}


def is_plain_name(name: str) -> bool:
    """A name the runtime or a plan gave plainly: not a path, a placeholder or a disguise."""
    return bool(name.strip()) and name == plain(name) and not apps.name_problem(name) and not apps.is_placeholder(name)


def static_class(name: str) -> TargetClass:
    """The gate's own class for an app name: vouched names, then shells, else UNKNOWN."""
    if not is_plain_name(name):
        return TargetClass.UNKNOWN
    key = apps.app_key(name)
    joined = " ".join(w for w in _SPLIT.split(key) if w)
    if key != apps.app_key(name.casefold()) or not name.isascii():
        # only a name spelled as the table spells it is vouched for: "ɡedit" (a Latin look-alike g)
        # folds to "gedit" for matching, but the launcher would look for another program
        return TargetClass.SHELL if apps.kind(name) is AppKind.TERMINAL else TargetClass.UNKNOWN
    for table, klass in _VOUCHED:
        if key in table or joined in table:
            return klass
    kind = apps.kind(name)
    if kind is AppKind.APP_STORE:
        # a store's window takes a search and clicks: what it must not be given (remote-control
        # software) is a rule of its own, ``anovax.safety.gui``
        return TargetClass.TEXT
    return TargetClass.SHELL if kind is AppKind.TERMINAL else TargetClass.UNKNOWN


def resolve(desktop: object, name: str) -> TargetClass:
    """The class for ``name`` given the desktop's answer (None: the static table decides; an answer
    that is not a TargetClass: UNKNOWN, since a broken classifier vouches for nothing)."""
    static = static_class(name)
    if desktop is None:
        return static
    if not isinstance(desktop, TargetClass):
        return TargetClass.UNKNOWN
    if static is TargetClass.SHELL and _RANK[desktop] < _RANK[TargetClass.SHELL]:
        return TargetClass.SHELL  # the second line: a terminal's name is never vouched up
    return desktop


def classify_opened(name: str, classify: Classify | None) -> TargetClass:
    """The class of the app an ``open_app`` step starts: what the desktop's app table resolved the
    name to when it can tell, else the static table. A classifier that raises vouches for nothing."""
    if classify is None:
        return static_class(name)
    try:
        answer = classify(name)
    except Exception:  # noqa: BLE001 - the desktop's port failing is an unknown window, not a crash
        return TargetClass.UNKNOWN
    return resolve(answer, name)


def where(klass: TargetClass, name: str) -> str:
    """The finer second-line kind for the sequence rules (file manager, recycle bin, IDE...)."""
    if klass is TargetClass.SHELL:
        return AppKind.TERMINAL.value
    if klass is TargetClass.CODE:
        return AppKind.IDE.value
    if klass is TargetClass.BROWSER:
        return AppKind.BROWSER.value
    kind = apps.kind(name) if name else AppKind.OTHER
    return AppKind.OTHER.value if kind is AppKind.TERMINAL else kind.value


def question_name(name: str) -> str:
    """``name`` as a question may show it, or "" when nothing honest is left of it."""
    cleaned = " ".join(_QUESTION_SAFE.sub(" ", plain(name)).split())[:_NAME_CHARS].strip()
    return "" if not cleaned or apps.is_placeholder(cleaned) else cleaned


def of_identity(target: WindowIdentity) -> tuple[TargetClass, str, str]:
    """(class, question name, second-line kind) of a window the desktop identified. The class is
    the desktop's (the app's name may only make it stricter); titles name, they never classify."""
    klass = resolve(target.klass, target.app) if target.app else target.klass
    shown = question_name(target.app or target.title)
    return klass, shown, where(klass, target.app)


def of_name(name: str) -> tuple[TargetClass, str, str]:
    """(class, question name, second-line kind) of a window known only by a name (plan-only checks)."""
    if not is_plain_name(name):
        # "user@host: ~", a path, "(unknown)": nobody can vouch for it, and no question could name it
        return TargetClass.UNKNOWN, "", AppKind.OTHER.value
    klass = static_class(name)
    return klass, question_name(name), where(klass, name)

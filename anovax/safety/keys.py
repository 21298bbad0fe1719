"""Key names: normalise every spelling, parse chords and sequences, classify what a chord does.

Key names are a small domain, so they are an allowlist: an unknown name is refused rather
than guessed at. Spellings fold to one name (windows/super/meta/gui/cmd/command -> win,
control -> ctrl, option -> alt, return -> enter, del -> delete, esc -> escape); separators
``+``, ``-`` and spaces are accepted and modifiers are order-insensitive (a chord is a set).
``cmd`` is folded to ``win`` as the brief's platform-neutral choice, so on macOS cmd+r and
cmd+x are refused like win+r and win+x (fail closed).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from anovax.errors import KeyError_


Chord = frozenset[str]

MODIFIERS = frozenset({"ctrl", "alt", "shift", "win", "fn"})

_ALIASES = {
    **dict.fromkeys(("control", "ctl", "ctrlleft", "ctrlright", "lctrl", "rctrl", "leftctrl", "rightctrl", "strg"), "ctrl"),
    **dict.fromkeys(("altleft", "altright", "lalt", "ralt", "leftalt", "rightalt", "option", "opt", "optionleft", "optionright", "altgr"), "alt"),
    **dict.fromkeys(("shiftleft", "shiftright", "lshift", "rshift", "leftshift", "rightshift"), "shift"),
    **dict.fromkeys(("windows", "winleft", "winright", "lwin", "rwin", "leftwin", "rightwin", "super", "meta", "gui", "cmd",
                     "command", "os", "logo", "winkey", "windowskey", "hyper", "superleft", "superright"), "win"),
    **dict.fromkeys(("return", "ret", "numpadenter"), "enter"),
    **dict.fromkeys(("del",), "delete"),
    **dict.fromkeys(("esc",), "escape"),
    **dict.fromkeys(("bksp", "bs"), "backspace"),
    **dict.fromkeys(("ins",), "insert"),
    **dict.fromkeys(("pgup", "prior"), "pageup"),
    **dict.fromkeys(("pgdn", "pgdown", "next"), "pagedown"),
    **dict.fromkeys(("prtsc", "prtscr", "prntscrn", "print", "snapshot", "printscr"), "printscreen"),
    **dict.fromkeys(("spacebar",), "space"),
    **dict.fromkeys(("caps",), "capslock"),
    **dict.fromkeys(("arrowup", "uparrow"), "up"),
    **dict.fromkeys(("arrowdown", "downarrow"), "down"),
    **dict.fromkeys(("arrowleft", "leftarrow"), "left"),
    **dict.fromkeys(("arrowright", "rightarrow"), "right"),
    **dict.fromkeys(("mute",), "volumemute"),
    **dict.fromkeys(("apps", "contextmenu", "application"), "menu"),
    "plus": "+", "minus": "-", "hyphen": "-", "dash": "-", "equals": "=", "equal": "=", "comma": ",",
    "period": ".", "dot": ".", "fullstop": ".", "slash": "/", "backslash": "\\", "semicolon": ";",
    "colon": ":", "quote": "'", "apostrophe": "'", "singlequote": "'", "doublequote": '"',
    "backtick": "`", "backquote": "`", "grave": "`", "tilde": "~", "bracketleft": "[", "leftbracket": "[",
    "bracketright": "]", "rightbracket": "]", "underscore": "_", "asterisk": "*", "star": "*",
    "hash": "#", "pound": "#", "at": "@", "exclamation": "!", "question": "?", "ampersand": "&", "pipe": "|",
    "dollar": "$", "percent": "%", "caret": "^", "lessthan": "<", "greaterthan": ">",
}

_NAMED = frozenset(
    {
        "enter", "tab", "space", "backspace", "delete", "escape", "insert", "home", "end", "pageup", "pagedown",
        "up", "down", "left", "right", "capslock", "numlock", "scrolllock", "printscreen", "pause", "break",
        "menu", "volumeup", "volumedown", "volumemute", "playpause", "nexttrack", "prevtrack", "stop",
        "browserback", "browserforward", "browserrefresh", "browserhome", "browsersearch", "browserfavorites",
        "browserstop", "launchmail", "launchmediaselect", "launchapp1", "launchapp2", "add", "subtract",
        "multiply", "divide", "decimal", "separator", "clear", "help", "select", "sleep", "power", "sysrq",
        "hangul", "hanguel", "hanja", "kana", "kanji", "junja", "final", "convert", "nonconvert", "accept",
        "modechange", "yen",
    }
    | {f"f{n}" for n in range(1, 25)}
    | {f"num{n}" for n in range(10)}
)

#: multi-word spellings, replaced before tokenising
_MULTIWORD = [
    (re.compile(r"\bpage\s+up\b"), "pageup"), (re.compile(r"\bpage\s+down\b"), "pagedown"),
    (re.compile(r"\bprint\s+screen\b"), "printscreen"), (re.compile(r"\bcaps\s+lock\b"), "capslock"),
    (re.compile(r"\bnum\s+lock\b"), "numlock"), (re.compile(r"\bscroll\s+lock\b"), "scrolllock"),
    (re.compile(r"\bspace\s+bar\b"), "space"), (re.compile(r"\bvolume\s+(up|down|mute)\b"), r"volume\1"),
    (re.compile(r"\b(?:left|right)\s+(ctrl|control|alt|shift|win|windows|super|cmd|command|option)\b"), r"\1"),
    (re.compile(r"\b(win|windows|super|cmd|command|meta|logo)\s+key\b"), r"\1"),
    (re.compile(r"\b(up|down|left|right)\s+arrow\b"), r"\1"), (re.compile(r"\barrow\s+(up|down|left|right)\b"), r"\1"),
    (re.compile(r"\bplay\s*/?\s*pause\b"), "playpause"), (re.compile(r"\bnext\s+track\b"), "nexttrack"),
    (re.compile(r"\bprev(?:ious)?\s+track\b"), "prevtrack"),
]
_SPACES = re.compile(r"\s+")
_TOKEN = re.compile(r"[a-z][a-z0-9_]*|[0-9]+|\s+|.", re.S)


def normalise(name: str) -> str:
    """One key name in its canonical spelling, or raise KeyError_."""
    key = _ALIASES.get(name, name)
    if key in MODIFIERS or key in _NAMED:
        return key
    if len(key) == 1 and "!" <= key <= "~":
        return key
    raise KeyError_(f"unknown key {name!r}")


def parse(keys: str) -> tuple[Chord, ...]:
    """``"ctrl+shift+esc"`` -> ({ctrl, shift, escape},); ``"win+x, u"`` -> two chords.

    ``+`` and ``-`` join keys into one chord (pressed together); ``,``, ``;``, ``then`` and
    a space after a non-modifier start a new chord. A ``+``, ``-`` or ``,`` where a key is
    expected is that key itself (``ctrl++``, ``ctrl+-``, ``ctrl+,``).
    """
    # NFKC and zero-width removal only: accents and look-alike letters are *not* folded away,
    # so "ctrl+é" or a Cyrillic "ԝin" is an unknown key rather than a guess
    text = unicodedata.normalize("NFKC", keys)
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf").casefold().strip()
    text = _SPACES.sub(" ", text)
    for pattern, repl in _MULTIWORD:
        text = pattern.sub(repl, text)
    chords: list[Chord] = []
    current: list[str] = []
    after_joiner = True  # at the start, or right after "+", "-" or ","
    pending_space = False
    for token in _TOKEN.findall(text):
        if token.isspace():
            pending_space = True
            continue
        if token in ("+", "-", ",", ";", "then") and not after_joiner:
            if token in (",", ";", "then"):
                chords.append(frozenset(current))
                current = []
            after_joiner, pending_space = True, False
            continue
        if pending_space and current and not after_joiner and not all(k in MODIFIERS for k in current):
            chords.append(frozenset(current))  # "win+x u u": a space after a key starts a new chord
            current = []
        current.append(normalise(token))
        after_joiner, pending_space = False, False
    if current:
        chords.append(frozenset(current))
    if not chords or any(not c for c in chords):
        raise KeyError_("no keys")
    return tuple(chords)


# --- what a chord does ------------------------------------------------------------------


@dataclass(frozen=True)
class KeyEffect:
    """A refusal rule for a chord: its rule code and a spoken reason."""

    rule: str
    reason: str


_LAUNCH = KeyEffect("launcher_hotkey", "I won't use shortcuts that open a command prompt or a run box.")
_ELEVATE = KeyEffect("elevation", "I won't press shortcuts that approve administrator prompts.")
_DESTROY = KeyEffect("gui_destructive", "I won't use shortcuts that permanently delete things or shut the computer down.")

#: refused wherever they appear (a chord containing one of these sets is refused)
DENIED: tuple[tuple[Chord, KeyEffect], ...] = (
    (frozenset({"win", "r"}), _LAUNCH),  # Run dialog
    (frozenset({"win", "x"}), _LAUNCH),  # power-user menu: terminal (admin), shut down
    (frozenset({"ctrl", "alt", "t"}), _LAUNCH),  # GNOME/Ubuntu terminal
    (frozenset({"alt", "f2"}), _LAUNCH),  # GNOME/KDE run-command dialog
    (frozenset({"ctrl", "shift", "enter"}), _ELEVATE),  # run as administrator from search
    (frozenset({"alt", "y"}), _ELEVATE),  # "Yes" on a UAC prompt
    (frozenset({"ctrl", "alt", "delete"}), _DESTROY),  # secure attention: sign out, shut down
    (frozenset({"ctrl", "alt", "end"}), _DESTROY),  # the same over remote desktop
    (frozenset({"ctrl", "alt", "backspace"}), _DESTROY),  # kills the X server
    (frozenset({"sysrq"}), _DESTROY),  # magic SysRq: reboot, kill all
    (frozenset({"power"}), _DESTROY),
) + tuple((frozenset({"ctrl", "alt", f"f{n}"}), _LAUNCH) for n in range(1, 13))  # text consoles

#: open a terminal without being refused themselves; typing afterwards is refused
TERMINAL_OPENERS = (
    frozenset({"ctrl", "`"}), frozenset({"ctrl", "shift", "`"}),  # VS Code terminal
    frozenset({"win", "enter"}), frozenset({"win", "shift", "enter"}),  # tiling window managers, dwm
    frozenset({"win", "t"}),  # Pop!_OS / elementary terminal (Windows: taskbar focus, unknown anyway)
    frozenset({"alt", "f12"}),  # JetBrains terminal
    frozenset({"win", "`"}),  # Windows Terminal's quake mode
    frozenset({"ctrl", "alt", "enter"}), frozenset({"win", "ctrl", "t"}), frozenset({"win", "shift", "t"}),
    # gedit, xed and pluma: the bottom panel with the embedded terminal or Python console; Word:
    # a field, where a typed DDEAUTO runs a program
    frozenset({"ctrl", "f9"}),
)
#: drop-down terminals (Guake, Yakuake, Tilda) grab F12 globally; in an app the plan opened
#: it is that app's key (Save As in Word), so it counts as a terminal only elsewhere
DROP_DOWN_TERMINAL = frozenset({"f12"})
#: open a browser's developer console (a JavaScript REPL for the page) when a browser has focus
DEVTOOLS = (
    frozenset({"f12"}), frozenset({"ctrl", "shift", "j"}), frozenset({"ctrl", "shift", "i"}),
    frozenset({"ctrl", "shift", "k"}), frozenset({"ctrl", "shift", "c"}),  # Firefox's console, Chrome's inspector
    # Firefox's network panel and Chrome's device toolbar: the same tools, another tab of them
    frozenset({"ctrl", "shift", "e"}), frozenset({"ctrl", "shift", "m"}),
    # a chord that holds a developer-tools chord and more still opens them ("ctrl+shift+i+j")
    frozenset({"ctrl", "shift", "i", "j"}),
    # macOS cmd+option+i/j/c/u (cmd folds to win): inspector, console, element picker, source
    frozenset({"win", "alt", "j"}), frozenset({"win", "alt", "i"}), frozenset({"win", "alt", "c"}),
    frozenset({"win", "alt", "u"}), frozenset({"win", "alt", "k"}),
)
#: permanent delete (skipping the recycle bin) in a file manager, cut in an editor: asked about
#: where nobody said which window has the keys (``anovax.safety.gui``), refused when named in a goal
PERMANENT_DELETE = frozenset({"shift", "delete"})
#: open a search box that launches whatever name is typed into it
SEARCH_LAUNCHERS = (
    frozenset({"win"}), frozenset({"win", "s"}), frozenset({"win", "q"}), frozenset({"win", "space"}),
    frozenset({"alt", "space"}), frozenset({"ctrl", "escape"}), frozenset({"alt", "f1"}),
    # an editor's command palette ("Terminal: Create New Terminal") runs what is typed into it
    frozenset({"ctrl", "shift", "p"}),
    # app menus and grids: GNOME's super+a, Xfce's app finder, the menu key on some desktops
    frozenset({"win", "a"}), frozenset({"alt", "f3"}), frozenset({"menu"}), frozenset({"shift", "menu"}),
)
#: open the built-in terminal panel of an editor or IDE that has one (VS Code, JetBrains, Kate)
IDE_TERMINAL_KEYS = (
    frozenset({"ctrl", "shift", "c"}), frozenset({"ctrl", "j"}), frozenset({"f4"}), frozenset({"alt", "f12"}),
    frozenset({"ctrl", "`"}), frozenset({"ctrl", "shift", "`"}),
    frozenset({"alt", "x"}), frozenset({"alt", "shift", "1"}), frozenset({"alt", "!"}),  # Emacs: M-x shell, M-!
    # palettes, quick open (">" makes it a palette), find action, split terminals
    frozenset({"f1"}), frozenset({"ctrl", "p"}), frozenset({"ctrl", "shift", "p"}), frozenset({"ctrl", "shift", "a"}),
    frozenset({"ctrl", "shift", "5"}), frozenset({"ctrl", "e"}),
)
#: an IDE's run and build keys execute the code in the editor (what the plan may have just typed)
IDE_RUN_KEYS = (
    frozenset({"f5"}), frozenset({"ctrl", "f5"}), frozenset({"shift", "f10"}), frozenset({"ctrl", "b"}),
    frozenset({"f9"}), frozenset({"ctrl", "shift", "b"}), frozenset({"ctrl", "shift", "f10"}), frozenset({"f8"}),
)
#: macro dialogs and script editors of office apps (Excel's alt+f8 runs a macro by name)
MACRO_KEYS = (frozenset({"alt", "f8"}), frozenset({"alt", "f11"}))
#: Ulauncher's and some desktops' launcher key, when no app the plan opened has the focus
ORPHAN_LAUNCHER = frozenset({"ctrl", "space"})
#: a file manager's terminal panel (Dolphin, Konqueror) and its context menu ("Open in Terminal")
FILE_MANAGER_TERMINAL_KEYS = (
    frozenset({"f4"}), frozenset({"shift", "f4"}), frozenset({"menu"}), frozenset({"shift", "f10"}),
)
#: keys a shell's line editor neither edits nor runs the line with (clear the screen, copy): the
#: only chords pressed into a terminal without being refused (ctrl+c is not: it drops the line
#: typed so far, so the question would show text that never runs)
SHELL_HARMLESS = (frozenset({"ctrl", "l"}), frozenset({"ctrl", "shift", "c"}))
#: close or hide the focused window, or hand the focus elsewhere: whatever was behind it (a
#: terminal the session reported, say) may get the next keys
FOCUS_MOVERS = (
    frozenset({"ctrl", "w"}), frozenset({"ctrl", "q"}), frozenset({"ctrl", "shift", "w"}),
    frozenset({"ctrl", "shift", "q"}), frozenset({"ctrl", "f4"}), frozenset({"win", "down"}),
    frozenset({"win", "h"}), frozenset({"alt", "f9"}), frozenset({"escape"}), frozenset({"alt", "`"}),
    frozenset({"ctrl", "alt", "d"}), frozenset({"alt", "f6"}), frozenset({"f6"}),
) + tuple(frozenset({"win", "alt", str(n)}) for n in range(10))
#: show the desktop: alt+f4 there opens the shut-down dialog
DESKTOP = (frozenset({"win", "d"}), frozenset({"win", "m"}), frozenset({"win", ","}))
#: open a system tool (where select-all + delete or typed "reset" does damage)
SYSTEM_OPENERS = (
    frozenset({"win", "e"}), frozenset({"win", "i"}), frozenset({"ctrl", "shift", "escape"}),
    frozenset({"win", "pause"}), frozenset({"win", "break"}), frozenset({"win", "u"}), frozenset({"launchapp1"}),
)
#: switch to another window: focus becomes unknown
WINDOW_SWITCH = (
    frozenset({"alt", "tab"}), frozenset({"alt", "shift", "tab"}), frozenset({"win", "tab"}),
    frozenset({"ctrl", "alt", "tab"}), frozenset({"alt", "escape"}),
    # another workspace or virtual desktop: its focused window gets the keys
    frozenset({"ctrl", "alt", "left"}), frozenset({"ctrl", "alt", "right"}), frozenset({"ctrl", "alt", "up"}),
    frozenset({"ctrl", "alt", "down"}), frozenset({"ctrl", "win", "left"}), frozenset({"ctrl", "win", "right"}),
) + tuple(frozenset({"win", str(n)}) for n in range(10))
PASTE = (frozenset({"ctrl", "v"}), frozenset({"shift", "insert"}), frozenset({"ctrl", "shift", "v"}), frozenset({"win", "v"}))
ADDRESS_BAR = (frozenset({"ctrl", "l"}), frozenset({"alt", "d"}), frozenset({"f6"}), frozenset({"ctrl", "k"}), frozenset({"ctrl", "e"}))
#: log out: macOS cmd+shift+q (a dialog) and cmd+option+shift+q (at once, unsaved work lost)
SESSION_END_KEYS = (frozenset({"win", "shift", "q"}), frozenset({"win", "alt", "shift", "q"}))
#: macOS's cmd+l in a browser (cmd folds to win; elsewhere win+l locks the screen)
MAC_ADDRESS_BAR = frozenset({"win", "l"})
#: in a browser, these also leave the keys in an address bar: cmd+l, a new tab, a new window
BROWSER_ADDRESS_BAR = (MAC_ADDRESS_BAR, frozenset({"ctrl", "t"}), frozenset({"ctrl", "n"}))
SELECT_ALL = frozenset({"ctrl", "a"})
#: select from the cursor to the start or end of the document (all of it, from the other end)
SELECT_TO_EDGE = (frozenset({"ctrl", "shift", "end"}), frozenset({"ctrl", "shift", "home"}))
CLOSE = frozenset({"alt", "f4"})
#: close a window, a tab or the app (cmd+w and cmd+q fold to win+w and win+q): its app may ask
#: "save changes?", and the next key may answer that dialog
CLOSERS = (CLOSE, frozenset({"ctrl", "w"}), frozenset({"ctrl", "q"}), frozenset({"ctrl", "shift", "w"}),
           frozenset({"ctrl", "shift", "q"}), frozenset({"ctrl", "f4"}), frozenset({"win", "w"}), frozenset({"win", "q"}))
#: keys that open a file dialog (open, save, save as, print, Word's F12): its address field and its
#: "Open with" launch programs, so inside it only a file name, Enter and Escape stay vouched
FILE_DIALOG_KEYS = (frozenset({"ctrl", "o"}), frozenset({"ctrl", "s"}), frozenset({"ctrl", "shift", "s"}),
                    frozenset({"ctrl", "p"}), frozenset({"f12"}), frozenset({"ctrl", "f12"}),
                    frozenset({"shift", "f12"}), frozenset({"ctrl", "shift", "o"}), frozenset({"alt", "f2"}))
#: the keys that move and edit inside a text or a page, which keep a vouched window vouched; any
#: other shortcut may open a panel, a console or a dialog nobody vouches for (default-deny)
_NAV_EDIT = frozenset({"up", "down", "left", "right", "home", "end", "pageup", "pagedown", "enter", "tab",
                       "escape", "backspace", "delete", "space", "insert"})
_CTRL_SAFE = frozenset("acvxzybiufhgntwrdlke0=+-") | {"tab", "home", "end", "left", "right", "up", "down",
                                                      "backspace", "delete", "pageup", "pagedown", "enter"}
_CTRL_SHIFT_SAFE = frozenset({"tab", "z", "t", "v", "left", "right", "up", "down", "home", "end"})


def keeps_vouched(chord: Chord, *, browser: bool = False) -> bool:
    """A key that edits or moves within a vouched window (allowlist: everything else is unknown).
    In a browser ctrl+shift+z is not redo but Firefox's debugger."""
    mods = chord & MODIFIERS
    rest = chord - mods
    if len(rest) != 1:
        return False
    key = next(iter(rest))
    if not mods - {"shift"}:
        return key in _NAV_EDIT or len(key) == 1 or (not mods and key in ("f3", "f5", "f11"))
    if mods == {"ctrl"}:
        return key in _CTRL_SAFE
    return mods == {"ctrl", "shift"} and key in _CTRL_SHIFT_SAFE and not (browser and key == "z")


def denied(chord: Chord) -> KeyEffect | None:
    """Why ``chord`` is refused on its own, or None."""
    for combo, effect in DENIED:
        if combo <= chord:
            return effect
    # magic SysRq spelled alt+printscreen+<key> (alt+printscreen alone is a window screenshot)
    if {"alt", "printscreen"} <= chord and len(chord) > 2:
        return _DESTROY
    return None


def typed_char(chord: Chord) -> str | None:
    """The text a chord types ("a", " ", "\\n"), "\\b" for backspace, or None for a shortcut."""
    keys = set(chord) - {"shift"}
    if len(keys) != 1 or keys & MODIFIERS:
        return None
    key = next(iter(keys))
    if len(key) == 1:
        return key
    return {"space": " ", "tab": "\t", "enter": "\n", "backspace": "\b"}.get(key)

"""Keyboard vocabulary shared by the real adapters: key chords and text to type.

How each platform types (the adapters' modules say more):

- Linux/X11: ``xdotool type --delay 1 -- <chunk>``, one process per chunk. Characters
  missing from the keyboard map (accents on a US map, CJK, ...) are first bound to
  spare keycodes by ``X11Keymap`` (linux.py), because xdotool's own trick of rebinding
  one scratch keycode per character races with the target app and measurably drops
  or repeats CJK characters. Without xdotool: pyautogui, ASCII only (it silently drops
  anything else, so non-ASCII text is refused before a single key is sent).
- Windows: pyautogui for ASCII; ``SendInput`` with ``KEYEVENTF_UNICODE`` for the rest.
- macOS: pyautogui for ASCII; the clipboard (``pbcopy``, Cmd+V, then the old text
  restored) for the rest, because ``osascript`` keystroke mangles non-ASCII.

Key chords are parsed by ``anovax.safety.keys.parse``: the keys pressed are exactly
the keys the safety check looked at, never a second interpretation of the string.
"""

from __future__ import annotations

import re

from anovax.errors import PermanentToolError
from anovax.safety import keys as safety_keys

#: pressed first, in this order, then the other keys of the chord
MODIFIER_ORDER = ("ctrl", "alt", "shift", "win")

#: canonical key name -> X keysym name (what ``xdotool key`` takes)
X_KEYSYMS: dict[str, str] = {
    "ctrl": "ctrl", "alt": "alt", "shift": "shift", "win": "super",
    "enter": "Return", "tab": "Tab", "space": "space", "backspace": "BackSpace", "delete": "Delete",
    "escape": "Escape", "insert": "Insert", "home": "Home", "end": "End", "pageup": "Prior", "pagedown": "Next",
    "up": "Up", "down": "Down", "left": "Left", "right": "Right", "capslock": "Caps_Lock", "numlock": "Num_Lock",
    "scrolllock": "Scroll_Lock", "printscreen": "Print", "pause": "Pause", "break": "Break", "menu": "Menu",
    "volumeup": "XF86AudioRaiseVolume", "volumedown": "XF86AudioLowerVolume", "volumemute": "XF86AudioMute",
    "playpause": "XF86AudioPlay", "nexttrack": "XF86AudioNext", "prevtrack": "XF86AudioPrev", "stop": "XF86AudioStop",
    "browserback": "XF86Back", "browserforward": "XF86Forward", "browserrefresh": "XF86Refresh",
    "browserhome": "XF86HomePage", "browsersearch": "XF86Search", "browserfavorites": "XF86Favorites",
    "browserstop": "XF86Stop", "launchmail": "XF86Mail", "launchmediaselect": "XF86AudioMedia",
    "launchapp1": "XF86Launch0", "launchapp2": "XF86Launch1",
    "add": "KP_Add", "subtract": "KP_Subtract", "multiply": "KP_Multiply", "divide": "KP_Divide",
    "decimal": "KP_Decimal", "separator": "KP_Separator", "clear": "Clear", "help": "Help", "select": "Select",
    "sleep": "XF86Sleep", "power": "XF86PowerOff", "sysrq": "Sys_Req", "hangul": "Hangul", "hanguel": "Hangul",
    "hanja": "Hangul_Hanja", "kana": "Katakana", "kanji": "Kanji", "convert": "Henkan", "nonconvert": "Muhenkan",
    "modechange": "Mode_switch", "yen": "yen",
    **{f"f{n}": f"F{n}" for n in range(1, 25)},
    **{f"num{n}": f"KP_{n}" for n in range(10)},
    "!": "exclam", '"': "quotedbl", "#": "numbersign", "$": "dollar", "%": "percent", "&": "ampersand",
    "'": "apostrophe", "(": "parenleft", ")": "parenright", "*": "asterisk", "+": "plus", ",": "comma",
    "-": "minus", ".": "period", "/": "slash", ":": "colon", ";": "semicolon", "<": "less", "=": "equal",
    ">": "greater", "?": "question", "@": "at", "[": "bracketleft", "\\": "backslash", "]": "bracketright",
    "^": "asciicircum", "_": "underscore", "`": "grave", "{": "braceleft", "|": "bar", "}": "braceright",
    "~": "asciitilde",
    **{c: c for c in "abcdefghijklmnopqrstuvwxyz0123456789"},
}

#: canonical names pyautogui spells differently (everything else is the same word)
_PYAUTOGUI_NAMES = {"escape": "esc", "menu": "apps", "hanguel": "hangul"}
#: the platform key: pyautogui calls it "win" on Windows and Linux, "command" on macOS
_PYAUTOGUI_WIN = {"linux": "win", "windows": "win", "macos": "command"}

#: characters typed as keys rather than text: newline -> Enter, tab -> Tab
_CONTROL_OK = frozenset("\n\t")
_NEWLINES = re.compile(r"\r\n?")


def parse_chords(keys: str) -> tuple[tuple[str, ...], ...]:
    """``"ctrl+shift+t"`` -> (("ctrl", "shift", "t"),): chords in press order, or PermanentToolError."""
    try:
        chords = safety_keys.parse(keys)
    except safety_keys.KeyError_ as exc:
        raise PermanentToolError(f"I don't know the key {keys.strip()!r} ({exc}).", code="bad_key") from exc
    out = []
    for chord in chords:
        if "fn" in chord:
            raise PermanentToolError("The Fn key is handled by the keyboard itself; software can't press it.",
                                     code="bad_key")
        mods = [m for m in MODIFIER_ORDER if m in chord]
        out.append((*mods, *sorted(chord - set(MODIFIER_ORDER))))
    return tuple(out)


def xdotool_chord(chord: tuple[str, ...]) -> str:
    """("ctrl", "s") -> "ctrl+s", the argument of ``xdotool key``."""
    try:
        return "+".join(X_KEYSYMS[k] for k in chord)
    except KeyError as exc:
        raise PermanentToolError(f"The key {exc.args[0]!r} can't be pressed on this desktop.", code="bad_key") from None


def pyautogui_chord(chord: tuple[str, ...], platform: str) -> list[str]:
    """("win", "e") -> ["win", "e"] / ["command", "e"]: the arguments of ``pyautogui.hotkey``."""
    names = []
    for key in chord:
        name = _PYAUTOGUI_WIN[platform] if key == "win" else _PYAUTOGUI_NAMES.get(key, key)
        names.append(name)
    return names


def prepare_text(text: str) -> str:
    """Text as it will be typed: CRLF/CR become newlines; other control characters are refused.

    Refusing up front means nothing is half-typed when the text contains, say, an escape
    character that would be sent as a keystroke.
    """
    text = _NEWLINES.sub("\n", text)
    for ch in text:
        if (ch < " " and ch not in _CONTROL_OK) or "\x7f" <= ch <= "\x9f":
            raise PermanentToolError(f"I can't type the control character U+{ord(ch):04X}.", code="bad_text")
    return text


def is_ascii_typable(text: str) -> bool:
    """True when every character is printable ASCII, newline or tab (what pyautogui can type)."""
    return all(" " <= ch <= "~" or ch in _CONTROL_OK for ch in text)


def keysym_for_char(ch: str) -> int:
    """The X keysym that produces ``ch``: Latin-1 keysyms equal the code point; the rest
    of Unicode lives at 0x01000000 + code point (X11 protocol, appendix A)."""
    cp = ord(ch)
    if 0x20 <= cp <= 0x7E or 0xA0 <= cp <= 0xFF:
        return cp
    return 0x01000000 | cp


def split_runs(text: str) -> list[tuple[bool, str]]:
    """Consecutive ASCII-typable / other characters: "ab日本c" -> [(True, "ab"), (False, "日本"), (True, "c")]."""
    runs: list[tuple[bool, str]] = []
    for ch in text:
        plain = is_ascii_typable(ch)
        if runs and runs[-1][0] == plain:
            runs[-1] = (plain, runs[-1][1] + ch)
        else:
            runs.append((plain, ch))
    return runs


def utf16_units(text: str) -> list[int]:
    """The UTF-16 code units of ``text`` (what Windows' KEYEVENTF_UNICODE sends, one per event)."""
    data = text.encode("utf-16-le", "surrogatepass")
    return [int.from_bytes(data[i : i + 2], "little") for i in range(0, len(data), 2)]

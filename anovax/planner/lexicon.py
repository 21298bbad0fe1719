"""The offline planner's word tables: app aliases, key names, numbers, filler and canned replies.

Everything here is data. ``grammar.yaml`` holds the sentence templates (matched by hassil),
``topics.py`` the topic cues, ``refusals.py`` what is never done, and the other modules the
logic that turns a match or a cue into steps. Keep the tables short and readable; the app
table and its verification against installed apps come in a later issue.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from anovax import sites

# --- applications -----------------------------------------------------------------

#: spoken name -> canonical app name (what open_app receives)
APP_ALIASES: dict[str, str] = {
    # editors
    "notepad": "notepad",
    "note pad": "notepad",
    "text editor": "notepad",
    "editor": "notepad",
    "notes": "notepad",
    "notes app": "notepad",
    "wordpad": "wordpad",
    "word": "word",
    "microsoft word": "word",
    "excel": "excel",
    "microsoft excel": "excel",
    "powerpoint": "powerpoint",
    "paint": "paint",
    "vs code": "vscode",
    "vscode": "vscode",
    "visual studio code": "vscode",
    "code editor": "vscode",
    # tools
    "calculator": "calculator",
    "calc": "calculator",
    "clock": "clock",
    "camera": "camera",
    "settings": "settings",
    "system settings": "settings",
    "control panel": "settings",
    "preferences": "settings",
    "task manager": "task manager",
    # browsers
    "browser": "browser",
    "web browser": "browser",
    "internet browser": "browser",
    "internet": "browser",
    "the internet": "browser",
    "chrome": "chrome",
    "google chrome": "chrome",
    "firefox": "firefox",
    "mozilla firefox": "firefox",
    "edge": "edge",
    "microsoft edge": "edge",
    # shells (opening one is fine; typing into one is refused)
    "terminal": "terminal",
    "console": "terminal",
    "command prompt": "terminal",
    "command line": "terminal",
    "cmd": "terminal",
    "shell": "terminal",
    "powershell": "terminal",
    # files
    "files": "file manager",
    "file manager": "file manager",
    "file explorer": "file manager",
    "explorer": "file manager",
    "windows explorer": "file manager",
    "finder": "file manager",
    "my files": "file manager",
    # media and chat
    "spotify": "spotify",
    "vlc": "vlc",
    "media player": "media player",
    "music player": "media player",
    "discord": "discord",
    "slack": "slack",
    "zoom": "zoom",
    "teams": "teams",
    "microsoft teams": "teams",
    "steam": "steam",
}

#: canonical name -> how the reply names it
APP_DISPLAY: dict[str, str] = {
    "notepad": "Notepad",
    "wordpad": "WordPad",
    "word": "Word",
    "excel": "Excel",
    "powerpoint": "PowerPoint",
    "paint": "Paint",
    "vscode": "VS Code",
    "calculator": "the calculator",
    "clock": "the clock",
    "camera": "the camera",
    "settings": "Settings",
    "task manager": "Task Manager",
    "browser": "the browser",
    "chrome": "Chrome",
    "firefox": "Firefox",
    "edge": "Edge",
    "terminal": "the terminal",
    "file manager": "the file manager",
    "spotify": "Spotify",
    "vlc": "VLC",
    "media player": "the media player",
    "discord": "Discord",
    "slack": "Slack",
    "zoom": "Zoom",
    "teams": "Teams",
    "steam": "Steam",
}

#: the canonical apps that are web browsers: a page opens one itself, and typing never goes to one by
#: name (its open page's focused field, or an address bar that sends suggestions out)
BROWSER_APPS = frozenset({"browser", "chrome", "chromium", "firefox", "edge", "safari", "brave", "opera"})
#: music services the planner cannot control; "play X on spotify" becomes a YouTube search
MUSIC_SERVICES = frozenset({"spotify", "pandora", "iheartradio", "iheart radio", "deezer", "tidal", "apple music", "soundcloud"})

#: websites known by name: "open wikipedia" opens its fixed address (anovax.sites)
WEBSITES = frozenset(sites.KNOWN)

#: allowed characters of an app name (ToolSpec allows 64 characters of anything; we are stricter)
#: the user's own app names (settings file [apps]): always opened as apps, never read as a
#: question or a topic. One process has one settings file, so this is process-wide.
USER_APPS: set[str] = set()


def register_user_apps(names: Iterable[str]) -> None:
    USER_APPS.clear()
    USER_APPS.update(names)


APP_NAME_RE = re.compile(r"^[\w .+()-]{1,64}$")
#: an unknown app name longer than this many words is probably not an app
MAX_APP_WORDS = 4

# --- keys -----------------------------------------------------------------------------

#: spoken key word -> pyautogui key name
KEY_NAMES: dict[str, str] = {
    "enter": "enter", "return": "enter", "new line": "enter", "newline": "enter",
    "tab": "tab", "space": "space", "space bar": "space", "spacebar": "space",
    "escape": "esc", "esc": "esc", "backspace": "backspace", "back space": "backspace",
    "delete": "delete", "del": "delete", "insert": "insert",
    "home": "home", "end": "end", "page up": "pageup", "pageup": "pageup",
    "page down": "pagedown", "pagedown": "pagedown",
    "up": "up", "down": "down", "left": "left", "right": "right",
    "up arrow": "up", "down arrow": "down", "left arrow": "left", "right arrow": "right",
    "arrow up": "up", "arrow down": "down", "arrow left": "left", "arrow right": "right",
    "control": "ctrl", "ctrl": "ctrl", "alt": "alt", "option": "alt", "shift": "shift",
    "windows": "win", "windows key": "win", "win": "win", "super": "win",
    "command": "command", "cmd": "command",
    "print screen": "printscreen", "caps lock": "capslock",
    "plus": "+", "minus": "-",
    **{f"f{i}": f"f{i}" for i in range(1, 13)},
}

#: whole spoken phrases that mean a hotkey ("save it" -> ctrl+s)
HOTKEY_PHRASES: dict[str, str] = {
    "enter": "enter", "new line": "enter", "next line": "enter",
    "save": "ctrl+s", "save it": "ctrl+s", "save this": "ctrl+s", "save that": "ctrl+s",
    "save the file": "ctrl+s", "save the document": "ctrl+s", "save my work": "ctrl+s",
    "save the text": "ctrl+s", "save the note": "ctrl+s",
    "select all": "ctrl+a", "select everything": "ctrl+a", "select all the text": "ctrl+a",
    "copy": "ctrl+c", "copy it": "ctrl+c", "copy that": "ctrl+c", "copy this": "ctrl+c",
    "copy the text": "ctrl+c",
    "paste": "ctrl+v", "paste it": "ctrl+v", "paste that": "ctrl+v", "paste this": "ctrl+v",
    "cut": "ctrl+x", "cut it": "ctrl+x", "cut that": "ctrl+x",
    "undo": "ctrl+z", "undo that": "ctrl+z", "undo it": "ctrl+z",
    "redo": "ctrl+y", "redo that": "ctrl+y",
    "new tab": "ctrl+t", "open a new tab": "ctrl+t", "open new tab": "ctrl+t",
    "close the tab": "ctrl+w", "close tab": "ctrl+w", "close this tab": "ctrl+w",
    "close the window": "alt+f4", "close this window": "alt+f4", "close window": "alt+f4",
    "close it": "alt+f4", "close the app": "alt+f4", "close this app": "alt+f4",
    "switch window": "alt+tab", "switch windows": "alt+tab", "switch the window": "alt+tab",
    "switch apps": "alt+tab", "next window": "alt+tab",
    "go back": "alt+left", "go forward": "alt+right",
    "refresh": "f5", "refresh the page": "f5", "reload the page": "f5", "reload": "f5",
    "scroll down": "pagedown", "scroll up": "pageup",
    "print it": "ctrl+p", "print this": "ctrl+p",
    "bold": "ctrl+b", "make it bold": "ctrl+b",
    "zoom in": "ctrl+plus", "zoom out": "ctrl+minus",
    "minimize the window": "win+down", "maximize the window": "win+up",
}

#: the short ways to name each hotkey; the recogniser's model hears each of these by itself, and
#: the generated sentences below only in sample (hundreds of them would crowd out "copy" and "undo")
HOTKEY_SHORT: tuple[str, ...] = tuple(HOTKEY_PHRASES)

# "undo the last change", "redo that last step": the edit named by what it was
HOTKEY_PHRASES.update({f"{verb} {det} last {thing}": keys for verb, keys in (("undo", "ctrl+z"), ("redo", "ctrl+y"))
                       for det in ("the", "that", "my") for thing in ("thing", "change", "step", "action", "edit", "one")})

# The selection said as a sentence: "highlight all the text on the page", "copy the selected words".
_WHOLE = ("all", "everything", "all the text", "all of the text", "the whole text", "the whole page", "all of it",
          "the whole document", "the entire page", "the entire document", "all the words")
_WHERE = ("", " on the page", " on this page", " in the document", " in this document", " on the screen", " here",
          " in here", " in the window", " in this window")
HOTKEY_PHRASES.update({f"{verb} {whole}{where}": "ctrl+a" for verb in ("select", "highlight", "mark")
                       for whole in _WHOLE for where in _WHERE})
_SELECTED = ("the selected text", "the selection", "the selected words", "the highlighted text", "the highlighted words",
             "what's selected", "what is selected", "what i selected", "what's highlighted", "what i highlighted",
             "the marked text", "the selected part")
HOTKEY_PHRASES.update({f"{verb} {what}": keys for verb, keys in (("copy", "ctrl+c"), ("cut", "ctrl+x"))
                       for what in _SELECTED})

#: how hotkeys are said back to the user
KEY_SAY: dict[str, str] = {
    "enter": "Pressing Enter.", "ctrl+s": "Saving.", "ctrl+a": "Selecting everything.", "ctrl+c": "Copying.",
    "ctrl+v": "Pasting.", "ctrl+x": "Cutting.", "ctrl+z": "Undoing.", "ctrl+y": "Redoing.",
    "ctrl+t": "Opening a new tab.", "ctrl+w": "Closing the tab.", "alt+f4": "Closing the window.",
    "alt+tab": "Switching windows.", "alt+left": "Going back.", "alt+right": "Going forward.",
    "f5": "Refreshing.", "ctrl+p": "Printing.", "pagedown": "Scrolling down.", "pageup": "Scrolling up.",
    "win+up": "Maximizing the window.", "win+down": "Minimizing the window.", "ctrl+plus": "Zooming in.",
    "ctrl+minus": "Zooming out.", "ctrl+b": "Bold.",
}

# --- numbers (for "wait two seconds", "press enter three times") ------------------------

SMALL_NUMBERS: dict[str, int] = {
    "zero": 0, "one": 1, "a": 1, "an": 1, "a couple of": 2, "couple of": 2, "two": 2, "three": 3,
    "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "once": 1, "twice": 2, "thrice": 3,
}

# --- request cleanup ---------------------------------------------------------------------

#: leading wake words and politeness that carry no meaning for the plan
LEAD_FILLER = re.compile(
    r"^(?:(?:hey|hi|hello|yo|ok|okay|wake up)[\s,]+(?:olly|alexa|siri|google|anovax?|assistant)\b|olly\b|alexa\b|siri\b|anovax?\b"
    r"|(?:hey|hi|hello|yo)[\s,]+(?=(?:play|open|launch|start|type|search|google|tell|show|take|set|find|put|turn|switch|read|"
    r"what|what's|who|how|how's|when|where|why|can|could|would|will|is|are|do)\b)"
    r"|please\b|kindly\b|just\b|now\b|so\b|ok(?:ay)?\s+(?=\w)|(?:can|could|would|will) you(?: please)?(?: kindly)?\b"
    r"|(?:first|firstly|first of all|to start|to begin)\b,?(?=\s+(?:open|launch|start|type|write|search|take|press|go|play|tell|find|show|close|switch)\b)"
    r"|(?:i want|i need|i'd like|i would like) you to\b|(?:go ahead and|be a dear and)\b"
    r"|go (?:on )?and(?= (?:open|launch|start|type|write|search|take|press|play|tell|find|show|close|switch|set|check|get)\b)"
    r"|(?:i'd like|i would like) (?:to )?(?=(?:open|launch|search|type|take|see|know)\b)"
    # openers before the request itself: "quick question, who ...", "excuse me what time is it", "hmm who wrote x"
    r"|(?:(?:a |one )?quick question|(?:i have|i've got|i got) (?:a |one )?(?:quick )?question(?: for you)?|(?:a |one )?question|"
    r"excuse me|sorry|pardon me|h+m+|u+m+|u+h+|e+r+m*|well|also|and|by any chance|any chance(?: (?:that )?you (?:know|have))?|"
    r"(?:do you )?(?:wanna|want to)(?= (?:tell|give|show)\b)|may i (?:know|ask|have)(?: you)?)[\s,:.!?-]+"
    r"(?=(?:what|what's|whats|who|who's|whos|how|how's|when|where|why|which|is|are|do|does|did|can|could|tell|give|show|"
    r"the|today's|open|play|search|set|take|find|look|put|start|launch|google|read|listen|resume|continue|queue|stream|"
    r"turn|switch|type|write|close|press|i|let's|lets)\b))[\s,.!?]*",
    re.I,
)
TRAIL_FILLER = re.compile(
    r"[\s,]*\b(?:please|for me|thanks|thank you|right now|now please|if you can|if you could|if you don't mind|"
    # chat and haste said last: "wat time is it rn", "whats the date today lol", "open notepad real quick"
    # (never what is asked about: "what's the meaning of lol", "define asap")
    r"(?<!\bof )(?<!\bdefine )(?<!\bspell )(?<!\bis )(?<!\bfor )(?:rn|lol|lmao|haha+|tbh|asap)|real quick|really quick|quickly|"
    # a tag question: "pull up a text editor, would you"
    r"(?<=,\s)(?:would|will|could|can|won't) you|(?<=,)(?:would|will|could|can|won't) you|"
    # a vocative or an aside after a comma: "what's the date, mate", "is it tuesday today, i've lost track"
    r"(?<=,\s)(?:mate|buddy|pal|dude|my friend|friend|bro|boss|man|i've lost track|i lost track|i have lost track|"
    r"i forgot|i've forgotten|i can't remember)|"
    # the assistant's name said last: "what's the time olly"
    # (never the object of a word before it: "search for olly", "play alexa by the band")
    r"(?<!\bfor )(?<!\babout )(?<!\bto )(?<!\bof )(?<!\bon )(?<!\bup )(?<!\bcalled )(?<!\bnamed )(?<!\bplay )"
    r"(?<!\bsearch )(?<!\bgoogle )(?<!\bask )(?<!\bopen )(?<!\bwith )(?<!\bby )(?<!\band )(?:olly|alexa|siri|anovax?))[\s.!?]*$", re.I
)

# --- canned replies ----------------------------------------------------------------------------

JOKES: tuple[str, ...] = (
    "Why do programmers prefer dark mode? Because light attracts bugs.",
    "I told my computer I needed a break, and it said: no problem, I'll go to sleep.",
    "Why did the scarecrow win an award? Because he was outstanding in his field.",
    "What do you call a fake noodle? An impasta.",
    "Why don't skeletons fight each other? They don't have the guts.",
    "I'm reading a book about anti-gravity. It's impossible to put down.",
    "Why did the keyboard break up with the mouse? It felt like it was being dragged around.",
    "Parallel lines have so much in common. It's a shame they'll never meet.",
)

CAPABILITIES = (
    "I can open apps, switch between, arrange and close their windows, type text, press keys, search the web "
    "or YouTube, tell the time and date, set timers and reminders, take screenshots and tell jokes."
)


#: music genres, said alone ("some indie", "death metal now") a request to play them
GENRES: tuple[str, ...] = tuple("""jazz blues rock pop indie folk country classical metal punk grunge soul funk disco
    reggae ska techno house trance dubstep edm electronic ambient lofi lo-fi rap hip-hop gospel opera
    salsa samba tango flamenco bluegrass swing motown r&b rnb kpop k-pop jpop emo hardcore""".split()) + (
    "hip hop", "death metal", "heavy metal", "classic rock", "hard rock", "soft rock", "alternative rock",
    "drum and bass", "easy listening", "smooth jazz", "rhythm and blues", "lo fi", "chill out", "chillout",
    "new age", "baroque", "big band", "acid jazz", "bossa nova", "afrobeat", "afrobeats", "latin",
)

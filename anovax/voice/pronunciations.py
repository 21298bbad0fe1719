"""The pronunciations the offline recogniser's dictionary gets: cmudict's (bundled with
pocketsphinx), then ``EXTRA_PRONUNCIATIONS`` for corpus words cmudict lacks and for words people
say differently from its entries. stt.py builds the command dictionary from these, rivals.py the
name's rivals; a change here changes the model's cache key (stt._cache_key)."""

from __future__ import annotations

from anovax.voice.recognizer import VARIANT

#: pronunciations (CMU phone set) for corpus words the bundled cmudict lacks, and extra ones
#: for words people say differently from its only entry
EXTRA_PRONUNCIATIONS: dict[str, tuple[str, ...]] = {
    "anova": ("AE N OW V AH",),  # cmudict has only "AH N OW V AA"; "AH N OW V AH" would be "a nova"
    "backspace": ("B AE K S P EY S",),
    "bossa": ("B AA S AH",),
    "calc": ("K AE L K",),
    "cmd": ("S IY EH M D IY",),
    "ctrl": ("K AH N T R OW L",),
    "esc": ("EH S K",),
    "gedit": ("JH IY EH D IH T", "G EH D IH T"),
    "hiya": ("HH AY AH",),
    # the window tools' words (issue 21: every template word can be said); British spellings too
    "fullscreen": ("F UH L S K R IY N",),
    "unfullscreen": ("AH N F UH L S K R IY N",),
    "maximise": ("M AE K S AH M AY Z",),
    "minimise": ("M IH N AH M AY Z",),
    "unmaximise": ("AH N M AE K S AH M AY Z",),
    "unmaximize": ("AH N M AE K S AH M AY Z",),
    "unminimise": ("AH N M IH N AH M AY Z",),
    "unminimize": ("AH N M IH N AH M AY Z",),
    "un": ("AH N",),
    "whens": ("W EH N Z",),  # the memory templates' "whens my ...", "wheres my ...", "whos my ..."
    "wheres": ("W EH R Z",),
    "whos": ("HH UW Z",),
    "mozilla": ("M OW Z IH L AH",),
    "newline": ("N UW L AY N",),
    "pagedown": ("P EY JH D AW N",),
    "pageup": ("P EY JH AH P",),
    "podcasts": ("P AA D K AE S T S",),
    "powershell": ("P AW ER SH EH L",),
    "screengrab": ("S K R IY N G R AE B",),
    "snipping": ("S N IH P IH NG",),
    "spacebar": ("S P EY S B AA R",),
    "textedit": ("T EH K S T EH D IH T",),
    "vlc": ("V IY EH L S IY",),
    "vscode": ("V IY EH S K OW D",),
    "webcam": ("W EH B K AE M",),
    "wordpad": ("W ER D P AE D",),
    # cmudict has only a schwa in the second syllable ("T ER M AH N AH L", "M IH N AH T S"); many
    # people say an "ih" there (espeak-ng does). Without it "open the terminal" came out as "open the
    # google" or "open the get all": heard word for word in 77 of 120 wake phrases on the room
    # bench's tuning half, 109 of 120 with it (tests/test_voice_stt.py)
    "terminal": ("T ER M IH N AH L",),
    "minutes": ("M IH N IH T S",),
}


def pronunciations(words: set[str], cmudict: str) -> dict[str, list[str]]:
    """word -> its pronunciations: the cmudict ones, then EXTRA_PRONUNCIATIONS not already there."""
    out: dict[str, list[str]] = {}
    with open(cmudict, encoding="utf-8") as f:
        for line in f:
            head, _, phones = line.strip().partition(" ")
            base = VARIANT.sub("", head)
            if base in words and phones:
                out.setdefault(base, []).append(phones.split("#", 1)[0].strip())
    for w, extra in EXTRA_PRONUNCIATIONS.items():
        if w in words:
            have = out.setdefault(w, [])
            have.extend(p for p in extra if p not in have)
    return out

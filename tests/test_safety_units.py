"""The safety package's building blocks: canonicaliser, decoders, key names, app names."""

from __future__ import annotations

import pytest

from anovax.safety import apps, keys
from anovax.safety.canon import fold, forbidden, has_disguised_word, is_disguised, plain
from anovax.safety.decode import decoded_blobs, dequote, unescape, unglob, unpercent, variants


@pytest.mark.parametrize(
    ("raw", "folded"),
    [
        ("FoRmAt C: /Q", "format c: /q"),
        ("ѕudo rm -rf /", "sudo rm -rf /"),  # Cyrillic dze
        ("fοrmαt", "format"),  # Greek omicron and alpha
        ("ｆｏｒｍａｔ　ｃ：", "format c:"),  # fullwidth and ideographic space
        ("𝐫𝐦 -rf", "rm -rf"),  # mathematical bold
        ("ⓕⓞⓡⓜⓐⓣ", "format"),  # circled
        ("ʳᵐ", "rm"),  # superscript
        ("ꜱʜᴜᴛᴅᴏᴡɴ", "shutdown"),  # small capitals
        ("ś\u0301hutdown", "shutdown"),  # combining marks
        ("rm\u200b -rf\u2060 ~", "rm -rf ~"),  # zero width space, word joiner
        ("shut\u00addown", "shutdown"),  # soft hyphen
        ("net\ufeffsh", "netsh"),  # BOM
        ("rm\u00a0-rf\u2003~\u3000x", "rm -rf ~ x"),  # NBSP, em space, ideographic space
        ("a\t\tb", "a b"),
        ("echo hi\r\nrm\u2028x", "echo hi\nrm\nx"),  # line breaks stay line breaks
        ("  padded  ", "padded"),
        ("ԁеӏ /ѕ /q", "del /s /q"),  # all-Cyrillic look-alike word
    ],
)
def test_fold_sees_through_case_compatibility_forms_invisibles_and_look_alikes(raw: str, folded: str) -> None:
    assert fold(raw) == folded


@pytest.mark.parametrize("prose", ["Привет! Забудь купить молоко.", "Καλημέρα κόσμε", "Ελληνικά γράμματα"])
def test_fold_leaves_real_foreign_words_alone(prose: str) -> None:
    folded = fold(prose)
    # accents go (matching only), but no word turns into Latin look-alikes
    assert all(not word.isascii() for word in folded.split()), folded


def test_fold_keeps_zwj_emoji_meaningful_and_is_idempotent() -> None:
    assert fold("👩\u200d💻 hi") == "👩💻 hi"
    for text in ("ѕudo rm", "ｆｏｒｍａｔ", "Straße", "İstanbul"):
        assert fold(fold(text)) == fold(text)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("ok\ttab\nline\rcr", None), ("a\x00b", "control character U+0000"), ("\x1b[31m", "control character U+001B"),
        ("x\x7f", "control character U+007F"), ("\x85", "control character U+0085"),
        ("a\u202eb", "a bidirectional override"), ("\u2066x\u2069", "a bidirectional override"),
        ("x\U000e0041", "a Unicode tag character"), ("\ud800", "an invalid code point"),
        ("\u200b\u200d\u200e\u200f", None),  # zero-width and marks are stripped, not refused
    ],
)
def test_forbidden_characters(text: str, found: str | None) -> None:
    assert forbidden(text) == found


def test_mixed_script_words_are_flagged_but_single_script_words_are_not() -> None:
    assert is_disguised("ѕudo") and is_disguised("nоtepad") and is_disguised("fοrmat")
    assert not is_disguised("Привет") and not is_disguised("sudo") and not is_disguised("Tシャツ")
    assert has_disguised_word("open nоtepad now") and not has_disguised_word("open 计算器 now")
    assert plain("Ｃａｆé") == "Cafe"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("r''m", "rm"), ('"r""m"', "rm"), ("r\\m", "rm"), ("\\rm", "rm"), ("s^h^u^t", "shut"),
        ("stop-comp`uter", "stop-computer"), ("('stop-com'+'puter')", "(stop-computer)"), ("(r)(m)", "rm"),
    ],
)
def test_dequote(raw: str, expected: str) -> None:
    assert dequote(raw) == expected


def test_escape_percent_glob_and_path_variants() -> None:
    assert unescape("$'\\x72\\x6d'") == "'rm'"
    assert unescape("\\162\\155") == "rm" and unescape("\\u0072m") == "rm"
    assert unpercent("%66%6f%72%6d%61%74") == "format" and unpercent("%2572m") == "rm"
    assert unglob("r[m] -rf") == "rm -rf" and unglob("[r]m") == "rm"
    assert "rm -rf ~" in variants(fold("/usr/bin/r[m] -rf ~"))
    assert "cmd.exe /c x" in variants(fold("C:\\Windows\\System32\\cmd.exe /c x"))
    assert variants("shutdown /s /t 0") == ("shutdown /s /t 0",)  # switches are not paths


def test_encoded_blobs_are_decoded_only_when_they_hold_text() -> None:
    assert decoded_blobs("c2h1dGRvd24gL3MgL3QgMA==") == ["shutdown /s /t 0"]
    assert decoded_blobs("UwB0AG8AcAAtAEMAbwBtAHAAdQB0AGUAcgA=") == ["Stop-Computer"]  # UTF-16LE
    assert decoded_blobs("echo 726d202d7266207e | xxd") == ["rm -rf ~"]
    assert decoded_blobs("72 6d 20 2d 72 66") == ["rm -rf"]
    assert decoded_blobs("Reminder: Netshoes dQw4w9WgXcQ 12345678 deadbeef password") == []
    assert decoded_blobs("OJWSALLSMYQH4===") == ["rm -rf ~"]  # base32
    assert decoded_blobs("01110010 01101101 00100000 00101101 01110010 01100110") == ["rm -rf"]  # binary
    assert decoded_blobs("IMPORTANT MEETING TOMORROW PLEASE CONFIRM") == []
    assert "rm -rf ~" in variants("&#114;&#109; -rf ~")  # HTML entities


@pytest.mark.parametrize(
    ("spelled", "chords"),
    [
        ("ctrl+s", [{"ctrl", "s"}]), ("Ctrl + S", [{"ctrl", "s"}]), ("Control-S", [{"ctrl", "s"}]),
        ("Windows + R", [{"win", "r"}]), ("super r", [{"win", "r"}]), ("META+R", [{"win", "r"}]),
        ("gui+r", [{"win", "r"}]), ("cmd+space", [{"win", "space"}]), ("Command+Space", [{"win", "space"}]),
        ("r+win", [{"win", "r"}]), ("Win Key + R", [{"win", "r"}]), ("option+left", [{"alt", "left"}]),
        ("ctrl+shift+esc", [{"ctrl", "shift", "escape"}]), ("ctrl shift esc", [{"ctrl", "shift", "escape"}]),
        ("return", [{"enter"}]), ("del", [{"delete"}]), ("page down", [{"pagedown"}]), ("PgUp", [{"pageup"}]),
        ("ctrl++", [{"ctrl", "+"}]), ("ctrl+-", [{"ctrl", "-"}]), ("ctrl+,", [{"ctrl", ","}]), ("-", [{"-"}]),
        ("win+x, u, u", [{"win", "x"}, {"u"}, {"u"}]), ("win x u u", [{"win", "x"}, {"u"}, {"u"}]),
        ("ctrl+a then delete", [{"ctrl", "a"}, {"delete"}]), ("ｗｉｎ＋ｒ", [{"win", "r"}]), ("F5", [{"f5"}]),
        ("lctrl+rshift+a", [{"ctrl", "shift", "a"}]),
    ],
)
def test_key_names_normalise_to_one_spelling(spelled: str, chords: list[set[str]]) -> None:
    assert [set(c) for c in keys.parse(spelled)] == chords


@pytest.mark.parametrize("spelled", ["hello", "ctrl+foo", "ctrl+é", "wіn+r", "", "   ", "ctrl+\u0442"])
def test_unknown_key_names_raise(spelled: str) -> None:
    with pytest.raises(keys.KeyError_):
        keys.parse(spelled)


def test_key_effects() -> None:
    assert keys.denied(frozenset({"win", "r"})).rule == "launcher_hotkey"
    assert keys.denied(frozenset({"win", "shift", "r"})).rule == "launcher_hotkey"  # extra modifiers do not help
    assert keys.denied(frozenset({"alt", "y"})).rule == "elevation"
    # permanent delete is asked about where the window is not named (issue 17), not refused on sight
    assert keys.denied(frozenset({"shift", "delete"})) is None and keys.PERMANENT_DELETE == {"shift", "delete"}
    assert keys.denied(frozenset({"alt", "f4"})) is None and keys.denied(frozenset({"ctrl", "a"})) is None
    assert keys.typed_char(frozenset({"shift", "a"})) == "a" and keys.typed_char(frozenset({"ctrl", "a"})) is None
    assert keys.typed_char(frozenset({"enter"})) == "\n" and keys.typed_char(frozenset({"backspace"})) == "\b"


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("terminal", "terminal"), ("Windows Terminal", "terminal"), ("gnome-terminal", "terminal"),
        ("cmd.exe", "terminal"), ("python3.11", "terminal"), ("Anaconda Prompt", "terminal"), ("xterm", "terminal"),
        ("explorer", "file_manager"), ("Recycle Bin", "recycle_bin"), ("Google Chrome", "browser"), ("Settings", "system"),
        ("task manager", "system"), ("notepad", "other"), ("Nike Run Club", "other"), ("Spotify", "other"),
    ],
)
def test_app_kinds(name: str, kind: str) -> None:
    assert apps.kind(name).value == kind


def test_app_name_problems() -> None:
    assert apps.name_problem("notepad") is None and apps.name_problem("Python 3.12 (64-bit)") is None
    assert apps.name_problem("powershell -enc x") == "command-line switch"
    assert apps.name_problem("nоtepad") == "mixed-script look-alike letters"
    assert apps.name_problem("bash script") == "interpreter with arguments"
    assert apps.name_problem("cmd.exe ＂/c shutdown＂") == "compatibility look-alike characters"  # WorstFit
    assert "not allowed" in apps.name_problem('cmd.exe "/c shutdown"')
    assert apps.name_problem("Café") is None and apps.name_problem("電卓") is None


def _all_reasons() -> list[str]:
    import importlib
    import pkgutil

    import anovax.safety as package
    from anovax.safety.commands import CATEGORIES
    from anovax.safety.verdict import DEFAULT_REASONS

    reasons = list(DEFAULT_REASONS.values()) + [c.reason for c in CATEGORIES] + [e.reason for _, e in keys.DENIED]
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"anovax.safety.{info.name}")
        reasons += [v for k, v in vars(module).items() if k.endswith("_REASON") and isinstance(v, str)]
    return reasons


@pytest.mark.parametrize("reason", _all_reasons())
def test_every_reason_sentence_is_one_plain_sentence(reason: str) -> None:
    import re

    assert re.fullmatch(r"[A-Z][^.!?\n]*[.!?]", reason), reason
    assert len(reason) <= 120

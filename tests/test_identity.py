"""What a window is, judged from plain facts (anovax/desktop/identity.py, known_apps.py, procfs.py):
no X server, no real /proc, no installed entries needed."""

from __future__ import annotations

import os
import struct

import pytest

from anovax.desktop import known_apps, procfs
from anovax.desktop.apps import user_apps
from anovax.desktop.identity import AppEntry, Proc, ProcessFacts, entry_class, find_entry, identify, parse_entry
from anovax.desktop.x11_identity import LOCAL_CLIENT_PID, parse_client_ids
from anovax.errors import ConfigError
from anovax.settings import load_settings
from anovax.target import TargetClass

OWN = 4242

MOUSEPAD = """[Desktop Entry]
Name=Mousepad
Exec=mousepad %U
Type=Application
Categories=Utility;TextEditor;GTK;

[Desktop Action window]
Exec=mousepad --new-window
"""
MOUSEPAD_SETTINGS = """[Desktop Entry]
Name=Mousepad Settings
Exec=mousepad --preferences
Type=Application
Categories=XFCE;GTK;Settings;DesktopSettings;
"""


def entry(program: str, *categories: str, name: str = "", wm_class: str = "", args: tuple[str, ...] = ()) -> AppEntry:
    return AppEntry(f"{program}.desktop", name or program.title(), program, args, "", wm_class, categories)


ENTRIES = [
    parse_entry(MOUSEPAD, "org.xfce.mousepad.desktop"),
    parse_entry(MOUSEPAD_SETTINGS, "org.xfce.mousepad-settings.desktop"),
    entry("xterm", "System", "TerminalEmulator", wm_class="XTerm"),
    entry("kate", "Qt", "KDE", "Utility", "TextEditor"),
    entry("gnome-builder", "GNOME", "Development", "IDE"),
    entry("pluma", "Development", "TextEditor"),
    entry("chromium", "Network", "WebBrowser", wm_class="chromium"),
    entry("thunar", "System", "FileManager"),
    entry("galculator", "Utility"),
    entry("libreoffice", "Office", "WordProcessor", args=("--writer",)),
]


def judge(exe: str, argv: tuple[str, ...] = (), *, children: tuple[Proc, ...] = (), wm_class: str = "",
          pid: int | None = 100, vouched=(), entries=ENTRIES):
    facts = ProcessFacts(Proc(100, exe, argv or (exe,)), children)
    return identify(0x400001, title="a window", wm_class=wm_class, pid=pid, facts=facts, own_pid=OWN,
                    entries=entries, vouched=vouched)


# -- desktop entries ---------------------------------------------------------------------------


def test_an_entry_gives_its_program_arguments_and_categories():
    parsed = parse_entry(MOUSEPAD, "org.xfce.mousepad.desktop")
    assert (parsed.name, parsed.program, parsed.args, parsed.categories) == (
        "Mousepad", "mousepad", (), ("Utility", "TextEditor", "GTK"))


@pytest.mark.parametrize("text", [
    "[Desktop Entry]\nType=Application\nExec=/usr/bin/python3.11\nTerminal=true\nCategories=Development;\n",
    "[Desktop Entry]\nType=Application\nExec=gedit\nHidden=true\n",
    "[Desktop Entry]\nType=Link\nURL=https://example.org\n",
    "[Desktop Entry]\nType=Application\nExec=\"unterminated\n",
    "not an ini file at all",
])
def test_terminal_hidden_broken_and_non_application_entries_are_skipped(text):
    assert parse_entry(text, "x.desktop") is None


def test_env_in_exec_is_not_the_program():
    text = "[Desktop Entry]\nType=Application\nExec=env GDK_BACKEND=x11 foot\nCategories=TerminalEmulator;\n"
    assert parse_entry(text, "foot.desktop").program == "foot"


@pytest.mark.parametrize("categories, klass", [
    (("System", "TerminalEmulator"), TargetClass.SHELL),
    (("Utility", "ConsoleOnly", "TextEditor"), TargetClass.SHELL),
    (("Development", "IDE"), TargetClass.CODE),
    (("Development", "TextEditor"), TargetClass.CODE),
    (("Network", "WebBrowser"), TargetClass.BROWSER),
    (("Utility", "TextEditor"), TargetClass.TEXT),
    (("Office", "Spreadsheet"), TargetClass.TEXT),
    (("Utility", "Calculator"), TargetClass.TEXT),
    (("System", "FileManager"), None),
    (("Settings", "DesktopSettings"), None),
    ((), None),
])
def test_categories_give_a_class_only_when_they_say_something_trusted(categories, klass):
    assert entry_class(entry("x", *categories)) is klass


def test_the_entry_with_the_process_arguments_wins():
    assert find_entry(Proc(1, "/usr/bin/mousepad", ("mousepad",)), "", ENTRIES).name == "Mousepad"
    settings = find_entry(Proc(1, "/usr/bin/mousepad", ("mousepad", "--preferences")), "", ENTRIES)
    assert settings.name == "Mousepad Settings"


# -- the rules ---------------------------------------------------------------------------------


def test_anovax_own_window_is_the_assistant_by_pid_or_class():
    assert judge("/usr/bin/python3.11", pid=OWN).klass is TargetClass.ASSISTANT
    assert judge("/usr/bin/python3.11", wm_class="anovaX.Anovax").klass is TargetClass.ASSISTANT


def test_the_terminal_the_console_runs_in_is_the_assistant_not_a_place_to_type():
    """"type hello" said at the console must not type into the console's own terminal."""
    under = (Proc(101, "/usr/bin/bash", ("bash",)), Proc(OWN, "/usr/bin/python3.11", ("python3", "-m", "anovax")))
    found = judge("/usr/bin/xterm", wm_class="xterm.XTerm", children=under)
    assert found.klass is TargetClass.ASSISTANT, found


def test_the_console_terminal_is_never_remembered_as_the_users_window():
    from anovax.desktop.refocus import own_window
    import os
    assert own_window("xterm.XTerm", os.getppid())  # a process above ours: the terminal we run in
    assert not own_window("xterm.XTerm", None)


def test_no_pid_or_an_unreadable_process_is_unknown():
    found = identify(1, title="t", wm_class="x.X", pid=None, facts=None, own_pid=OWN)
    assert (found.klass, found.why) == (TargetClass.UNKNOWN, "no client pid")
    assert identify(1, title="t", wm_class="", pid=7, facts=None, own_pid=OWN).klass is TargetClass.UNKNOWN


@pytest.mark.parametrize("child", ["/usr/bin/dash", "/usr/bin/bash", "/usr/bin/python3.11", "/usr/bin/node",
                                   "/usr/bin/ssh", "/usr/bin/zsh5.9"])
def test_a_shell_or_interpreter_under_the_window_makes_it_a_shell(child):
    found = judge("/tmp/zzview", children=(Proc(101, "/tmp/zzview", ("zzview",)), Proc(102, child, (child,))))
    assert found.klass is TargetClass.SHELL and f"pid 102" in found.why


def test_a_shell_child_beats_a_text_editor_and_a_vouched_entry():
    argv = ("/usr/bin/python3", "/home/me/editor.py")
    vouched = user_apps({"test editor": {"run": list(argv), "kind": "text"}})
    sh = (Proc(5, "/usr/bin/dash", ("sh", "-c", "make")),)
    assert judge("/usr/bin/mousepad", ("mousepad",), children=sh).klass is TargetClass.SHELL
    assert judge("/usr/bin/python3.11", argv, children=sh, vouched=vouched).klass is TargetClass.SHELL


def test_a_vouched_argument_list_is_its_kind_and_nothing_else_is():
    argv = ("/usr/bin/python3", "/home/me/editor.py")
    vouched = user_apps({"test editor": {"run": ["python3", "/home/me/editor.py"], "kind": "text"}})
    found = judge("/usr/bin/python3.11", argv, vouched=vouched)
    assert (found.klass, found.app) == (TargetClass.TEXT, "test editor") and "vouched" in found.why
    assert judge("/usr/bin/python3.11", (*argv, "--other"), vouched=vouched).klass is TargetClass.UNKNOWN
    assert judge("/usr/bin/python3.11", argv).klass is TargetClass.UNKNOWN  # an interpreter's window: nobody vouched


@pytest.mark.parametrize("exe, argv, wm_class, klass", [
    ("/usr/bin/mousepad", ("mousepad",), "mousepad.Mousepad", TargetClass.TEXT),
    # its settings dialog: that entry's categories say nothing, the program is still mousepad
    ("/usr/bin/mousepad", ("mousepad", "--preferences"), "", TargetClass.TEXT),
    ("/usr/bin/galculator", (), "", TargetClass.TEXT),  # entry says only Utility: the known table says text
    ("/usr/bin/kate", (), "", TargetClass.CODE),  # entry says TextEditor, the table says it runs code
    ("/usr/bin/pluma", (), "", TargetClass.CODE),  # Development + TextEditor beats the TEXT row
    ("/usr/bin/gnome-builder", (), "", TargetClass.CODE),
    ("/usr/lib/chromium/chromium", ("/usr/lib/chromium/chromium", "--type=browser"), "", TargetClass.BROWSER),
    ("/usr/bin/thunar", (), "", TargetClass.UNKNOWN),
    ("/usr/bin/frobnicator", (), "", TargetClass.UNKNOWN),
    ("/usr/bin/gedit", (), "", TargetClass.TEXT),  # no entry: the known table
    ("/usr/bin/emacs-gtk", (), "", TargetClass.CODE),
    ("/usr/bin/gnome-terminal-server", (), "", TargetClass.SHELL),
    ("/opt/anything", (), "xterm.XTerm", TargetClass.SHELL),  # StartupWMClass names it
    ("/usr/lib/libreoffice/program/soffice.bin", ("libreoffice", "--writer"), "", TargetClass.TEXT),
])
def test_entries_and_the_known_table_decide_the_rest(exe, argv, wm_class, klass):
    assert judge(exe, argv, wm_class=wm_class).klass is klass


def test_an_unknown_program_says_why():
    found = judge("/usr/bin/frobnicator")
    assert found.why == "no desktop entry or known program for frobnicator" and found.app == "frobnicator"


def test_known_tables_per_platform():
    assert known_apps.windows_image(r"C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe") is TargetClass.SHELL
    assert known_apps.windows_image(r"C:\Program Files\Microsoft Office\root\Office16\WINWORD.EXE") is TargetClass.TEXT
    assert known_apps.windows_image("msedge.exe") is TargetClass.BROWSER
    assert known_apps.windows_image("explorer.exe") is None
    assert known_apps.mac_bundle("com.googlecode.iterm2") is TargetClass.SHELL
    assert known_apps.mac_bundle("com.apple.textedit") is TargetClass.TEXT
    assert known_apps.mac_bundle("com.apple.finder") is None
    # a version suffix never widens the allowlist, only the deny rows
    assert known_apps.linux_program("gedit2") is None and known_apps.linux_program("emacs29") is TargetClass.CODE


# -- vouching in [apps] ------------------------------------------------------------------------


def test_vouching_keeps_the_old_forms_and_adds_a_kind():
    table = user_apps({"pad": "mousepad", "ed": ["python3", "ed.py"],
                       "mine": {"run": ["python3", "/home/me/editor.py"], "kind": "text"},
                       "web": {"run": "/opt/web/browser", "kind": "browser"}})
    assert [a.kind for a in table] == [None, None, TargetClass.TEXT, TargetClass.BROWSER]
    assert table[2].candidates == (("python3", "/home/me/editor.py"),)


@pytest.mark.parametrize("value, message", [
    ({"run": ["python3", "e.py"], "kind": "shell"}, 'only "text" or "browser" can be vouched for'),
    ({"run": ["python3", "e.py"]}, "only \"text\" or \"browser\""),
    ({"kind": "text"}, "no run"),
    ({"run": "x", "kind": "text", "icon": "y"}, "unknown key icon"),
    ({"run": ["bash", "-c", "gedit"], "kind": "text"}, "runs bash, a shell or terminal"),
    ({"run": "/usr/bin/xterm", "kind": "text"}, "runs xterm, a shell or terminal"),
    ({"run": ["python3"], "kind": "text"}, "runs python3, a shell or terminal"),
    ({"run": [], "kind": "text"}, "must be a program name or a list of arguments"),
])
def test_vouching_mistakes_are_clear(value, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        user_apps({"thing": value})


def test_the_settings_file_vouches_with_an_inline_table(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[apps]\n"test editor" = { run = ["python3", "/home/me/editor.py"], kind = "text" }\n'
                      '"pad" = "mousepad"\n')
    table = load_settings({}, config).apps
    assert [(a.names, a.kind) for a in table] == [(("test editor",), TargetClass.TEXT), (("pad",), None)]
    config.write_text('[apps]\n"test editor" = { run = ["python3", "e.py"], kind = "code" }\n')
    with pytest.raises(ConfigError, match=r"In \[apps\] of .*: app 'test editor' has kind = 'code'"):
        load_settings({}, config)


# -- /proc and the XRes reply ------------------------------------------------------------------


def fake_proc(root, pid: int, ppid: int, exe: str, argv: list[str]) -> None:
    folder = root / str(pid)
    folder.mkdir()
    (folder / "stat").write_text(f"{pid} (we (ird) name) S {ppid} 1 1 0\n")
    (folder / "cmdline").write_bytes(b"\0".join(a.encode() for a in argv) + b"\0")
    os.symlink(exe, folder / "exe")


def test_proc_facts_walk_every_descendant(tmp_path):
    fake_proc(tmp_path, 10, 1, "/tmp/zzview", ["zzview"])
    fake_proc(tmp_path, 11, 10, "/tmp/zzview", ["zzview"])
    fake_proc(tmp_path, 12, 11, "/usr/bin/bash", ["-bash"])
    fake_proc(tmp_path, 20, 1, "/usr/bin/mousepad", ["mousepad"])
    facts = procfs.process_facts(10, tmp_path)
    assert facts.proc == Proc(10, "/tmp/zzview", ("zzview",))
    assert [p.pid for p in facts.descendants] == [11, 12]
    assert identify(1, title="", wm_class="", pid=10, facts=facts, own_pid=OWN).klass is TargetClass.SHELL
    assert procfs.process_facts(99, tmp_path) is None


def test_the_xres_reply_gives_the_local_pid():
    xid_entry = struct.pack("=III", 0x400000, 1, 0)
    pid_entry = struct.pack("=IIII", 0x400000, LOCAL_CLIENT_PID, 4, 31337)
    assert parse_client_ids(2, xid_entry + pid_entry) == 31337
    assert parse_client_ids(1, xid_entry) is None
    assert parse_client_ids(3, pid_entry[:10]) is None  # a short reply is no pid, not an exception


# -- the simulated desktop classifies with the same rules ----------------------------------------


def test_the_simulated_desktop_classifies_what_its_table_would_open():
    from anovax.desktop.base import CancelToken
    from anovax.desktop.simulated import SimulatedDesktop

    mine = user_apps({"test editor": {"run": ["python3", "/home/me/ed.py"], "kind": "text"},
                      "my tool": ["python3", "/home/me/tool.py"]})
    desk = SimulatedDesktop.plausible(user_apps=mine, delays={})
    classes = {n: desk.classify_app(n) for n in ("notepad", "calculator", "terminal", "browser", "files",
                                                  "vs code", "test editor", "my tool", "zork")}
    assert classes == {"notepad": TargetClass.TEXT, "calculator": TargetClass.TEXT, "terminal": TargetClass.SHELL,
                       "browser": TargetClass.BROWSER, "files": TargetClass.UNKNOWN, "vs code": TargetClass.CODE,
                       "test editor": TargetClass.TEXT, "my tool": TargetClass.UNKNOWN, "zork": TargetClass.UNKNOWN}
    assert desk.user_target() is None
    desk.launch_app("terminal", CancelToken())
    target = desk.user_target()
    assert (target.app, target.klass) == ("terminal", TargetClass.SHELL)
    desk.launch_app("test editor", CancelToken())
    desk.aim(target, CancelToken())
    desk.return_to_user()
    assert desk.kinds() == ["launch", "launch", "aim", "return"]
    assert desk.user_target().app == "terminal"


def test_a_program_run_by_an_interpreter_is_named_by_its_title():
    """First-time user: a Tk app titled "My Notes" was asked about as "Python3.11"."""
    found = identify(1, title="My Notes", wm_class="python3.11.Python3.11", pid=100,
                     facts=ProcessFacts(Proc(100, "/usr/bin/python3.11", ("python3", "notes.py"))), own_pid=OWN)
    assert found.app == "My Notes", found


def test_a_rehearsal_opens_a_program_this_computer_has_by_its_own_name():
    # a first-time user: "--simulate" said "I couldn't find an app called mousepad" on a computer
    # that has it (anovax doctor listed /usr/bin/mousepad)
    from anovax.cancel import CancelToken
    from anovax.desktop.simulated import SimulatedDesktop
    from anovax.errors import PermanentToolError

    desktop = SimulatedDesktop.plausible(delays={"launch": 0.0}, installed=lambda name: name == "mousepad")
    assert desktop.launch_app("mousepad", CancelToken()) == "mousepad is open (simulated)"
    assert desktop.launch_app("notepad", CancelToken())  # the typical desktop's apps, as before
    with pytest.raises(PermanentToolError):
        desktop.launch_app("zzqx", CancelToken())

"""The app table's user entries ([apps] in the settings file) and Linux desktop entries."""

from __future__ import annotations

from pathlib import Path

import pytest

from anovax.desktop import apps
from anovax.errors import ConfigError, PermanentToolError
from anovax.settings import load_settings


def finder(installed: dict[str, str]):
    return lambda program: installed.get(program) or (program if program in installed.values() else None)


# -- the user's own names --------------------------------------------------------------------


def test_user_apps_parse_names_and_argument_lists():
    table = apps.user_apps({"Test Editor, scratch pad": ["python3", "~/ed.py", "--big"], "notes": "obsidian"})
    assert table[0].names == ("test editor", "scratch pad")
    assert table[0].candidates == (("python3", str(Path("~/ed.py")), "--big"),)  # only argv[0] expanded
    assert table[1].names == ("notes",) and table[1].candidates == (("obsidian",),)


@pytest.mark.parametrize("value", [[], "", [""], ["ok", 3], {"a": 1}, ["x\0y"], 7])
def test_user_apps_reject_bad_values(value):
    with pytest.raises(ValueError, match="must be a program name or a list of arguments"):
        apps.user_apps({"thing": value})


def test_user_apps_reject_a_name_twice():
    with pytest.raises(ValueError, match="twice"):
        apps.user_apps({"pad": "a", "notes, pad": "b"})


def test_user_entries_come_first_and_can_repoint_a_builtin_name():
    extra = apps.user_apps({"notepad": ["kate", "--new"], "test editor": ["/opt/ed"]})
    find = finder({"gedit": "/usr/bin/gedit", "kate": "/usr/bin/kate", "/opt/ed": "/opt/ed"})
    assert apps.resolve("notepad", "linux", find).argv == ("/usr/bin/gedit",)
    assert apps.resolve("notepad", "linux", find, extra=extra).argv == ("/usr/bin/kate", "--new")
    assert apps.resolve("the test editor app", "linux", find, extra=extra).argv == ("/opt/ed",)


def test_a_user_entry_whose_program_is_missing_says_so():
    extra = apps.user_apps({"notepad": "kate"})
    with pytest.raises(PermanentToolError, match="notepad is set up to run kate, which is not installed"):
        apps.resolve("notepad", "linux", finder({"gedit": "/usr/bin/gedit"}), extra=extra)


def test_settings_file_apps_table(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[anovax]\nplanner = "offline"\n\n[apps]\n"test editor" = ["python3", "ed.py"]\n')
    settings = load_settings({}, config)
    assert settings.planner == "offline"
    assert [a.names for a in settings.apps] == [("test editor",)]
    config.write_text('planner = "offline"\n[apps]\npad = "mousepad"\n')  # no [anovax] section
    assert load_settings({}, config).apps[0].candidates == (("mousepad",),)


@pytest.mark.parametrize("body, message", [
    ('[apps]\npad = 3\n', "In \\[apps\\] of .*: app 'pad' must be a program name"),
    ('apps = "gedit"\n', "must be a table"),
    ('[apps]\n"pad" = "a"\n"PAD" = "b"\n', "twice"),
])
def test_settings_file_apps_errors_are_config_errors(tmp_path, body, message):
    config = tmp_path / "config.toml"
    config.write_text(body)
    with pytest.raises(ConfigError, match=message):
        load_settings({}, config)


def test_user_app_names_reach_the_offline_planner(tmp_path):
    from anovax.app import build_assistant
    from anovax.memory import Memory

    config = tmp_path / "config.toml"
    config.write_text('[apps]\n"best editor" = "mousepad"\n')
    settings = load_settings({"ANOVAX_LOG": "off"}, config)
    app = build_assistant(settings, memory=Memory(tmp_path / "m.json"))
    try:
        # without the entry "the best editor" reads as a superlative question, not an app
        plan = app.planner.plan("open the best editor and type hello world")
        assert [(s.tool, dict(s.params)) for s in plan.steps] == [
            ("open_app", {"name": "best editor"}), ("type_text", {"text": "hello world"})]
    finally:
        app.close()


def test_a_user_app_named_like_a_builtin_alias_is_the_users(tmp_path):
    # a first-time user's [apps] "notes" = "obsidian" was opened as Notepad: the alias table
    # ("notes" -> notepad) matched first. The user's own name wins, for opening and for windows
    from anovax.app import build_assistant
    from anovax.memory import Memory

    config = tmp_path / "config.toml"
    config.write_text('[apps]\n"notes" = "obsidian"\n"my editor" = { run = ["mousepad"], kind = "text" }\n')
    app = build_assistant(load_settings({"ANOVAX_LOG": "off"}, config), memory=Memory(tmp_path / "m.json"))
    try:
        steps = lambda text: [(s.tool, dict(s.params)) for s in app.planner.plan(text).steps]  # noqa: E731
        assert steps("open notes") == [("open_app", {"name": "notes"})]
        assert steps("switch to notes") == [("switch_to_app", {"name": "notes"})]
        assert steps("open my editor") == [("open_app", {"name": "editor"})]  # the entry's name, "my" dropped
        assert steps("open notepad") == [("open_app", {"name": "notepad"})]  # the builtin's own name stays
    finally:
        app.close()
    (tmp_path / "none.toml").write_text("")
    plain = build_assistant(load_settings({"ANOVAX_LOG": "off"}, tmp_path / "none.toml"), memory=Memory(tmp_path / "n.json"))
    try:
        assert [(s.tool, dict(s.params)) for s in plain.planner.plan("open notes").steps] == [
            ("open_app", {"name": "notepad"})]  # without the entry, the alias as before
    finally:
        plain.close()


def test_words_ending_in_est_are_not_superlatives():
    from anovax.planner.offline import OfflinePlanner

    # "test editor" is no app here: vouch for every name, the wording is what is tested
    plan = OfflinePlanner(app_exists=lambda name: True).plan("open the test editor and type hello world")
    assert [s.tool for s in plan.steps] == ["open_app", "type_text"]
    assert plan.steps[0].params["name"] == "test editor"


# -- Linux desktop entries ----------------------------------------------------------------------


def entry(folder: Path, name: str, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("[Desktop Entry]\nType=Application\n" + body, encoding="utf-8")
    return path


def test_desktop_entries_by_name_and_generic_name(tmp_path):
    system = tmp_path / "usr" / "applications"
    entry(system, "gimp.desktop", "Name=GNU Image Manipulation Program\nGenericName=Image Editor\n"
                                  "Exec=gimp-2.10 %U\n")
    entry(system, "hidden.desktop", "Name=Secret\nExec=secret\nNoDisplay=true\n")
    entry(system, "term.desktop", "Name=Shell thing\nExec=thing\nTerminal=true\n")
    entry(system, "shell.desktop", "Name=Sneaky\nExec=sh -c 'rm -rf ~'\n")
    entry(system, "broken.desktop", "Name=Broken\nExec=\"unterminated\n")
    (system / "notanentry.desktop").write_text("garbage \x00 here")
    found = apps.desktop_entries([system])
    assert {n for e in found for n in e.names} == {"gnu image manipulation", "image editor",  # "program" is filler
                                                     "sneaky"}
    find = finder({"gimp-2.10": "/usr/bin/gimp-2.10", "sh": "/bin/sh"})
    for name in ("GNU Image Manipulation Program", "the image editor"):
        assert apps.resolve(name, "linux", find, entries=found).argv == ("/usr/bin/gimp-2.10",)  # %U dropped
    with pytest.raises(PermanentToolError, match="couldn't find an app called Sneaky"):
        apps.resolve("Sneaky", "linux", find, entries=found)  # a shell command line is not an app


def test_the_users_desktop_entry_overrides_the_systems(tmp_path):
    user, system = tmp_path / "home" / "applications", tmp_path / "usr" / "applications"
    entry(user, "editor.desktop", "Name=My Editor\nExec=mine\n")
    entry(system, "editor.desktop", "Name=My Editor\nExec=theirs\n")
    env = {"XDG_DATA_HOME": str(tmp_path / "home"), "XDG_DATA_DIRS": str(tmp_path / "usr")}
    assert apps.application_dirs(env) == [user, system]
    (only,) = apps.desktop_entries(apps.application_dirs(env))
    assert only.argv == ("mine",)


def test_table_and_path_win_over_desktop_entries(tmp_path):
    system = tmp_path / "applications"
    entry(system, "x.desktop", "Name=Calculator\nExec=other-calc\n")
    find = finder({"gnome-calculator": "/usr/bin/gnome-calculator", "other-calc": "/usr/bin/other-calc"})
    assert apps.resolve("calculator", "linux", find,
                        entries=apps.desktop_entries([system])).argv == ("/usr/bin/gnome-calculator",)

"""The orb's small parts that need no display: saved position, controls, QR codes, colours."""

import json

import pytest

from anovax.confirm import Confirmations
from anovax.events import EventBus
from anovax.orb.controls import OrbControls, RemoteInfo
from anovax.orb.model import OrbState
from anovax.orb.qr import qr_png, qr_text
from anovax.orb.run import orb_unavailable
from anovax.orb.store import OrbPrefs, clamp_position, load_prefs, prefs_path, save_prefs
from anovax.orb.style import STYLES, blend, nearest_state, rgb


def test_prefs_path_follows_xdg_state_home(tmp_path):
    assert prefs_path({"XDG_STATE_HOME": str(tmp_path)}) == tmp_path / "anovax" / "orb.json"


def test_prefs_round_trip(tmp_path):
    path = tmp_path / "deep" / "orb.json"
    prefs = OrbPrefs(x=40, y=-5, expanded=True, on_top=False)
    assert save_prefs(path, prefs)
    assert load_prefs(path) == prefs
    assert [p.name for p in path.parent.iterdir()] == ["orb.json"]  # no temporary file left behind


@pytest.mark.parametrize("content", [
    "", "{", "[1, 2]", "null", '{"x": "10", "y": 5}', '{"x": true, "y": 5}', '{"x": 1e9, "y": 5}',
    '{"x": 10}', '{"expanded": "yes", "on_top": 1}', "\x00\xff garbage",
])
def test_a_corrupt_prefs_file_means_defaults(tmp_path, content):
    path = tmp_path / "orb.json"
    path.write_text(content, encoding="utf-8", errors="surrogateescape")
    prefs = load_prefs(path)
    assert prefs.x is None and prefs.y is None
    assert prefs.expanded is False and prefs.on_top is True
    assert save_prefs(path, OrbPrefs(x=1, y=2))  # and it is simply replaced next time
    assert json.loads(path.read_text())["x"] == 1


def test_missing_or_unwritable_prefs(tmp_path):
    assert load_prefs(tmp_path / "nope.json") == OrbPrefs()
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert not save_prefs(blocker / "orb.json", OrbPrefs())


def test_saved_position_is_brought_back_on_screen():
    assert clamp_position(OrbPrefs(), 1280, 800, 300, 400) is None
    assert clamp_position(OrbPrefs(x=100, y=50), 1280, 800, 300, 400) == (100, 50)
    assert clamp_position(OrbPrefs(x=3000, y=-40), 1280, 800, 300, 400) == (980, 0)
    assert clamp_position(OrbPrefs(x=10, y=10), 200, 100, 300, 400) == (0, 0)


class FakeAssistant:
    def __init__(self, speech_off=None):
        self.calls = []
        self.speech_off = speech_off
        self.confirmations = Confirmations(EventBus())

    def state(self):
        return {"busy": False, "speech_off": self.speech_off}

    def submit(self, text, source="text"):
        self.calls.append(("submit", text, source))
        return "future"

    def stop_speaking(self):
        self.calls.append(("stop_speaking",))
        return True

    def stop(self, source="text"):
        self.calls.append(("stop", source))


def test_controls_for_an_assistant_without_voice_or_remote():
    assistant = FakeAssistant()
    controls = OrbControls.for_assistant(assistant)
    assert controls.submit("open notepad") == "future"
    controls.stop()
    assert assistant.calls == [("submit", "open notepad", "orb"), ("stop", "orb")]
    assert controls.set_muted is None and controls.remote_toggle is None and controls.remote_unban is None
    assert "voice input is off" in controls.reason("set_muted")
    assert controls.reason("remote_toggle") == "the phone remote is not available"


def test_the_orb_asks_and_answers_as_the_orb():
    assistant = FakeAssistant()
    controls = OrbControls.for_assistant(assistant)
    assert assistant.confirmations.frontends() == ()
    unregister = controls.can_ask()
    assert assistant.confirmations.frontends() == ("orb",)
    question = assistant.confirmations.new_question("c1", "Type `ls`?", [], "xterm")
    assert not controls.answer(question.question_id, True)  # nothing is being asked yet
    unregister()
    assert assistant.confirmations.frontends() == ()


def test_the_controls_carry_why_speech_is_off():
    assert OrbControls.for_assistant(FakeAssistant()).speech_off == ""
    off = OrbControls.for_assistant(FakeAssistant("no sound card (the default sound device cannot be opened)"))
    assert off.speech_off.startswith("no sound card")


def test_stop_is_the_assistants_stop_for_the_orb():
    assistant = FakeAssistant()
    OrbControls.for_assistant(assistant).stop()
    assert assistant.calls == [("stop", "orb")]


def test_controls_with_a_muteable_listener_and_a_remote():
    class Voice:
        def set_muted(self, on):
            return on

    class Remote:
        address = "http://192.0.2.1:8765"
        pairing_url = "http://192.0.2.1:8765/pair#k=1"

        def __init__(self):
            self.running = False

        def start(self):
            self.running = True

        def stop(self):
            self.running = False

        def unban(self):
            return "ok"

    remote = Remote()
    controls = OrbControls.for_assistant(FakeAssistant(), voice=Voice(), remote=remote)
    assert controls.set_muted(True) is True
    assert controls.remote_status() is None
    assert controls.remote_toggle(True) == RemoteInfo(Remote.address, Remote.pairing_url) and remote.running
    assert controls.remote_status() == RemoteInfo(Remote.address, Remote.pairing_url)
    assert controls.remote_toggle(False) is None and not remote.running
    assert controls.remote_unban() == "ok"
    # a listener without set_muted: greyed out, with the reason
    assert OrbControls.for_assistant(FakeAssistant(), voice=object()).reason("set_muted") == \
        "this voice listener cannot be muted"
    assert OrbControls(why_off={"stop": "dry run"}).reason("stop") == "dry run"


def test_qr_codes_for_the_window_and_the_terminal():
    url = "http://192.168.1.20:8765/pair#k=0123456789abcdef"
    png = qr_png(url)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    text = qr_text(url)
    assert len(text.splitlines()) > 10 and "█" in text


def test_state_colours_are_told_apart_by_the_classifier():
    for state, style in STYLES.items():
        assert nearest_state(rgb(style.colour)) is state
        # a slightly different shade (anti-aliasing, a lighter core) still reads as the same state
        assert nearest_state(rgb(blend(style.colour, "#ffffff", 0.12))) is state
    assert STYLES[OrbState.ASLEEP].fps == 0  # idle is a still picture


def test_no_display_means_no_orb():
    assert orb_unavailable({}, probe=False) == "no display (DISPLAY is not set)"
    assert "Wayland" in orb_unavailable({"WAYLAND_DISPLAY": "wayland-0"}, probe=False)
    assert orb_unavailable({"DISPLAY": ":99"}, probe=False) is None


def test_importing_the_orb_package_does_not_import_tkinter():
    import subprocess
    import sys

    code = "import sys, anovax.orb, anovax.orb.console, anovax.orb.run; print('tkinter' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr


def test_orb_setting():
    from anovax.errors import ConfigError
    from anovax.settings import load_settings

    assert load_settings(env={}).orb == "auto"
    assert load_settings(env={"ANOVAX_ORB": " Off "}).orb == "off"
    with pytest.raises(ConfigError, match="ANOVAX_ORB must be one of auto, on, off"):
        load_settings(env={"ANOVAX_ORB": "sometimes"})


@pytest.mark.parametrize(("geometry", "corner"), [
    ("280x400+12+40", (12, 40)), ("280x400+12-40", (12, -40)), ("=1x1+0+0", (0, 0)), ("280x400", None), ("", None),
])
def test_the_corner_is_read_from_wm_geometry(geometry, corner):
    from anovax.orb.store import geometry_corner

    assert geometry_corner(geometry) == corner

"""The orb stays where a person can grab it (issue 18, round 2): a drag never takes its title bar
above the screen (a saved y of -22 left it there), and More/Less grows toward the free side and
collapses back to where it was (it used to move 974,354 -> 918,268 and stay there). Real window on
Xvfb + openbox, moved and clicked with xdotool."""

from __future__ import annotations

import json

import pytest

from anovax.orb.placement import DECORATION, grown_corner, on_screen
from helpers import wait_for
from orb_harness import OrbProcess
from test_orb_window import click, drag, xdo, xorb  # noqa: F401 - xorb is a fixture

pytest.importorskip("tkinter", reason="the orb needs Tk (Debian package python3-tk)")
pytest.importorskip("mss")


def saved(tmp_path) -> dict:
    return json.loads((tmp_path / "anovax" / "orb.json").read_text())


def test_a_body_drag_past_the_top_stops_at_the_edge_and_is_saved_there(xorb, tmp_path):
    proc = OrbProcess(xorb.env, tmp_path)
    try:
        before = proc.ask("geometry")
        orb_x, orb_y, _r = before["orb"]
        drag(xorb, (orb_x, orb_y), (0, -(orb_y + 200)))
        moved = wait_for(lambda: (g := proc.ask("geometry"))["drags"] == 1 and g, what="the drag to end")
        assert moved["frame"][1] == 0, moved["frame"]
    finally:
        assert proc.close() == 0
    assert saved(tmp_path)["y"] == 0


def test_a_window_manager_move_above_the_screen_is_brought_back(xorb, tmp_path):
    proc = OrbProcess(xorb.env, tmp_path)
    try:
        xid = proc.ask("geometry")["xid"]
        xdo(xorb, "windowmove", xid, "300", "-22")  # what a title-bar drag past the top did
        back = wait_for(lambda: (g := proc.ask("geometry"))["frame"][1] >= 0 and g["window"][1] > 0 and g,
                        what="the orb back on screen")
        assert back["frame"][1] >= 0
    finally:
        assert proc.close() == 0
    assert saved(tmp_path)["y"] >= 0


def test_more_grows_toward_the_free_side_and_less_puts_it_back(xorb, tmp_path):
    (tmp_path / "anovax").mkdir()
    proc0 = OrbProcess(xorb.env, tmp_path)
    screen_w, screen_h = proc0.ask("geometry")["screen"]
    assert proc0.close() == 0
    # near the bottom-right corner: the expanded size has no room to the right or below
    x, y = screen_w - 280 - DECORATION[0] - 26, screen_h - 390 - DECORATION[1] - 56
    (tmp_path / "anovax" / "orb.json").write_text(json.dumps({"x": x, "y": y, "expanded": False, "on_top": True}))
    proc = OrbProcess(xorb.env, tmp_path)
    try:
        start = proc.ask("geometry")
        click(xorb, start["buttons"]["size"])
        wide = wait_for(lambda: proc.ask("inspect")["expanded"] and (g := proc.ask("geometry"))["window"][2] > 300
                        and g, what="More")
        left, top, width, height = wide["window"]
        assert 0 <= left and left + width <= screen_w and 0 <= top and top + height <= screen_h, wide
        # it grew to the left and up: its right and bottom edges stayed put
        assert abs((left + width) - (start["window"][0] + start["window"][2])) <= 2, (start, wide)
        click(xorb, wide["buttons"]["size"])
        small = wait_for(lambda: not proc.ask("inspect")["expanded"] and (g := proc.ask("geometry"))["window"][2] < 300
                         and g, what="Less")
        assert abs(small["frame"][0] - start["frame"][0]) <= 2 and abs(small["frame"][1] - start["frame"][1]) <= 2, \
            (start["frame"], small["frame"])
    finally:
        assert proc.close() == 0


def test_growing_keeps_the_room_side():
    screen = (1280, 800)
    assert grown_corner(100, 100, (280, 390), (360, 540), screen) == (100, 100)  # room right and below
    assert grown_corner(974, 354, (280, 390), (360, 540), screen) == (894, 204)  # grows left and up
    assert on_screen(300, -22, *screen, 280, 390) == (300, 0)


def _overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def test_the_key_hint_of_a_question_has_a_line_of_its_own(xorb, tmp_path):
    proc = OrbProcess(xorb.env, tmp_path)
    try:
        qid = proc.ask("ask", question="Forget everything I remember about you (1 thing)?", steps=[], target="")
        shown = wait_for(lambda: (s := proc.ask("inspect"))["question"] and "Enter = yes" in s["countdown"] and s,
                         10.0, what="the question")
        assert shown["countdown"].endswith("Enter = yes · Esc = no")
        boxes = proc.ask("geometry")
        hint, yes, no = boxes["countdown"], boxes["yes"], boxes["no"]
        assert not _overlap(hint, no) and not _overlap(hint, yes), boxes
        assert hint[1] >= no[1] + no[3], boxes  # under the buttons
        assert hint[0] + hint[2] <= boxes["window"][0] + boxes["window"][2], boxes
        proc.ask("answer", question_id=qid, yes=False)
    finally:
        assert proc.close() == 0


def test_a_long_reply_uses_the_free_space_of_the_fixed_window(xorb, tmp_path):
    proc = OrbProcess(xorb.env, tmp_path)
    try:
        before = proc.ask("geometry")
        reply = "Here are some things you can say: " + " ".join(f'"example {i}"' for i in range(60))
        proc.ask("emit", events=[{"type": "COMMAND_RECEIVED", "command_id": "say", "data": {"text": "what can I say"}},
                                 {"type": "COMMAND_DONE", "command_id": "say",
                                  "data": {"status": "done", "message": reply, "text": "what can I say"}}])
        wait_for(lambda: proc.ask("inspect")["response"] == reply, what="the long reply")
        after = proc.ask("geometry")
        assert after["window"][2:] == before["window"][2:]  # the window keeps its fixed size
        state_bottom = after["state_label"][1] + after["state_label"][3]
        reply_top, reply_h = after["reply"][1], after["reply"][3]
        # no empty band between the state and the reply: the reply starts under the detail line
        assert reply_top - state_bottom <= 50, after
        assert reply_h >= 100, after
    finally:
        assert proc.close() == 0

"""The test harness's own log reader: a line the writer has not finished is not an event yet."""

from __future__ import annotations

import json

from helpers import logged_events


def test_a_half_written_last_line_is_left_for_the_next_read(tmp_path):
    log = tmp_path / "events.jsonl"
    assert logged_events(log) == []  # before AnovaX has written anything
    whole = json.dumps({"type": "COMMAND_RECEIVED", "seq": 1})
    log.write_text(whole + "\n" + '{"type": "COMMAND_DONE", "se', encoding="utf-8")
    assert logged_events(log) == [{"type": "COMMAND_RECEIVED", "seq": 1}]
    log.write_text(whole + "\n" + '{"type": "COMMAND_DONE", "seq": 2}\n', encoding="utf-8")
    assert [e["seq"] for e in logged_events(log)] == [1, 2]

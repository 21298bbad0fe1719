"""The phone's Yes / No over real HTTP: who may answer a held plan, what an answer must look like,
and when the phone counts as a front end the broker may wait for (anovax/remote/confirm.py)."""

from __future__ import annotations

import json

import pytest
from helpers import in_thread, wait_for
from remote_kit import start_remote, stop_remote

from anovax.confirm import Answer
from anovax.events import EventType

JSON = {"Content-Type": "application/json"}
QUESTION = "Type `ls` and press Enter in Terminal?"
STEPS = [{"index": 1, "tool": "type_text", "params": {"text": "ls"}}]


@pytest.fixture
def remote(tmp_path):
    # a long window: these tests end every question themselves, and none may end by timing out
    r = start_remote(tmp_path, confirm_timeout_s=60.0)
    yield r
    stop_remote(r)


def paired(remote) -> dict[str, str]:
    resp = remote.request("GET", remote.server.pairing_url.split(str(remote.port), 1)[1])
    assert resp.status == 303, resp.body
    return {"Cookie": resp.header("Set-Cookie").split(";", 1)[0]}


def asked(remote, frontend: str = "orb"):
    """A question pending on the broker (``frontend`` registered so it waits): (question, reply future, unregister)."""
    unregister = remote.confirmations.register(frontend)
    q = remote.confirmations.new_question("c1", QUESTION, STEPS, "xterm — ~")
    reply = in_thread(lambda: remote.confirmations.ask(q, None))
    wait_for(lambda: remote.confirmations.pending == q, what="the question to be pending")
    return q, reply, unregister


def answer(remote, question_id: str, word: str = "yes", headers: dict[str, str] | None = None):
    return remote.request("POST", "/api/confirm", body={"question_id": question_id, "answer": word},
                          headers=headers or {})


def still_pending(remote, q) -> bool:
    return remote.confirmations.pending == q and not any(e.type == EventType.CONFIRM_ANSWERED for e in remote.seen)


def test_a_paired_phone_answers_yes_and_the_broker_hears_it_from_the_phone(remote):
    cookie = paired(remote)
    q, reply, _ = asked(remote)
    resp = answer(remote, q.question_id, "yes", {**cookie, **JSON})
    assert resp.status == 200 and resp.json() == {"ok": True, "question_id": q.question_id, "answer": "yes",
                                                  "message": "You said yes."}
    got = reply.result(timeout=10)
    assert got.answer is Answer.YES and got.frontend == "phone"


def test_a_paired_phone_answers_no(remote):
    cookie = paired(remote)
    q, reply, _ = asked(remote)
    assert answer(remote, q.question_id, "no", cookie).status == 200
    got = reply.result(timeout=10)
    assert got.answer is Answer.NO and got.frontend == "phone"


def test_an_unpaired_answer_is_401_and_never_reaches_the_broker(remote):
    q, reply, unregister = asked(remote)
    assert answer(remote, q.question_id).status == 401
    stale = answer(remote, q.question_id, headers={"Cookie": "anovax_session=guessed"})
    # an unknown session is a phone paired before a restart: not counted, and its cookie is cleared
    assert stale.status == 401 and "anovax_session=;" in stale.header("Set-Cookie")
    assert remote.server._ctx.guard.failures("127.0.0.1") == 0
    assert answer(remote, q.question_id, headers={"Authorization": "Bearer guess"}).status == 401
    assert remote.server._ctx.guard.failures("127.0.0.1") == 1
    assert still_pending(remote, q) and not reply.done()
    remote.confirmations.answer(q.question_id, False, "orb")
    assert reply.result(timeout=10).frontend == "orb"


def test_from_a_banned_address_only_the_paired_phone_answers(remote):
    cookie = paired(remote)
    q, reply, _ = asked(remote)
    for _ in range(5):  # TEST policy: 5 failures ban the address
        remote.request("GET", "/api/state", headers={"Authorization": "Bearer guess"})
    assert [b.ip for b in remote.server.bans()] == ["127.0.0.1"]
    resp = answer(remote, q.question_id, headers={"Cookie": "anovax_session=guessed"})
    assert resp.status == 403 and resp.json() == {"error": "forbidden"}
    assert still_pending(remote, q) and not reply.done()
    # a web page on the phone's network guessed: the phone itself still answers (bans stop guessers, not owners)
    assert answer(remote, q.question_id, headers=cookie).status == 200
    assert reply.result(timeout=10).frontend == "phone"


def test_the_script_token_cannot_answer_only_a_paired_phone(remote):
    """A script that can send a command must not also be the one that says yes to it."""
    q, reply, _ = asked(remote)
    resp = answer(remote, q.question_id, headers=remote.auth)
    assert resp.status == 403 and resp.json() == {"error": "only a paired phone can answer a question"}
    assert still_pending(remote, q) and not reply.done()


@pytest.mark.parametrize("body", [
    {"question_id": "{qid}"},
    {"answer": "yes"},
    {"question_id": "{qid}", "answer": "YES"},
    {"question_id": "{qid}", "answer": " yes"},
    {"question_id": "{qid}", "answer": True},
    {"question_id": "{qid}", "answer": "maybe"},
    {"question_id": "{qid}", "answer": "yes", "frontend": "orb"},
    {"question_id": 1, "answer": "yes"},
    {"question_id": "", "answer": "yes"},
    {"question_id": "../{qid}", "answer": "yes"},
    {"question_id": "q" * 65, "answer": "yes"},
    ["{qid}", "yes"],
    "yes",
    None,
])
def test_bad_bodies_are_400_and_answer_nothing(remote, body):
    cookie = paired(remote)
    q, reply, _ = asked(remote)
    raw = json.dumps(body).replace("{qid}", q.question_id)
    resp = remote.request("POST", "/api/confirm", body=raw, headers={**cookie, **JSON})
    assert resp.status == 400, resp.body
    assert resp.json() == {"error": 'send {"question_id": "...", "answer": "yes" | "no"} as UTF-8 JSON'}
    assert still_pending(remote, q) and not reply.done()


def test_broken_encodings_and_sizes_are_refused_without_an_exception(remote):
    cookie = paired(remote)
    q, reply, _ = asked(remote)
    for raw in (b"{not json", b'{"question_id": "\xff\xfe", "answer": "yes"}', b""):
        assert remote.request("POST", "/api/confirm", body=raw, headers={**cookie, **JSON}).status == 400
    big = b'{"question_id": "' + b"q" * 20000 + b'", "answer": "yes"}'
    assert remote.request("POST", "/api/confirm", body=big, headers={**cookie, **JSON}).status == 413
    assert remote.request("GET", "/api/confirm", headers=cookie).status == 405
    assert still_pending(remote, q) and not reply.done()


def test_csrf_a_page_elsewhere_cannot_answer_for_the_phone(remote):
    cookie = paired(remote)
    q, reply, _ = asked(remote)
    body = f'{{"question_id": "{q.question_id}", "answer": "yes"}}'
    form = {"Content-Type": "text/plain;charset=UTF-8"}  # what a cross-site form or no-cors fetch can send
    assert remote.request("POST", "/api/confirm", body=body, headers={**cookie, **form}).status == 415
    for foreign in ({"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"},
                    {"Sec-Fetch-Site": "same-site"}, {"Origin": f"http://127.0.0.1:{remote.port + 1}"}):
        resp = remote.request("POST", "/api/confirm", body=body, headers={**cookie, **JSON, **foreign})
        assert resp.status == 403, foreign
    assert still_pending(remote, q) and not reply.done()
    same = {"Origin": f"http://127.0.0.1:{remote.port}", "Sec-Fetch-Site": "same-origin"}
    assert remote.request("POST", "/api/confirm", body=body, headers={**cookie, **JSON, **same}).status == 200
    assert reply.result(timeout=10).answer is Answer.YES


def test_a_stale_id_is_409_and_an_unknown_one_404(remote):
    cookie = paired(remote)
    q, reply, _ = asked(remote)
    unknown = answer(remote, "q999-deadbeef", headers=cookie)
    assert unknown.status == 404 and unknown.json() == {"error": "no such question"}
    assert answer(remote, q.question_id, "no", cookie).status == 200
    reply.result(timeout=10)
    again = answer(remote, q.question_id, "yes", cookie)  # a second tap, or a second phone
    assert again.status == 409
    assert again.json() == {"error": "that question is over: it was answered, timed out or withdrawn"}
    # the next question: the old id does not answer it
    q2, reply2, _ = asked(remote)
    assert answer(remote, q.question_id, "yes", cookie).status == 409
    assert remote.confirmations.pending == q2
    assert not reply2.done()
    assert answer(remote, q2.question_id, "no", cookie).status == 200
    assert reply2.result(timeout=10).answer is Answer.NO
    assert answer(remote, "q999-deadbeef", headers=cookie).status == 404  # nothing pending at all


def test_a_remote_without_a_broker_takes_no_answers(tmp_path):
    r = start_remote(tmp_path)
    try:
        resp = answer(r, "q1-00000000", headers=paired(r))
        assert resp.status == 404 and resp.json() == {"error": "no question is waiting"}
        assert r.request("GET", "/api/state", headers=paired(r)).json()["confirm"]["can_answer"] is False
    finally:
        stop_remote(r)


# -- when the phone counts as a front end ----------------------------------------------------


def test_the_phone_is_registered_only_while_a_paired_phone_holds_its_event_stream(remote):
    c = remote.confirmations
    cookie = paired(remote)
    assert c.frontends() == ()  # paired, but no page open: a question must not wait for it
    with remote.open_stream("/api/events", remote.auth) as script:
        assert script.status == 200
        wait_for(lambda: remote.server.event_clients == 1, what="the script's stream")
        assert c.frontends() == ()  # a script's stream is no phone
    first = remote.open_stream("/api/events", cookie)
    second = remote.open_stream("/api/events", cookie)
    assert first.status == second.status == 200
    wait_for(lambda: remote.server.phones_watching == 2, what="two phone streams")
    assert c.frontends() == ("phone",)
    first.close()
    wait_for(lambda: remote.server.phones_watching == 1, timeout_s=10, what="one stream closed")
    assert c.frontends() == ("phone",)
    second.close()
    wait_for(lambda: c.frontends() == (), timeout_s=10, what="the phone unregistered")
    assert remote.server.phones_watching == 0


def test_with_no_phone_watching_a_question_is_denied_at_once(remote):
    paired(remote)
    q = remote.confirmations.new_question("c1", QUESTION, STEPS, "xterm")
    reply = remote.confirmations.ask(q, None)  # returns at once: nobody can see it
    assert reply.answer is Answer.NOBODY
    requested = wait_for(lambda: [e for e in remote.seen if e.type == EventType.CONFIRM_REQUESTED],
                         what="CONFIRM_REQUESTED")
    assert requested[0].data["frontends"] == []


def test_a_phone_watching_sees_the_question_and_its_answer_on_its_stream(remote):
    cookie = paired(remote)
    with remote.open_stream("/api/events", cookie) as stream:
        wait_for(lambda: remote.confirmations.frontends() == ("phone",), what="the phone registered")
        q = remote.confirmations.new_question("c1", QUESTION, STEPS, "xterm — ~")
        reply = in_thread(lambda: remote.confirmations.ask(q, None))
        events = stream.events()
        requested = next(e for e in events if e.get("type") == "CONFIRM_REQUESTED")
        assert requested["data"]["question_id"] == q.question_id
        assert requested["data"]["target"] == "xterm — ~" and requested["data"]["frontends"] == ["phone"]
        state = remote.request("GET", "/api/state", headers=cookie).json()["confirm"]
        assert state["pending"]["question_id"] == q.question_id and state["can_answer"] is True
        assert answer(remote, q.question_id, "yes", cookie).status == 200
        answered = next(e for e in events if e.get("type") == "CONFIRM_ANSWERED")
        assert answered["data"]["answer"] == "yes" and answered["data"]["frontend"] == "phone"
    assert reply.result(timeout=10).yes
    assert remote.request("GET", "/api/state", headers=cookie).json()["confirm"]["pending"] is None


def test_unpairing_a_phone_ends_its_stream_and_its_registration(remote):
    cookie = paired(remote)
    with remote.open_stream("/api/events", cookie) as stream:
        assert stream.status == 200
        wait_for(lambda: remote.confirmations.frontends() == ("phone",), what="the phone registered")
        assert remote.request("POST", "/api/unpair", body={}, headers=cookie).status == 200
        wait_for(lambda: remote.confirmations.frontends() == (), timeout_s=10, what="the phone unregistered")
        wait_for(lambda: remote.server.event_clients == 0, timeout_s=10, what="the stream ended")


def test_forgetting_phones_and_stopping_the_remote_unregister_it(remote):
    cookie = paired(remote)
    stream = remote.open_stream("/api/events", cookie)
    wait_for(lambda: remote.confirmations.frontends() == ("phone",), what="the phone registered")
    remote.server.forget_phones()
    wait_for(lambda: remote.confirmations.frontends() == (), timeout_s=10, what="unregistered on forget")
    stream.close()
    cookie = paired(remote)
    stream = remote.open_stream("/api/events", cookie)
    wait_for(lambda: remote.confirmations.frontends() == ("phone",), what="registered again")
    remote.server.stop()
    wait_for(lambda: remote.confirmations.frontends() == (), timeout_s=10, what="unregistered on stop")
    stream.close()

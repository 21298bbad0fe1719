"""The offline planner: a request in, a Plan out, with no network and no model.

How a request becomes a plan (one module per stage):

1. Clean it (``text.py``: Unicode NFKC, control characters out, whitespace collapsed, wake
   words and politeness stripped) and refuse destructive, shell and credential requests
   outright (``refusals.py``), so no part of such a request is ever acted on.
2. Split it into clauses (``clauses.py``) at ",", ";", "and", "then" and "and then", but only
   where the next clause starts with a command verb ("type bread and butter" stays whole,
   "type hello and press enter" is two clauses).
3. Read each clause with the command grammar (``grammar.yaml`` via ``grammar.py``, matched by
   hassil). A match goes to the handler of the same name (``handlers.py``), which may still
   reject it (an "app" that is really an e-mail). A clause the grammar cannot read goes to the
   topic cues (``cues.py``, tables in ``topics.py``): out-of-scope topics (alarms, lights,
   e-mail...) are declined plainly, information topics (weather, news, stocks...) and other
   questions become a web search, media requests a YouTube search, anything else (a mistyped
   command included) "I didn't understand '...' — say 'what can I say' for examples".
4. Join the clauses' steps (at most ``LIMITS.max_steps``) and replies into one Plan (``assemble.py``).

``OfflinePlanner.plan`` never raises: an internal error becomes a zero-step plan that says so.
"""

from __future__ import annotations

import itertools
import logging
import re
from pathlib import Path
from typing import Any

from anovax import factnames
from anovax.crisis import crisis_reply
from anovax.memory import fact_keys
from anovax.plan import Plan, Step
from anovax.planner import lexicon as lx
from anovax.planner.apps import OPENERS, canonical_app, going_to, visit
from anovax.planner.asides import cuts, only_describes
from anovax.planner.assemble import MAX_REPLY_CHARS, assemble, merge_openers, plan_problem
from anovax.planner.clauses import COMMAND_STARTS, joints, soft_split, split_clauses
from anovax.planner.cues import cues, topic_search
from anovax.planner.fuzzy_reader import FuzzyReader
from anovax.planner.goals import goal, question_and_video, stated_goal
from anovax.planner.grammar import load_grammar, matches
from anovax.planner.handlers import HANDLERS, whole_screen
from anovax.desktop.installed import AppCheck, installed_app
from anovax.planner.joined import HARM, HARM_VERBS, cannot_do, declined
from anovax.planner.keyboard import typing
from anovax.planner.media import on_youtube, playlist_of, without_queue_lead, youtube_scope
from anovax.planner.pieces import Jokes, Piece, RequestState, unknown
from anovax.planner.refusals import refusal_for
from anovax.planner.rephrase import plainer
from anovax.planner.text import MAX_QUERY_CHARS, chat_spelled_out, clean_request, lower_words, strip_filler
from anovax.planner.typo import corrected
from anovax.tools import TOOLS

__all__ = ["COMMAND_STARTS", "MAX_CLAUSES", "MAX_GRAMMAR_CHARS", "MAX_QUERY_CHARS", "MAX_REPLY_CHARS",
           "MAX_REQUEST_CHARS", "OfflinePlanner", "Piece", "load_grammar"]

_LOG = logging.getLogger(__name__)

#: requests longer than this are declined without parsing (type_text holds 2,000 characters)
MAX_REQUEST_CHARS = 2400
#: at most this many clauses of one request are read
MAX_CLAUSES = 12
#: clauses longer than this skip the grammar (only dictation is long; see _LONG_DICTATION)
MAX_GRAMMAR_CHARS = 300
_LONG_DICTATION = re.compile(r"^(type|write|dictate|take (?:a |some )?dictation)(?:\s+(?:out|down|in))?[:,]?\s+", re.I)


class OfflinePlanner:
    """Rule-based planner for when there is no API key or no network.

    Build one and reuse it: the grammar is parsed once per process. ``plan`` is thread-safe
    and never raises (``strict=True``, for tests, re-raises internal errors and invalid plans).
    """

    name = "offline"

    def __init__(self, *, strict: bool = False, cache_dir: Path | None = None,
                 app_exists: AppCheck | None = installed_app) -> None:
        self._intents = load_grammar()
        #: vouches for app names no table knows (None: any app-like name is opened)
        self._app_exists = app_exists
        self._strict = strict
        self._jokes = Jokes()
        #: the fuzzy fallback, loaded (or trained) the first time a clause needs it
        self._fuzzy = FuzzyReader(cache_dir)

    # -- public -----------------------------------------------------------------------------

    def warm_up(self) -> None:
        """Plan a few typical requests once, so the first real command doesn't pay for
        compiling the grammar's patterns (~20 ms)."""
        for text in ("open notepad and type hello", "what's the time and the date", "search for the weather",
                     "screenshot my desktop"):  # the last needs the fuzzy model: load it now, not on a request
            self._plan(text, None)

    def plan(self, text: str, context: str = "", *, current_app: str | None = None,
             cancel: object = None) -> Plan:
        """Plan ``text``. ``current_app`` is the app opened last (for "type hello in it");
        of ``context`` (memory and conversation for the online planner) only the names of the
        remembered facts are read, so "what is my address" is recalled once one is stored."""
        return self.plan_with_refusal(text, context, current_app=current_app)[0]

    def refusal(self, text: str, *, current_app: str | None = None) -> str | None:
        """The sentence the planner refuses ``text`` with (destructive, shell, credential or
        system requests), or None. A refused request plans to zero steps; callers that report
        refusals differently from ordinary replies (the CLI's exit code 3) can ask here."""
        return self.plan_with_refusal(text, current_app=current_app)[1]

    def read_as(self, text: str) -> tuple[Plan, str]:
        """The plan of ``text`` and how its words were read: "" as said (templates), "fuzzy" (a
        clause the fuzzy matcher read instead of a template) or "guess" (a question searched as it
        stands: the cues' last resort). Words typed or said freely are worth those readings; words
        a closed-vocabulary recogniser forced out of other talk less so (voice/understand.py)."""
        plan, _refused, how = self._checked(text, None)
        return plan, how

    def plan_with_refusal(
        self, text: str, context: str = "", *, current_app: str | None = None, cancel: object = None
    ) -> tuple[Plan, str | None]:
        """``plan`` and ``refusal`` in one pass: (the plan, the refusal sentence or None).

        ``cancel`` is accepted for the Planner protocol and not looked at: offline planning
        takes about a millisecond, and the caller checks the token right after it."""
        plan, refused, _how = self._checked(text, current_app, context)
        return plan, (plan.final_response if refused else None)

    def _checked(self, text: Any, current_app: str | None, context: str = "") -> tuple[Plan, bool, str]:
        """``_plan``, its plan checked; a failure is a clear reply, never a crash (raised in strict mode)."""
        try:
            plan, refused, how = self._plan(text, current_app, context)
            problem = plan_problem(plan)
            if problem:
                raise ValueError(f"offline planner built an invalid plan: {problem}")
            return plan, refused, how
        except Exception:
            if self._strict:
                raise
            _LOG.exception("offline planner failed on %r", str(text)[:200])
            return Plan((), "Sorry, something went wrong while I was working that out. Please try again."), False, ""

    # -- the pipeline ---------------------------------------------------------------------

    def _plan(self, text: Any, current_app: str | None, context: str = "") -> tuple[Plan, bool, str]:
        """(the plan, whether it is a refusal, how its words were read: ``read_as``).
        ``context``: only the names of the remembered facts are read."""
        request = chat_spelled_out(clean_request(text))  # "wat time is it pls"
        if not request or not any(ch.isalnum() for ch in request):
            return Plan((), "I didn't catch a request. " + lx.CAPABILITIES, unable=True), False, ""
        urgent = crisis_reply(request)
        if urgent:  # "play something calm i want to kill myself": nothing else comes first
            return Plan((), urgent), False, ""
        if len(request) > MAX_REQUEST_CHARS:
            return Plan((), "Sorry, that's too long for me to handle in one go offline. Please say it in shorter parts."), \
                False, ""
        note = _REMEMBER_NOTE.match(request)
        if note and factnames.note_key(note.group("statement")):
            return _remember_note(note.group("statement")), False, ""
        fact = _REMEMBER.match(request)
        if fact:
            return _remember(fact), False, ""
        asked = _ASKS_MEMORY.match(request)
        key = factnames.note_key(asked.group("q")) if asked else ""
        if key:  # "what size shoe does Lily wear, did I tell you?": memory, looked up by its words
            return assemble([Piece("answer", "", [Step("recall", {"key": key})])]), False, ""

        scoped = youtube_scope(request)  # "on youtube, ...": every search in it goes to YouTube
        if scoped is not None:
            request = scoped
        bare = strip_filler(request)
        with_video = question_and_video(bare) or stated_goal(bare)
        if with_video is not None:
            return assemble([with_video]), False, ""
        facts = fact_keys(context) if isinstance(context, str) else ()
        state = RequestState(current_app=canonical_app(current_app), jokes=self._jokes, facts=facts,
                             app_exists=self._app_exists)
        pieces: list[Piece] = []
        clauses = split_clauses(strip_filler(request, trailing=False))
        if len(clauses) > MAX_CLAUSES:
            # more than a plan (and one sub-goal) can hold: plan the start, say so
            clauses = clauses[:MAX_CLAUSES]
            pieces.append(Piece("chat", "That was a lot at once, so I only planned the first part."))
        for whole in clauses:
            if len(clauses) > 1 and only_describes(whole) and not refusal_for(whole):
                continue  # "i'm cooking, what time is it": the remark asks nothing
            for clause, piece in self._clause_pieces(whole, state):
                piece.clause = clause.strip(" ,;")
                if piece.kind != "refuse" and not _content_only(piece):
                    # Destructive words refuse an action ("delete my files"), never the words
                    # of a search or of dictation ("search for password manager reviews").
                    said = refusal_for(clause)
                    if said:
                        piece = Piece("refuse", said)
                if piece.kind == "refuse":  # one unsafe clause refuses the whole request
                    return Plan((), piece.say), True, ""
                if scoped is not None:
                    piece = on_youtube(piece, clause)
                if piece.app:
                    state.current_app = piece.app
                pieces.append(piece)
        how = "guess" if any(p.guess for p in pieces) else "fuzzy" if any(p.fuzzy for p in pieces) else ""
        return assemble(merge_openers(pieces)), False, how

    def _clause_pieces(self, clause: str, state: RequestState) -> list[tuple[str, Piece]]:
        """The clause read whole; if that was only a guess, its parts at every joiner
        ("screenshot and the time please") when the grammar reads each of them."""
        piece = self._clause(clause, state)
        # not understood whole: a refused part after a join still refuses it ("… close and poison the dog")
        if (_definite(piece) and any(step.tool in _SEARCHES for step in piece.steps)) or piece.kind == "unknown":
            folded = self._folded_request(clause, state, media=any(s.tool == "youtube_search" for s in piece.steps))
            if folded is not None:  # "play jazz and unlock the front door": not searched for, said
                return folded
        if piece.kind == "refuse" or _definite(piece):
            return [(clause, piece)]
        for head, remark in cuts(clause):
            # "what's the date, I've got to sign a form": the request, and a remark that asks
            # for nothing the planner understands or refuses
            first = self._clause(head, state)
            if not _definite(first):
                continue
            refused = refusal_for(remark)
            if refused:  # "what's the time, I need you to format the disk": never half-done
                return [(clause, Piece("refuse", refused))]
            if only_describes(remark):  # "play something upbeat, i'm cleaning the house"
                return [(head, first), *self._after_remark(remark, state)]
            said = self._clause(remark, state)
            if said.kind == "decline":  # "what's the date, I need you to e-mail bob": say what it can't do
                return [(head, first), (remark, said)]
            if not _definite(said):
                return [(head, first)]
        parts = soft_split(strip_filler(clause.strip(" ,;")))
        if len(parts) < 2:
            return [(clause, piece)]
        read = []
        for part in parts:
            part = strip_filler(part)
            got = None
            if len(part) <= MAX_GRAMMAR_CHARS:
                got = self._grammar(part, state) or topic_search(part, state) or self._fuzzy.piece(part, state)
            if got is None:
                got = declined(part)
            if got is None or got.kind in ("unknown", "refuse"):
                return [(clause, piece)]
            read.append((part, got))
        if all(got.kind == "decline" for _, got in read):
            return [(clause, piece)]
        # "play some jazz and turn on the lights": what it can do, done, and what it can't, said
        return read

    def _after_remark(self, remark: str, state: RequestState) -> list[tuple[str, Piece]]:
        """What a remark goes on to ask after a joiner ("i'm cleaning the house and turn off the
        lights"): planned like any clause (so a refusal refuses the whole request), never dropped unsaid."""
        for _start, end in joints(remark):
            tail = remark[end:].strip(" ,;")
            if refusal_for(tail) or declined(tail) or lower_words(tail).split(" ", 1)[0] in COMMAND_STARTS:
                return self._clause_pieces(tail, state)
        return []

    def _folded_request(self, clause: str, state: RequestState, *, media: bool) -> list[tuple[str, Piece]] | None:
        """A search that swallowed a joined request the planner refuses or declines ("play jazz and
        wipe my drive", "search for the weather and turn on the sprinklers"): the refusal for the
        whole, or the search before the join and the decline said beside it. None when no joined
        part is such a request (a title's "and": "play rock and roll")."""
        for start, end in joints(clause):
            tail = clause[end:]
            refused = refusal_for(tail) or (HARM if lower_words(tail).split(" ", 1)[0] in HARM_VERBS else None)
            if refused:
                return [(clause, Piece("refuse", refused))]
            # a verb with no tool after a play request ("play jazz and record my screen"); in a
            # question it is the question's ("how to kill weeds and remove moss")
            said_no = declined(tail) or (cannot_do(tail) if media else None)
            if said_no is None:
                continue
            head = clause[:start]
            first = self._clause(head, state)
            if _definite(first):
                return [(head, first), (tail, said_no)]
        found = ((start, end, topic) for start, end in reversed(joints(clause))
                 if (topic := topic_search(clause[end:], state)) is not None)
        for start, end, topic in itertools.islice(found, 1):  # "open notepad and youtube and the weather"
            opened = self._clause(clause[:start], state)
            if _definite(opened) and opened.steps and {s.tool for s in opened.steps} <= _ON_APPS:
                return [(clause[:start], opened), (clause[end:], topic)]
        return None

    def _clause(self, clause: str, state: RequestState) -> Piece:
        """What one clause amounts to: the best grammar match its handler accepts, else the cues."""
        clause = without_queue_lead(strip_filler(clause.strip(" ,;")))
        if not clause or not any(ch.isalnum() for ch in clause):
            return unknown()
        if len(clause) > MAX_GRAMMAR_CHARS:
            # only dictation is this long: skip the grammar's wildcard scan
            m = _LONG_DICTATION.match(clause)
            if m:
                verb = "dictate" if m.group(1).lower().startswith("take") else m.group(1).lower()
                return typing(clause[m.end():], verb, state) or unknown()
        else:
            piece = self._grammar(clause, state)
            if piece is not None:
                return piece
            piece = visit(clause, state.app_exists)  # "take me to wikipedia", "show me reddit"
            if piece is not None:
                return piece
            plain = plainer(clause)  # "tell me the present time", "save the current file"
            piece = self._grammar(plain, state) if plain else None
            if piece is not None:
                return whole_screen(clause, piece)  # "a screenshot of notepad" is of the whole screen
            piece = goal(clause) or playlist_of(clause)  # "help me learn spanish": a guide and a video
            if piece is not None:
                return piece
        piece = cues(going_to(clause) or clause, state)  # "head over to bbc news": the news, not the verb
        if (piece.kind == "unknown" or piece.guess) and len(clause) <= MAX_GRAMMAR_CHARS:
            # no template matched and the cues only guessed: the matcher trained on the templates may know
            guessed = self._fuzzy.piece(clause, state)
            if guessed is not None:
                return guessed
        fixed = corrected(clause) if piece.kind == "unknown" and len(clause) <= MAX_GRAMMAR_CHARS else None
        if fixed is not None:  # "opne notepad": a verb one letter off, tried only when nothing understood it
            return self._grammar(fixed, state) or piece
        return piece

    def _grammar(self, clause: str, state: RequestState) -> Piece | None:
        """The best grammar match its handler accepts, or None."""
        for intent, result in matches(clause, self._intents):
            piece = HANDLERS[intent](clause, result, state)
            if piece is not None:
                return piece
        return None


def _definite(piece: Piece) -> bool:
    """``piece`` understood as said: not unknown, declined, guessed or fuzzily matched."""
    return piece.kind not in ("unknown", "decline", "refuse") and not piece.guess and not piece.fuzzy


#: steps a topic said after them leaves alone: opening something, or an app's window ("close notepad and the news")
_ON_APPS = OPENERS | {spec.name for spec in TOOLS if spec.window_act is not None}

#: the tools a clause's words can be folded into as a query
_SEARCHES = frozenset({"youtube_search", "web_search"})

#: steps whose text is content (a query, dictation), not an action to screen for destructive words
_CONTENT_TOOLS = frozenset(spec.name for spec in TOOLS if spec.carries_content)

#: the ways of asking to keep something: "remember", "keep in mind", "don't forget", "make a note"
_KEEP = (r"(?:please )?(?:remember|keep in mind|bear in mind|don't forget|do not forget|never forget|"
         r"(?:make a |take a |take )?note|note down|jot down|memori[sz]e|"
         # a fact offered in passing: "fyi my dentist is dr patel", "for the record, our wifi is slow"
         r"fyi|f\.y\.i\.?|for your information|for the record|just so you know|just so you're aware|heads up)")
_REMEMBER = re.compile(
    _KEEP + r",? (?:that )?(?:my |the |our )?(?P<key>[a-z][a-z' ]{0,39}?) (?:is|are|should be|must be|needs to be|has to be|"
    r"ought to be) (?P<value>[^\n]{1,200}?)[.!]?$",
    re.I,
)

#: a question that says it is about something the user told: "..., did I tell you?", "what tyre
#: pressure did I ask you to remember?"
_ASKS_MEMORY = re.compile(
    r"^(?P<q>(?:what|what's|whats|which|where|where's|when|when's|who|who's|how|how's|is|are|was|were|do|does)\b.*?)"
    r"[\s,;-]*(?:did i (?:ever )?(?:tell|give) you(?: that| it| this| about it)?|did i (?:mention|say)(?: it| that)?|"
    r"have i (?:told|given) you(?: that| it)?|i (?:think i )?told you(?: before| already)?|"
    r"did i (?:ask|tell) you to (?:remember|note down|note|keep|save|store)(?: it| that)?|"
    r"(?:that )?i (?:asked|told) you to (?:remember|note|keep|save|store)(?: it| that)?)[\s?.!]*$",
    re.I,
)

#: "remember (that) I parked on level 3": a free-form note about the user (``factnames.note_key``)
_REMEMBER_NOTE = re.compile(r"^" + _KEEP + r",? (?:that )?i (?P<statement>[a-z][^\n]{1,200}?)[.!]?$", re.I)


#: dictation that *names* a secret ("type my bank password") asks for the secret itself
_SECRET_REFERENCE = re.compile(
    r"^(?:my|our|the|his|her|their)\s+(?:[\w-]+\s+){0,3}?(?:password|passcode|passphrase|pin|pin code|"
    r"credentials?|api key|secret key|private key|access token|credit card(?: number)?|social security number)s?[.!]?$",
    re.I,
)


def _content_only(piece: Piece) -> bool:
    """True when the piece only searches or types words, whose content is not an action."""
    if not piece.steps or not all(step.tool in _CONTENT_TOOLS for step in piece.steps):
        return False
    typed = [str(step.params.get("text", "")).strip() for step in piece.steps if step.tool == "type_text"]
    return not any(_SECRET_REFERENCE.match(t) for t in typed)


def _remember(match: re.Match[str]) -> Plan:
    """"remember that my favourite colour is blue" → a fact to keep (safety_check screens it)."""
    spoken = match.group("key").strip().lower()
    key = factnames.key_for(spoken)
    value = match.group("value").strip()
    return Plan((), f"I'll remember that your {spoken} is {value}.", {key: value})


def _remember_note(statement: str) -> Plan:
    """"remember that I parked on level 3" → the note ``note_parked_level_3`` (safety_check screens it)."""
    statement = statement.strip()
    said = factnames.second_person(statement)
    return Plan((), f"I'll remember that you {said}.", {factnames.note_key(statement): statement})

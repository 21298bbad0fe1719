"""The command grammar: load ``grammar.yaml``, rank hassil's matches, read a slot back out.

The sentence templates live in ``grammar.yaml``, except a tool's own phrases, which its
declaration in ``anovax.tools`` carries (``ToolSpec.phrases``) and which are added here as an
intent named after the tool. The lists of known apps and hotkeys are added from ``lexicon.py``,
so every alias lives in exactly one place.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml
from hassil import Intents, recognize_all

from anovax.planner import lexicon as lx
from anovax.planner.text import EDGE_PUNCT, WORDS, alnum
from anovax.tools import TOOLS

#: tie-break between equally good grammar matches (lower wins; an intent not listed counts 50)
PRIORITY = {"hotkey": 0, "time_and_date": 1, "time": 2, "date": 3, "screenshot": 4, "joke": 5,
            "youtube_search": 10, "web_search": 11, "type_text": 12, "press_keys": 13, "open_app": 14, "play": 15}

_CLOSERS = "\"'”’)]!?."
_OPENERS = "\"'“‘("


@lru_cache(maxsize=1)
def load_grammar() -> Intents:
    """Parse grammar.yaml once per process, with the lists built from lexicon.py and the tools' phrases."""
    return Intents.from_dict(_data())


@lru_cache(maxsize=1)
def grammar_fingerprint() -> str:
    """A hash of everything the grammar is built from (templates, lists, the tools' phrases)."""
    text = json.dumps(_data(), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    """grammar_data for this process's tools, parsed once (hassil reads it without changing it)."""
    return grammar_data(TOOLS)


def grammar_data(tools: Any) -> dict[str, Any]:
    """grammar.yaml as a dict, with the lexicon's lists and an intent for each of ``tools``'s phrases."""
    text = resources.files("anovax.planner").joinpath("grammar.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    lists = data.setdefault("lists", {})
    # ``example``: what "what can I say" samples these lists with: everyday apps and keys that work
    # on any desk, not the table's first entries ("launch paint" means little on Linux)
    lists["known_app"] = {"values": [{"in": k, "out": v} for k, v in lx.APP_ALIASES.items()],
                          "example": ["notepad", "calculator", "browser"]}
    lists["hotkey"] = {"values": [{"in": k, "out": v} for k, v in lx.HOTKEY_PHRASES.items()],
                       "example": ["save", "copy", "undo", "select all"]}
    lists["weekday"] = {
        "values": ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "the weekend"]
    }
    _add_tool_phrases(data, tools)
    _add_list_examples(data)
    return data


def _add_list_examples(data: dict[str, Any]) -> None:
    """Give each listed intent the ``example`` values of the lists ("5 minutes" for {span},
    "notepad" for {known_app}) where its own metadata names none, for "what can I say" to sample with."""
    examples = {name: d["example"] for name, d in data["lists"].items() if isinstance(d, dict) and "example" in d}
    for intent in data["intents"].values():
        for item in intent.get("data", []):
            meta = item.get("metadata")
            if meta and meta.get("ability"):
                meta["slots"] = {**examples, **(meta.get("slots") or {})}


@lru_cache(maxsize=1)
def command_words() -> frozenset[str]:
    """Every word of four letters or more the grammar's templates, rules and lists use."""
    data = grammar_data(TOOLS)
    words: set[str] = set()
    stack: list[Any] = [data["intents"], data.get("expansion_rules", {}), data.get("lists", {})]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            words.update(w for w in re.findall(r"[a-z']+", item.lower()) if len(w) >= 4)
        elif isinstance(item, dict):
            stack.extend(v for k, v in item.items() if k != "metadata")
        elif isinstance(item, list):
            stack.extend(item)
    return frozenset(words)


def _add_tool_phrases(data: dict[str, Any], tools: Any) -> None:
    """Add an intent for each tool that declares phrases; a text param not yet a list becomes a
    wildcard list of the same name. The intent's metadata carries the tool's ability and, as
    its slots' real values ("what can I say" samples with them), the params of its example."""
    lists = data.setdefault("lists", {})
    intents = data.setdefault("intents", {})
    for spec in tools.with_phrases():
        if spec.name in intents:
            raise ValueError(f"grammar.yaml and tool {spec.name} both define intent {spec.name}")
        for p in spec.params:
            if p.type == "string":
                lists.setdefault(p.name, {"wildcard": True})
        # a param the example does not show is sampled as its own name ("water the plant")
        example = _example_params(spec.example)
        slots = {p.name: example.get(p.name, p.name.replace("_", " ")) for p in spec.params if p.type == "string"}
        metadata = {"ability": spec.ability, "slots": slots}
        intents[spec.name] = {"data": [{"sentences": list(spec.phrases), "metadata": metadata}]}


def _example_params(example: str) -> dict[str, str]:
    """The text params of a prompt example ('set_timer {"duration": "5 minutes"}'), or {}."""
    _name, _sep, params = example.partition(" ")
    try:
        parsed = json.loads(params) if params.strip() else {}
    except ValueError:
        return {}
    if not isinstance(parsed, dict):
        return {}
    return {k: v for k, v in parsed.items() if isinstance(v, str)}


def matches(clause: str, intents: Intents) -> list[tuple[str, Any]]:
    """Grammar matches as (intent name, result), best first: fewest wildcards, most literal
    words, least wildcard text; the same intent with the same slots only once."""
    scored = []
    for result in recognize_all(clause, intents):
        wild = [e for e in result.entities_list if e.is_wildcard]
        key = (len(wild), -result.text_chunks_matched, sum(len(e.text or "") for e in wild))
        scored.append((key, result.intent.name, result))
    scored.sort(key=lambda t: (t[0], PRIORITY.get(t[1], 50)))
    seen: set[tuple[str, str]] = set()
    out = []
    for _key, name, result in scored:
        sig = (name, repr(sorted((k, str(v.text)) for k, v in result.entities.items())))
        if sig not in seen:
            seen.add(sig)
            out.append((name, result))
    return out


def slot(result: Any, name: str, clause: str) -> str:
    """A slot's text as the user wrote it (case and punctuation kept).

    hassil matches punctuation-free text. hassil >= 3.12 maps a wildcard's ``text_span`` back
    to the original text; older versions do not, so the span is checked and, failing that, the
    slot's words are found again in the clause."""
    ent = result.entities.get(name)
    if ent is None:
        return ""
    plain = str(ent.text or ent.value or "").strip()
    found = _find(clause, plain, getattr(ent, "text_span", None))
    if found is None:
        return plain
    start, end = found
    if clause[end:].strip(EDGE_PUNCT) == "":
        end = len(clause)  # the slot ends the clause: keep its closing punctuation
    elif end < len(clause) and clause[end] in _CLOSERS:
        # keep a closing quote or bracket that hassil dropped
        while end < len(clause) and clause[end] in _CLOSERS:
            end += 1
    if start > 0 and clause[start - 1] in _OPENERS:
        start -= 1
    raw = clause[start:end].strip()
    return raw or plain


def _find(clause: str, plain: str, span: Any) -> tuple[int, int] | None:
    """Where the slot text ``plain`` sits in ``clause``: hassil's span if it checks out, else
    the words found again (the last occurrence if it ends the clause, else the first)."""
    if span and 0 <= span[0] <= span[1] <= len(clause) and alnum(clause[span[0]: span[1]]) == alnum(plain):
        return span[0], span[1]
    words = WORDS.findall(plain)
    if not words:
        return None
    pattern = r"\W*".join(re.escape(w) for w in words)
    found = list(re.finditer(pattern, clause, re.I))
    if not found:
        return None
    m = found[-1] if len(found) > 1 and clause[found[-1].end():].strip(EDGE_PUNCT) == "" else found[0]
    return m.start(), m.end()

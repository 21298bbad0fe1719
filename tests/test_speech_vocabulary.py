"""What the planner understands can be said: every word of 1,000 sentences sampled from the
grammar's templates is in the offline recogniser's language model and pronunciation dictionary
(issue 21). The slots are filled the way the model's corpus fills them (apps, hotkeys, searches,
dictation); free-text slots the corpus leaves open are left out here too."""

from __future__ import annotations

import random

import pytest

from anovax.planner.grammar import load_grammar
from anovax.planner.sampling import samples
from anovax.voice import corpus

SENTENCES = 1000


def sampled_sentences() -> list[str]:
    fillers = corpus._fillers()
    rng = random.Random("speech-vocabulary")

    def fill(name: str) -> str:
        values = fillers.get(name)
        return rng.choice(values) if values else ""

    drawn = list(samples(load_grammar(), 40, fill, seed="speech-vocabulary"))
    assert len(drawn) >= SENTENCES
    return [corpus._clean(" ".join(s.tokens)) for s in random.Random(21).sample(drawn, SENTENCES)]


def test_every_word_of_sampled_template_sentences_is_in_the_command_corpus():
    words = {w for s in corpus.command_sentences() for w in s.split()}
    missing = sorted({w for s in sampled_sentences() for w in s.split() if w not in words})
    assert missing == []


def test_every_word_of_sampled_template_sentences_has_a_pronunciation(tmp_path):
    pytest.importorskip("pocketsphinx")
    from anovax.voice.stt import SphinxCommandRecognizer

    recogniser = SphinxCommandRecognizer(cache_dir=tmp_path)
    missing = sorted({w for s in sampled_sentences() for w in s.split() if w not in recogniser.words})
    assert missing == []

# Two commands do all set-up: `make run` and `make test`.
VENV  := .venv
PY    := $(VENV)/bin/python
STAMP := $(VENV)/.stamp-run
TSTAMP := $(VENV)/.stamp-test

.PHONY: run test bench bench-voice eval eval-realapps eval-slurp clean

$(STAMP): pyproject.toml scripts/setup-env.sh
	bash scripts/setup-env.sh
	touch $@

$(TSTAMP): pyproject.toml scripts/setup-env.sh
	bash scripts/setup-env.sh --test
	touch $@ $(STAMP)

## run: start the assistant (offline planner without a key, console without a display)
run: $(STAMP)
	$(PY) run.py

## test: install what the suite needs and run all of it
test: $(TSTAMP)
	$(PY) -m pytest

## bench: latency and resource figures, printed as tables
bench: $(TSTAMP)
	$(PY) -m benchmarks

## bench-voice: false wakes per hour over 4 hours of ordinary speech read by synthetic voices
##       (espeak-ng, and festival's voices never tuned on); about 6 hours of audio, ~30 minutes
bench-voice: $(TSTAMP)
	$(PY) -m benchmarks.voice_hours --hours 4

## eval: the task suite end to end on Xvfb (offline and scripted Gemini), ablations,
##       real apps through the orb, SLURP; writes docs/EVALUATION.md and docs/eval_latency.png
eval: $(TSTAMP)
	$(PY) -m eval.run

## eval-realapps: only the real-app suite (mousepad, galculator, Chromium through the orb);
##       rewrites its section of docs/EVALUATION.md
eval-realapps: $(TSTAMP)
	$(PY) -m eval.realapps --reps 3

## eval-slurp: the offline planner on the SLURP test split
eval-slurp: $(TSTAMP)
	$(PY) scripts/eval_slurp.py --split test

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis *.egg-info

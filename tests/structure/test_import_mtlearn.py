"""``import mtlearn`` is cheap: it loads no metric, no numpy, no ``study`` and no ``why``, and touches no
hook.

Its names are imported on first use (PEP 562's module ``__getattr__``): the exported ones (the metrics,
their result types and option types) and the few more the documents use (``mtlearn.paired_test``,
``mtlearn.compare_implementations``, ...). Each check that looks at what an import loads runs in a
fresh interpreter, where nothing else has imported anything yet.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import os
import subprocess
import sys

import pytest
from repo_paths import REPO

import mtlearn

#: What a fresh interpreter reports after `import mtlearn` (or after one more statement).
_PROBE = """
import json, signal, sys
before = signal.getsignal(signal.SIGINT)
import mtlearn
{then}
print(json.dumps({{
    "modules": sorted(m for m in sys.modules if m == "numpy" or m.startswith(("numpy.", "mtlearn"))),
    "excepthook_untouched": sys.excepthook is sys.__excepthook__,
    "sigint_untouched": signal.getsignal(signal.SIGINT) is before,
}}))
"""


def _fresh(then: str = "") -> dict:
    """Run the probe in a new interpreter that imports mtlearn from this checkout."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", _PROBE.format(then=then)], cwd=REPO, env=env,
                         capture_output=True, text=True, timeout=120, check=True).stdout
    return json.loads(out)


def test_import_mtlearn_loads_no_numpy_study_why_or_metric():
    seen = _fresh()
    assert "numpy" not in seen["modules"]
    assert [m for m in seen["modules"]
            if m.startswith(("mtlearn.study", "mtlearn.why", "mtlearn.metrics"))] == []
    assert seen["excepthook_untouched"] and seen["sigint_untouched"]


def test_a_name_loads_its_own_module_on_first_use():
    # BLEU needs neither numpy nor the study; the paired test needs both, and only then are they loaded.
    bleu = _fresh("mtlearn.bleu('a b', ['a b'])")["modules"]
    assert "mtlearn.metrics.bleu.score" in bleu
    assert "numpy" not in bleu and not any(m.startswith(("mtlearn.study", "mtlearn.why")) for m in bleu)
    paired = _fresh("mtlearn.paired_test")["modules"]
    assert "mtlearn.study.significance" in paired and "numpy" in paired
    assert not any(m.startswith("mtlearn.why") for m in paired)
    assert "mtlearn.why.compare" in _fresh("from mtlearn import compare_implementations")["modules"]


def test_every_exported_name_is_a_metric_a_result_type_or_an_option_type():
    for name in mtlearn.__all__:
        value = getattr(mtlearn, name)
        if name == "__version__":
            assert isinstance(value, str)
        elif inspect.isclass(value):
            assert dataclasses.is_dataclass(value) and name.endswith(("Result", "Options")), name
            assert value.__module__.startswith("mtlearn.metrics."), name
        else:
            assert inspect.isfunction(value) and value.__module__.startswith("mtlearn.metrics."), name
    assert {"MeteorOptions", "ChrfOptions", "TerOptions", "WerOptions"} <= set(mtlearn.__all__)
    assert not {"paired_test", "compare_implementations", "tokenize", "examples"} & set(mtlearn.__all__)


def test_star_import_gives_the_exports_and_each_name_is_its_modules_own():
    namespace: dict = {}
    exec("from mtlearn import *", namespace)
    assert set(namespace) - {"__builtins__"} == set(mtlearn.__all__)
    import mtlearn.examples as examples
    from mtlearn.core.tokenize import tokenize
    from mtlearn.metrics.meteor.score import corpus_meteor
    from mtlearn.study.significance import paired_test
    from mtlearn.why import compare_implementations

    assert mtlearn.corpus_meteor is corpus_meteor and mtlearn.tokenize is tokenize
    assert mtlearn.paired_test is paired_test and mtlearn.compare_implementations is compare_implementations
    assert mtlearn.examples is examples
    assert {"paired_test", "compare_implementations", "bleu", "examples"} <= set(dir(mtlearn))


def test_an_unknown_name_is_an_attribute_error_naming_it():
    with pytest.raises(AttributeError, match="module 'mtlearn' has no attribute 'blue'"):
        mtlearn.blue  # noqa: B018
    with pytest.raises(ImportError, match="cannot import name 'blue' from 'mtlearn'"):
        exec("from mtlearn import blue", {})

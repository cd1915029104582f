"""The house rules on code structure, checked on the source of mtlearn.

- No function above cyclomatic complexity 15 (radon's measure; sacreBLEU's metrics,
  NLTK's BLEU/METEOR and jiwer stay under 18): a function a student cannot follow
  is split into named steps.
- No import cycle between mtlearn's modules, counting every import: at module level, inside a
  function, and under ``if TYPE_CHECKING:`` (a typing import that mirrors a run-time import the
  other way is a cycle of the design even when it never runs).
- No module imports an underscore name from another package. The packages are
  mtlearn's top level (``version``, ``examples`` ...), ``core``, each of ``metrics/<metric>``
  (``metrics/meteor`` with its ``_search``), ``show``, ``study``, ``tools`` (the command line,
  the workshop, the editions), ``why`` and ``exercises``; inside one package private names may be shared.
- A metric's ``explain.py`` imports the result type only under ``TYPE_CHECKING``
  (the result's ``explain()`` imports ``explain.py``; no import cycle).
- Every module is under 600 lines: a longer one is split by concern.
- vulture finds no unused function, method or class (a public name in ``__all__`` or
  in the README, ARCHITECTURE.md, a notebook or a metric card is API, not dead code).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from repo_paths import REPO

radon_complexity = pytest.importorskip("radon.complexity")

PACKAGE = REPO / "mtlearn"
MAX_COMPLEXITY = 15
MAX_MODULE_LINES = 600

#: Folders that are one package each; every other module belongs to the top level.
PACKAGES = ("core", "metrics/bleu", "metrics/chrf", "metrics/meteor", "metrics/ter", "metrics/bertscore",
            "metrics/comet_mini", "show", "study", "tools", "why", "exercises")


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def _dotted(path: Path) -> str:
    """mtlearn/metrics/meteor/_search/blocks.py -> mtlearn.metrics.meteor._search.blocks."""
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_of(module: str) -> str:
    """The package a dotted module name of mtlearn belongs to (see ``PACKAGES``).

    >>> package_of("mtlearn.metrics.meteor._search.blocks"), package_of("mtlearn.examples.bleu")
    ('mtlearn.metrics.meteor', 'mtlearn')
    """
    for folder in PACKAGES:
        prefix = "mtlearn." + folder.replace("/", ".")
        if module == prefix or module.startswith(prefix + "."):
            return prefix
    return "mtlearn"


def _resolve(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute module name of ``from ... import``, relative imports resolved."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base.pop()  # a module's relative imports start from its package
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_imports(path: Path, source: str | None = None) -> list[str]:
    """Every underscore name ``path`` takes from another mtlearn package, as readable lines.

    Counts ``from X import _name``, ``import X._private_module`` (a private module of
    another package), and ``alias._name`` where ``alias`` is a module of another
    package imported in the file.
    """
    module = _dotted(path)
    own = package_of(module)
    tree = ast.parse(path.read_text() if source is None else source, filename=str(path))
    found: list[str] = []
    foreign_modules: dict[str, str] = {}  # local alias -> module of another package

    def foreign(target: str) -> bool:
        return target.split(".")[0] == "mtlearn" and package_of(target) != own

    def private_path(target: str) -> bool:
        # A private module below the package's own folder, e.g. ..._search.blocks.
        rest = target[len(package_of(target)):].lstrip(".")
        return any(_is_private(part) for part in rest.split(".") if part)

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = _resolve(node, module, path.name == "__init__.py")
            if not foreign(target):
                continue
            if private_path(target):
                found.append(f"{path.relative_to(REPO)}:{node.lineno} imports from private module {target}")
            for alias in node.names:
                if _is_private(alias.name):
                    found.append(f"{path.relative_to(REPO)}:{node.lineno} imports {target}.{alias.name}")
                else:
                    foreign_modules[alias.asname or alias.name] = f"{target}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if not foreign(alias.name):
                    continue
                if private_path(alias.name):
                    found.append(f"{path.relative_to(REPO)}:{node.lineno} imports "
                                 f"private module {alias.name}")
                foreign_modules[alias.asname or alias.name] = alias.name
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in foreign_modules
            and _is_private(node.attr)
        ):
            found.append(
                f"{path.relative_to(REPO)}:{node.lineno} reads {foreign_modules[node.value.id]}.{node.attr}"
            )
    return found


def test_the_package_map_covers_every_module():
    # A new folder under mtlearn/ must be placed in PACKAGES or be part of the top level on purpose.
    folders = {p.parent.relative_to(PACKAGE).as_posix() for p in _modules()}
    top_level = {".", "examples", "metrics"}
    unplaced = {f for f in folders - top_level if not any(f == p or f.startswith(p + "/") for p in PACKAGES)}
    assert unplaced == set(), f"folders in no package: {sorted(unplaced)}; add them to PACKAGES"


def test_the_private_import_check_sees_a_violation():
    # The check itself must catch each form it claims to catch, and let a package's own names pass.
    fake = PACKAGE / "show" / "plots.py"
    source = (
        "from mtlearn.study.agreement import _tables\n"
        "from ..study import agreement as ag\n"
        "import mtlearn.metrics.meteor._search.blocks as blocks\n"
        "from .widgets import _own_package_is_fine\n"
        "ag._check_metric('x')\n"
    )
    found = private_imports(fake, source)
    assert len(found) == 3, found
    assert any("_tables" in f for f in found)
    assert any("_check_metric" in f for f in found)
    assert any("_search" in f for f in found)


def test_no_module_imports_another_packages_private_names():
    found = [line for path in _modules() for line in private_imports(path)]
    assert found == [], "cross-package private imports:\n" + "\n".join(found)


def _functions(blocks):
    """Every function radon measured: top level, methods, and functions nested in them."""
    for block in blocks:
        yield block
        yield from _functions(getattr(block, "methods", []))
        yield from _functions(getattr(block, "closures", []))


def test_no_function_above_complexity_15():
    too_complex = set()
    for path in _modules():
        for item in _functions(radon_complexity.cc_visit(path.read_text())):
            if item.complexity > MAX_COMPLEXITY:
                too_complex.add(f"{path.relative_to(REPO)}:{item.lineno} {item.fullname} = {item.complexity}")
    assert not too_complex, "functions above complexity 15 (split them into named steps):\n" + "\n".join(
        sorted(too_complex)
    )


def test_every_module_is_under_600_lines():
    lengths = {p.relative_to(REPO).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
               for p in _modules()}
    long = {path: n for path, n in lengths.items() if n >= MAX_MODULE_LINES}
    assert long == {}, f"modules of {MAX_MODULE_LINES} lines or more (split them by concern): {long}"


@pytest.mark.parametrize("folder", sorted(p.parent.name for p in (PACKAGE / "metrics").glob("*/result.py")))
def test_a_result_module_never_imports_its_renderer(folder):
    # A renovated metric: result.py holds data only; explain.py imports it and registers its renderers
    # with core.derivation's derive/derive_html, which the result's explain() and _repr_html_ call.
    path = PACKAGE / "metrics" / folder / "result.py"
    explain = f"mtlearn.metrics.{folder}.explain"
    tree = ast.parse(path.read_text())
    targets = [
        _resolve(node, _dotted(path), False) if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    ]
    assert not [t for t in targets if t == explain or t.startswith(explain + ".")], \
        f"{path.relative_to(REPO)} imports {explain}"
    assert ("derive"
            in path.read_text()), f"{path.relative_to(REPO)}: explain() should go through core.derivation"


#: Where a public name is documented for students: a public name found there is API, not dead code.
_DOCUMENTED = ("README.md", "ARCHITECTURE.md", "notebooks/*.ipynb", "mtlearn/metrics/*/CARD.md")


def test_vulture_finds_no_unused_function():
    vulture = pytest.importorskip("vulture")
    finder = vulture.Vulture()
    finder.scavenge([str(PACKAGE)])
    # Functions, methods and classes only: unused dataclass fields and properties of a
    # result are public data a student reads, not dead code.
    kinds = {"function", "method", "class"}
    # Called by IPython's display machinery, not by mtlearn.
    display_hooks = {"_repr_html_", "_repr_png_", "_repr_svg_", "_repr_mimebundle_"}
    # Called by Python on a module's attribute lookup and dir() (PEP 562: mtlearn/__init__.py's lazy names).
    module_hooks = {"__getattr__", "__dir__"}
    documented = "\n".join(p.read_text() for pattern in _DOCUMENTED for p in REPO.glob(pattern))
    unused = [
        f"{Path(item.filename).relative_to(REPO)}:{item.first_lineno} {item.typ} {item.name}"
        for item in finder.get_unused_code(min_confidence=60)
        if item.typ in kinds and item.name not in display_hooks | module_hooks
        and not _is_public_api(item, documented)
    ]
    assert unused == [], "unused code (delete it, or document it as public API):\n" + "\n".join(unused)


def _is_public_api(item, documented: str) -> bool:
    """A public name in its module's ``__all__`` or in the students' documentation."""
    if _is_private(item.name):
        return False
    if re.search(rf"\b{re.escape(item.name)}\b", documented):
        return True
    tree = ast.parse(Path(item.filename).read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
            names = {elt.value for elt in getattr(node.value, "elts", []) if isinstance(elt, ast.Constant)}
            if item.name in names:
                return True
    return False


def import_graph() -> dict[str, set[str]]:
    """Each mtlearn module -> the mtlearn modules it imports anywhere in its source (``from a.b import c``
    counts as ``a.b.c`` when that is a module, else ``a.b``)."""
    modules = {_dotted(p): p for p in _modules()}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {a.name if a.name in modules else a.name.rpartition(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(node, name, path.name == "__init__.py")
                found |= {f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names}
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted.

    >>> cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}})
    [['a', 'b']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_check_sees_a_typing_only_cycle(tmp_path):
    # result.py imports its renderer inside a method; the renderer imports the result for typing only.
    graph = {"m.result": {"m.explain"}, "m.explain": {"m.result"}, "m.score": {"m.result", "m.explain"}}
    assert cycles(graph) == [["m.explain", "m.result"]]


def test_no_import_cycle_between_modules():
    found = cycles(import_graph())
    assert not found, ("import cycles (give one side a module of its own, or register as "
                       "core.derivation does):\n" + "\n".join(" <-> ".join(c) for c in found))

"""A paired test's outcome as plain data: one :class:`SystemTest` row per system, in a
:class:`PairedTestResult`, which prints the table as sacreBLEU does and gives plain data for JSON.

>>> rows = (SystemTest("A", 0.5, 0.5, 0.01, None, True), SystemTest("B", 0.45, 0.45, 0.012, 0.02, False))
>>> print(PairedTestResult("chrf", "chrF2", "bs", 1000, 12345, "", rows).explain())
Paired bootstrap resampling, chrF2, 1000 samples, seed 12345: each system against the baseline 'A'
system  chrF2 (mean ± 95% CI)     p-value
A       0.5000 (0.5000 ± 0.0100)
B       0.4500 (0.4500 ± 0.0120)  (p = 0.0200)*
* p <= 0.05: the difference from the baseline is unlikely to be chance (a difference, not "better").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from mtlearn.study.significance.resampling import SIGNIFICANCE_LEVEL

_TEST_NAMES = {"bs": "Paired bootstrap resampling", "ar": "Paired approximate randomization"}


@dataclass(frozen=True)
class SystemTest:
    """One row of a paired test: a system's score, its bootstrap mean and interval, its p-value.

    ``ci`` is the half-width of the 95% interval around ``mean`` (bootstrap only);
    ``p_value`` is ``None`` for the baseline. Scores on mtlearn's 0-1 scale.

    >>> row = SystemTest("B", 0.3325, 0.3325, 0.0089, 0.3536, False)
    >>> row.significant, row.mark, round(row.low, 4), round(row.high, 4)
    (False, '', 0.3236, 0.3414)
    """

    name: str
    score: float
    mean: Optional[float]
    ci: Optional[float]
    p_value: Optional[float]
    baseline: bool

    @property
    def significant(self) -> bool:
        """p <= 0.05 (sacreBLEU's rule); never for the baseline."""
        return self.p_value is not None and self.p_value <= SIGNIFICANCE_LEVEL

    @property
    def mark(self) -> str:
        """``"*"`` when significant, as sacreBLEU marks it."""
        return "*" if self.significant else ""

    @property
    def low(self) -> Optional[float]:
        """mean - ci, the lower end of the 95% interval (bootstrap only)."""
        return None if self.mean is None or self.ci is None else self.mean - self.ci

    @property
    def high(self) -> Optional[float]:
        """mean + ci, the upper end of the 95% interval (bootstrap only)."""
        return None if self.mean is None or self.ci is None else self.mean + self.ci

    def to_dict(self) -> dict[str, Any]:
        """The row as plain data (sacreBLEU's JSON fields, plus the mark).

        >>> SystemTest("A", 0.5, None, None, None, True).to_dict()["p_value"] is None
        True
        """
        return {"system": self.name, "baseline": self.baseline, "score": self.score, "mean": self.mean,
                "ci": self.ci, "p_value": self.p_value, "significant": self.significant}


@dataclass(frozen=True)
class PairedTestResult:
    """The outcome of :func:`paired_test`: the baseline first, then every system against it.

    ``metric`` is ``"bleu"``, ``"chrf"``, ``"meteor"`` or ``"ter"`` and ``metric_name`` its
    printed name (``"BLEU"``, ``"chrF2"``, ``"chrF2++"``, ``"METEOR"``, ``"TER"``); ``test`` is
    ``"bs"`` or ``"ar"``; ``seed`` ``None`` means unseeded. ``scale`` is how the
    text shows the scores (100 for BLEU, as ``mtlearn bleu`` and sacreBLEU; 1 for
    chrF, METEOR and TER, as ``mtlearn chrf``/``meteor``/``ter``).
    """

    metric: str
    metric_name: str
    test: str
    n_samples: int
    seed: Optional[int]
    signature: str
    systems: tuple[SystemTest, ...]
    scale: int = 1

    @property
    def baseline(self) -> SystemTest:
        """The row of the baseline."""
        return self.systems[0]

    def system(self, name: str) -> SystemTest:
        """The row of the system called ``name``."""
        for row in self.systems:
            if row.name == name:
                return row
        raise KeyError(f"name: no system {name!r}; the systems are {', '.join(s.name for s in self.systems)}")

    def explain(self) -> str:
        """The table as sacreBLEU prints it (score, mean ± 95% CI for the bootstrap, p-value, ``*``)."""
        digits = 2 if self.scale == 100 else 4
        width = max(len("system"), *(len(s.name) for s in self.systems))
        bootstrap = self.test == "bs"

        def number(value: float) -> str:
            return f"{self.scale * value:.{digits}f}"

        header = f"{self.metric_name}" + (" (mean ± 95% CI)" if bootstrap else "")
        seed = "no seed" if self.seed is None else f"seed {self.seed}"
        unit = "samples" if bootstrap else "trials"
        lines = [f"{_TEST_NAMES[self.test]}, {self.metric_name}, {self.n_samples} {unit}, {seed}: "
                 f"each system against the baseline {self.baseline.name!r}"]
        cells = []
        for s in self.systems:
            cell = number(s.score)
            if s.mean is not None and s.ci is not None:
                cell += f" ({number(s.mean)} ± {number(s.ci)})"
            cells.append(cell)
        cell_width = max(len(header), *(len(c) for c in cells))
        lines.append(f"{'system':<{width}}  {header:<{cell_width}}  p-value")
        for s, cell in zip(self.systems, cells):
            p = "" if s.p_value is None else f"(p = {s.p_value:.4f}){s.mark}"
            lines.append(f"{s.name:<{width}}  {cell:<{cell_width}}  {p}".rstrip())
        lines.append('* p <= 0.05: the difference from the baseline is unlikely to be chance (a difference, '
                     'not "better").')
        lines += [f"{s.name}: the same score as the baseline; the strict rule gives p = 1/(n + 1), "
                  "not a real difference." for s in self.systems[1:] if s.score == self.baseline.score]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON: the settings and one dict per system (scores on the 0-1 scale).

        >>> from mtlearn.study.significance import paired_test
        >>> r = paired_test({"a": ["x y"], "b": ["x z"]}, [["x y"]], metric="chrf", n_samples=10)
        >>> d = r.to_dict(); d["test"], d["n_samples"], [s["system"] for s in d["systems"]]
        ('bs', 10, ['a', 'b'])
        """
        return {"metric": self.metric, "metric_name": self.metric_name, "test": self.test,
                "n_samples": self.n_samples, "seed": self.seed, "signature": self.signature,
                "significance_level": SIGNIFICANCE_LEVEL, "systems": [s.to_dict() for s in self.systems]}

"""A small sample of real WMT22 de-en system output, shipped with mtlearn (see its README.md).

:data:`WMT22_DE_EN_SAMPLE` is the folder: the first 40 segments of the German-English test
set, its reference A and two systems' translations, unchanged. Notebooks 01 and 02 score
it with the command line (``mtlearn bleu -r ref.A.en -i hyp.LT22.en``).

>>> sorted(p.name for p in WMT22_DE_EN_SAMPLE.glob("*.en"))
['hyp.JDExploreAcademy.en', 'hyp.LT22.en', 'ref.A.en']
>>> len((WMT22_DE_EN_SAMPLE / "ref.A.en").read_text(encoding="utf-8").splitlines())
40
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["WMT22_DE_EN_SAMPLE"]

#: The folder of the sample (inside the installed package).
WMT22_DE_EN_SAMPLE: Path = Path(__file__).resolve().parent / "wmt22_de_en"

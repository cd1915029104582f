"""Fonts for other scripts: Chinese, Japanese and Korean words drawn with glyphs, not empty boxes.

Matplotlib's default font (DejaVu Sans) has no CJK glyphs. When a picture's text
needs them, :func:`use_script_fonts` gives exactly those text artists a fallback
list, the default family first and a CJK font after it, so Latin letters look as
everywhere else and only the missing glyphs come from the CJK font. Nothing global
changes: no ``rcParams`` are set, other texts and other figures keep their fonts.

The CJK font is the first of :data:`CJK_FAMILIES` that is installed. ``make setup``
installs Debian's :data:`CJK_FONT_PACKAGE` (``scripts/install_fonts.sh``, as root);
without any of them the first picture that needs one warns once
(:class:`MissingFontWarning`) and names the package.

>>> needs_cjk("the cat"), needs_cjk("猫坐在垫子上"), needs_cjk("ねこ"), needs_cjk("고양이")
(False, True, True, True)
>>> CJK_FONT_PACKAGE
'fonts-wqy-microhei'
"""

from __future__ import annotations

import functools
import os
import warnings
from collections.abc import Iterable
from typing import Optional

from matplotlib import font_manager
from matplotlib.figure import Figure
from matplotlib.text import Text

__all__ = ["CJK_FAMILIES", "CJK_FONT_PACKAGE", "MissingFontWarning", "needs_cjk", "cjk_font_family",
           "use_script_fonts"]

#: The Debian package ``make setup`` installs (1.6 MB; Chinese, Japanese kana and Korean Hangul).
CJK_FONT_PACKAGE = "fonts-wqy-microhei"

#: CJK-capable families, in order of preference (Debian's, then those of other systems).
CJK_FAMILIES: tuple[str, ...] = (
    "WenQuanYi Micro Hei", "WenQuanYi Zen Hei", "Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans CJK KR",
    "Source Han Sans SC", "Droid Sans Fallback", "Microsoft YaHei", "PingFang SC", "Hiragino Sans GB",
    "SimHei", "Arial Unicode MS",
)

#: File names of those fonts, for a font installed after matplotlib cached its font list.
_CJK_FILE_HINTS = ("wqy-microhei", "wqy-zenhei", "notosanscjk", "sourcehansans", "droidsansfallback")

#: Unicode blocks of Han characters, kana, Hangul, bopomofo and CJK punctuation and forms.
_CJK_RANGES: tuple[tuple[int, int], ...] = (
    (0x1100, 0x11FF), (0x2E80, 0x2FDF), (0x3000, 0x33FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF),
    (0xA960, 0xA97F), (0xAC00, 0xD7FF), (0xF900, 0xFAFF), (0xFE30, 0xFE4F), (0xFF00, 0xFFEF),
    (0x20000, 0x3134F),
)


class MissingFontWarning(UserWarning):
    """No CJK-capable font is installed, so CJK characters are drawn as empty boxes."""


def needs_cjk(text: str) -> bool:
    """Whether ``text`` has a character of a CJK block (Han, kana, Hangul, CJK punctuation).

    >>> needs_cjk("chrF2 = 0.5"), needs_cjk("「猫」")
    (False, True)
    """
    return any(lo <= ord(ch) <= hi for ch in text if ord(ch) >= 0x1100 for lo, hi in _CJK_RANGES)


def _installed_family(names: set[str]) -> Optional[str]:
    return next((family for family in CJK_FAMILIES if family in names), None)


@functools.lru_cache(maxsize=1)
def cjk_font_family() -> Optional[str]:
    """The installed CJK-capable family matplotlib will use (first of :data:`CJK_FAMILIES`), or ``None``.

    Looked up once per process. A font installed after matplotlib cached its font list
    is found by its file and added to matplotlib's font manager. Without any, this warns
    once (:class:`MissingFontWarning`, naming :data:`CJK_FONT_PACKAGE`) and returns ``None``.

    >>> family = cjk_font_family()
    >>> family is None or family in CJK_FAMILIES
    True
    """
    manager = font_manager.fontManager
    family = _installed_family({f.name for f in manager.ttflist})
    if family is None:
        for path in font_manager.findSystemFonts():
            if any(hint in os.path.basename(path).lower() for hint in _CJK_FILE_HINTS):
                try:
                    manager.addfont(path)
                except (OSError, RuntimeError, ValueError):  # an unreadable or broken font file
                    continue
        family = _installed_family({f.name for f in manager.ttflist})
    if family is None:
        warnings.warn(
            "no CJK font is installed, so Chinese, Japanese and Korean characters are drawn as empty boxes; "
            f"install one, e.g. `sudo apt-get install {CJK_FONT_PACKAGE}` (or run scripts/install_fonts.sh), "
            "then restart Python", MissingFontWarning, stacklevel=3)
    return family


def _texts(fig: Figure) -> Iterable[Text]:
    yield from fig.findobj(Text)
    for ax in fig.axes:  # table cells are not children matplotlib's findobj walks into
        for table in ax.tables:
            for cell in table.get_celld().values():
                yield cell.get_text()


def use_script_fonts(fig: Figure) -> Figure:
    """``fig``, each text that has CJK characters given the CJK font as a fallback; other texts untouched.

    >>> from matplotlib.figure import Figure
    >>> fig = Figure()
    >>> ax = fig.add_subplot()
    >>> latin, chinese = ax.text(0, 0, "cat"), ax.text(0, 1, "猫")
    >>> use_script_fonts(fig) is fig, latin.get_fontfamily()
    (True, ['sans-serif'])
    >>> family = cjk_font_family()
    >>> chinese.get_fontfamily() == (['sans-serif'] if family is None else ['sans-serif', family])
    True
    """
    texts = [t for t in _texts(fig) if needs_cjk(t.get_text())]
    if not texts:
        return fig
    family = cjk_font_family()
    if family is None:
        return fig
    for text in texts:
        current = list(text.get_fontfamily())
        if family not in current:
            text.set_fontfamily([*current, family])
    return fig

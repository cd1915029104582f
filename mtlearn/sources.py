"""The sources the course is built on, as data, and a one-line citation for each.

The two documents (a Chinese blog post on BLEU, the Spanish Wikipedia article on METEOR) are kept outside the
repository; this module lets generated text (profile labels, CLI help, explanations) cite them so that a
reader can find them.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping


@dataclass(frozen=True)
class Source:
    """One cited source: enough for a reader to find it and to know what may be quoted."""

    key: str
    title: str
    author: str
    site: str
    year: int | None  # None: a living page with no revision date in the copy used
    url: str
    licence: str
    note: str = ""


_ALL = (
    Source(
        key="bleu_post",
        title="BLEU—机器翻译评价方法 (BLEU — a method for evaluating machine translation)",
        author="unnamed author (Chinese blog post)",
        site="blog post, published 25 December 2021, revised 31 August 2022",
        year=2021,
        url="http://139.9.1.231/index.php/2021/12/25/bleu/",
        licence="no licence stated: brief quotations with attribution only",
        note="gives the d2l-style definition (after Dive into Deep Learning, §10.7 / d2l.ai)",
    ),
    Source(
        key="meteor_wikipedia",
        title="METEOR",
        author="Wikipedia contributors",
        site="Wikipedia, la enciclopedia libre (Spanish Wikipedia)",
        year=None,
        url="https://es.wikipedia.org/wiki/METEOR",
        licence="CC BY-SA 4.0",
        note="the algorithm (alignment, crossings, chunks, fragmentation penalty) and reported correlations",
    ),
    Source(
        key="meteor_wikipedia_en",
        title="METEOR",
        author="Wikipedia contributors",
        site="Wikipedia, the free encyclopedia (English Wikipedia)",
        year=None,
        url="https://en.wikipedia.org/wiki/METEOR",
        licence="CC BY-SA 4.0",
        note="the worked examples: three candidates against 'the cat sat on the mat', with chunks and scores",
    ),
    Source(
        key="papineni2002",
        title="BLEU: a Method for Automatic Evaluation of Machine Translation",
        author="Kishore Papineni, Salim Roukos, Todd Ward and Wei-Jing Zhu",
        site="Proceedings of ACL 2002",
        year=2002,
        url="https://aclanthology.org/P02-1040/",
        licence="ACL Anthology (CC BY 4.0)",
    ),
    Source(
        key="banerjee2005",
        title=(
            "METEOR: An Automatic Metric for MT Evaluation with Improved Correlation with Human Judgments"
        ),
        author="Satanjeev Banerjee and Alon Lavie",
        site="ACL 2005 Workshop on Intrinsic and Extrinsic Evaluation Measures for MT and/or Summarization",
        year=2005,
        url="https://aclanthology.org/W05-0909/",
        licence="ACL Anthology (CC BY 4.0)",
    ),
)

SOURCES: Mapping[str, Source] = MappingProxyType({source.key: source for source in _ALL})


def cite(key: str) -> str:
    """Return the one-line citation of the source ``key`` (one of ``SOURCES``).

    Raises ``KeyError`` naming the known keys when ``key`` is unknown.

    >>> cite("papineni2002")[:61]
    '"BLEU: a Method for Automatic Evaluation of Machine Translati'
    >>> cite("meteor_wikipedia").endswith("https://es.wikipedia.org/wiki/METEOR (CC BY-SA 4.0)")
    True
    """
    try:
        source = SOURCES[key]
    except (KeyError, TypeError):
        raise KeyError(f"unknown source {key!r}; known sources: {', '.join(sorted(SOURCES))}") from None
    year = "n.d." if source.year is None else str(source.year)
    return f'"{source.title}", {source.author}, {source.site}, {year}, {source.url} ({source.licence})'

"""TER's, WER's and CER's options, declared once: default, check, help, command-line flags, signature part.

The four options are tercom's tokenizer switches (sacreBLEU's ``TercomTokenizer``): ``normalized``,
``no_punct``, ``asian_support`` and ``case_sensitive``. TER takes sacreBLEU's defaults (lowercased)
and answers to sacreBLEU's spellings (``--ter-normalized`` ...); WER and CER take jiwer's default
(case-sensitive) and mtlearn's spellings only, so they have options of their own,
:class:`WerOptions`, which differ in those two things and nothing else.

>>> TerOptions().case_sensitive, WerOptions().case_sensitive
(False, True)
>>> TerOptions(normalized="yes")
Traceback (most recent call last):
...
TypeError: normalized: expected True or False, got str
>>> TerOptions(normalized=True).signature("ter", 1)  # doctest: +ELLIPSIS
'mtlearn-ter|nrefs:1|case:lc|tok:tercom|norm:yes|punct:yes|asian:no|version:...'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from mtlearn.core.checks import check_choice
from mtlearn.core.options import Options, check_flag, option
from mtlearn.core.signature import make_signature

__all__ = ["METRICS", "TerOptions", "WerOptions", "TER_DEFAULTS", "WER_DEFAULTS", "check_metric"]

#: The metrics of this folder: TER, and its shift-free relatives over words and characters.
METRICS = ("ter", "wer", "cer")

#: The command line's help text of each switch.
_HELP = {
    "normalized": "normalise and tokenize punctuation, numbers and a few symbols first (tercom's -N)",
    "no_punct": "remove punctuation first",
    "asian_support": "CJK text: with --normalized split CJK characters into words, with --no-punct also "
                     "remove CJK and full-width punctuation (no effect alone)",
    "case_sensitive": "keep the case",
}


def _switch(name: str, default: bool, *aliases: str) -> Any:
    """One tercom switch: mtlearn's flag first, then ``aliases`` (sacreBLEU's spellings)."""
    return option(default, _HELP[name], check_flag, flags=("--" + name.replace("_", "-"), *aliases))


def check_metric(value: object, name: str = "metric") -> str:
    """``"ter"``, ``"wer"`` or ``"cer"``.

    >>> check_metric("bleu")
    Traceback (most recent call last):
    ...
    ValueError: metric: unknown value 'bleu'; choose one of ter, wer, cer
    """
    return check_choice(value, METRICS, name)


@dataclass(frozen=True)
class TerOptions(Options):
    """TER's options (sacreBLEU's defaults and spellings). Every field is checked on creation.

    >>> [(s.name, s.default, s.flags) for s in TerOptions.specs()][0]
    ('normalized', False, ('--normalized', '--ter-normalized'))
    """

    normalized: bool = _switch("normalized", False, "--ter-normalized")
    no_punct: bool = _switch("no_punct", False, "--ter-no-punct")
    asian_support: bool = _switch("asian_support", False, "--ter-asian-support")
    #: The command line's ``--lowercase``/``-lc`` is its negation.
    case_sensitive: bool = _switch("case_sensitive", False, "--ter-case-sensitive")

    def signature_part(self, metric: str) -> dict[str, str]:
        """The settings a signature records (sacreBLEU's ``case``, ``tok``, ``norm``, ``punct``, ``asian``).

        >>> WerOptions().signature_part("cer")
        {'case': 'mixed', 'tok': 'char', 'norm': 'no', 'punct': 'yes', 'asian': 'no'}
        """
        yes = {True: "yes", False: "no"}
        return {
            "case": "mixed" if self.case_sensitive else "lc",
            "tok": "char" if metric == "cer" else "tercom",
            "norm": yes[self.normalized],
            "punct": yes[not self.no_punct],
            "asian": yes[self.asian_support],
        }

    def signature(self, metric: str, nrefs: Union[int, str]) -> str:
        """The result's signature: the metric, the number of references (``var`` if it varies), the settings.

        >>> WerOptions().signature("wer", "var")  # doctest: +ELLIPSIS
        'mtlearn-wer|nrefs:var|case:mixed|tok:tercom|norm:no|punct:yes|asian:no|version:...'
        """
        return make_signature(metric, {"nrefs": nrefs, **self.signature_part(metric)})


@dataclass(frozen=True)
class WerOptions(TerOptions):
    """WER's and CER's options: TER's switches, jiwer's default (case-sensitive), mtlearn's spellings only.

    >>> [s.flags for s in WerOptions.specs()][3], WerOptions.spec("case_sensitive").default
    (('--case-sensitive',), True)
    """

    normalized: bool = _switch("normalized", False)
    no_punct: bool = _switch("no_punct", False)
    asian_support: bool = _switch("asian_support", False)
    case_sensitive: bool = _switch("case_sensitive", True)


#: The defaults the public functions take theirs from.
TER_DEFAULTS = TerOptions()
WER_DEFAULTS = WerOptions()

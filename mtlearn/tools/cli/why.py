"""``mtlearn why``: every implementation's BLEU or METEOR on the files, and where each pair parts.

>>> profile_list("nltk-sentence, sacrebleu-sentence")
['nltk-sentence', 'sacrebleu-sentence']
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import warnings
from typing import Any

from mtlearn.core.references import AmbiguousLayoutWarning
from mtlearn.tools.cli.io import EXIT_USAGE, CommandLineError, load_corpus

__all__ = ["add_command", "profile_list", "run"]


def profile_list(value: str) -> list[str]:
    """``--profiles a,b,c`` as a list of names (checked by the library, which lists the known ones).

    >>> profile_list("nltk-sentence, sacrebleu-sentence")
    ['nltk-sentence', 'sacrebleu-sentence']
    """
    names = [name.strip() for name in value.split(",") if name.strip()]
    if not names:
        raise argparse.ArgumentTypeError("give at least one profile name, e.g. --profiles "
                                         "nltk-sentence,sacrebleu-sentence")
    return names


def add_command(commands: Any) -> None:
    p_why = commands.add_parser(
        "why", help="why libraries disagree: each implementation's BLEU or METEOR on the "
                    "files, and where they part",
        description="Score the hypotheses as each well-known implementation would (sacreBLEU, NLTK, Hugging "
                    "Face evaluate, torchmetrics, KerasNLP, d2l, tensor2tensor for BLEU; Banerjee & Lavie "
                    "2005, NLTK and METEOR 1.5 for METEOR), every profile computed by mtlearn's own step "
                    "functions, offline. Prints the table of scores (0-1, and as each library reports it), "
                    "then for every profile the first step at which it parts from the first profile; --walk "
                    "A B prints the whole walk from A to B, step by step, whose contributions add up to the "
                    "difference in score.",
        epilog="Example: mtlearn why bleu -r ref.txt -i hyp.txt --profiles sacrebleu-sentence,nltk-sentence "
               "--walk sacrebleu-sentence nltk-sentence. Exit status: 0 ok, 1 bad "
               "input data, 2 wrong command line.",
    )
    p_why.add_argument("metric", choices=("bleu", "meteor"), help="the metric whose "
                                                                  "implementations are compared")
    group = p_why.add_argument_group("input (UTF-8 text, one segment a line, all files line-aligned)")
    group.add_argument("-r", "--references", "--refs", nargs="+", required=True, metavar="REF",
                       help="reference file(s); several files give several references per segment")
    group.add_argument("-i", "--input", default=None, metavar="HYP",
                       help="the hypotheses (default: standard input)")
    settings = p_why.add_argument_group("comparison")
    settings.add_argument("--profiles", type=profile_list, default=None, metavar="A,B,...",
                          help="the profiles to compare, in table order (default: all of the metric's)")
    settings.add_argument("--tokenize", "-tok", default=None, metavar="NAME",
                          help="give every profile this tokenizer, so that tokenisation "
                               "drops out of the differences")
    settings.add_argument("--walk", nargs=2, default=None, metavar=("A", "B"),
                          help="also print the step-by-step walk from profile A to profile B")
    out = p_why.add_argument_group("output")
    out.add_argument("--json", action="store_true", help="print the comparison's to_dict() as JSON")


def run(args: argparse.Namespace) -> list[str]:
    """``mtlearn why``: read the files, run :func:`mtlearn.compare_implementations`, the table (or JSON)."""
    from mtlearn.why import compare_implementations

    corpus = load_corpus(args.references, args.input)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UserWarning)
        warnings.simplefilter("ignore", AmbiguousLayoutWarning)  # a file per reference stream: layout known
        result = compare_implementations(list(corpus.hypotheses), [list(refs) for refs in corpus.references],
                                         args.metric, tokenize=args.tokenize, profiles=args.profiles)
        if args.walk:
            try:
                walk = result.explain(*args.walk)
            except ValueError as error:  # an unknown name, or the same one twice
                reason = re.sub(r"^[a-z_, ]+: ", "", str(error))
                raise CommandLineError(f"--walk: {reason}", EXIT_USAGE) from None
    for warning in caught:
        print(f"mtlearn: warning: {warning.message}", file=sys.stderr)
    if args.json:
        found = result.to_dict()
        if args.walk:
            found["walk"] = next(d for d in found["divergences"] if {d["a"], d["b"]} == set(args.walk))
        return [json.dumps(found, indent=2, ensure_ascii=False)]
    table = result.explain().replace("(c.explain(a, b) prints", "(--walk A B prints")  # the CLI's way
    return [table] + (["", walk] if args.walk else [])

"""STUB — to be replaced by the BLEU implementation."""
from dataclasses import dataclass


@dataclass
class BleuResult:
    score: float = 0.0


def bleu(candidate, references, **options):
    raise NotImplementedError


def corpus_bleu(candidates, references, **options):
    raise NotImplementedError

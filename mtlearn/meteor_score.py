"""STUB — to be replaced by the METEOR implementation."""
from dataclasses import dataclass


@dataclass
class MeteorResult:
    score: float = 0.0


def meteor(candidate, references, **options):
    raise NotImplementedError


def corpus_meteor(candidates, references, **options):
    raise NotImplementedError

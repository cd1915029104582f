"""STUB — to be replaced by document 002's d2l BLEU."""
from dataclasses import dataclass


@dataclass
class D2LBleuResult:
    score: float = 0.0


def d2l_bleu(pred_tokens, label_tokens, k):
    raise NotImplementedError

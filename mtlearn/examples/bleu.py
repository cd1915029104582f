"""STUB: BLEU worked examples."""

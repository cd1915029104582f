"""STUB: METEOR worked examples."""

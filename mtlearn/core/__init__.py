"""What every metric shares: tokenizers, input checks, reference layouts, n-grams, signatures, wording.

Nothing here knows a metric; every metric folder uses these modules.
"""

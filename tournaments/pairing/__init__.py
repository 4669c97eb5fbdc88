"""Draws, brackets, Swiss pairings and round robins as plain Python.

No Django here: the inputs are frozen values, randomness comes from an injected
``random.Random``, so every draw can be repeated from its seed and tested
without a database.
"""

"""Letter codes, the vowel table and letter points: the one encoding every kernel uses.

A letter's *code* is its place in the alphabet, ``A`` = 0 ... ``Z`` = 25; an empty square is
-1. Vowels (A E I O U, never Y) move like a knight and score 2 points, every other letter
moves like a queen and scores 1 (``RULES.md``, sections 4 and 7). Plain numpy, no numba: the
tables are read by kernels as compile-time constants and by Python code alike.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "EMPTY",
    "IS_VOWEL",
    "LETTERS",
    "POINTS",
    "VOWELS",
    "VOWEL_CODES",
    "VOWEL_LETTER_MASK",
    "letter_code",
    "letter_codes",
]

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
VOWELS = frozenset("AEIOU")
#: The code of an empty square.
EMPTY = -1

#: Codes of the vowels, ascending.
VOWEL_CODES = np.array([LETTERS.index(v) for v in sorted(VOWELS)], dtype=np.int64)
#: ``IS_VOWEL[code]``: 1 for a vowel, 0 for a consonant.
IS_VOWEL = np.zeros(len(LETTERS), dtype=np.int64)
IS_VOWEL[VOWEL_CODES] = 1
#: ``POINTS[code]``: a letter's points, 2 for a vowel and 1 for a consonant.
POINTS = IS_VOWEL + 1
#: The vowels as a 26-bit letter mask (bit ``code``), the form trie child masks take.
VOWEL_LETTER_MASK = int(sum(1 << int(code) for code in VOWEL_CODES))


def letter_code(letter: str) -> int:
    """The code of one letter, any case (0..25)."""
    code = ord(letter.upper()) - ord("A")
    if not 0 <= code < len(LETTERS):
        raise ValueError(f"not a letter A-Z: {letter!r}")
    return code


def letter_codes(letters: str) -> np.ndarray:
    """``int64`` codes of a string of letters (any case), ``.`` giving :data:`EMPTY`."""
    return np.array(
        [EMPTY if letter == "." else letter_code(letter) for letter in letters], dtype=np.int64
    )

"""Typing slips: what a Latin word of a query may have been meant as, read as one edit."""

from __future__ import annotations

from collections.abc import Iterator

_LATIN_LETTERS = "abcdefghijklmnopqrstuvwxyz"
MIN_MISSPELT_LENGTH = 5
# In a word of four letters only two neighbours swapped ("Mria" for "Mira") is read as a slip:
# a replaced, dropped or added letter makes another word or name too often ("Mica", "Mars").
MIN_SWAPPED_LENGTH = 4
# A word's one-edit variants grow with the square of its length (~54 n strings of n letters):
# past this a string is no word anyone mistyped ("internationalization" has 20 letters), and
# reading a 1,500-letter one as a slip took the statement past its time.
MAX_SLIPPED_LENGTH = 24


def _swaps(word: str) -> Iterator[str]:
    """Every string ``word`` becomes when two neighbouring letters trade places."""
    for i in range(len(word) - 1):
        yield word[:i] + word[i + 1] + word[i] + word[i + 2 :]


def _one_slip(word: str) -> Iterator[str]:
    """Every string one edit away from ``word``: a deletion, a swap of neighbours, a replacement
    or an insertion of a letter."""
    yield from _swaps(word)
    for i in range(len(word) + 1):
        left, right = word[:i], word[i:]
        if right:
            yield left + right[1:]
            for letter in _LATIN_LETTERS:
                yield left + letter + right[1:]
        for letter in _LATIN_LETTERS:
            yield left + letter + right


def slips_of(word: str) -> list[str]:
    """What ``word`` may have been meant as, read as one typing slip: any single edit of a word
    of 5 to 24 letters, a swap of neighbours in a word of 4, nothing for shorter or longer
    words."""
    if len(word) > MAX_SLIPPED_LENGTH:
        return []
    if len(word) >= MIN_MISSPELT_LENGTH:
        variants = _one_slip(word)
    elif len(word) >= MIN_SWAPPED_LENGTH:
        variants = _swaps(word)
    else:
        return []
    return [variant for variant in dict.fromkeys(variants) if variant != word]

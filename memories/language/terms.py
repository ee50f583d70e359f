"""A query's keyword terms with their translations, and the typing slips it may hold: the
word lists of ``nlp`` and the dictionary of ``lexicon`` together (recall's query analysis)."""

from __future__ import annotations

from memories.language import lexicon, nlp, times
from memories.language.slips import MIN_MISSPELT_LENGTH, MIN_SWAPPED_LENGTH, slips_of

# A query's translations widen its tsquery: a bound keeps a long query (the context endpoint
# passes the user's whole input) from becoming a long OR.
MAX_TRANSLATED_FORMS = 24
# Each unknown word read as a possible slip adds up to ~1,300 strings to the statement: a query
# rarely mistypes more than a few words, and eighty made the statement take seconds.
MAX_SLIPPED_WORDS = 8


def keyword_terms(text: str) -> list[tuple[str, ...]]:
    """The query's keyword terms (``nlp.query_terms``), each with the forms that match it: the term
    itself, plus the other words of its attribute group (``nlp.ATTRIBUTE_WORDS``) or else its
    primary translations in the other language (``lexicon``) and a work term's English
    phrasings or an acronym's spellings (``nlp.spelt_phrases``), at most
    ``MAX_TRANSLATED_FORMS`` of those per query.  A word already among an earlier term's forms
    is not a term again: one attribute counts once however many of its words the query holds,
    and so does a word written beside its translation ("部署 deploy").  jieba's search-mode
    pieces of an attribute word ("责人" of "负责人") are that word, not terms of their own.  The
    words of a spelt-out work acronym ("pull request") match the acronym ("pr": ``nlp.ACRONYMS``)
    too.  A work term (``work_terms.WORK_TERMS``) joins its two languages both ways: the words
    of its English phrasing ("weekly report") match the Chinese word (周报), and the Chinese word
    matches the phrasing's words side by side.  A word of a phrasing or spelling the query
    spells out means it there: "release" of "canary release" is 灰度, without its attribute's
    words or its dictionary senses."""
    translations = lexicon.get()
    tokens = nlp.query_tokens(text)
    terms = nlp.terms_among(tokens)
    spelt = nlp.spelt(tokens)
    attribute_words = [t for t in terms if t in nlp.ATTRIBUTE_OF]
    found: list[tuple[str, ...]] = []
    covered: set[str] = set()
    budget = MAX_TRANSLATED_FORMS
    for term in terms:
        if term in covered:
            continue
        group = nlp.ATTRIBUTE_OF.get(term)
        forms: tuple[str, ...]
        if term in spelt:
            # A word of a spelt-out acronym or work term means what the phrase means:
            # "release" of "canary release" is 灰度, not a deadline or its dictionary senses.
            forms = (term,)
        elif group is not None:
            forms = (term, *sorted(group - {term}))
        elif any(term in word for word in attribute_words):
            continue
        else:
            # Its translations, and a work term's English phrasings ("weekly report" of 周报),
            # matched side by side: forms within the query's bound.
            extra = [
                w
                for w in (*translations.translations(term), *nlp.spelt_phrases().get(term, ()))
                if w not in covered
            ][:budget]
            budget -= len(extra)
            forms = (term, *extra)
        covered.update(forms)
        found.append(forms)
    return _with_spelt(found, spelt)


# The endings spaCy takes off a word it reads as a plural ("tomas" → "toma", "moses" → "mose").
PLURAL_ENDINGS = ("s", "es")


def typed_forms(terms: list[tuple[str, ...]], text: str) -> list[tuple[str, ...]]:
    """``terms`` (``keyword_terms``) with the word the query typed beside a lemma that spaCy
    made of it by reading a plural into a word no dictionary knows — a name, mostly: "Who is
    Tomas?" asks for "toma", where the memory's "Tomas Alvarez" kept "tomas".  The typed word
    is one more form of the same term: a memory holding either matches, and the term still
    counts once.  A word the dictionary knows ("projects") was read right and gets none; the
    words are compared as the entity channel reads the query (``nlp.recall_name``).  Added after
    ``keyword_slips`` has read the terms: "kestrals" is still a slip of kestrel."""
    known = lexicon.get()
    written = set(nlp.NAME_UNIT.findall(nlp.recall_name(text)))
    held = {form for forms in terms for form in forms}
    found: list[tuple[str, ...]] = []
    for forms in terms:
        word = forms[0]
        unknown = len(forms) == 1 and word.isalpha() and word.isascii()
        if unknown and word not in written and not known.translations(word):
            typed = [word + end for end in PLURAL_ENDINGS if word + end in written]
            forms = (word, *(form for form in typed if form not in held))
        found.append(forms)
    return found


def translated_forms(terms: list[tuple[str, ...]]) -> list[str]:
    """The forms of ``terms`` (``keyword_terms``) that are a term's dictionary translations,
    not the term itself, its attribute's words or an acronym it spells.  A day of the week is
    none: it is never a name, though spaCy reads "Wednesday" in a memory as an entity."""
    known = lexicon.get()
    return sorted(
        {
            form
            for forms in terms
            for form in forms[1:]
            if form in known.translations(forms[0]) and not times.WEEKDAY_WORD.fullmatch(form)
        }
    )


def _with_spelt(terms: list[tuple[str, ...]], spelt: dict[str, list[str]]) -> list[tuple[str, ...]]:
    """Each word of a spelt-out acronym ("pull", "request") or work term ("weekly", "report")
    matches the acronym ("pr") or the Chinese word (周报) too, so a memory that holds it matches
    every word the query spells it with.  Not when the query names it itself: it is a term of
    its own then."""
    named = {forms[0] for forms in terms}
    return [
        (*forms, *(a for a in spelt.get(forms[0], ()) if a not in forms and a not in named))
        for forms in terms
    ]


def misspellings(text: str) -> list[str]:
    """Every string a Latin word of the query may be a slip of (``slips_of``: one edit of a
    word of 5+ letters, a swap of neighbours in a word of 4 that no dictionary knows — "mail" is
    a word, not a slip of "Mali"): a stored name equal to one of them is the name the user
    mistyped.
    Shorter words have too many real neighbours; only the first ``MAX_SLIPPED_WORDS`` words
    that may be slips are read."""
    known = lexicon.get()
    variants: dict[str, None] = {}
    words = [w for w in nlp.NAME_UNIT.findall(nlp.recall_name(text)) if not nlp.has_han(w)]
    read = 0
    for word in words:
        if not word.isalpha():
            continue
        if len(word) < MIN_MISSPELT_LENGTH and known.translations(word):
            continue
        slips = slips_of(word)
        if slips:
            variants.update(dict.fromkeys(slips))
            read += 1
            if read == MAX_SLIPPED_WORDS:
                break
    for word in words:
        variants.pop(word, None)
    return list(variants)


def keyword_slips(terms: list[tuple[str, ...]]) -> list[tuple[int, str]]:
    """For each keyword term (``keyword_terms``, numbered from 1) that may be a typing slip — a
    Latin word of 4 or more letters that no dictionary knows ("kestral", "afternon", "iibs";
    never "bread") — the words it may be a slip of (``slips_of``), as ``(term number,
    word)``, for the first ``MAX_SLIPPED_WORDS`` such terms.  The keyword channel uses those a
    memory of the scope holds when no memory holds the term itself."""
    known = lexicon.get()
    slips: list[tuple[int, str]] = []
    read = 0
    for number, forms in enumerate(terms, start=1):
        word = forms[0]
        if len(forms) > 1 or not word.isascii() or not word.isalpha():
            continue
        if len(word) < MIN_SWAPPED_LENGTH or known.translations(word):
            continue
        variants = slips_of(word)
        if variants:
            slips.extend((number, variant) for variant in variants)
            read += 1
            if read == MAX_SLIPPED_WORDS:
                break
    return slips

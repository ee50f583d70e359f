"""Recall: how a question finds memories.

``query`` reads the question (terms, names, pinyin), ``channels`` holds the four channels' SQL
and the one liveness predicate every reader uses, ``fusion`` merges the channels by rank and
``tuning`` every constant.  The engine runs the SQL; ``memories.selectors.memory_search`` puts
the pieces together.  docs/retrieval.md explains and measures it.
"""

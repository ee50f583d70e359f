"""Recall: how a question finds memories.

``query`` reads the question (terms, names, pinyin), ``channels`` holds the four channels' SQL,
``live`` the rules every reader filters by (a memory is in a scope, a memory is live) as SQL,
ORM and Python, ``fusion`` merges the channels by rank and ``tuning`` every constant.  The
engine runs the SQL; ``memories.selectors.memory_search`` puts the pieces together.
docs/retrieval.md explains and measures it.
"""

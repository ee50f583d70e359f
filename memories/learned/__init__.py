"""Small learned decisions over the bundled multilingual-e5-small's sentence vectors.

A *head* is a logistic regression over e5-small's 384-d passage vectors, trained by a command in
the repository on a labelled set shipped beside it, its weights a small ``.npz`` file in the
repository.  Heads are the second opinion of the rules, never their replacement: the rules stay
as hard guards and the head decides what the rules cannot (``heads.py``).

The vectors always come from the bundled e5-small (``vectors.py``), whatever model the meaning
channel is configured with: a head is only valid in the space it was trained in.
"""

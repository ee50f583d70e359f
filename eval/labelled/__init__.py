"""The data of `make eval`'s labelled set, by subject; ``eval.dataset`` puts it together."""

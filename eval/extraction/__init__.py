"""The extraction labelled set and its scoring (docs/extraction.md, docs/extraction-set.md)."""

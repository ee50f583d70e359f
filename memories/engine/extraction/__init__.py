"""The offline extractor's parts: guards and cues (``rules``), the fact writer (``facts``),
the learned decision (``decision``), memory_key proposals (``keys``), and the pipeline that joins
them (``pipeline``)."""

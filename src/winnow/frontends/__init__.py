"""Front-ends: per-format normalisation of documents into code-unit streams."""

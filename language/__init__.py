"""Knowledge about text shared by ingest, retrieval and generation: sentences, words, references,
the field's jargon, and what a question asks. Pure functions; nothing here touches an index or a model."""

"""JSON Schemas (Draft 2020-12) for Mason rule files."""

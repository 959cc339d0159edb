"""The rule-file model: YAML with positions, schema and semantic checks, expansions, the compiled program.

Pipeline: ``yamlpos`` reads YAML keeping every node's place; ``loader`` assembles a game folder into a
``Spec`` (variants applied, expansions merged by ``expansions``); ``validate`` checks it against the
JSON Schemas and the game's own names; ``program`` compiles it (with ``names`` and the DSL) into a
``Program`` the runtime runs.
"""

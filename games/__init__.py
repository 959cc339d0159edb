"""Game folders shipped with Mason (YAML rule files, one folder per game)."""

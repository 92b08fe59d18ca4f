"""Mutation harness: curated single-rule mutants per game (see README.md)."""

"""Test suite for symcompile (a package so tests can import one another: ``tests.corpus`` etc.)."""

"""Test suite for symcompile (a package so tests can import ``tests.oracle`` etc.)."""

"""Small example programs used by `symcompile demo` and the documentation."""

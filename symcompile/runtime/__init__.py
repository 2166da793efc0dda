"""Layer 6, the runtime: what runs when a user calls a compiled function.

`api` is the public face (`@symbolic`, compiled objects); `cache` keeps the compiled versions
and their entry conditions; `callpath` makes sure one thread compiles a version while calls go
on; `check` runs a compiled version side by side with the original.
"""

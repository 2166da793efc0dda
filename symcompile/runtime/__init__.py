"""Layer 6, the runtime: what runs when a user calls a compiled function.

`api` is the public face (`@symbolic`, compiled objects); `compiler` is the one compile path
(front end → passes → back end); `cache` keeps each function's versions with their entry
conditions and decides which one a call runs; `callpath` makes sure one thread compiles a
version while calls go on; `check` runs a compiled version side by side with the original,
compared by `oracle`.
"""

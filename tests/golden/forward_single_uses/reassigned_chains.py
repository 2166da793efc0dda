# A variable assigned again and again (an accumulator, or inlined code's renamed locals) is
# forwarded value by value, as long as each value has exactly one reader before the next
# assignment; `a[acc] = ...` reads acc in its target too, so it is not forwarded there.
def f(x, a):
    acc = x * 2.0
    acc = acc + 1.0
    acc = acc * x
    a[acc] = acc
    return acc
# --- after forward_single_uses ---
def f(x, a):
    acc = (x * 2.0 + 1.0) * x
    a[acc] = acc
    return acc

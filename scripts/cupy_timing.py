"""The probes' timing on the GPU machine (CuPy): the least time of a call, in milliseconds.

Shared by scripts/l2_probe.py and scripts/prime_split_probe.py, which import it from beside
them (`python3 scripts/NAME.py` puts scripts/ first on the import path).
"""


def least_ms(fn, reps=20):
    """Runs `fn` once to warm up, then `reps` times between device events: the least time."""
    import cupy as cp
    fn()
    cp.cuda.Device().synchronize()
    best = float("inf")
    for _ in range(reps):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        fn()
        end.record()
        end.synchronize()
        best = min(best, cp.cuda.get_elapsed_time(start, end))
    return best

"""Whether a call into the extension releases the GIL while it runs.

A thread that wakes every half millisecond counts its turns during the call: with the GIL held
it could get none. The caller passes a batch long enough (a tenth of a second or more) for many
turns even on a loaded machine.
"""

import threading
import time


def ticks_during(call, warm_up):
    """Runs warm_up(), then call() while the counting thread runs; returns the counter's ticks
    during call() alone and call()'s time in seconds. The warm-up's time says nothing about the
    timed call's, so only the ticks during the timed call count."""
    ticks = 0
    done = threading.Event()

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.0005)

    warm_up()
    thread = threading.Thread(target=count)
    thread.start()
    try:
        time.sleep(0.01)
        before = ticks
        start = time.perf_counter()
        call()
        elapsed = time.perf_counter() - start
        after = ticks
    finally:
        done.set()
        thread.join()
    return after - before, elapsed

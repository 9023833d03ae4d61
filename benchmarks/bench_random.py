"""Random numbers: flowgrad's TensorFlow-exact Philox kernels against NumPy's generator
(what flowgrad drew with before it gave TensorFlow's numbers).

Run:  python benchmarks/bench_random.py [--rounds 5]

Rows (eager ``tf.random.*`` calls, float32, seeded), each against the NumPy call of the
same size that the old kernels made (``Generator(Philox)`` ``random`` / ``standard_normal``
/ re-drawn ``standard_normal``):

  * uniform, normal and truncated normal of 1M values;
  * uniform of 1K values (the per-call overhead);
  * ``tf.random.stateless_normal`` of 1M values;
  * a shuffle of 100K rows.

Each cell is the median of ``--rounds`` runs; the ratio is flowgrad / NumPy.
"""
from __future__ import annotations

import argparse
import statistics
import time
from typing import Callable

import numpy as np

import flowgrad as tf


def _median_time(fn: Callable[[], object], rounds: int) -> float:
    fn()
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _truncated(rng: np.random.Generator, n: int) -> np.ndarray:
    out = rng.standard_normal(n, dtype=np.float32)
    bad = np.abs(out) >= 2
    while bad.any():
        out[bad] = rng.standard_normal(int(bad.sum()), dtype=np.float32)
        bad = np.abs(out) >= 2
    return out


def main() -> None:
    """Prints one row per case: flowgrad's time, NumPy's and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    tf.random.set_seed(1)
    rng = np.random.Generator(np.random.Philox(1))
    big, small = 1_000_000, 1_000
    rows = [
        ("uniform 1M", lambda: tf.random.uniform([big], seed=1),
         lambda: rng.random(big, dtype=np.float32)),
        ("normal 1M", lambda: tf.random.normal([big], seed=1),
         lambda: rng.standard_normal(big, dtype=np.float32)),
        ("truncated_normal 1M", lambda: tf.random.truncated_normal([big], seed=1),
         lambda: _truncated(rng, big)),
        ("uniform 1K", lambda: tf.random.uniform([small], seed=1),
         lambda: rng.random(small, dtype=np.float32)),
        ("stateless_normal 1M", lambda: tf.random.stateless_normal([big], [1, 2]),
         lambda: np.random.Generator(np.random.Philox(key=[1, 2])).standard_normal(
             big, dtype=np.float32)),
        ("shuffle 100K", lambda: tf.random.shuffle(tf.range(100_000), seed=1),
         lambda: rng.permutation(100_000)),
    ]
    print("%-22s %12s %12s %8s" % ("case", "flowgrad ms", "NumPy ms", "ratio"))
    for name, ours, numpy_call in rows:
        a, b = _median_time(ours, rounds), _median_time(numpy_call, rounds)
        print("%-22s %12.2f %12.2f %8.1f" % (name, a * 1e3, b * 1e3, a / b))


if __name__ == "__main__":
    main()

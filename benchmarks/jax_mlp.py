"""The MLP 784-512-512-10 + Adam of ``bench_training.py`` hand-written in JAX (one
``jax.jit`` train step, float32), served round by round to the parent's
``TensorFlowChild`` (``tf_child.py``) so that it is timed beside flowgrad's Session and
NumPy. Runs under a Python with JAX (``/work/venv-jax/bin/python`` or
``FLOWGRAD_JAX_PYTHON``); needs only NumPy and JAX, not flowgrad.

Run by ``bench_training.mlp_adam_rounds``:  PY benchmarks/jax_mlp.py --as-tensorflow NPZ
NPZ holds the initial parameters ``p0`` .. ``p5`` and the batches ``x``, ``y``. With
one thread the parent sets ``XLA_FLAGS=--xla_cpu_multi_thread_eigen=false
intra_op_parallelism_threads=1``.
"""
from __future__ import annotations

import sys
import time
from typing import Callable

import numpy as np
from tf_child import serve

LR, B1, B2, EPS = 0.001, 0.9, 0.999, 1e-8


def jax_trainer(init: list) -> Callable[[list], list]:
    """A function training the MLP from the parameters ``init`` on a list of batches
    (Adam, TensorFlow's formula, as ``numpy_mlp_adam``) and returning the parameters, with
    the step ``jax.jit``-compiled."""
    import jax
    import jax.numpy as jnp

    init = [jnp.asarray(v) for v in init]

    def loss_fn(p: list, bx: jax.Array, by: jax.Array) -> jax.Array:
        h = jax.nn.relu(bx @ p[0] + p[1])
        h = jax.nn.relu(h @ p[2] + p[3])
        logits = h @ p[4] + p[5]
        return jnp.mean(-jnp.sum(by * jax.nn.log_softmax(logits), axis=1))

    @jax.jit
    def step(p: list, m: list, v: list, t: jax.Array, bx: jax.Array,
             by: jax.Array) -> tuple:
        loss, grads = jax.value_and_grad(loss_fn)(p, bx, by)
        lr_t = LR * jnp.sqrt(1 - B2 ** t) / (1 - B1 ** t)
        m = [mi + (g - mi) * (1 - B1) for mi, g in zip(m, grads)]
        v = [vi + (g * g - vi) * (1 - B2) for vi, g in zip(v, grads)]
        p = [pi - lr_t * mi / (jnp.sqrt(vi) + EPS) for pi, mi, vi in zip(p, m, v)]
        return p, m, v, loss

    def train(batches: list) -> list:
        p = list(init)
        m = [jnp.zeros_like(q) for q in p]
        v = [jnp.zeros_like(q) for q in p]
        loss = None
        for t, (bx, by) in enumerate(batches, 1):
            p, m, v, loss = step(p, m, v, jnp.float32(t), bx, by)
        return jax.block_until_ready(p + [loss])[:-1]

    return train


def jax_round(npz: str) -> Callable[[], float]:
    """A function running one round (``jax_trainer`` over all batches of ``npz``) and
    returning its seconds; the step is compiled here."""
    import jax.numpy as jnp

    data = np.load(npz)
    train = jax_trainer([data["p%d" % i] for i in range(6)])
    batches = [(jnp.asarray(bx), jnp.asarray(by)) for bx, by in zip(data["x"], data["y"])]

    def one_round() -> float:
        t0 = time.perf_counter()
        train(batches)
        return time.perf_counter() - t0

    one_round()                                          # compile the step
    return one_round


if __name__ == "__main__":
    serve({"run": jax_round(sys.argv[sys.argv.index("--as-tensorflow") + 1])})

"""The generated source of Session plans for the benchmark graphs, pinned byte for byte.

Each case builds one benchmark's graph (MLP + Adam, softmax regression, a CNN training
step, a while loop, a tf.gradients graph), runs it once in a Session and records the
source of every plan compiled on the way (the Session's plan and those of control-flow
bodies), serial and with inter-op overlap. A change to the plan compiler that changes
what a plan runs shows up here as a diff against ``tests/data/plan_snapshots/``.

Regenerate (only when the change to the plans is intended) with
``python tests/test_plan_snapshots.py --update``."""
from __future__ import annotations

import ast
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import flowgrad.compat.v1 as tf
import flowgrad.runtime.plan
from flowgrad.runtime.plan import PlanCompiler

SNAPSHOTS = Path(__file__).resolve().parent / "data" / "plan_snapshots"


def _mlp_adam() -> tuple:
    """bench_training's 784-512-512-10 ReLU MLP with softmax cross-entropy and Adam."""
    rng = np.random.RandomState(0)
    x = tf.placeholder(tf.float32, [None, 784])
    y = tf.placeholder(tf.float32, [None, 10])
    sizes = [784, 512, 512, 10]
    ps = []
    for i in range(3):
        ps.append(tf.Variable(rng.uniform(-0.1, 0.1, sizes[i:i + 2]).astype(np.float32)))
        ps.append(tf.Variable(np.zeros(sizes[i + 1], np.float32)))
    h = tf.nn.relu(tf.matmul(x, ps[0]) + ps[1])
    h = tf.nn.relu(tf.matmul(h, ps[2]) + ps[3])
    logits = tf.matmul(h, ps[4]) + ps[5]
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=logits))
    train = tf.train.AdamOptimizer(0.001, 0.9, 0.999, 1e-8).minimize(loss)
    feed = {x: rng.rand(4, 784).astype(np.float32), y: np.eye(10, dtype=np.float32)[:4]}
    return [train, loss], feed


def _softmax_model() -> tuple:
    x = tf.placeholder(tf.float32, [None, 784])
    y = tf.placeholder(tf.float32, [None, 10])
    W = tf.Variable(tf.zeros([784, 10]))
    b = tf.Variable(tf.zeros([10]))
    pred = tf.nn.softmax(tf.matmul(x, W) + b)
    cost = tf.reduce_mean(-tf.reduce_sum(y * tf.log(pred), reduction_indices=1))
    feed = {x: np.full((3, 784), 0.5, np.float32), y: np.eye(10, dtype=np.float32)[:3]}
    return x, y, W, b, cost, feed


def _softmax_sgd() -> tuple:
    """bench_training's softmax regression with GradientDescentOptimizer.minimize."""
    *_, cost, feed = _softmax_model()
    train = tf.train.GradientDescentOptimizer(0.01).minimize(cost)
    return [train, cost], feed


def _softmax_gradients() -> tuple:
    """bench_session's softmax regression with tf.gradients and assign."""
    _, _, W, b, cost, feed = _softmax_model()
    grad_W, grad_b = tf.gradients(xs=[W, b], ys=cost)
    return [W.assign(W - 0.01 * grad_W), b.assign(b - 0.01 * grad_b), cost], feed


def _tiny_gradients() -> tuple:
    """bench_session's gradients of y = w * x for scalar variables."""
    x = tf.Variable(50.0)
    w = tf.Variable(10.0)
    return tf.gradients(w * x, [w, x]), {}


def _cnn_step() -> tuple:
    """bench_cnn's MNIST CNN (two conv + pool, two dense layers) with one Adam step."""
    rng = np.random.RandomState(0)
    x = tf.placeholder(tf.float32, [None, 784])
    y = tf.placeholder(tf.float32, [None, 10])

    def var(*shape: int) -> object:
        return tf.Variable(rng.normal(0, 0.1, shape).astype(np.float32))
    h = tf.reshape(x, [-1, 28, 28, 1])
    for cin, cout in ((1, 32), (32, 64)):
        h = tf.nn.relu(tf.nn.conv2d(h, var(5, 5, cin, cout), [1, 1, 1, 1], "SAME")
                       + var(cout))
        h = tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")
    h = tf.nn.relu(tf.matmul(tf.reshape(h, [-1, 3136]), var(3136, 1024)) + var(1024))
    logits = tf.matmul(h, var(1024, 10)) + var(10)
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=logits))
    train = tf.train.AdamOptimizer(1e-4).minimize(loss)
    feed = {x: rng.rand(2, 784).astype(np.float32), y: np.eye(10, dtype=np.float32)[:2]}
    return [train, loss], feed


def _while_rnn() -> tuple:
    """bench_control_flow's tanh(h W + b) loop, forward and backward, and its counter."""
    n = 64
    w = tf.placeholder(tf.float32, [n, n])
    b = tf.placeholder(tf.float32, [n])
    h0 = tf.placeholder(tf.float32, [1, n])
    h = tf.while_loop(lambda i, h: i < 5,
                      lambda i, h: (i + 1, tf.tanh(tf.matmul(h, w) + b)), [0, h0])[1]
    counter = tf.while_loop(lambda i: i < 5, lambda i: i + 1, [tf.constant(0)])
    grads = tf.gradients(tf.reduce_sum(h), [w, b, h0])
    rng = np.random.RandomState(0)
    feed = {w: rng.rand(n, n).astype(np.float32), b: rng.rand(n).astype(np.float32),
            h0: rng.rand(1, n).astype(np.float32)}
    return [counter, h] + grads, feed


CASES: dict[str, Callable[[], tuple]] = {
    "mlp_adam": _mlp_adam, "softmax_sgd": _softmax_sgd,
    "softmax_gradients": _softmax_gradients, "tiny_gradients": _tiny_gradients,
    "cnn_step": _cnn_step, "while_rnn": _while_rnn,
}


def plan_sources(case: str, parallel: bool) -> str:
    """The sources of the plans compiled while running ``case`` once, in compile order."""
    sources: list = []
    compile_plan = PlanCompiler.compile

    def recording(self: PlanCompiler, *args: object, **kwargs: object) -> object:
        plan = compile_plan(self, *args, **kwargs)
        sources.append(plan.source)
        return plan
    with tf.Graph().as_default():
        fetches, feed = CASES[case]()
        sess = tf.Session()
        sess.run(tf.global_variables_initializer())
        sess._compiler.parallel = parallel
        PlanCompiler.compile = recording
        try:
            sess.run(fetches, feed)
        finally:
            PlanCompiler.compile = compile_plan
        sess.close()
    return "".join("# ---- plan %d\n%s" % (i, s) for i, s in enumerate(sources))


def _path(case: str, parallel: bool) -> Path:
    return SNAPSHOTS / ("%s%s.py.txt" % (case, "_overlap" if parallel else ""))


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "overlap"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_plan_source_unchanged(case: str, parallel: bool) -> None:
    got = plan_sources(case, parallel)
    assert got.count("def _plan(F):") >= 1
    assert got == _path(case, parallel).read_text(), (
        "the generated plans of %r changed; if intended, regenerate with "
        "`python tests/test_plan_snapshots.py --update` and review the diff" % case)


def test_overlap_snapshots_run_kernels_on_the_worker() -> None:
    """The overlap snapshots exercise what they are for: big kernels on the worker thread
    and their in-place halves (else the parallel half of the compiler goes unpinned)."""
    text = _path("mlp_adam", True).read_text()
    assert "_go(_P, " in text and ".result()" in text


def test_the_passes_stay_small():
    """The plan compiler stays a package of passes: no function of it grows past 80 lines
    (the one 292-line compile it replaced did eight jobs)."""
    long = []
    for path in sorted(Path(flowgrad.runtime.plan.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > 80:
                    long.append("%s:%s (%d lines)" % (path.name, node.name, n))
    assert not long, long


def _update() -> None:
    tf.disable_v2_behavior()
    SNAPSHOTS.mkdir(parents=True, exist_ok=True)
    for case in sorted(CASES):
        for parallel in (False, True):
            _path(case, parallel).write_text(plan_sources(case, parallel))
            print("wrote", _path(case, parallel))


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python tests/test_plan_snapshots.py --update")
    _update()

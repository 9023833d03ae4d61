"""Issue 24's aims against what this machine measures now: one table of aim, workload,
measured ratio and whether the aim is reached, made by the benchmark scripts' own
functions (each row's contestants timed side by side in this run, as each script
describes; TensorFlow 2.21 in child processes).

Run:  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE python benchmarks/aims.py
          [--repeat N] [--threads 1,2] [--markdown] [--tensorflow PY] [--jax PY]
          [--only cnn,lstm,keras,mlp,kept,busy]

Rows:
  * the W5 CNN training step (``bench_cnn.py``): flowgrad / TensorFlow at equal threads,
    aim 1.5x first, then 1.0x;
  * the LSTM forward + backward and 20 training steps, and the Keras GRU's forward +
    backward (``bench_rnn.py``): flowgrad / TensorFlow at most 1.0x, flowgrad / the NumPy
    BPTT below 1.0x;
  * the real Keras 3 ``fit`` of the MLP and the W5 CNN (``bench_keras.py``): on flowgrad /
    on TensorFlow at most 1.0x;
  * the MLP + Adam in a Session (``bench_training.py``): flowgrad / JAX's jit at equal
    threads, JAX in a child process run by ``--jax`` (default ``FLOWGRAD_JAX_PYTHON`` or
    /work/venv-jax/bin/python; where there is none the row gives flowgrad / NumPy and says
    JAX is not measured);
  * the rows where flowgrad led in the issue's table (``sess.run`` of two scalar gradients,
    the softmax epoch, the Hessian of sum(tanh(x)), the eager MLP tape loop): flowgrad /
    NumPy (best of ``--repeat``) now against the ratio recorded before (``EARLIER_RATIOS``),
    kept while at most 1.15x that;
  * the busy machine (``bench_busy.py``): the slowdown beside a spinning process, with the
    thread budget, at most about 2x.
Do not set ``OPENBLAS_NUM_THREADS``: it caps flowgrad's thread budget and NumPy's pool.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

import bench_busy
import bench_cnn
import bench_jacobians
import bench_keras
import bench_rnn
import bench_session
import bench_training
import numpy as np

import flowgrad.compat.v1 as tf

# flowgrad / NumPy recorded before this round for the rows where flowgrad led in the
# issue's table (the README's tables of bench_session, bench_training and bench_jacobians,
# same NumPy baselines as these scripts'; the eager MLP tape loop from the issue's table)
EARLIER_RATIOS = {"sess.run of two scalar gradients": 1.1 / 0.37,
                  "MNIST softmax epoch (minimize)": 1.20,
                  "Hessian of sum(tanh(x)), n = 200": 41 / 8.6,
                  "MLP + Adam, eager GradientTape, 100 steps": 0.37 / 0.29}


PARTS = ("cnn", "lstm", "keras", "mlp", "kept", "busy")


def _med(samples: list) -> float:
    return statistics.median(samples) if samples else float("nan")


def _ratio(a: float, b: float) -> str:
    return "%.2fx" % (a / b) if b == b and b > 0 else "-"


def cnn_rows(args: argparse.Namespace, threads: list) -> list:
    batches = bench_cnn.image_batches(args.cnn_steps)
    out, _ = bench_cnn.training_rounds(batches, args.repeat, threads, args.tensorflow)
    rows = []
    for t, (ours, _, theirs) in out.items():
        r = _med(ours) / _med(theirs) if theirs else float("nan")
        rows.append(("CNN step within 1.5x of TensorFlow, then at its speed",
                     "W5 CNN step, Adam, batch 64, %d thread%s" % (t, "s" * (t > 1)),
                     "%.2fx TF (%.0f vs %.0f ms)" % (r, 1e3 * _med(ours), 1e3 * _med(theirs)),
                     "at TF's speed" if r <= 1.0 else "within 1.5x" if r <= 1.5 else "no"))
    return rows


def lstm_rows(args: argparse.Namespace, threads: list) -> list:
    b = bench_rnn
    data = b.make_data()
    want = b.numpy_lstm_grads(data["x"], data["kernel"], data["bias"], data["r"])
    ns = argparse.Namespace(repeat=args.repeat, tensorflow=args.tensorflow)
    rows = []
    for t in threads:
        for name, ours, by_hand, theirs in b.rounds_at(t, ns, data, want):
            if "static" in name or "eager" in name:
                continue
            a, n, f = _med(ours), _med(by_hand), _med(theirs)
            ok_tf, ok_np = a <= f, a < n
            rows.append(("LSTM/GRU no slower than TF, faster than NumPy BPTT",
                         "%s, %d thread%s" % (name, t, "s" * (t > 1)),
                         "%s TF, %s NumPy" % (_ratio(a, f), _ratio(a, n)),
                         "both" if ok_tf and ok_np else "TF only" if ok_tf else
                         "NumPy only" if ok_np else "no"))
    tf.disable_v2_behavior()
    return rows


def keras_rows(args: argparse.Namespace, threads: list) -> list:
    batches = bench_session.mnist_batches(128, 100)
    mlp = [(bx, by.astype(np.float32)) for bx, by in batches]
    cnn = bench_cnn.image_batches(args.cnn_steps)
    rows = []
    for t in threads:
        res = bench_keras.keras3_comparison(mlp, cnn, t, args.repeat, args.tensorflow)
        for name, (ours, theirs, by_hand) in res.items():
            a, f, n = _med(ours), _med(theirs), _med(by_hand)
            rows.append(("Keras fit no slower than TensorFlow's (real Keras 3 on flowgrad)",
                         "%s fit, %d thread%s" % (name.upper(), t, "s" * (t > 1)),
                         "%s TF, %s NumPy" % (_ratio(a, f), _ratio(a, n)),
                         "yes" if a <= f else "no"))
    return rows


def kept_rows(args: argparse.Namespace) -> list:
    tf.disable_v2_behavior()
    found = {"sess.run of two scalar gradients": bench_session.tiny_gradients(args.repeat),
             "MNIST softmax epoch (minimize)": bench_training.softmax_minimize_epoch(
                 bench_session.mnist_batches(), args.repeat),
             "Hessian of sum(tanh(x)), n = 200": bench_jacobians.hessian_sum_tanh(
                 200, args.repeat)}
    tf.enable_v2_behavior()
    batches = bench_session.mnist_batches(128, 100)
    by_hand = bench_session.best_of(lambda: bench_training.numpy_mlp_adam(batches),
                                    args.repeat)
    found["MLP + Adam, eager GradientTape, 100 steps"] = (
        bench_keras.tape_loop(batches, args.repeat, False), by_hand)
    tf.disable_v2_behavior()
    rows = []
    for name, (ours, theirs) in found.items():
        now, then = ours / theirs, EARLIER_RATIOS[name]
        rows.append(("Keep every row where flowgrad led", name,
                     "%.2fx NumPy (before: %.2fx)" % (now, then),
                     "kept" if now <= 1.15 * then else "slower"))
    return rows


def mlp_session_row(args: argparse.Namespace, threads: list) -> list:
    tf.disable_v2_behavior()
    res = bench_training.mlp_adam_rounds(bench_session.mnist_batches(128, 100),
                                         args.repeat, threads, args.jax)
    rows = []
    for t, (ours, by_hand, theirs) in res.items():
        a, n, j = _med(ours), _med(by_hand), _med(theirs)
        rows.append(("MLP in a Session no slower than JAX's jit",
                     "MLP 784-512-512-10 + Adam, 100 steps of 128, %d thread%s"
                     % (t, "s" * (t > 1)),
                     ("%s JAX (%.2f vs %.2f s), " % (_ratio(a, j), a, j) if theirs else "")
                     + "%s NumPy (%.2f s)" % (_ratio(a, n), n),
                     ("yes" if a <= j else "no") if theirs else
                     "not measured: JAX is not installed here (set FLOWGRAD_JAX_PYTHON "
                     "or make %s)" % bench_training.JAX_PYTHON))
    return rows


def busy_rows(args: argparse.Namespace) -> list:
    cpu: dict = {}
    res = bench_busy.measure(args.repeat, cpu)
    rows = []
    for name in dict.fromkeys(k[0] for k in res):
        slower = res[name, True, True] / res[name, False, True]
        before = res[name, True, False] / res[name, False, False]
        more_cpu = cpu[name, True, True] / cpu[name, False, True]
        rows.append(("At most about 2x slower beside a busy process", name,
                     "%.2fx with the budget (%.2fx without); CPU time %.2fx"
                     % (slower, before, more_cpu),
                     "yes" if slower <= 2.2 else "no"))
    return rows


def print_rows(rows: list, markdown: bool) -> None:
    head = ("aim", "workload", "measured", "reached")
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for row in rows:
            print("| " + " | ".join(row) + " |")
    else:
        for row in rows:
            print("%-58s %-46s %-40s %s" % row)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="rounds per comparison")
    ap.add_argument("--threads", default="1,2", help="thread counts (default 1,2)")
    ap.add_argument("--cnn-steps", type=int, default=5, help="CNN steps per round")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--tensorflow", default="/work/venv-tf/bin/python",
                    help="a Python with TensorFlow 2.21 ('' to skip its rows)")
    ap.add_argument("--jax", default=bench_training.jax_python() or "",
                    help="a Python with JAX for the MLP row ('' to skip JAX)")
    ap.add_argument("--only", default=",".join(PARTS),
                    help="comma-separated rows to run (default all: %s)" % ",".join(PARTS))
    args = ap.parse_args()
    args.tensorflow = args.tensorflow or None
    args.jax = args.jax or None
    threads = [int(t) for t in args.threads.split(",")]
    t0, load = time.perf_counter(), os.getloadavg()[0]
    tf.disable_v2_behavior()
    rows: list[Any] = []
    parts = {"cnn": lambda: cnn_rows(args, threads), "lstm": lambda: lstm_rows(args, threads),
             "keras": lambda: keras_rows(args, threads),
             "mlp": lambda: mlp_session_row(args, threads),
             "kept": lambda: kept_rows(args), "busy": lambda: busy_rows(args)}
    for name in args.only.split(","):
        if name not in parts:
            ap.error("--only: no row %r (rows: %s)" % (name, ",".join(PARTS)))
        rows += parts[name]()
    print_rows(rows, args.markdown)
    print("load average %.1f at the start, %.1f at the end (%.0f s in all)"
          % (load, os.getloadavg()[0], time.perf_counter() - t0))


if __name__ == "__main__":
    main()

"""Records what tf.distribute.experimental.PreemptionCheckpointHandler does in one process
(TensorFlow 2.21, no cluster): the restore when it is made, total_run_calls, the step at
which a termination notice (termination_watcher_fn) makes it save and call exit_fn, the
files it writes, and the value of its `checkpointed_runs` variable in the checkpoint.

Run with TensorFlow's venv:
    /work/venv-tf/bin/python tools/tf_reference/preemption_handler.py
It writes tests/data/distribute/preemption_handler_tf_2_21.json."""
import json
import os
import tempfile

import numpy as np
import tensorflow as tf


class Exited(Exception):
    pass


def program(directory, notice_after, steps):
    """Trains a variable with a handler; a notice arrives once `notice_after` steps ran."""
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    with strategy.scope():
        w = tf.Variable([1.0, 2.0], name="w")
    ckpt = tf.train.Checkpoint(w=w)
    ran = []
    config = tf.distribute.experimental.TerminationConfig(
        termination_watcher_fn=lambda: notice_after is not None and len(ran) >= notice_after,
        exit_fn=lambda: (_ for _ in ()).throw(Exited()))
    handler = tf.distribute.experimental.PreemptionCheckpointHandler(
        strategy.cluster_resolver, ckpt, directory, termination_config=config)
    out = {"restored_total_run_calls": int(handler.total_run_calls),
           "restored_w": w.numpy().tolist()}

    def step():
        w.assign_add([0.5, -0.25])
        return w.read_value()

    exited_at = None
    import time
    try:
        for i in range(handler.total_run_calls, steps):
            if notice_after is not None and len(ran) >= notice_after:
                time.sleep(1.5)          # the watcher polls every second
            handler.run(step)
            ran.append(i)
    except Exited:
        exited_at = int(handler.total_run_calls)
    out.update(ran=ran, exited_at=exited_at, w=w.numpy().tolist(),
               total_run_calls=int(handler.total_run_calls),
               files=sorted(os.listdir(directory)) if os.path.isdir(directory) else [])
    latest = tf.train.latest_checkpoint(directory)
    if latest:
        reader = tf.train.load_checkpoint(latest)
        out["checkpoint"] = os.path.basename(latest)
        out["checkpoint_keys"] = sorted(k for k in reader.get_variable_to_shape_map()
                                        if not k.startswith("_CHECKPOINTABLE"))
        out["checkpointed_runs"] = int(reader.get_tensor(
            "checkpointed_runs/.ATTRIBUTES/VARIABLE_VALUE"))
    return out


def main():
    record = {}
    with tempfile.TemporaryDirectory() as d:
        directory = os.path.join(d, "ckpt")
        record["first"] = program(directory, 2, 6)       # a notice after 2 steps
        record["resumed"] = program(directory, None, 6)  # the restart restores it
    try:
        tf.distribute.experimental.PreemptionCheckpointHandler(
            None, tf.train.Checkpoint(v=tf.Variable(1.0)))
    except Exception as e:   # noqa: BLE001
        record["no_dir_error"] = [type(e).__name__, str(e)]
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "distribute",
                        "preemption_handler_tf_2_21.json")
    with open(path, "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)
    print(json.dumps(record, indent=1))


if __name__ == "__main__":
    np.set_printoptions(precision=6)
    main()

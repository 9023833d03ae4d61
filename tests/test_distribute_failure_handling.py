"""tf.distribute.experimental.PreemptionCheckpointHandler in one process, against
TensorFlow 2.21's recording (tools/tf_reference/preemption_handler.py): the restore when it
is made, total_run_calls, a termination notice saving a checkpoint at the next step and
calling exit_fn, the files and the `checkpointed_runs` value it writes. The handler's
rejoining of a replaced worker is tested on Ray in tests/test_distribute_ray.py."""
from __future__ import annotations

import json
import os
import time

import pytest

import flowgrad as tf
from flowgrad.framework import errors
from flowgrad.framework.context import state

RECORD = os.path.join(os.path.dirname(__file__), "data", "distribute",
                      "preemption_handler_tf_2_21.json")


@pytest.fixture(autouse=True)
def eager():
    saved = state.eager
    state.eager = True
    yield
    state.eager = saved


class Exited(Exception):
    pass


def _program(directory, notice_after, steps):
    """The recorded program (a notice arrives once ``notice_after`` steps ran)."""
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    with strategy.scope():
        w = tf.Variable([1.0, 2.0], name="w")
    ckpt = tf.train.Checkpoint(w=w)
    ran = []

    def exit_fn():
        raise Exited()
    config = tf.distribute.experimental.TerminationConfig(
        termination_watcher_fn=lambda: notice_after is not None and len(ran) >= notice_after,
        exit_fn=exit_fn)
    handler = tf.distribute.experimental.PreemptionCheckpointHandler(
        strategy.cluster_resolver, ckpt, directory, termination_config=config)
    out = {"restored_total_run_calls": int(handler.total_run_calls),
           "restored_w": w.numpy().tolist()}

    def step():
        w.assign_add([0.5, -0.25])
        return w.read_value()

    exited_at = None
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


def test_a_notice_saves_at_the_next_step_and_the_restart_resumes_as_tensorflow(tmp_path):
    with open(RECORD) as f:
        want = json.load(f)
    directory = str(tmp_path / "ckpt")
    assert _program(directory, 2, 6) == want["first"]
    assert _program(directory, None, 6) == want["resumed"]


def test_a_checkpoint_needs_a_directory():
    # TensorFlow 2.21 means InvalidArgumentError here (its constructor call is missing two
    # arguments, so it raises a TypeError about that instead)
    with pytest.raises(errors.InvalidArgumentError, match="checkpoint_dir must be passed"):
        tf.distribute.experimental.PreemptionCheckpointHandler(
            None, tf.train.Checkpoint(v=tf.Variable(1.0)))

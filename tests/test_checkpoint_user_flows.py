"""Checkpoint flows as TF2 programs write them (tf.Module trees of lists and dicts,
CheckpointManager's options, restore statuses, mismatched shapes and dtypes, write/read,
CheckpointOptions, Checkpoint(root=), missing files and keys), printed by
tools/tf_reference/checkpoint_user_flows.py: flowgrad prints what TensorFlow 2.21 printed
(tests/data/checkpoint_user_flows/flows_tf_2_21.txt), results and errors alike."""
import os
import subprocess
import sys

import pytest

pytest.importorskip("tensorboard.compat.proto.trackable_object_graph_pb2")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAM = os.path.join(ROOT, "tools", "tf_reference", "checkpoint_user_flows.py")
RECORDED = os.path.join(ROOT, "tests", "data", "checkpoint_user_flows", "flows_tf_2_21.txt")


def test_checkpoint_user_flows_print_what_tensorflow_printed(tmp_path):
    out = subprocess.run([sys.executable, "-m", "flowgrad", PROGRAM, str(tmp_path)],
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": ROOT})
    assert out.returncode == 0, out.stderr[-2000:]
    with open(RECORDED) as f:
        want = f.read().splitlines()
    got = out.stdout.splitlines()
    assert [line for line in got if line not in want] == []
    assert got == want

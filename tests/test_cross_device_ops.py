"""tf.distribute's cross-device reductions and communication options
(flowgrad/distribute/cross_device_ops.py) against TensorFlow 2.21's
(tools/tf_reference/cross_device_ops_reference.py, tests/data/distribute/)."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as v1

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tf_reference_program import load  # noqa: E402

PROGRAM, RECORD = load("cross_device_ops_reference.py",
                       "distribute/cross_device_ops_tf_2_21.json")


@pytest.fixture
def eager():
    v1.enable_v2_behavior()


def test_reductions_and_options_match_tensorflow(eager):
    got = PROGRAM.program(tf)
    assert set(got) == set(RECORD)
    for key, value in RECORD.items():
        if key.endswith(("_SUM", "_MEAN", "_batch")):
            np.testing.assert_allclose(got[key], value, err_msg=key)
        else:
            assert got[key] == value, key


def test_strategies_accept_them_and_nccl_reduces_on_the_cpu(eager):
    strategy = tf.distribute.MirroredStrategy(
        ["/cpu:0", "/cpu:1"], cross_device_ops=tf.distribute.NcclAllReduce(num_packs=2))
    value = strategy.run(lambda: tf.constant(2.0))
    # flowgrad's replicas share memory: NCCL's reduction is the same sum (TF needs a GPU)
    assert float(tf.distribute.NcclAllReduce().reduce("sum", value, None)) == 4.0
    assert tf.distribute.ReductionToOneDevice().broadcast(value, None) is value
    with pytest.raises(ValueError, match="bytes_per_pack must be non-negative"):
        tf.distribute.experimental.CommunicationOptions(bytes_per_pack=-1)
    assert v1.distribute.HierarchicalCopyAllReduce is tf.distribute.HierarchicalCopyAllReduce

"""tf.experimental.dtensor shows TensorFlow 2.21's names, each the same kind of object (class,
function, constant); using one raises NotImplementedError naming it, except the facts that
hold for flowgrad (no tensor is a DTensor; a program is one client)."""
from __future__ import annotations

import inspect

import pytest

import flowgrad as tf
import flowgrad.compat.v1 as v1

# dir(tf.experimental.dtensor) of TensorFlow 2.21 (public names), by kind
TF_CLASSES = {"DTensorCheckpoint", "DTensorDataset", "DVariable", "Layout", "Mesh"}
TF_CONSTANTS = {"MATCH": "match", "UNSHARDED": "unsharded"}
TF_FUNCTIONS = {
    "barrier", "call_with_layout", "check_layout", "client_id", "copy_to_mesh",
    "create_distributed_mesh", "create_mesh", "create_tpu_mesh", "default_mesh", "device_name",
    "enable_save_as_bf16", "fetch_layout", "full_job_name", "get_default_mesh",
    "heartbeat_enabled", "initialize_accelerator_system", "initialize_multi_client",
    "initialize_tpu_system", "is_dtensor", "job_name", "jobs", "local_devices",
    "name_based_restore", "name_based_save", "num_clients", "num_global_devices",
    "num_local_devices", "pack", "preferred_device_type", "relayout", "relayout_like",
    "run_on", "sharded_save", "shutdown_accelerator_system", "shutdown_tpu_system", "unpack"}


@pytest.fixture(autouse=True)
def eager():
    """These tests run as TF2 programs (the suite starts each test in graph mode)."""
    v1.enable_v2_behavior()
    yield


def test_names_and_kinds_are_tensorflows():
    d = tf.experimental.dtensor
    assert {n for n in dir(d) if not n.startswith("_")} == \
        TF_CLASSES | set(TF_CONSTANTS) | TF_FUNCTIONS
    assert all(inspect.isclass(getattr(d, n)) for n in TF_CLASSES)
    assert all(inspect.isfunction(getattr(d, n)) for n in TF_FUNCTIONS)
    assert {n: getattr(d, n) for n in TF_CONSTANTS} == TF_CONSTANTS


@pytest.mark.parametrize("name", sorted(TF_CLASSES | TF_FUNCTIONS - {
    "is_dtensor", "client_id", "num_clients"}))
def test_use_raises_a_precise_error(name):
    with pytest.raises(NotImplementedError, match="tf.experimental.dtensor.%s: flowgrad runs "
                                                  "each op on one device" % name):
        getattr(tf.experimental.dtensor, name)()


def test_single_process_facts():
    d = tf.experimental.dtensor
    assert d.is_dtensor(tf.constant([1.0])) is False
    assert (d.client_id(), d.num_clients()) == (0, 1)

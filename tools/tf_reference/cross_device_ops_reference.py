"""tf.distribute's cross-device reductions on two replicas, for tests/test_cross_device_ops.py.

``program(tf)`` runs with ``tf`` = TensorFlow 2.21 or flowgrad and returns plain values;
``/work/venv-tf/bin/python tools/tf_reference/cross_device_ops_reference.py`` writes
TensorFlow's to ``tests/data/distribute/cross_device_ops_tf_2_21.json``.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

OUT = (Path(__file__).resolve().parents[2] / "tests" / "data" / "distribute"
       / "cross_device_ops_tf_2_21.json")


def program(tf) -> dict:
    """Reductions of per-replica values (replica i holds ``[1, 2] * (i + 1)``), the classes'
    errors and the communication options."""
    strategy = tf.distribute.MirroredStrategy(
        ["/cpu:0", "/cpu:1"], cross_device_ops=tf.distribute.HierarchicalCopyAllReduce())

    def replica_value():
        ctx = tf.distribute.get_replica_context()
        return tf.constant([1.0, 2.0]) * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)

    value = strategy.run(replica_value)
    out = {}
    # (NcclAllReduce has TensorFlow kernels on GPUs only: constructed, not run)
    for name in ("HierarchicalCopyAllReduce", "ReductionToOneDevice"):
        ops = getattr(tf.distribute, name)()
        for op in ("SUM", "MEAN"):
            reduced = ops.reduce(getattr(tf.distribute.ReduceOp, op), value, destinations=value)
            reduced = getattr(reduced, "values", (reduced,))[0]
            out["%s_%s" % (name, op)] = reduced.numpy().tolist()
        batch = ops.batch_reduce(tf.distribute.ReduceOp.SUM, [(value, value), (value, value)])
        out[name + "_batch"] = [getattr(b, "values", (b,))[0].numpy().tolist() for b in batch]
    for name in ("HierarchicalCopyAllReduce", "NcclAllReduce"):
        try:
            getattr(tf.distribute, name)(num_packs=-1)
        except ValueError as e:
            out[name + "_error"] = str(e)
    opts = tf.distribute.experimental.CommunicationOptions(
        bytes_per_pack=50, timeout_seconds=2.0,
        implementation=tf.distribute.experimental.CommunicationImplementation.NCCL)
    out["options"] = [opts.bytes_per_pack, opts.timeout_seconds, opts.implementation.value]
    out["implementations"] = [m.value for m in
                              tf.distribute.experimental.CommunicationImplementation]
    out["collective_is_implementation"] = (
        tf.distribute.experimental.CollectiveCommunication
        is tf.distribute.experimental.CommunicationImplementation)
    return out


if __name__ == "__main__":
    import tensorflow as tf

    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(
        cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    OUT.write_text(json.dumps(program(tf), indent=1, sort_keys=True) + "\n")
    sys.exit(0)

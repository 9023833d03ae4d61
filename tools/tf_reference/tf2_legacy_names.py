"""Records what TF2-face names older programs use compute, for
tests/test_tf2_legacy_names.py: ``tf.distribute.experimental.CentralStorageStrategy`` on a
machine with one device (one replica; variables and computation on the CPU).

``program(tf)`` runs eagerly. Run from the repository root on TensorFlow 2.21:

    /work/venv-tf/bin/python tools/tf_reference/tf2_legacy_names.py \
        > tests/data/tf2_legacy_names/tf_2_21.json
"""
import json


def program(tf):
    """Plain values the names give."""
    out = {}
    s = tf.distribute.experimental.CentralStorageStrategy()
    out["central"] = [s.num_replicas_in_sync, list(s.extended.worker_devices),
                      list(s.extended.parameter_devices)]
    with s.scope():
        v = tf.Variable(1.0)
    out["central_variable"] = v.device
    out["central_run"] = float(s.run(lambda x: x * 2.0, args=(tf.constant(3.0),)))
    out["central_reduce"] = float(s.reduce("SUM", tf.constant(2.0), axis=None))
    ds = s.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(2))
    out["central_dataset"] = [x.numpy().tolist() for x in ds]

    @tf.function
    def step(x):
        return s.run(lambda t: v.assign_add(tf.reduce_sum(t)), args=(x,))
    out["central_step"] = float(step(tf.constant([1.0, 2.0])))
    return out


if __name__ == "__main__":
    import tensorflow as tf

    print(json.dumps(program(tf), indent=1, sort_keys=True))

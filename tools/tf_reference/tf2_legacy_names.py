"""Records what TF2-face names older programs use compute, for
tests/test_tf2_legacy_names.py: ``tf.distribute.experimental.CentralStorageStrategy`` on a
machine with one device (one replica; variables and computation on the CPU), and
``tf.distribute.Server`` as the in-process clusters of TF's tutorials make them, and
``tf.compat.v1.executing_eagerly_outside_functions``.

``program(tf)`` runs eagerly. Run from the repository root on TensorFlow 2.21:

    /work/venv-tf/bin/python tools/tf_reference/tf2_legacy_names.py \
        > tests/data/tf2_legacy_names/tf_2_21.json
"""
import json
import socket


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
    out.update(_servers(tf))
    outside = tf.compat.v1.executing_eagerly_outside_functions
    with tf.Graph().as_default():
        in_graph = outside()
    out["eager outside functions"] = [outside(), in_graph, bool(tf.function(outside)())]
    return out


def _port():
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def _servers(tf):
    out = {}
    spec = tf.train.ClusterSpec({"worker": ["localhost:%d" % _port()],
                                 "ps": ["localhost:%d" % _port()]})
    server = tf.distribute.Server(spec, job_name="worker", task_index=0, protocol="grpc",
                                  start=True)
    out["server"] = [server.target == "grpc://" + spec.task_address("worker", 0),
                     server.server_def.job_name, server.server_def.task_index,
                     server.server_def.protocol]
    local = tf.distribute.Server.create_local_server()
    out["local server"] = [local.target.startswith("grpc://localhost:"),
                           local.target != "grpc://localhost:0", local.server_def.job_name]
    for kwargs in ({"job_name": "nope", "task_index": 0},
                   {"job_name": "worker", "task_index": 3}, {"task_index": 0}):
        try:
            tf.distribute.Server(spec, start=False, **kwargs)
        except (ValueError, tf.errors.OpError) as e:
            out["server %s" % sorted(kwargs.items())] = [type(e).__name__, str(e)]
    out["v1 alias"] = tf.compat.v1.train.Server is tf.distribute.Server
    return out


if __name__ == "__main__":
    import tensorflow as tf

    print(json.dumps(program(tf), indent=1, sort_keys=True))

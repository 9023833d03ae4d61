"""Records what TensorFlow 2.21's stack and TensorArray kernels (control flow v1's StackV2 /
StackPushV2 / StackPopV2 and TensorArrayV3 / Write / Read / Gather / Scatter / Concat / Split /
Size / GradV3) give for small TF1 graphs -- values, or error class and message -- for
flowgrad's importer of TensorFlow 1 graphs to be pinned against
(tests/data/tf_loop_training/stateful_array_ops.json: per case the GraphDef, base64, the
fetched tensor and TensorFlow's value or error).

Run with the TensorFlow venv: /work/venv-tf/bin/python tools/tf_reference/stateful_array_ops.py
"""
import base64
import json
import os

import numpy as np
import tensorflow as tf

v1 = tf.compat.v1
raw = tf.raw_ops
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data",
                   "tf_loop_training", "stateful_array_ops.json")


def _ta(size=2, dynamic=False, clear=True, shape=None):
    return raw.TensorArrayV3(size=size, dtype=tf.float32, dynamic_size=dynamic,
                             clear_after_read=clear,
                             element_shape=shape if shape is not None else
                             tf.TensorShape(None))


def _write(h, f, i, v):
    value = v1.placeholder_with_default(tf.constant(v, tf.float32), None)   # shape at run time
    return raw.TensorArrayWriteV3(handle=h, index=i, value=value, flow_in=f)


def case_stack_push_pop():
    h = raw.StackV2(max_size=-1, elem_type=tf.float32)
    p1 = raw.StackPushV2(handle=h, elem=tf.constant([1.0, 2.0]))
    with tf.control_dependencies([p1]):
        p2 = raw.StackPushV2(handle=h, elem=tf.constant([3.0, 4.0]))
    with tf.control_dependencies([p2]):
        a = raw.StackPopV2(handle=h, elem_type=tf.float32)
    with tf.control_dependencies([a]):
        b = raw.StackPopV2(handle=h, elem_type=tf.float32)
    return tf.stack([a, b])


def case_stack_pop_empty():
    h = raw.StackV2(max_size=-1, elem_type=tf.float32, stack_name="s")
    return raw.StackPopV2(handle=h, elem_type=tf.float32)


def case_write_past_end():
    h, f = _ta(2)
    return _write(h, f, 2, [1.0])


def case_write_twice():
    h, f = _ta(2)
    f = _write(h, f, 0, [1.0])
    return _write(h, f, 0, [2.0])


def case_read_twice():
    h, f = _ta(2)
    f = _write(h, f, 0, [1.0, 2.0])
    r = raw.TensorArrayReadV3(handle=h, index=0, flow_in=f, dtype=tf.float32)
    with tf.control_dependencies([r]):
        return raw.TensorArrayReadV3(handle=h, index=0, flow_in=f, dtype=tf.float32)


def case_read_out_of_range():
    h, f = _ta(2)
    f = _write(h, f, 0, [1.0])
    return raw.TensorArrayReadV3(handle=h, index=3, flow_in=f, dtype=tf.float32)


def case_read_unwritten_known_shape():
    h, f = _ta(2, shape=tf.TensorShape([3]))
    f = _write(h, f, 0, [1.0, 2.0, 3.0])
    return raw.TensorArrayReadV3(handle=h, index=1, flow_in=f, dtype=tf.float32)


def case_read_unwritten_unknown_shape():
    h, f = _ta(2)
    f = _write(h, f, 0, [1.0, 2.0, 3.0])
    return raw.TensorArrayReadV3(handle=h, index=1, flow_in=f, dtype=tf.float32)


def case_write_incompatible_shape():
    h, f = _ta(2, shape=tf.TensorShape([3]))
    return _write(h, f, 0, [1.0, 2.0])


def case_dynamic_scatter_gather_size():
    h, f = _ta(0, dynamic=True, clear=False)
    f = raw.TensorArrayScatterV3(handle=h, indices=[2, 0], value=tf.constant([[1.0, 2.0],
                                                                               [3.0, 4.0]]),
                                 flow_in=f)
    f = _write(h, f, 1, [5.0, 6.0])
    g = raw.TensorArrayGatherV3(handle=h, indices=[0, 1, 2, 1], flow_in=f, dtype=tf.float32)
    n = raw.TensorArraySizeV3(handle=h, flow_in=f)
    return tf.concat([tf.reshape(g, [-1]), [tf.cast(n, tf.float32)]], 0)


def case_gather_empty_known_shape():
    h, f = _ta(0, dynamic=True, shape=tf.TensorShape([2]))
    return raw.TensorArrayGatherV3(handle=h, indices=tf.zeros([0], tf.int32), flow_in=f,
                                   dtype=tf.float32, element_shape=tf.TensorShape([2]))


def case_split_concat():
    h, f = _ta(3)
    f = raw.TensorArraySplitV3(handle=h, value=tf.constant([[1.0], [2.0], [3.0], [4.0],
                                                            [5.0]]),
                               lengths=tf.constant([2, 0, 3], tf.int64), flow_in=f)
    value, lengths = raw.TensorArrayConcatV3(handle=h, flow_in=f, dtype=tf.float32)
    return tf.concat([tf.reshape(value, [-1]), tf.cast(lengths, tf.float32)], 0)


def case_grad_array_aggregates():
    h, f = _ta(2, clear=False)
    f = _write(h, f, 0, [1.0, 2.0])
    f = _write(h, f, 1, [3.0, 4.0])
    g, gf = raw.TensorArrayGradV3(handle=h, flow_in=f, source="gradients")
    gf = _write(g, gf, 0, [1.0, 1.0])
    g2, gf2 = raw.TensorArrayGradV3(handle=h, flow_in=gf, source="gradients")
    gf2 = _write(g2, gf2, 0, [2.0, 2.0])
    return raw.TensorArrayGatherV3(handle=g2, indices=[0, 1], flow_in=gf2, dtype=tf.float32)


def main():
    v1.disable_v2_behavior()
    out = {}
    for name, fn in sorted(globals().items()):
        if not name.startswith("case_"):
            continue
        with tf.Graph().as_default() as g:
            t = tf.identity(fn(), name="out")
            rec = {"graph": base64.b64encode(g.as_graph_def().SerializeToString()).decode(),
                   "fetch": t.name}
            with v1.Session() as sess:
                try:
                    value = np.asarray(sess.run(t))
                    rec["value"], rec["shape"] = value.tolist(), list(value.shape)
                except tf.errors.OpError as e:
                    lines = [ln for ln in e.message.split("\n") if ln.strip() and
                             not ln.startswith("\t") and not ln.startswith("Graph execution")
                             and not ln.startswith("Detected at node")]
                    rec["error"] = [type(e).__name__, lines[-1]]
        out[name[5:]] = rec
        print(name, rec.get("value", rec.get("error")))
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()

"""Records what TensorFlow 2.21 gives for the tf.* names the API scan asked for
(tools/api_scan.py): tf.math.confusion_matrix (values and the weights' gradient),
tf.nn.compute_average_loss / scale_regularization_loss, tf.config's logical devices and
optimizer settings, tf.train.ClusterSpec / TFConfigClusterResolver, and the errors of the
TPU and tf.lite entry points on a machine without a TPU.

Run from the repository root: /work/venv-tf/bin/python tools/tf_reference/api_names_reference.py
It writes tests/data/api_names/reference.json."""
import json
import os

CONFUSION = [
    {"labels": [1, 2, 4], "predictions": [2, 2, 4]},
    {"labels": [1, 2, 4], "predictions": [2, 2, 4], "num_classes": 6,
     "weights": [1.0, 2.0, 3.0], "dtype": "float64"},
    {"labels": [0, 1, 1, 0], "predictions": [1, 1, 0, 0], "weights": [0.5, 2.0, 1.5, 1.0],
     "dtype": "float64"},
]
CONFUSION_ERRORS = [
    {"labels": [1, -1], "predictions": [0, 0]},
    {"labels": [1, 2], "predictions": [0, 3], "num_classes": 3},
]
AVERAGE = [
    {"loss": [1.0, 2.0, 3.0, 4.0]},
    {"loss": [1.0, 2.0, 3.0, 4.0], "global_batch_size": 8},
    {"loss": [1.0, 2.0, 3.0, 4.0], "sample_weight": [1.0, 0.0, 2.0, 1.0]},
    {"loss": [[1.0, 2.0], [3.0, 4.0]]},
    {"loss": [[1.0, 2.0], [3.0, 4.0]], "sample_weight": [[0.5], [2.0]], "global_batch_size": 4},
]
TF_CONFIG = {"cluster": {"worker": ["host1:2222", "host2:2222"], "ps": ["host3:2222"]},
             "task": {"type": "worker", "index": 1}, "rpc_layer": "grpc"}


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the class and message are what we record
        return [type(e).__name__, str(e).split("\n")[0]]
    return None


VOCAB_FILE = "emerson\t10\nlake\t20\npalmer\t30\n"


def _plain(value):
    """NumPy values and bytes as JSON."""
    return value.decode() if isinstance(value, bytes) else value.tolist()


def record_lookup(tf, tmpdir):
    """Tables: StaticVocabularyTable (string and int64 keys, OOV buckets), StaticHashTable
    (dense, ragged and sparse keys), TextFileInitializer (columns, line numbers)."""
    out = {}
    init = tf.lookup.KeyValueTensorInitializer(["emerson", "lake", "palmer"],
                                               tf.constant([0, 1, 2], tf.int64))
    t = tf.lookup.StaticVocabularyTable(init, num_oov_buckets=5)
    out["vocab_str"] = t.lookup(tf.constant(["emerson", "lake", "xx", "yy", "zzz"])).numpy()
    out["vocab_size"] = t.size().numpy()
    t2 = tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(
        tf.constant([10, 20], tf.int64), tf.constant([0, 1], tf.int64)), 3)
    out["vocab_int"] = t2.lookup(tf.constant([[10, 5], [7, 20]], tf.int64)).numpy()
    h = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "b"], [1.5, 2.5]),
                                  -1.0)
    out["hash_dense"] = h.lookup(tf.constant([["a", "c"], ["b", "b"]])).numpy()
    out["hash_ragged"] = h.lookup(tf.ragged.constant([["a"], ["b", "x"]])).to_list()
    sp = h.lookup(tf.sparse.from_dense(tf.constant([["a", ""], ["", "b"]])))
    out["hash_sparse"] = [sp.indices.numpy(), sp.values.numpy()]
    out["hash_meta"] = [h.size().numpy(), h.key_dtype.name, h.value_dtype.name,
                        h.default_value.numpy()]
    out["hash_dtype_error"] = _error(lambda: h.lookup(tf.constant([1, 2])))
    path = os.path.join(tmpdir, "vocab.tsv")
    with open(path, "w") as f:
        f.write(VOCAB_FILE)
    whole = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        path, tf.string, 0, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER), -1)
    out["file_line_number"] = whole.lookup(tf.constant(["lake", "palmer", "x"])).numpy()
    cols = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        path, tf.string, 0, tf.int64, 1, delimiter="\t"), -1)
    out["file_column"] = cols.lookup(tf.constant(["palmer", "emerson", "x"])).numpy()
    out["text_file_index"] = [tf.lookup.TextFileIndex.WHOLE_LINE,
                              tf.lookup.TextFileIndex.LINE_NUMBER]
    out["oov_zero_error"] = _error(lambda: tf.lookup.StaticVocabularyTable(init, 0))
    return json.loads(json.dumps(out, default=_plain))


LOGSUMEXP_CASES = [{}, {"exclusive": True}, {"reverse": True},
                   {"exclusive": True, "reverse": True}, {"axis": 1}]
GATHER_ND_CASES = [([[1], [2]], 1), ([[[1, 0]], [[2, 3]]], 1),
                   ([[[1], [0], [3]], [[2], [2], [0]]], 2), ([[1, 2], [0, 3]], 1)]


def record_math(tf):
    """cumulative_logsumexp (values, gradients), gather_nd with batch_dims (values,
    gradients), RaggedTensor.numpy of uniform and ragged rows."""
    import numpy as np

    out = {"logsumexp": [], "gather_nd": []}
    x = tf.constant([[1.0, 2.0, 3.0], [-1.0, 0.5, 4.0]], tf.float64)
    w = np.arange(6.0).reshape(2, 3)
    for kw in LOGSUMEXP_CASES:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.math.cumulative_logsumexp(x, **kw)
            s = tf.reduce_sum(tf.where(tf.math.is_finite(y), y, 0.0) * w)
        out["logsumexp"].append({"kw": kw, "value": [[str(v) for v in r] for r in y.numpy()],
                                 "grad": tape.gradient(s, x).numpy().tolist()})
    p = tf.reshape(tf.range(24, dtype=tf.float64), [2, 3, 4])
    for indices, batch_dims in GATHER_ND_CASES:
        with tf.GradientTape() as tape:
            tape.watch(p)
            y = tf.gather_nd(p, indices, batch_dims=batch_dims)
            s = tf.reduce_sum(y * y)
        out["gather_nd"].append({"indices": indices, "batch_dims": batch_dims,
                                 "value": y.numpy().tolist(),
                                 "grad": tape.gradient(s, p).numpy().tolist()})
    uniform = tf.ragged.constant([[1, 2], [3, 4]]).numpy()
    ragged = tf.ragged.constant([[1, 2], [3]]).numpy()
    out["ragged_numpy"] = {"uniform": [str(uniform.dtype), uniform.tolist()],
                           "ragged": [str(ragged.dtype), [r.tolist() for r in ragged]]}
    return out


def record_audio(tf):
    """encode_wav's bytes and decode_wav's samples (all channels, one channel, padded)."""
    import numpy as np

    x = np.stack([np.linspace(-1.2, 1.2, 9), np.linspace(0.3, -0.3, 9)], 1).astype(np.float32)
    wav = tf.audio.encode_wav(x, 16000)
    out = {"bytes": list(wav.numpy())}
    for kw in ({}, {"desired_channels": 1}, {"desired_samples": 12},
               {"desired_channels": 1, "desired_samples": 4}):
        audio, rate = tf.audio.decode_wav(wav, **kw)
        out[str(sorted(kw.items()))] = [audio.numpy().tolist(), int(rate)]
    mono = tf.audio.encode_wav(x[:, :1], 8000)
    audio, _ = tf.audio.decode_wav(mono, desired_channels=2)
    out["mono_to_stereo"] = audio.numpy().tolist()
    out["not_wav_error"] = _error(lambda: tf.audio.decode_wav(tf.constant(b"not a wav file")))
    return out


def record_sets(tf):
    """tf.sets on dense and sparse, int and string rows (the SparseTensor parts)."""
    def parts(st):
        return [st.indices.numpy().tolist(), [v.decode() if isinstance(v, bytes) else v
                                              for v in st.values.numpy().tolist()],
                st.dense_shape.numpy().tolist()]

    a = tf.constant([[1, 2, 3], [4, 5, 5]], tf.int64)
    b = tf.constant([[3, 1, 9], [6, 6, 6]], tf.int64)
    sp = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant(["x", "y", "x"]), [2, 2])
    words = tf.constant([["x", "z"], ["y", "y"]])
    return {"intersection": parts(tf.sets.intersection(a, b)),
            "union": parts(tf.sets.union(a, b)),
            "difference": parts(tf.sets.difference(a, b)),
            "b_minus_a": parts(tf.sets.difference(a, b, aminusb=False)),
            "size": tf.sets.size(tf.sparse.from_dense(a)).numpy().tolist(),
            "sparse_dense": parts(tf.sets.intersection(sp, words)),
            "dense_sparse_difference": parts(tf.sets.difference(words, sp)),
            "sparse_dense_difference": parts(tf.sets.difference(sp, words)),
            "sparse_sparse_union": parts(tf.sets.union(sp, tf.sparse.from_dense(words))),
            "rank3": parts(tf.sets.union(tf.constant([[[1, 2]], [[3, 3]]]),
                                         tf.constant([[[2, 5]], [[0, 1]]]))),
            "size_dense_error": _error(lambda: tf.sets.size(a)),
            "rank1_error": _error(lambda: tf.sets.union(tf.constant([1, 2]),
                                                         tf.constant([1])))}


def record_tensor_protos(tf):
    """make_tensor_proto's serialized bytes (hex) and make_ndarray of them."""
    import numpy as np

    cases = {"floats": ([[1.0, 2.0], [3.0, 4.0]], {}), "scalar": (3.0, {}),
             "fill": (5, {"dtype": tf.int64, "shape": [2, 2]}), "strings": (["a", "bc"], {}),
             "tensor": (tf.constant([1, 2]), {}), "one": ([7], {}),
             "bools": ([True, False], {}), "float64": (np.arange(3.0), {}),
             "short": ([1.5, 2.5], {"shape": [2, 2]}),
             "broadcast_scalar": (4, {"shape": [3, 2], "allow_broadcast": True})}
    out = {}
    for name, (values, kw) in cases.items():
        proto = tf.make_tensor_proto(values, **kw)
        array = tf.make_ndarray(proto)
        out[name] = [proto.SerializeToString().hex(), array.tolist(), str(array.dtype)]
    out["too_many"] = _error(lambda: tf.make_tensor_proto([1, 2, 3], shape=[2]))
    out["verify"] = _error(lambda: tf.make_tensor_proto([1, 2], shape=[1, 2],
                                                        verify_shape=True))
    out["broadcast_error"] = _error(lambda: tf.make_tensor_proto([1, 2], shape=[3, 2],
                                                                 allow_broadcast=True))
    return json.loads(json.dumps(out, default=_plain))


def record(tf):
    out = {"confusion_matrix": [], "confusion_errors": [], "average_loss": []}
    # first: the logical devices are fixed once TensorFlow's runtime starts
    c = tf.config
    cpu = c.list_physical_devices("CPU")[0]
    out["logical_config_default"] = c.get_logical_device_configuration(cpu)
    out["logical_config_repr"] = repr(c.LogicalDeviceConfiguration(memory_limit=1024))
    c.set_logical_device_configuration(cpu, [c.LogicalDeviceConfiguration()] * 2)
    out["logical_devices"] = [list(d) for d in c.list_logical_devices("CPU")]
    out["logical_modify_error"] = _error(lambda: c.set_logical_device_configuration(
        cpu, [c.LogicalDeviceConfiguration()]))
    for case in CONFUSION:
        kw = {k: case[k] for k in ("num_classes",) if k in case}
        dtype = getattr(tf, case.get("dtype", "int32"))
        if "weights" in case:
            w = tf.constant(case["weights"], tf.float64)
            with tf.GradientTape() as tape:
                tape.watch(w)
                m = tf.math.confusion_matrix(case["labels"], case["predictions"], weights=w,
                                             dtype=dtype, **kw)
                s = tf.reduce_sum(m * tf.reshape(tf.range(tf.size(m), dtype=tf.float64),
                                                 tf.shape(m)))
            grad = tape.gradient(s, w).numpy().tolist()
        else:
            m, grad = tf.math.confusion_matrix(case["labels"], case["predictions"], **kw), None
        out["confusion_matrix"].append(dict(case, matrix=m.numpy().tolist(),
                                            out_dtype=m.dtype.name, grad_weights=grad))
    for case in CONFUSION_ERRORS:
        err = _error(lambda c=case: tf.math.confusion_matrix(c["labels"], c["predictions"],
                                                             c.get("num_classes")))
        out["confusion_errors"].append(dict(case, error=err))
    for case in AVERAGE:
        kw = {k: case[k] for k in ("sample_weight", "global_batch_size") if k in case}
        out["average_loss"].append(dict(case, value=float(
            tf.nn.compute_average_loss(case["loss"], **kw))))
    out["average_loss_scalar_error"] = _error(lambda: tf.nn.compute_average_loss(3.0))
    out["scale_regularization_loss"] = [float(tf.nn.scale_regularization_loss(3.0)),
                                        float(tf.nn.scale_regularization_loss([1.0, 2.0]))]
    with tf.distribute.MirroredStrategy(["/cpu:0"]).scope():
        out["average_loss_cross_replica_error"] = _error(
            lambda: tf.nn.compute_average_loss([1.0]))

    c = tf.config
    out["jit"] = [c.optimizer.get_jit()]
    c.optimizer.set_jit(True)
    out["jit"].append(c.optimizer.get_jit())
    out["optimizer_options"] = [c.optimizer.get_experimental_options()]
    c.optimizer.set_experimental_options({"layout_optimizer": False})
    out["optimizer_options"].append(c.optimizer.get_experimental_options())
    out["connect_error"] = _error(lambda: c.experimental_connect_to_cluster(None))

    spec = tf.train.ClusterSpec(TF_CONFIG["cluster"])
    out["cluster_spec"] = {"as_dict": spec.as_dict(), "jobs": spec.jobs,
                           "num_tasks": spec.num_tasks("worker"),
                           "task_address": spec.task_address("worker", 1),
                           "job_tasks": spec.job_tasks("ps"), "repr": repr(spec),
                           "sparse": tf.train.ClusterSpec({"w": {1: "a:1", 3: "b:2"}}).as_dict(),
                           "sparse_job_tasks": tf.train.ClusterSpec(
                               {"w": {1: "a:1", 3: "b:2"}}).job_tasks("w")}
    os.environ["TF_CONFIG"] = json.dumps(TF_CONFIG)
    r = tf.distribute.cluster_resolver.TFConfigClusterResolver()
    out["tf_config"] = {"cluster": r.cluster_spec().as_dict(), "task_type": r.task_type,
                        "task_id": r.task_id, "rpc_layer": r.rpc_layer, "master": r.master(),
                        "master_ps": r.master("ps", 0)}
    del os.environ["TF_CONFIG"]
    r = tf.distribute.cluster_resolver.TFConfigClusterResolver()
    out["tf_config_empty"] = {"cluster": r.cluster_spec().as_dict(), "task_type": r.task_type,
                              "task_id": r.task_id, "master": r.master()}
    out["tpu_errors"] = [
        _error(lambda: tf.distribute.cluster_resolver.TPUClusterResolver()),
        _error(lambda: tf.distribute.cluster_resolver.TPUClusterResolver(tpu="")),
        _error(lambda: tf.tpu.experimental.initialize_tpu_system())]
    out["lite"] = {"optimize": [str(o.value) for o in tf.lite.Optimize],
                   "opsset": [str(o.value) for o in tf.lite.OpsSet],
                   "interpreter_no_model": _error(lambda: tf.lite.Interpreter()),
                   "interpreter_missing": _error(
                       lambda: tf.lite.Interpreter(model_path="/nonexistent/m.tflite")),
                   "target_ops": [str(o.value) for o in tf.lite.TargetSpec().supported_ops]}
    return out


def main():
    import tensorflow as tf

    import tempfile

    out = record(tf)
    with tempfile.TemporaryDirectory() as tmpdir:
        out["lookup"] = record_lookup(tf, tmpdir)
    out["math"] = record_math(tf)
    out["audio"] = record_audio(tf)
    out["sets"] = record_sets(tf)
    out["tensor_protos"] = record_tensor_protos(tf)
    path = os.path.join("tests", "data", "api_names", "reference.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True, default=_plain)
    print("wrote", path)


if __name__ == "__main__":
    main()

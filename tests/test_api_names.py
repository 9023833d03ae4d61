"""tf.* names the API scan (tools/api_scan.py) asked for: tf.math.confusion_matrix,
tf.nn.compute_average_loss / scale_regularization_loss, tf.config's logical devices,
run_functions_eagerly and optimizer settings, tf.train.ClusterSpec and the cluster resolvers,
and the TPU and tf.lite entry points (clear errors: flowgrad has neither). Values and errors
are pinned against TensorFlow 2.21 (tools/tf_reference/api_names_reference.py, which runs
unchanged on flowgrad here); confusion_matrix's weights gradient is checked numerically at
orders 1 and 2 in graph and eager mode."""
import copy
import importlib.util
import json
import os

import numpy as np
import pytest

import flowgrad as tf
from flowgrad import config as config_module

from flowgrad.framework import errors
from gradcheck import check_gradients

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location(
    "api_names_reference", os.path.join(ROOT, "tools", "tf_reference",
                                        "api_names_reference.py"))
ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ref)
with open(os.path.join(ROOT, "tests", "data", "api_names", "reference.json")) as f:
    RECORDED = json.load(f)


@pytest.fixture
def eager():
    tf.compat.v1.enable_v2_behavior()


@pytest.fixture
def fresh_config():
    """tf.config's settings are process-wide: each test gets them as at start-up, and back."""
    saved = copy.deepcopy(config_module._settings)
    eagerly = config_module._RUN_EAGERLY[0]
    config_module._settings.update(logical={}, initialized=False)
    yield
    config_module._settings.clear()
    config_module._settings.update(saved)
    config_module._RUN_EAGERLY[0] = eagerly


@pytest.fixture
def got(eager, fresh_config, monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    return json.loads(json.dumps(ref.record(tf)))


def _same_error(got_err, want_err):
    assert got_err is not None and got_err[0] == want_err[0], (got_err, want_err)
    assert want_err[1].strip() in got_err[1], (got_err, want_err)


def test_confusion_matrix_matches_tensorflow(got):
    for g, w in zip(got["confusion_matrix"], RECORDED["confusion_matrix"]):
        assert g["out_dtype"] == w["out_dtype"]
        np.testing.assert_array_equal(g["matrix"], w["matrix"])
        if w["grad_weights"] is None:
            assert g["grad_weights"] is None
        else:
            np.testing.assert_allclose(g["grad_weights"], w["grad_weights"], rtol=1e-12)
    for g, w in zip(got["confusion_errors"], RECORDED["confusion_errors"]):
        _same_error(g["error"], w["error"])


def test_confusion_matrix_in_graph_mode_checks_classes():
    g = tf.Graph()
    with g.as_default():
        labels = tf.compat.v1.placeholder(tf.int32, [None])
        m = tf.math.confusion_matrix(labels, [0, 1, 2], num_classes=3)
        with tf.compat.v1.Session() as sess:
            np.testing.assert_array_equal(sess.run(m, {labels: [0, 1, 1]}),
                                          [[1, 0, 0], [0, 1, 1], [0, 0, 0]])
            with pytest.raises(errors.InvalidArgumentError, match="`labels` out of bound"):
                sess.run(m, {labels: [0, 1, 3]})


@pytest.mark.parametrize("mode", ["graph", "eager"])
def test_confusion_matrix_weights_gradients_orders_1_and_2(mode):
    if mode == "eager":
        tf.compat.v1.enable_v2_behavior()
    check_gradients(lambda w: tf.square(tf.math.confusion_matrix(
        [0, 1, 1, 2], [1, 1, 0, 2], num_classes=3, weights=w, dtype=tf.float64)),
        [np.array([0.5, 2.0, 1.5, -1.0])], order=2, mode=mode)


def test_average_and_regularization_losses_match_tensorflow(got):
    for g, w in zip(got["average_loss"], RECORDED["average_loss"]):
        assert g["value"] == pytest.approx(w["value"], rel=1e-12)
    assert got["scale_regularization_loss"] == RECORDED["scale_regularization_loss"]
    _same_error(got["average_loss_scalar_error"], RECORDED["average_loss_scalar_error"])
    _same_error(got["average_loss_cross_replica_error"],
                RECORDED["average_loss_cross_replica_error"])


def test_config_matches_tensorflow(got):
    for key in ("logical_config_default", "logical_config_repr", "logical_devices", "jit",
                "optimizer_options"):
        assert got[key] == RECORDED[key], key
    for key in ("logical_modify_error", "connect_error"):
        _same_error(got[key], RECORDED[key])


def test_virtual_device_configuration_is_the_logical_one(eager, fresh_config):
    cpu = tf.config.list_physical_devices("CPU")[0]
    assert tf.config.experimental.VirtualDeviceConfiguration is \
        tf.config.LogicalDeviceConfiguration
    with pytest.raises(ValueError, match="Unrecognized device"):
        tf.config.set_logical_device_configuration("GPU:0", [])
    tf.config.experimental.set_virtual_device_configuration(
        cpu, [tf.config.LogicalDeviceConfiguration(memory_limit=64)] * 3)
    assert tf.config.experimental.get_virtual_device_configuration(cpu)[0].memory_limit == 64
    assert [d.name for d in tf.config.list_logical_devices()] == [
        "/device:CPU:0", "/device:CPU:1", "/device:CPU:2"]


def test_run_functions_eagerly_runs_the_python_function(eager, fresh_config):
    traces = []

    @tf.function
    def f(x):
        traces.append(tf.executing_eagerly())
        return x * 2

    assert not tf.config.functions_run_eagerly()
    assert float(f(tf.constant(1.0))) == 2.0 and traces == [False]
    tf.config.run_functions_eagerly(True)
    assert tf.config.experimental_functions_run_eagerly()
    assert float(f(tf.constant(3.0))) == 6.0 and float(f(tf.constant(4.0))) == 8.0
    assert traces == [False, True, True]
    tf.config.run_functions_eagerly(False)
    assert float(f(tf.constant(5.0))) == 10.0 and traces == [False, True, True]


def test_log_device_placement_setting(fresh_config):
    assert tf.debugging.get_log_device_placement() is False
    tf.debugging.set_log_device_placement(True)
    try:
        assert tf.debugging.get_log_device_placement() is True
    finally:
        tf.debugging.set_log_device_placement(False)


def test_cluster_spec_and_tf_config_resolver_match_tensorflow(got, monkeypatch):
    assert got["cluster_spec"] == RECORDED["cluster_spec"]
    assert got["tf_config"] == RECORDED["tf_config"]
    assert got["tf_config_empty"] == RECORDED["tf_config_empty"]
    spec = tf.train.ClusterSpec({"worker": ["a:1"]})
    assert spec == tf.train.ClusterSpec(spec) and not tf.train.ClusterSpec({})
    with pytest.raises(ValueError, match="No such job"):
        spec.num_tasks("ps")
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(
        spec, task_type="worker", task_id=0, rpc_layer="grpc")
    assert resolver.master("worker", 0) == "grpc://a:1"
    monkeypatch.setenv("TF_CONFIG", "{not json")
    with pytest.raises(errors.InvalidArgumentError, match="TF_CONFIG"):
        tf.distribute.cluster_resolver.TFConfigClusterResolver().cluster_spec()


def test_tpu_entry_points_fail_as_tensorflow_without_a_tpu(got):
    for g, w in zip(got["tpu_errors"], RECORDED["tpu_errors"]):
        _same_error(g, w)
    with pytest.raises(errors.UnimplementedError, match="TPU"):
        tf.distribute.cluster_resolver.TPUClusterResolver(tpu="grpc://10.0.0.1:8470")


def test_lite_matches_tensorflow_and_says_what_it_cannot_do(got, tmp_path):
    for key in ("optimize", "opsset", "target_ops"):
        assert got["lite"][key] == RECORDED["lite"][key], key
    for key in ("interpreter_no_model", "interpreter_missing"):
        _same_error(got["lite"][key], RECORDED["lite"][key])
    model = tmp_path / "m.tflite"
    model.write_bytes(b"TFL3")
    if importlib.util.find_spec("ai_edge_litert") is not None:   # the lite extra
        with pytest.raises(ValueError, match="not a valid Flatbuffer"):
            tf.lite.Interpreter(model_path=str(model))
    converter = tf.lite.TFLiteConverter.from_concrete_functions([])
    with pytest.raises(ValueError, match="single ConcreteFunction"):
        converter.convert()
    with pytest.raises(OSError, match="SavedModel file does not exist"):
        tf.lite.TFLiteConverter.from_saved_model(str(tmp_path / "missing"))


def test_tf2_losses_and_metrics_are_keras_ones():
    assert tf.losses is tf.keras.losses and tf.metrics is tf.keras.metrics
    assert tf.optimizers is tf.keras.optimizers
    assert tf.compat.v1.losses.__name__ == "flowgrad.losses"     # TF1's stay in compat.v1


def test_lookup_tables_match_tensorflow(eager, tmp_path):
    assert ref.record_lookup(tf, str(tmp_path)) == RECORDED["lookup"]


def test_lookup_tables_in_a_tf1_session_and_a_function(tmp_path):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        table = v1.lookup.StaticVocabularyTable(v1.lookup.KeyValueTensorInitializer(
            ["emerson", "lake", "palmer"], tf.constant([0, 1, 2], tf.int64)), 5)
        keys = v1.placeholder(tf.string, [None])
        ids = table.lookup(keys)
        with v1.Session() as sess:
            sess.run(v1.tables_initializer())
            np.testing.assert_array_equal(
                sess.run(ids, {keys: ["emerson", "lake", "xx", "yy", "zzz"]}),
                RECORDED["lookup"]["vocab_str"])
    tf.compat.v1.enable_v2_behavior()
    h = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "b"], [1.5, 2.5]),
                                  -1.0)
    f = tf.function(lambda k: h.lookup(k))
    np.testing.assert_array_equal(f(tf.constant([["a", "c"], ["b", "b"]])),
                                  RECORDED["lookup"]["hash_dense"])
    with pytest.raises(errors.NotFoundError):
        tf.lookup.TextFileInitializer(str(tmp_path / "missing.txt"), tf.string, 0, tf.int64, -1)
    (tmp_path / "v.txt").write_text("a\nb\n")
    with pytest.raises(errors.InvalidArgumentError, match="column 1"):
        tf.lookup.TextFileInitializer(str(tmp_path / "v.txt"), tf.string, 0, tf.int64, 1)


def test_cumulative_logsumexp_gather_nd_batch_dims_and_ragged_numpy_match_tensorflow(eager):
    got, want = ref.record_math(tf), RECORDED["math"]
    for g, w in zip(got["logsumexp"], want["logsumexp"]):
        np.testing.assert_allclose(np.array(g["value"], float), np.array(w["value"], float),
                                   rtol=1e-12, err_msg=str(w["kw"]))
        np.testing.assert_allclose(g["grad"], w["grad"], rtol=1e-12, atol=1e-12,
                                   err_msg=str(w["kw"]))
    for g, w in zip(got["gather_nd"], want["gather_nd"]):
        assert g["value"] == w["value"] and g["grad"] == w["grad"], w["indices"]
    assert got["ragged_numpy"] == want["ragged_numpy"]


@pytest.mark.parametrize("kw", [{}, {"reverse": True}, {"axis": 1, "exclusive": True}])
@pytest.mark.parametrize("mode", ["graph", "eager"])
def test_cumulative_logsumexp_gradients_orders_1_and_2(kw, mode):
    if mode == "eager":
        tf.compat.v1.enable_v2_behavior()
    x = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 4.0]])
    if kw.get("exclusive"):    # the first column is -inf: check the others
        check_gradients(lambda v: tf.math.cumulative_logsumexp(v, **kw)[:, 1:], [x],
                        order=2, mode=mode)
    else:
        check_gradients(lambda v: tf.math.cumulative_logsumexp(v, **kw), [x], order=2,
                        mode=mode)


@pytest.mark.parametrize("case", range(4))
@pytest.mark.parametrize("mode", ["graph", "eager"])
def test_gather_nd_batch_dims_gradients_orders_1_and_2(case, mode):
    if mode == "eager":
        tf.compat.v1.enable_v2_behavior()
    indices, batch_dims = ref.GATHER_ND_CASES[case]
    check_gradients(lambda p: tf.square(tf.gather_nd(p, indices, batch_dims=batch_dims)),
                    [np.arange(24.0).reshape(2, 3, 4) / 10], order=2, mode=mode)


def test_gather_nd_batch_dims_errors():
    tf.compat.v1.enable_v2_behavior()
    with pytest.raises(ValueError, match="batch_dims"):
        tf.gather_nd(tf.zeros([2, 3]), [[0], [1]], batch_dims=2)


def test_wav_files_match_tensorflow(eager):
    got, want = ref.record_audio(tf), RECORDED["audio"]
    assert got["bytes"] == want["bytes"]                  # TensorFlow's file, byte for byte
    np.testing.assert_array_equal(got["mono_to_stereo"], want["mono_to_stereo"])
    for key in want:
        if key not in ("bytes", "not_wav_error", "mono_to_stereo"):
            np.testing.assert_array_equal(got[key][0], want[key][0], err_msg=key)
            assert got[key][1] == want[key][1] == 16000
    assert got["not_wav_error"][0] == "InvalidArgumentError"


def test_wav_ops_in_a_graph():
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        contents = v1.placeholder(tf.string, [])
        audio, rate = tf.audio.decode_wav(contents, desired_channels=2, desired_samples=5)
        assert audio.shape.as_list() == [5, 2] and rate.shape.as_list() == []
        with v1.Session() as sess:
            got, r = sess.run([audio, rate], {contents: bytes(RECORDED["audio"]["bytes"])})
        np.testing.assert_array_equal(got, RECORDED["audio"]["[]"][0][:5])
        assert r == 16000


def test_sets_match_tensorflow(eager):
    got, want = ref.record_sets(tf), RECORDED["sets"]
    for key in want:
        if key.endswith("_error"):
            assert got[key][0] == want[key][0], key
        else:
            assert got[key] == want[key], key


def test_sets_in_a_graph():
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        a = v1.placeholder(tf.int64, [None, 3])
        inter = v1.sets.set_intersection(a, [[3, 1, 9], [6, 6, 6]])
        with v1.Session() as sess:
            got = sess.run(inter, {a: [[1, 2, 3], [4, 5, 5]]})
        assert got.values.tolist() == RECORDED["sets"]["intersection"][1]
        assert got.dense_shape.tolist() == RECORDED["sets"]["intersection"][2]


def test_benchmark_times_session_runs_and_logs_as_tensorflow(caplog):
    v1 = tf.compat.v1

    class MatmulBenchmark(tf.test.Benchmark):
        def benchmark_matmul(self):
            with tf.Graph().as_default():
                x = v1.placeholder(tf.float32, [4, 4])
                y = tf.matmul(x, x)
                with v1.Session() as sess:
                    return self.run_op_benchmark(sess, y, {x: np.eye(4, dtype=np.float32)},
                                                 burn_iters=1, min_iters=3, mbs=1)

    caplog.set_level("INFO")
    got = MatmulBenchmark().benchmark_matmul()
    assert got["iters"] == 3 and got["wall_time"] > 0 and got["name"] is None
    assert got["throughput"] == pytest.approx(1 / got["wall_time"])
    assert set(got["extras"]) == {"wall_time_mean", "wall_time_stdev"}
    assert "Benchmark [MatmulBenchmark.benchmark_matmul] iters: 3" in caplog.text
    assert tf.test.Benchmark.is_abstract() and not MatmulBenchmark.is_abstract()
    assert tf.compat.v1.test.Benchmark is tf.test.Benchmark
    with pytest.raises(TypeError, match="extras must be a dict"):
        tf.test.Benchmark().report_benchmark(iters=1, extras=[1])


def test_tensor_protos_match_tensorflow_byte_for_byte(eager):
    got, want = ref.record_tensor_protos(tf), RECORDED["tensor_protos"]
    for key in want:
        if key in ("too_many", "verify", "broadcast_error"):
            _same_error(got[key], want[key])
        else:
            assert got[key] == want[key], key

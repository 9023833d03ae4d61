"""tf.estimator as TensorFlow 2.15 had it (flowgrad/estimator/): an Estimator's training is a
hand-written TF1 loop of the same model_fn (same seed, same steps: same losses and
variables), its checkpoints are TensorFlow's (TensorFlow 2.21 restored the committed one:
tests/data/estimator/, tools/tf_reference/estimator_checkpoint.py), and evaluate, predict,
export_saved_model, train_and_evaluate and the numpy/pandas input_fns behave as TF 2.15's."""
from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as v1

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tf_reference_program import load  # noqa: E402

REF, RECORD = load("estimator_checkpoint.py", "estimator/tf_2_21.json")
DATA = Path(__file__).resolve().parent / "data" / "estimator"


def _estimator_model_fn(features, labels, mode):
    pred, loss, train_op = REF.model_fn(tf, features, labels, mode)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"pred": pred})
    metrics = {"mae": v1.metrics.mean_absolute_error(labels, pred)}
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                      eval_metric_ops=metrics)


def _train_input_fn():
    x, y = REF.data()
    return tf.data.Dataset.from_tensor_slices(({"x": x}, y)).repeat().batch(16)


def _eval_input_fn():
    x, y = REF.data()
    return tf.data.Dataset.from_tensor_slices(({"x": x}, y)).batch(16)


class _LossRecorder(v1.train.SessionRunHook):
    def __init__(self):
        self.losses = []

    def before_run(self, run_context):
        return v1.train.SessionRunArgs(v1.get_collection(v1.GraphKeys.LOSSES)[0])

    def after_run(self, run_context, run_values):
        self.losses.append(float(run_values.results))


def _estimator(model_dir, **config):
    config = tf.estimator.RunConfig(tf_random_seed=REF.SEED, **config)
    return tf.estimator.Estimator(_estimator_model_fn, model_dir=str(model_dir), config=config)


def test_training_is_the_hand_written_tf1_loop_of_the_same_model_fn(tmp_path):
    recorder = _LossRecorder()
    est = _estimator(tmp_path).train(_train_input_fn, steps=REF.STEPS, hooks=[recorder])
    with v1.Graph().as_default():          # the same program by hand: seed, step, input, model
        v1.set_random_seed(REF.SEED)
        v1.train.get_or_create_global_step()
        it = v1.data.make_initializable_iterator(_train_input_fn())
        features, labels = it.get_next()
        _, loss, train_op = REF.model_fn(tf, features, labels, "train")
        with v1.Session() as sess:
            sess.run([v1.global_variables_initializer(), it.initializer])
            losses = [float(sess.run([train_op, loss])[1]) for _ in range(REF.STEPS)]
            values = {v.op.name: sess.run(v) for v in v1.global_variables()}
    assert recorder.losses == losses and losses[-1] < losses[0] / 4
    assert sorted(est.get_variable_names()) == sorted(values)
    for name, value in values.items():
        np.testing.assert_array_equal(est.get_variable_value(name), value, err_msg=name)
    assert est.latest_checkpoint() == str(tmp_path / ("model.ckpt-%d" % REF.STEPS))


def test_tensorflow_restores_the_checkpoints_an_estimator_writes(tmp_path):
    est = _estimator(tmp_path, keep_checkpoint_max=1).train(_train_input_fn, steps=REF.STEPS)
    assert RECORD["latest"] == "model.ckpt-%d" % REF.STEPS
    assert {n: list(s) for n, s in v1.train.list_variables(str(tmp_path))} == \
        RECORD["variables"]                    # TensorFlow's names, shapes (Adam's slots too)
    for name, value in RECORD["restored"].items():   # TensorFlow's Saver restored these
        np.testing.assert_allclose(est.get_variable_value(name), value, rtol=1e-6,
                                   atol=1e-7, err_msg=name)
    # and predicting from the committed checkpoint gives TensorFlow's numbers
    model_dir = tmp_path / "committed"
    shutil.copytree(DATA / "model_dir", model_dir)
    got = list(_estimator(model_dir).predict(
        lambda: tf.data.Dataset.from_tensor_slices({"x": REF.PREDICT_X}).batch(2)))
    np.testing.assert_allclose([g["pred"] for g in got], RECORD["predictions"], rtol=1e-6,
                               atol=1e-6)         # float32 sums in another order


def test_model_dir_holds_tensorflows_files_and_a_saver_restores_them(tmp_path):
    _estimator(tmp_path, save_checkpoints_steps=4).train(_train_input_fn, steps=10)
    files = set(os.listdir(tmp_path))
    assert {"checkpoint", "graph.pbtxt"} <= files
    assert {"model.ckpt-%d.index" % s for s in (0, 4, 8, 10)} <= files
    assert any(f.startswith("events.out.tfevents.") for f in files)
    with v1.Graph().as_default():
        v1.train.get_or_create_global_step()
        x = v1.placeholder(tf.float32, [None, 4])
        REF.model_fn(tf, {"x": x}, None, "infer")
        with v1.Session() as sess:
            v1.train.Saver().restore(sess, v1.train.latest_checkpoint(str(tmp_path)))
            assert sess.run(v1.train.get_global_step()) == 10


def test_training_resumes_and_max_steps_stops_it(tmp_path):
    est = _estimator(tmp_path)
    est.train(_train_input_fn, steps=3).train(_train_input_fn, steps=4)
    assert est.get_variable_value("global_step") == 7
    est.train(_train_input_fn, max_steps=9)
    assert est.get_variable_value("global_step") == 9
    est.train(_train_input_fn, max_steps=5)           # past it already: nothing to do
    assert est.get_variable_value("global_step") == 9


def test_evaluate_reports_metrics_loss_and_global_step_and_writes_summaries(tmp_path):
    est = _estimator(tmp_path).train(_train_input_fn, steps=REF.STEPS)
    result = est.evaluate(_eval_input_fn)
    x, y = REF.data()
    pred = np.array([p["pred"] for p in est.predict(
        tf.compat.v1.estimator.inputs.numpy_input_fn({"x": x}, shuffle=False))])
    # "loss" is the mean over batches of the batch losses (tf.compat.v1.metrics.mean)
    batch_losses = [np.mean((pred[i:i + 16] - y[i:i + 16]) ** 2) for i in range(0, 64, 16)]
    assert set(result) == {"loss", "mae", "global_step"}
    np.testing.assert_allclose(result["loss"], np.mean(batch_losses), rtol=1e-5)
    np.testing.assert_allclose(result["mae"], np.mean(np.abs(pred - y)), rtol=1e-5)
    assert result["global_step"] == REF.STEPS and isinstance(result["global_step"], np.int64)
    assert est.evaluate(_eval_input_fn, steps=1, name="one")["global_step"] == REF.STEPS
    assert os.listdir(tmp_path / "eval") and os.listdir(tmp_path / "eval_one")


def test_predict_yields_examples_batches_and_chosen_keys(tmp_path):
    def model_fn(features, mode):
        w = v1.get_variable("w", [], tf.float64, initializer=v1.ones_initializer())
        doubled = features * 2.0 * w
        return tf.estimator.EstimatorSpec(mode, predictions={"a": doubled, "b": features},
                                          loss=tf.reduce_sum(doubled), train_op=tf.no_op())

    est = tf.estimator.Estimator(model_fn, model_dir=str(tmp_path))
    fn = v1.estimator.inputs.numpy_input_fn(np.arange(5.0), batch_size=2, shuffle=False)
    got = list(est.predict(fn))           # no checkpoint: the initialized model, as TF
    assert [float(g["a"]) for g in got] == [0, 2, 4, 6, 8] and set(got[0]) == {"a", "b"}
    assert [set(g) for g in est.predict(fn, predict_keys=["b"])] == [{"b"}] * 5
    batches = list(est.predict(fn, yield_single_examples=False))
    assert [len(b["a"]) for b in batches] == [2, 2, 1]
    with pytest.raises(ValueError, match="Expected to run at least one output"):
        list(est.predict(fn, predict_keys=["c"]))


def test_tf2_face_estimator_with_a_tensor_prediction(tmp_path):
    def model_fn(features, labels, mode, params):
        pred = tf.squeeze(v1.layers.dense(features, 1, name="d"), 1)
        if mode == tf.estimator.ModeKeys.PREDICT:
            return tf.estimator.EstimatorSpec(mode, predictions=pred)
        loss = tf.reduce_mean(tf.square(pred - labels))
        opt = v1.train.GradientDescentOptimizer(params["lr"])
        return tf.estimator.EstimatorSpec(
            mode, loss=loss, train_op=opt.minimize(loss, v1.train.get_global_step()))

    x = np.random.RandomState(1).randn(40, 2).astype(np.float32)
    y = x[:, 0] - x[:, 1]
    v1.enable_v2_behavior()                 # the TF2 face's default: eager
    est = tf.estimator.Estimator(model_fn, str(tmp_path), params={"lr": 0.3})
    assert tf.executing_eagerly()
    est.train(lambda: tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(8), steps=60)
    assert tf.executing_eagerly()
    got = np.array(list(est.predict(lambda: tf.data.Dataset.from_tensor_slices(x).batch(8))))
    np.testing.assert_allclose(got, y, atol=1e-3)


def test_numpy_input_fn_batches_as_tensorflows_queues(tmp_path):
    x = {"b": np.arange(7.0), "a": np.arange(7) * 10}
    fn = v1.estimator.inputs.numpy_input_fn(x, np.arange(7) % 2, batch_size=3, num_epochs=2,
                                            shuffle=False)
    with v1.Graph().as_default():
        features, target = fn()
        assert sorted(features) == ["a", "b"]
        got = []
        with v1.train.MonitoredSession() as sess:
            while not sess.should_stop():
                got.append(sess.run([features["b"], target]))
    rows = [list(b) for b, _ in got]
    assert rows == [[0, 1, 2], [3, 4, 5], [6, 0, 1], [2, 3, 4], [5, 6]]   # dequeue_up_to
    assert [list(t) for _, t in got][0] == [0, 1, 0]
    forever = v1.estimator.inputs.numpy_input_fn(np.arange(4.0), batch_size=3, shuffle=True,
                                                 num_epochs=None)
    with v1.Graph().as_default():
        batch = forever()
        with v1.Session() as sess:
            seen = np.concatenate([sess.run(batch) for _ in range(4)])
    assert sorted(seen) == sorted(list(range(4)) * 3)   # full batches across epochs


def test_pandas_input_fn_gives_columns_and_target():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [4, 5, 6]})
    fn = v1.estimator.inputs.pandas_input_fn(frame, pd.Series([7, 8, 9]), batch_size=2,
                                             shuffle=False)
    with v1.Graph().as_default():
        features, target = fn()
        with v1.Session() as sess:
            first = sess.run([features, target])
    assert list(first[0]["a"]) == [1.0, 2.0] and list(first[1]) == [7, 8]
    with pytest.raises(ValueError, match="Index for x and y are mismatched"):
        v1.estimator.inputs.pandas_input_fn(frame, pd.Series([1, 2, 3], index=[5, 6, 7]),
                                            shuffle=False)


def test_export_saved_model_serves_the_predictions(tmp_path):
    est = _estimator(tmp_path).train(_train_input_fn, steps=5)

    def serving_input_receiver_fn():
        x = v1.placeholder(tf.float32, [None, 4], name="x")
        return tf.estimator.export.ServingInputReceiver({"x": x}, {"x": x})

    path = est.export_saved_model(str(tmp_path / "export"), serving_input_receiver_fn)
    assert isinstance(path, bytes) and os.path.basename(path).isdigit()
    expected = [p["pred"] for p in est.predict(
        lambda: tf.data.Dataset.from_tensor_slices({"x": REF.PREDICT_X}).batch(3))]
    with v1.Graph().as_default():
        with v1.Session() as sess:
            meta = v1.saved_model.loader.load(sess, ["serve"], path.decode())
            sig = meta.signature_def["serving_default"]
            assert sig.method_name == "tensorflow/serving/predict"
            got = sess.run(sig.outputs["pred"].name, {sig.inputs["x"].name: REF.PREDICT_X})
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_train_and_evaluate_evaluates_checkpoints_and_exports(tmp_path):
    est = _estimator(tmp_path, save_checkpoints_steps=10)

    def serving_input_receiver_fn():
        x = v1.placeholder(tf.float32, [None, 4], name="x")
        return tf.estimator.export.ServingInputReceiver({"x": x}, x)

    exporter = tf.estimator.LatestExporter("latest", serving_input_receiver_fn)
    metrics, exports = tf.estimator.train_and_evaluate(
        est, tf.estimator.TrainSpec(_train_input_fn, max_steps=20),
        tf.estimator.EvalSpec(_eval_input_fn, steps=None, exporters=exporter, throttle_secs=0))
    assert metrics["global_step"] == 20 and set(metrics) == {"loss", "mae", "global_step"}
    assert len(exports) == 2 and all(os.path.isdir(p) for p in exports)
    assert os.path.dirname(exports[-1]) == str(tmp_path / "export" / "latest").encode()
    # already at max_steps: nothing trains, nothing is evaluated (TensorFlow's None)
    assert tf.estimator.train_and_evaluate(
        est, tf.estimator.TrainSpec(_train_input_fn, max_steps=20),
        tf.estimator.EvalSpec(_eval_input_fn))[0] is None


def test_hooks_and_saving_listeners_run(tmp_path):
    calls = []

    class Listener(v1.train.CheckpointSaverListener):
        def after_save(self, session, global_step_value):
            calls.append(global_step_value)

    _estimator(tmp_path, save_checkpoints_steps=5).train(
        _train_input_fn, steps=12, saving_listeners=[Listener()])
    assert calls == [0, 5, 10, 12]
    est = _estimator(tmp_path / "b", save_checkpoints_steps=None, save_checkpoints_secs=None)
    with pytest.raises(ValueError, match="There should be a CheckpointSaverHook"):
        est.train(_train_input_fn, steps=1, saving_listeners=[Listener()])


def test_bad_input_fails_as_tensorflow(tmp_path):
    est = _estimator(tmp_path)
    with pytest.raises(ValueError, match="Can not provide both steps and max_steps"):
        est.train(_train_input_fn, steps=1, max_steps=2)
    with pytest.raises(ValueError, match=r"Must specify steps > 0, given: 0"):
        est.train(_train_input_fn, steps=0)
    with pytest.raises(ValueError, match="must include features argument"):
        tf.estimator.Estimator(lambda x, mode: None)
    with pytest.raises(ValueError, match="does not include params argument"):
        tf.estimator.Estimator(lambda features: None, params={"a": 1})
    with pytest.raises(ValueError, match="has following not expected args"):
        tf.estimator.Estimator(lambda features, other: None)
    with pytest.raises(ValueError, match="different values"):
        tf.estimator.Estimator(_estimator_model_fn, model_dir="/a",
                               config=tf.estimator.RunConfig(model_dir="/b"))
    with pytest.raises(ValueError, match="Can not specify both save_checkpoints_steps"):
        tf.estimator.RunConfig(save_checkpoints_steps=1, save_checkpoints_secs=1)
    with pytest.raises(ValueError, match="shuffle must be provided"):
        v1.estimator.inputs.numpy_input_fn(np.zeros(3))
    with pytest.raises(ValueError, match="model_fn does not take labels"):
        tf.estimator.Estimator(lambda features, mode: None, str(tmp_path / "c")).train(
            _train_input_fn, steps=1)
    with pytest.raises(ValueError, match="Could not find trained model"):
        tf.estimator.Estimator(_estimator_model_fn, str(tmp_path / "d")).get_variable_names()
    with v1.Graph().as_default():
        loss = tf.constant([1.0, 2.0])
        with pytest.raises(ValueError, match="Missing train_op"):
            tf.estimator.EstimatorSpec("train", loss=tf.constant(1.0))
        with pytest.raises(ValueError, match="Loss must be scalar"):
            tf.estimator.EstimatorSpec("eval", loss=loss)
        with pytest.raises(ValueError, match="Missing predictions"):
            tf.estimator.EstimatorSpec("infer")
        with pytest.raises(ValueError, match="mode=bad unrecognized"):
            tf.estimator.EstimatorSpec("bad")
        with pytest.raises(TypeError, match="All hooks must be SessionRunHook"):
            tf.estimator.EstimatorSpec("eval", loss=tf.constant(1.0), evaluation_hooks=[1])


def test_mode_keys_and_run_config_defaults_are_tensorflows():
    assert (tf.estimator.ModeKeys.TRAIN, tf.estimator.ModeKeys.EVAL,
            tf.estimator.ModeKeys.PREDICT) == ("train", "eval", "infer")
    config = tf.estimator.RunConfig()
    assert (config.save_checkpoints_secs, config.save_checkpoints_steps,
            config.save_summary_steps, config.keep_checkpoint_max,
            config.log_step_count_steps, config.is_chief) == (600, None, 100, 5, 100, True)
    replaced = config.replace(save_checkpoints_steps=7)
    assert (replaced.save_checkpoints_steps, replaced.save_checkpoints_secs) == (7, None)
    assert v1.estimator.Estimator is tf.estimator.Estimator


SEEDED = tf.estimator.RunConfig(tf_random_seed=3)


def _two_feature_data():
    rng = np.random.RandomState(0)
    x = rng.randn(120, 2).astype(np.float32)
    return {"a": x[:, 0], "b": x[:, 1]}, x


def _numpy_fn(x, y=None, **kw):
    return v1.estimator.inputs.numpy_input_fn(x, y, shuffle=kw.pop("shuffle", False), **kw)


def test_canned_classifiers_have_tensorflows_variables_predictions_and_metrics(tmp_path):
    features, x = _two_feature_data()
    labels = (x[:, 0] + x[:, 1] > 0).astype(np.int64)
    cols = [v1.feature_column.numeric_column("a"), v1.feature_column.numeric_column("b")]
    dnn = v1.estimator.DNNClassifier([4], cols, model_dir=str(tmp_path / "dnn"), config=SEEDED)
    dnn.train(_numpy_fn(features, labels, batch_size=20, num_epochs=None, shuffle=True),
              steps=60)
    assert sorted(dnn.get_variable_names()) == [
        "dnn/hiddenlayer_0/bias", "dnn/hiddenlayer_0/bias/Adagrad", "dnn/hiddenlayer_0/kernel",
        "dnn/hiddenlayer_0/kernel/Adagrad", "dnn/logits/bias", "dnn/logits/bias/Adagrad",
        "dnn/logits/kernel", "dnn/logits/kernel/Adagrad", "global_step"]
    result = dnn.evaluate(_numpy_fn(features, labels, batch_size=40))
    assert set(result) == {"accuracy", "accuracy_baseline", "auc", "auc_precision_recall",
                           "average_loss", "label/mean", "loss", "precision",
                           "prediction/mean", "recall", "global_step"}
    assert result["accuracy"] > 0.8
    # tf.compat.v1's canned estimators sum the loss over the batch: loss = 40 * average
    np.testing.assert_allclose(result["loss"], 40 * result["average_loss"], rtol=1e-5)
    pred = next(dnn.predict(_numpy_fn(features)))
    assert set(pred) == {"logits", "logistic", "probabilities", "class_ids", "classes",
                         "all_class_ids", "all_classes"}
    np.testing.assert_allclose(pred["probabilities"][1], pred["logistic"][0], rtol=1e-6)
    assert pred["classes"][0] == str(pred["class_ids"][0]).encode()
    linear = tf.estimator.LinearClassifier(cols, model_dir=str(tmp_path / "linear"),
                                           n_classes=3, label_vocabulary=["n", "p", "q"],
                                           config=SEEDED)
    words = np.array(["n", "p", "q"])[(x[:, 0] > 0).astype(int) + (x[:, 1] > 0).astype(int)]
    linear.train(_numpy_fn(features, words, batch_size=20, num_epochs=None, shuffle=True),
                 steps=60)
    assert "linear/linear_model/a/weights" in linear.get_variable_names()
    assert linear.get_variable_value("linear/linear_model/bias_weights").shape == (3,)
    result = linear.evaluate(_numpy_fn(features, words, batch_size=40))
    assert set(result) == {"accuracy", "average_loss", "loss", "global_step"}
    # tf.estimator's reduce by the batch size: loss is the average loss
    np.testing.assert_allclose(result["loss"], result["average_loss"], rtol=1e-5)
    assert result["accuracy"] > 0.7
    assert next(linear.predict(_numpy_fn(features)))["classes"][0] in (b"n", b"p", b"q")


def test_canned_regressors_fit_and_export_a_regress_signature(tmp_path):
    features, x = _two_feature_data()
    y = (2 * x[:, 0] - x[:, 1]).astype(np.float32)
    cols = [v1.feature_column.numeric_column("a"), v1.feature_column.numeric_column("b")]
    linear = tf.estimator.LinearRegressor(cols, model_dir=str(tmp_path / "l"),
                                          optimizer=lambda: v1.train.AdamOptimizer(0.1),
                                          config=SEEDED)
    linear.train(_numpy_fn(features, y, batch_size=20, num_epochs=None, shuffle=True),
                 steps=150)
    np.testing.assert_allclose(linear.get_variable_value("linear/linear_model/a/weights"),
                               [[2.0]], atol=0.05)
    dnn = tf.estimator.DNNRegressor([6], cols, model_dir=str(tmp_path / "d"), config=SEEDED)
    dnn.train(_numpy_fn(features, y, batch_size=20, num_epochs=None, shuffle=True), steps=20)
    result = dnn.evaluate(_numpy_fn(features, y, batch_size=60))
    assert set(result) == {"average_loss", "label/mean", "loss", "prediction/mean",
                           "global_step"}
    np.testing.assert_allclose(result["label/mean"], y.mean(), rtol=1e-5)
    raw = {"a": v1.placeholder(tf.float32, [None]), "b": v1.placeholder(tf.float32, [None])}
    path = linear.export_saved_model(
        str(tmp_path / "export"), tf.estimator.export.build_raw_serving_input_receiver_fn(raw))
    with v1.Graph().as_default(), v1.Session() as sess:
        meta = v1.saved_model.loader.load(sess, ["serve"], path.decode())
        # a regress signature takes one string tensor: with raw inputs TF leaves it out
        assert sorted(meta.signature_def) == ["predict"]
        sig = meta.signature_def["predict"]
        got = sess.run(sig.outputs["predictions"].name,
                       {sig.inputs["a"].name: [1.0], sig.inputs["b"].name: [0.0]})
    np.testing.assert_allclose(got, [[2.0]], atol=0.1)
    with pytest.raises(ValueError, match="Unsupported optimizer name"):
        tf.estimator.DNNRegressor([2], cols, optimizer="Nope").train(
            _numpy_fn(features, y), steps=1)


def test_tpu_estimator_runs_on_the_cpu_with_batch_size_params(tmp_path):
    tpu = v1.estimator.tpu
    seen = []

    def input_fn(params):
        seen.append(params["batch_size"])
        x, y = REF.data()
        return tf.data.Dataset.from_tensor_slices(({"x": x}, y)).repeat().batch(
            params["batch_size"])

    def model_fn(features, labels, mode, params):
        pred, loss, train_op = REF.model_fn(tf, features, labels, mode)
        if mode == tf.estimator.ModeKeys.PREDICT:
            return tpu.TPUEstimatorSpec(mode, predictions={"pred": pred})
        return tpu.TPUEstimatorSpec(mode, loss=loss, train_op=train_op, eval_metrics=(
            lambda labels, pred: {"mae": v1.metrics.mean_absolute_error(labels, pred)},
            [labels, pred]))

    config = tpu.RunConfig(tpu_config=tpu.TPUConfig(iterations_per_loop=10,
                           per_host_input_for_training=tpu.InputPipelineConfig.PER_HOST_V2),
                           model_dir=str(tmp_path), tf_random_seed=REF.SEED)
    est = tpu.TPUEstimator(model_fn, config=config, use_tpu=False, train_batch_size=16,
                           eval_batch_size=32)
    est.train(input_fn, max_steps=10)
    result = est.evaluate(input_fn, steps=2)
    assert seen == [16, 32] and set(result) == {"mae", "loss", "global_step"}
    assert config.tpu_config.iterations_per_loop == 10


def test_unknown_size_loss_is_reshaped_and_add_metrics_adds_metrics(tmp_path):
    """The TF migration guide's program: a [batch] loss with batches of 1 (TensorFlow checks
    only a known element count) and tf.compat.v1.estimator.add_metrics."""
    def input_fn():
        return v1.data.Dataset.from_tensor_slices(([[1., 1.5], [2., 2.5], [3., 3.5]],
                                                   [0, 0, 1])).batch(1)

    def model_fn(features, labels, mode):
        logits = v1.layers.Dense(2)(features)
        predictions = tf.math.argmax(input=logits, axis=1)
        loss = v1.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        train_op = v1.train.AdagradOptimizer(0.05).minimize(
            loss, global_step=v1.train.get_global_step())
        return v1.estimator.EstimatorSpec(mode, predictions=predictions, loss=loss,
                                          train_op=train_op, eval_metric_ops={
                                              "accuracy": v1.metrics.accuracy(labels,
                                                                              predictions)})

    est = v1.estimator.Estimator(model_fn, str(tmp_path), config=SEEDED)
    est.train(input_fn)
    assert est.get_variable_value("global_step") == 3

    def mse(labels, predictions):
        labels = tf.cast(labels, predictions.dtype)
        return {"mean_squared_error": v1.metrics.mean_squared_error(labels, predictions)}

    result = v1.estimator.add_metrics(est, mse).evaluate(input_fn)
    assert set(result) == {"accuracy", "mean_squared_error", "loss", "global_step"}
    np.testing.assert_allclose(result["mean_squared_error"], 1 - result["accuracy"], rtol=1e-6)
    with v1.Graph().as_default():
        with pytest.raises(ValueError, match="Loss must be scalar"):
            tf.estimator.EstimatorSpec("eval", loss=tf.zeros([2]))
    with pytest.raises(ValueError, match="not expected args"):
        v1.estimator.add_metrics(est, lambda predictions, other: {})


def test_wide_and_deep_and_baseline_estimators(tmp_path):
    features, x = _two_feature_data()
    labels = (x[:, 0] + x[:, 1] > 0).astype(np.int64)
    fc = v1.feature_column
    bucket = fc.bucketized_column(fc.numeric_column("a"), [-1.0, 0.0, 1.0])
    est = v1.estimator.DNNLinearCombinedClassifier(
        model_dir=str(tmp_path / "wd"), linear_feature_columns=[bucket],
        dnn_feature_columns=[fc.numeric_column("a"), fc.numeric_column("b")],
        dnn_hidden_units=[4], dnn_optimizer=lambda: v1.train.AdamOptimizer(0.05),
        config=SEEDED)
    est.train(_numpy_fn(features, labels, batch_size=20, num_epochs=None, shuffle=True),
              steps=40)
    names = est.get_variable_names()
    assert est.get_variable_value("global_step") == 40        # one step per batch
    assert "dnn/logits/kernel/Adam" in names and "linear/linear_model/a_bucketized/weights" \
        in names and "linear/linear_model/a_bucketized/weights/Ftrl" in names
    assert est.evaluate(_numpy_fn(features, labels, batch_size=40))["accuracy"] > 0.8
    with pytest.raises(ValueError, match="Either linear_feature_columns or dnn_feature_columns"):
        tf.estimator.DNNLinearCombinedRegressor()
    with pytest.raises(ValueError, match="dnn_hidden_units must be defined"):
        tf.estimator.DNNLinearCombinedRegressor(dnn_feature_columns=[fc.numeric_column("a")])
    base = tf.estimator.BaselineClassifier(model_dir=str(tmp_path / "b"), config=SEEDED)
    base.train(_numpy_fn(features, labels, batch_size=40, num_epochs=None, shuffle=True),
               steps=100)
    prior = labels.mean()
    got = next(base.predict(_numpy_fn(features)))["probabilities"][1]
    np.testing.assert_allclose(got, prior, atol=0.03)         # the class prior
    assert base.get_variable_names()[0] == "baseline/bias"


def test_early_stopping_hooks_read_the_evaluations_summaries(tmp_path):
    est = _estimator(tmp_path)
    experimental = tf.estimator.experimental
    never = experimental.stop_if_higher_hook(est, "loss", 1e9, run_every_secs=None,
                                             run_every_steps=1)
    est.train(_train_input_fn, steps=5, hooks=[never])    # no evaluation yet: goes on
    assert est.get_variable_value("global_step") == 5
    assert not est.get_variable_value("signal_early_stopping")   # TF's variable, saved
    loss = est.evaluate(_eval_input_fn)["loss"]
    from flowgrad.estimator.early_stopping import read_eval_metrics
    recorded = read_eval_metrics(est.eval_dir())
    assert list(recorded) == [5] and abs(recorded[5]["loss"] - loss) < 1e-6
    est.train(_train_input_fn, steps=3, hooks=[never])
    assert est.get_variable_value("global_step") == 8
    now = experimental.stop_if_lower_hook(est, "loss", 1e9, run_every_secs=None,
                                          run_every_steps=1)
    est.train(_train_input_fn, steps=100, hooks=[now])
    assert est.get_variable_value("global_step") == 9             # stopped after one step
    assert est.get_variable_value("signal_early_stopping")
    stale = experimental.stop_if_no_decrease_hook(est, "loss", 0, run_every_secs=None,
                                                  run_every_steps=1)
    est.train(_train_input_fn, steps=100, hooks=[stale])
    assert est.get_variable_value("global_step") == 10
    with pytest.raises(ValueError, match="Only one of run_every_secs and run_every_steps"):
        experimental.make_early_stopping_hook(est, lambda: False, 1, 1)


def test_keras_layers_in_a_model_fn_keep_their_names_across_graphs(tmp_path):
    """Each Estimator call builds a new graph; Keras names its layers afresh in each (TF
    2.15's Keras did it per graph), so evaluate restores what train saved."""
    if importlib.util.find_spec("keras") is None:
        pytest.skip("needs the keras extra: pip install flowgrad[keras]")
    v1.enable_v2_behavior()
    x = np.random.RandomState(0).randn(64, 3).astype(np.float32)
    y = x.sum(1, keepdims=True)

    def model_fn(features, labels, mode):
        pred = tf.keras.layers.Dense(1)(tf.keras.layers.Dense(4)(features["x"]))
        if mode == tf.estimator.ModeKeys.PREDICT:
            return tf.estimator.EstimatorSpec(mode, predictions=pred)
        loss = tf.reduce_mean(tf.square(pred - labels))
        opt = v1.train.AdamOptimizer(0.05)
        return tf.estimator.EstimatorSpec(
            mode, loss=loss, train_op=opt.minimize(loss, v1.train.get_global_step()))

    def input_fn():
        return tf.data.Dataset.from_tensor_slices(({"x": x}, y)).batch(16)

    est = tf.estimator.Estimator(model_fn, str(tmp_path), config=SEEDED)
    tf.keras.layers.Dense(2)             # a layer outside: its name does not shift theirs
    est.train(input_fn, steps=4)
    before = sorted(est.get_variable_names())
    assert est.evaluate(input_fn)["global_step"] == 4
    est.train(input_fn, steps=4)
    assert sorted(est.get_variable_names()) == before
    assert len(list(est.predict(
        lambda: tf.data.Dataset.from_tensor_slices({"x": x}).batch(8)))) == 64

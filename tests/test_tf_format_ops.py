"""Ops that SavedModels and GraphDefs hold in TensorFlow's form: tf.print inside a saved
tf.function (StringFormat and PrintV2, a control output of the FunctionDef, so it runs on
every call: tests/data/tf_print_saved_model, written by tools/tf_reference/print_saved_model.py)
and the gamma and Poisson samplers of a TF1 graph (tests/data/tf_graphs/samplers.meta, by
tools/tf_reference/sampler_graph.py), both ways."""
import sys
from pathlib import Path

import numpy as np
import pytest

import flowgrad as tf
from flowgrad.compat import v1

DATA = Path(__file__).resolve().parent / "data" / "tf_print_saved_model"
GRAPHS = Path(__file__).resolve().parent / "data" / "tf_graphs"


@pytest.fixture
def eager():
    v1.enable_v2_behavior()
    yield


class _Printer(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def f(self, x):
        tf.print("x is", x, {"k": x * 2}, output_stream=sys.stdout)
        return x * 2


def test_tensorflows_saved_print_runs_on_every_call(eager, capsys):
    m = tf.saved_model.load(str(DATA))
    for _ in range(2):
        assert m.f(tf.constant([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]
    assert capsys.readouterr().out == "x is [1 2] {'k': [2 4]}\n" * 2


def test_flowgrads_saved_print_is_tensorflows_graph(eager, capsys, tmp_path):
    tf.saved_model.save(_Printer(), str(tmp_path))
    assert (tmp_path / "saved_model.pb").exists()          # TensorFlow's format, not JSON
    capsys.readouterr()
    m = tf.saved_model.load(str(tmp_path))
    m.f(tf.constant([3.0, 4.0]))
    assert capsys.readouterr().out == "x is [3 4] {'k': [6 8]}\n"


def test_a_ragged_print_saves_in_flowgrads_format(eager, capsys, tmp_path):
    class Ragged(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([3], tf.int32)])
        def f(self, x):
            tf.print(tf.RaggedTensor.from_row_splits(x, [0, 1, 3]), output_stream=sys.stdout)
            return x

    with pytest.warns(UserWarning, match="flowgrad's own SavedModel format"):
        tf.saved_model.save(Ragged(), str(tmp_path))
    capsys.readouterr()
    tf.saved_model.load(str(tmp_path)).f(tf.constant([1, 2, 3]))
    assert capsys.readouterr().out == "[[1], [2, 3]]\n"


def _run_twice(meta: str) -> list:
    with v1.Graph().as_default() as g:
        v1.train.import_meta_graph(meta)
        fetch = [g.get_tensor_by_name(n) for n in ("gam/Maximum:0", "poi/RandomPoissonV2:0")]
        with v1.Session() as s:
            return [s.run(fetch), s.run(fetch)]


def test_tensorflows_sampler_graph_imports_with_its_numbers():
    values = np.load(GRAPHS / "samplers_values.npz")
    runs = _run_twice(str(GRAPHS / "samplers.meta"))
    for k, (gam, poi) in enumerate(runs):
        np.testing.assert_array_equal(gam, values["gamma"][k])
        np.testing.assert_array_equal(poi, values["poisson"][k])


def test_flowgrads_sampler_graph_exports_as_tensorflows(tmp_path):
    with v1.Graph().as_default():
        v1.random_gamma([3], [0.5, 2.0], seed=1, name="gam")
        v1.random.poisson([1.5, 30.0], [3], seed=2, name="poi")
        meta = v1.train.export_meta_graph(str(tmp_path / "s.meta"))
    types = {n.name: n.op for n in meta.graph_def.node}
    assert types["gam/RandomGamma"] == "RandomGamma"
    assert types["poi/RandomPoissonV2"] == "RandomPoissonV2"
    values = np.load(GRAPHS / "samplers_values.npz")
    gam, poi = _run_twice(str(tmp_path / "s.meta"))[0]
    np.testing.assert_array_equal(gam, values["gamma"][0])
    np.testing.assert_array_equal(poi, values["poisson"][0])

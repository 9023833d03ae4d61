"""SavedModels with assets, written by TensorFlow 2.21 (tests/data/tf_assets/, made by
tools/tf_reference/make_assets.py): a vocabulary file in ``assets/`` behind a lookup table,
restored from TF2's object graph (the table's ``_initialize`` function reads the
``tf.saved_model.Asset``) and from TF1's builder (the ``saved_model_assets`` collection and
the ``main_op``). The file the graph names at export time is gone, so only ``assets/`` can
serve it."""
import os
import shutil

import numpy as np
import pytest

import flowgrad as tf
import flowgrad.compat.v1 as tf1
from flowgrad.framework import errors
from flowgrad.framework.context import state

DATA = os.path.join(os.path.dirname(__file__), "data", "tf_assets")
REF = np.load(os.path.join(DATA, "assets.npz"), allow_pickle=True)


@pytest.fixture
def eager():
    tf1.enable_v2_behavior()
    yield
    state.tapes.clear()


def test_tf2_saved_model_with_a_vocabulary_table(eager, tmp_path):
    moved = str(tmp_path / "moved")          # a copy elsewhere reads its own assets/
    shutil.copytree(os.path.join(DATA, "vocab_saved_model"), moved)
    m = tf.saved_model.load(moved)
    assert m.vocab.asset_path.numpy().decode() == os.path.join(moved, "assets", "vocab.txt")
    words = tf.constant(REF["words"])
    out = m(words)
    np.testing.assert_array_equal(out["ids"].numpy(), REF["ids"])
    np.testing.assert_array_equal(out["scaled"].numpy(), REF["scaled"])
    assert int(out["size"].numpy()) == int(REF["size"]) == 5
    sig = m.signatures["serving_default"](words=words)
    np.testing.assert_array_equal(sig["ids"].numpy(), REF["ids"])
    m.scale.assign(3)
    np.testing.assert_array_equal(m(words)["scaled"].numpy(), REF["ids"] * 3)


def test_a_missing_asset_file_is_an_error_naming_it(eager, tmp_path):
    moved = str(tmp_path / "moved")
    shutil.copytree(os.path.join(DATA, "vocab_saved_model"), moved)
    os.remove(os.path.join(moved, "assets", "vocab.txt"))
    with pytest.raises(errors.NotFoundError, match="vocab.txt"):
        tf.saved_model.load(moved)


def test_tf1_saved_model_with_assets_and_main_op():
    with tf1.Session() as sess:
        meta = tf1.saved_model.loader.load(sess, ["serve"],
                                           os.path.join(DATA, "tf1_vocab_saved_model"))
        sig = meta.signature_def["serving_default"]
        ids = sess.run(sig.outputs["ids"].name, {sig.inputs["words"].name: REF["words"]})
    np.testing.assert_array_equal(ids, REF["tf1_ids"])


@pytest.mark.parametrize("name, inputs, expected", [
    ("keras_lookup_export", "keras_words", "keras_ids"),
    ("keras_text_export", "sentences", "text_ids")])
def test_keras_lookup_layers_exported_by_tensorflow(eager, tmp_path, name, inputs, expected):
    """Keras 3 StringLookup / TextVectorization with a vocabulary file, as TF's
    ``model.export`` writes them (tables initialized from ``assets/``; TextVectorization's
    ``tf.strings.split`` gives RaggedTensorToTensor FIRST_DIM_SIZE/VALUE_ROWIDS partitions
    and default attributes left out of the nodes)."""
    moved = str(tmp_path / name)
    shutil.copytree(os.path.join(DATA, name), moved)
    m = tf.saved_model.load(moved)
    got = m.serve(tf.constant(REF[inputs]))
    np.testing.assert_array_equal(got.numpy(), REF[expected])


class _Vocab(tf.Module):
    """As tools/tf_reference/make_assets.py's module, plus a function reading the asset."""

    def __init__(self, path):
        super().__init__()
        self.vocab = tf.saved_model.Asset(path)
        self.table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            self.vocab, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
            tf.lookup.TextFileIndex.LINE_NUMBER), default_value=-1)
        self.scale = tf.Variable(10, dtype=tf.int64)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="words")])
    def __call__(self, words):
        return {"ids": self.table.lookup(words), "scaled": self.table.lookup(words) * self.scale,
                "size": self.table.size()}

    @tf.function(input_signature=[])
    def contents(self):
        return tf.io.read_file(self.vocab)


def _write_vocab(path, words=("the", "cat", "sat", "on", "mat")):
    with open(path, "w") as f:
        f.write("\n".join(words) + "\n")
    return str(path)


def test_save_writes_assets_as_tensorflow_does(eager, tmp_path):
    from flowgrad.saved_model import tf_loader
    vocab = _write_vocab(tmp_path / "vocab.txt")
    m = _Vocab(vocab)
    assert m.table._initializer._filename is m.vocab          # one Asset, as in TF
    tf.saved_model.save(m, str(tmp_path / "sm"))
    assert os.listdir(tmp_path / "sm" / "assets") == ["vocab.txt"]
    meta = tf_loader.read_saved_model(str(tmp_path / "sm")).meta_graphs[0]
    ref = tf_loader.read_saved_model(os.path.join(DATA, "vocab_saved_model")).meta_graphs[0]
    for mg in (meta, ref):               # TF's layout: one AssetFileDef, an asset node
        assert [a.filename for a in mg.asset_file_def] == ["vocab.txt"]
        assert mg.asset_file_def[0].tensor_info.name == "asset_path_initializer:0"
        nodes = mg.object_graph_def.nodes
        kinds = {c.local_name: nodes[c.node_id].WhichOneof("kind") for c in nodes[0].children}
        assert kinds["vocab"] == "asset" and kinds["scale"] == "variable"
        table = nodes[next(c.node_id for c in nodes[0].children if c.local_name == "table")]
        init = nodes[next(c.node_id for c in table.children if c.local_name == "_initializer")]
        assert [(c.local_name, c.node_id) for c in init.children] == [
            ("_filename", next(c.node_id for c in nodes[0].children if c.local_name == "vocab"))]


def test_a_saved_asset_moves_with_the_saved_model(eager, tmp_path):
    vocab = _write_vocab(tmp_path / "vocab.txt")
    m = _Vocab(vocab)
    words = tf.constant(REF["words"])
    before = m(words)
    tf.saved_model.save(m, str(tmp_path / "sm"))
    os.remove(vocab)                                  # the SavedModel is hermetic
    shutil.move(str(tmp_path / "sm"), str(tmp_path / "moved"))
    loaded = tf.saved_model.load(str(tmp_path / "moved"))
    path = os.path.join(str(tmp_path / "moved"), "assets", "vocab.txt")
    assert loaded.vocab.asset_path.numpy().decode() == path
    assert loaded.contents().numpy() == b"the\ncat\nsat\non\nmat\n"
    out = loaded(words)
    for k in ("ids", "scaled", "size"):
        np.testing.assert_array_equal(out[k].numpy(), before[k].numpy())
    np.testing.assert_array_equal(out["ids"].numpy(), REF["ids"])


def test_two_assets_with_one_file_name_get_tensorflows_names(eager, tmp_path):
    os.makedirs(tmp_path / "a")
    os.makedirs(tmp_path / "b")
    m = tf.Module()
    m.first = tf.saved_model.Asset(_write_vocab(tmp_path / "a" / "vocab.txt", ["x"]))
    m.second = tf.saved_model.Asset(_write_vocab(tmp_path / "b" / "vocab.txt", ["y"]))
    m.read = tf.function(lambda: tf.io.read_file(m.first) + tf.io.read_file(m.second),
                         input_signature=[])
    tf.saved_model.save(m, str(tmp_path / "sm"))
    assert sorted(os.listdir(tmp_path / "sm" / "assets")) == ["vocab.txt", "vocab.txt_1"]
    loaded = tf.saved_model.load(str(tmp_path / "sm"))
    assert loaded.read().numpy() == b"x\ny\n"


def test_saving_a_missing_asset_is_an_error_and_writes_nothing(eager, tmp_path):
    m = tf.Module()
    m.vocab = tf.saved_model.Asset(str(tmp_path / "gone.txt"))
    with pytest.raises(errors.NotFoundError, match="gone.txt"):
        tf.saved_model.save(m, str(tmp_path / "sm"))
    assert not os.path.exists(tmp_path / "sm" / "saved_model.pb")


def test_an_asset_is_its_path_as_a_tensor(eager, tmp_path):
    a = tf.saved_model.Asset(_write_vocab(tmp_path / "v.txt"))
    assert tf.saved_model.Asset(a) is a
    assert tf.io.read_file(a).numpy() == b"the\ncat\nsat\non\nmat\n"
    with pytest.raises(ValueError, match="dtype string for Tensor with dtype int32"):
        tf.saved_model.Asset(tf.constant(3))             # TensorFlow's error


def test_tf1_builder_writes_the_assets_collection(tmp_path):
    """TF1: a TextFileInitializer's path joins ``asset_filepaths``; the builder copies the
    file to ``assets/`` and records TF1's ``saved_model_assets`` collection."""
    from flowgrad.saved_model import tf_loader
    from flowgrad.saved_model.tf1_saved_model import asset_file_defs
    vocab = _write_vocab(tmp_path / "vocab.txt")
    g = tf.Graph()
    with g.as_default():
        words = tf1.placeholder(tf.string, [None], name="words")
        table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            vocab, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
            tf.lookup.TextFileIndex.LINE_NUMBER), default_value=-1)
        ids = table.lookup(words)
        assets = g.get_collection(tf1.GraphKeys.ASSET_FILEPATHS)
        assert len(assets) == 1
        with tf1.Session() as sess:
            b = tf1.saved_model.Builder(str(tmp_path / "sm"))
            b.add_meta_graph_and_variables(
                sess, ["serve"], {"serving_default": tf1.saved_model.predict_signature_def(
                    {"words": words}, {"ids": ids})},
                assets_collection=assets, main_op=tf1.tables_initializer())
            b.save()
    os.remove(vocab)
    meta = tf_loader.read_saved_model(str(tmp_path / "sm")).meta_graphs[0]
    assert [(a.filename, a.tensor_info.name) for a in asset_file_defs(meta)] == [
        ("vocab.txt", assets[0].name)]
    assert os.listdir(tmp_path / "sm" / "assets") == ["vocab.txt"]
    assert meta.collection_def["saved_model_assets"].any_list.value[0].type_url == \
        "type.googleapis.com/tensorflow.AssetFileDef"         # what TensorFlow unpacks
    with tf1.Session(graph=tf.Graph()) as sess:
        meta = tf1.saved_model.loader.load(sess, ["serve"], str(tmp_path / "sm"))
        sig = meta.signature_def["serving_default"]
        got = sess.run(sig.outputs["ids"].name, {sig.inputs["words"].name: REF["words"]})
    np.testing.assert_array_equal(got, REF["tf1_ids"])

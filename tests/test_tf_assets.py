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

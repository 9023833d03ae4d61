"""Writes SavedModels with assets (a vocabulary file behind a lookup table) with real
TensorFlow 2.21 into tests/data/tf_assets/ (run with the TensorFlow venv:
/work/venv-tf/bin/python tools/tf_reference/make_assets.py):

- ``vocab_saved_model/``: a ``tf.Module`` holding a ``tf.lookup.StaticHashTable`` filled by
  a ``TextFileInitializer`` from ``tf.saved_model.Asset``-tracked ``vocab.txt``, saved by
  ``tf.saved_model.save`` (the file goes to ``assets/``); its function looks words up and
  scales the ids by a variable;
- ``tf1_vocab_saved_model/``: a TF1 graph with the same table, saved by the
  ``SavedModelBuilder`` with the vocabulary in the assets collection and
  ``tf.compat.v1.tables_initializer()`` as its ``main_op``;
- ``assets.npz``: the words fed and TensorFlow's outputs.

The vocabulary file written at export time is deleted afterwards, so a loader that reads
the path recorded in the graph instead of ``assets/`` fails.
"""
import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "tf_assets")
WORDS = ["the", "cat", "sat", "on", "mat"]
QUERY = np.array([b"cat", b"dog", b"mat", b"the", b""], dtype=object)


class Vocab(tf.Module):
    def __init__(self, path):
        super().__init__()
        self.vocab = tf.saved_model.Asset(path)
        init = tf.lookup.TextFileInitializer(
            self.vocab, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
            tf.lookup.TextFileIndex.LINE_NUMBER)
        self.table = tf.lookup.StaticHashTable(init, default_value=-1)
        self.scale = tf.Variable(10, dtype=tf.int64)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="words")])
    def __call__(self, words):
        return {"ids": self.table.lookup(words), "scaled": self.table.lookup(words) * self.scale,
                "size": self.table.size()}


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    tmp = tempfile.mkdtemp()
    vocab = os.path.join(tmp, "vocab.txt")
    with open(vocab, "w") as f:
        f.write("\n".join(WORDS) + "\n")
    m = Vocab(vocab)
    tf.saved_model.save(m, os.path.join(OUT, "vocab_saved_model"))
    out = m(tf.constant(QUERY))
    g = tf.Graph()
    with g.as_default():
        v1 = tf.compat.v1
        words = v1.placeholder(tf.string, [None], name="words")
        table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            vocab, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
            tf.lookup.TextFileIndex.LINE_NUMBER), default_value=-1)
        ids = table.lookup(words)
        with v1.Session() as sess:
            sess.run(v1.tables_initializer())
            tf1_ids = sess.run(ids, {words: QUERY})
            b = v1.saved_model.Builder(os.path.join(OUT, "tf1_vocab_saved_model"))
            sig = v1.saved_model.predict_signature_def({"words": words}, {"ids": ids})
            b.add_meta_graph_and_variables(
                sess, ["serve"], {"serving_default": sig},
                assets_collection=g.get_collection(v1.GraphKeys.ASSET_FILEPATHS),
                main_op=v1.tables_initializer())
            b.save()
    shutil.rmtree(tmp)
    np.savez(os.path.join(OUT, "assets.npz"), words=QUERY, ids=out["ids"].numpy(),
             scaled=out["scaled"].numpy(), size=out["size"].numpy(), tf1_ids=tf1_ids)


if __name__ == "__main__":
    main()

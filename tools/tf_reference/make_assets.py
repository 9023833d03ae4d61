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
- ``keras_lookup_export/`` and ``keras_text_export/``: Keras 3 ``model.export`` of a
  ``StringLookup`` and of a ``TextVectorization`` whose vocabularies are a file (Keras's
  lookup tables go to the SavedModel with the file in ``assets/``);
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
    keras_out = keras_exports(vocab)
    shutil.rmtree(tmp)
    np.savez(os.path.join(OUT, "assets.npz"), words=QUERY, ids=out["ids"].numpy(),
             scaled=out["scaled"].numpy(), size=out["size"].numpy(), tf1_ids=tf1_ids,
             **keras_out)


KERAS_WORDS = np.array([["cat", "dog", "mat"], ["the", "on", "x"]], dtype=object)
SENTENCES = np.array(["the cat sat on a mat", "The MAT, the cat!"], dtype=object)


def keras_exports(vocab):
    """Keras 3 StringLookup / TextVectorization over the vocabulary file, exported."""
    import keras
    inp = keras.Input((None,), dtype="string")
    lookup = keras.Model(inp, keras.layers.StringLookup(vocabulary=vocab)(inp))
    lookup.export(os.path.join(OUT, "keras_lookup_export"), verbose=False)
    text_in = keras.Input((), dtype="string")
    text = keras.Model(text_in, keras.layers.TextVectorization(
        vocabulary=vocab, output_mode="int", output_sequence_length=6)(text_in))
    text.export(os.path.join(OUT, "keras_text_export"), verbose=False)
    return {"keras_words": KERAS_WORDS, "keras_ids": lookup(tf.constant(KERAS_WORDS)).numpy(),
            "sentences": SENTENCES, "text_ids": text(tf.constant(SENTENCES)).numpy()}


if __name__ == "__main__":
    main()

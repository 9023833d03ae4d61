"""A tf.data iterator in a checkpoint (the TF data guide's "Iterator checkpointing"):
``save DIR`` reads the first elements of some pipelines, writes
``tf.train.Checkpoint(iterator=it)`` for each and records the elements an uninterrupted
iterator gives next; ``load DIR`` (another process) restores fresh iterators of the same
pipelines and prints whether they give those elements (and, for the seeded pipelines, the
elements). An unseeded reshuffling ``shuffle`` gives the saved epoch's remaining elements
and then other epochs than the saved process would have: the new process's dataset has other
random seeds (as on TensorFlow).

Real TensorFlow 2.21 printed tests/data/iterator_checkpoint/load_tf_2_21.txt
(``/path/to/tf-venv/bin/python tools/tf_reference/iterator_checkpoint.py save DIR``, then
``load DIR``) and wrote tests/data/iterator_checkpoint/tf_iterator-1.* (``tf_checkpoint DIR``:
TensorFlow's serialized iterator state, which flowgrad refuses to restore);
tests/test_iterator_checkpoint.py runs save and load on flowgrad."""
import json
import os
import sys

import tensorflow as tf


def pipelines():
    """name -> (dataset, whether its order is seeded)."""
    def pair(x):
        return {"x": x, "y": tf.strings.as_string(x)}
    return {
        "seeded_shuffle": (tf.data.Dataset.range(10).map(lambda x: x * 2).shuffle(
            5, seed=1).batch(2).repeat(2), True),
        "reshuffle_each_epoch": (tf.data.Dataset.range(12).shuffle(12).batch(3).repeat(3),
                                 False),
        "random": (tf.data.Dataset.random(seed=7).map(lambda x: x % 100).take(9), True),
        "dict_elements": (tf.data.Dataset.range(7).map(pair).batch(2), True),
        "zip_filter_interleave": (tf.data.Dataset.zip((
            tf.data.Dataset.range(8),
            tf.data.Dataset.range(4).interleave(
                lambda x: tf.data.Dataset.from_tensors(x).repeat(2), cycle_length=2))).filter(
                    lambda a, b: a % 3 != 0), True),
    }


def plain(element):
    return tf.nest.map_structure(lambda t: t.numpy().tolist() if t.dtype != tf.string
                                 else [s.decode() for s in t.numpy().ravel().tolist()],
                                 element)


def main():
    mode, folder = sys.argv[1], sys.argv[2]
    if mode == "tf_checkpoint":
        it = iter(pipelines()["seeded_shuffle"][0])
        next(it)
        tf.train.Checkpoint(iterator=it).save(os.path.join(folder, "tf_iterator"))
        return
    following = {}
    if mode == "load":
        with open(os.path.join(folder, "following.json")) as f:
            following = json.load(f)
    for name, (dataset, seeded) in pipelines().items():
        it = iter(dataset)
        ckpt = tf.train.Checkpoint(iterator=it)
        path = os.path.join(folder, name)
        if mode == "save":
            for _ in range(3):
                next(it)
            ckpt.write(path)
            following[name] = [plain(e) for e in it]
        else:
            ckpt.read(path).assert_consumed()
            rest = json.loads(json.dumps([plain(e) for e in it]))
            print(name, rest == following[name], rest if seeded else len(rest))
    if mode == "save":
        with open(os.path.join(folder, "following.json"), "w") as f:
            json.dump(following, f)
        print(sorted(k for k, _ in tf.train.list_variables(os.path.join(folder, "random"))))


if __name__ == "__main__":
    main()

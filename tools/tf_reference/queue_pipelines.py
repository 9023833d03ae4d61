"""TensorFlow 1's queue-based input pipelines, as tutorials and books write them: TFRecords
read with ``string_input_producer`` + ``TFRecordReader`` + ``parse_single_example`` +
``tf.train.batch``; a CIFAR-10-style binary reader (``FixedLengthRecordReader``,
``decode_raw``, ``shuffle_batch``); CSV lines (``TextLineReader``, ``decode_csv``);
``slice_input_producer``, ``batch_join``, ``dynamic_pad``, ``maybe_batch``, the queues
themselves; and the ``OutOfRangeError`` at the end of the epochs.

Run with real TensorFlow 2.21: ``/work/venv-tf/bin/python tools/tf_reference/queue_pipelines.py
> tests/data/queue_pipelines/tf_2_21.txt``; tests/test_queue_pipelines.py runs it with
``python -m flowgrad`` and compares the output line by line. Orders that depend on threads or
on a shuffle are printed sorted.
"""
import os
import re
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
WORK = tempfile.mkdtemp()


def run_to_end(fetches, feed=None):
    """Runs ``fetches`` until the input ends; the values of each run."""
    out = []
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess=sess, coord=coord)
        try:
            while not coord.should_stop():
                out.append(sess.run(fetches, feed))
        except tf.errors.OutOfRangeError as e:
            print("  end of input:", type(e).__name__)
        finally:
            coord.request_stop()
        coord.join(threads)
    return out


def plain(value):
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, np.generic):
        return value.item()
    return value


# -- TFRecords, in order (one reader thread)
for f in range(2):
    with tf.python_io.TFRecordWriter(os.path.join(WORK, "part%d.tfrecord" % f)) as w:
        for i in range(5):
            ex = tf.train.Example(features=tf.train.Features(feature={
                "x": tf.train.Feature(float_list=tf.train.FloatList(value=[f * 10 + i, i / 2])),
                "y": tf.train.Feature(int64_list=tf.train.Int64List(value=[i % 3])),
                "raw": tf.train.Feature(bytes_list=tf.train.BytesList(value=[bytes([i, f])]))}))
            w.write(ex.SerializeToString())
print("tfrecords")
with tf.Graph().as_default():
    files = tf.train.match_filenames_once(os.path.join(WORK, "*.tfrecord"))
    fq = tf.train.string_input_producer(files, num_epochs=2, shuffle=False)
    key, serialized = tf.TFRecordReader().read(fq)
    feats = tf.parse_single_example(serialized, {"x": tf.FixedLenFeature([2], tf.float32),
                                                 "y": tf.FixedLenFeature([], tf.int64),
                                                 "raw": tf.FixedLenFeature([], tf.string)})
    raw = tf.decode_raw(feats["raw"], tf.uint8)
    raw.set_shape([2])
    xb, yb, rb, kb = tf.train.batch([feats["x"], feats["y"], raw, key], batch_size=4,
                                    allow_smaller_final_batch=True)
    print(" ", xb.shape, yb.dtype, rb.shape, kb.op.type, fq.name, fq.queue_ref.op.type)
    for x, y, r, k in run_to_end([xb, yb, rb, kb]):
        print(" ", x.tolist(), y.tolist(), r.tolist(),
              [os.path.basename(v.decode()) for v in k])
    print(" ", sorted(qr.name for qr in tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)))
    print(" ", sorted(s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)))
    print(" ", sorted(v.op.name for v in tf.local_variables()))

# -- CIFAR-10's binary format: a label byte, then a 3x4x4 image
print("cifar")
with open(os.path.join(WORK, "data_batch_1.bin"), "wb") as f:
    for i in range(12):
        f.write(bytes([i % 10] + [(p + i * 3) % 256 for p in range(48)]))
with tf.Graph().as_default():
    tf.set_random_seed(0)
    fq = tf.train.string_input_producer([os.path.join(WORK, "data_batch_1.bin")],
                                        num_epochs=1)
    reader = tf.FixedLengthRecordReader(record_bytes=1 + 48)
    key, value = reader.read(fq)
    record = tf.decode_raw(value, tf.uint8)
    label = tf.cast(tf.strided_slice(record, [0], [1]), tf.int32)
    image = tf.transpose(tf.reshape(tf.strided_slice(record, [1], [49]), [3, 4, 4]), [1, 2, 0])
    image = tf.cast(image, tf.float32) / 255.0
    image.set_shape([4, 4, 3])
    label.set_shape([1])
    images, labels = tf.train.shuffle_batch([image, label], batch_size=5, num_threads=2,
                                            capacity=20, min_after_dequeue=4,
                                            allow_smaller_final_batch=True)
    print(" ", images.shape, labels.shape, images.dtype)
    got = run_to_end([images, labels, reader.num_records_produced()])
    print(" ", sorted(len(b[1]) for b in got), sorted(int(v) for b in got for v in b[1].ravel()))
    print(" ", sorted(round(float(v), 4) for b in got for v in b[0].mean(axis=(1, 2, 3))))
    print(" ", max(int(b[2]) for b in got))

# -- CSV lines
print("csv")
with open(os.path.join(WORK, "iris.csv"), "w") as f:
    f.write("sepal,petal,label\n5.1,1.4,0\n4.9,,1\n6.2,4.3,2\n")
with tf.Graph().as_default():
    fq = tf.train.string_input_producer([os.path.join(WORK, "iris.csv")], shuffle=False,
                                        num_epochs=2)
    key, line = tf.TextLineReader(skip_header_lines=1).read(fq)
    sepal, petal, label = tf.decode_csv(line, record_defaults=[[0.0], [-1.0], [0]])
    features = tf.stack([sepal, petal])
    fb, lb, keys = tf.train.batch([features, label, key], batch_size=2, num_threads=1)
    for f, lab, k in run_to_end([fb, lb, keys]):
        print(" ", np.round(f, 4).tolist(), lab.tolist(),
              [os.path.basename(v.decode()) for v in k])

# -- slices of in-memory arrays, batch_join, dynamic_pad, maybe_batch
print("slices")
with tf.Graph().as_default():
    xs = np.arange(10, dtype=np.float32).reshape(5, 2)
    ys = np.arange(5, dtype=np.int64)
    x, y = tf.train.slice_input_producer([xs, ys], num_epochs=1, shuffle=False)
    xb, yb = tf.train.batch([x, y], batch_size=2, allow_smaller_final_batch=True)
    for a, b in run_to_end([xb, yb]):
        print(" ", a.tolist(), b.tolist())
with tf.Graph().as_default():
    r = tf.train.range_input_producer(6, num_epochs=1, shuffle=False).dequeue()
    kept = tf.train.maybe_batch([r], keep_input=tf.equal(r % 2, 0), batch_size=2)
    print(" ", [v.tolist() for v in run_to_end(kept)])
with tf.Graph().as_default():
    n = tf.train.range_input_producer(4, num_epochs=1, shuffle=False).dequeue()
    seq = tf.range(n + 1)
    padded = tf.train.batch({"seq": seq, "n": n}, batch_size=2, dynamic_pad=True)
    print(" ", sorted(padded), padded["seq"].shape)
    for v in run_to_end(padded):
        print(" ", v["n"].tolist(), v["seq"].tolist())
with tf.Graph().as_default():
    a = tf.train.range_input_producer(3, num_epochs=1, shuffle=False).dequeue()
    b = tf.train.range_input_producer(3, num_epochs=1, shuffle=False).dequeue() + 100
    joined = tf.train.batch_join([[a], [b]], batch_size=2, allow_smaller_final_batch=True)
    print(" ", sorted(int(v) for batch in run_to_end(joined) for v in batch))
    shuffled = tf.train.shuffle_batch_join([[a * 2]], batch_size=1, capacity=4,
                                           min_after_dequeue=1)
    print(" ", shuffled.shape)

# -- the queues themselves
print("queues")
with tf.Graph().as_default():
    q = tf.FIFOQueue(3, [tf.int32, tf.string], shapes=[[], []], names=["n", "s"])
    enq = q.enqueue_many({"n": [1, 2, 3], "s": ["a", "b", "c"]})
    one = q.dequeue()
    two = q.dequeue_many(2)
    pq = tf.PriorityQueue(5, [tf.string], shapes=[[]])
    with tf.Session() as sess:
        sess.run(enq)
        print(" ", sess.run(q.size()), plain(sess.run(one)), plain(sess.run(two)))
        sess.run(q.close())
        print(" ", sess.run(q.is_closed()))
        for call in (lambda: sess.run(one), lambda: sess.run(enq)):
            try:
                call()
            except tf.errors.OpError as e:
                message = [line for line in str(e).splitlines() if "closed" in line][0]
                print(" ", type(e).__name__, re.sub(r"'_\d+_", "'_N_", message.strip()))
        for p, v in ((5, "five"), (1, "one"), (3, "three")):
            sess.run(pq.enqueue((p, v)))
        print(" ", plain(sess.run(pq.dequeue_many(3))))
    try:
        tf.train.batch([tf.placeholder(tf.float32, [None])], batch_size=2)
    except ValueError as e:
        print("  ValueError", str(e).split(":")[0])

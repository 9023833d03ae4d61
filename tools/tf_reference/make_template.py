"""``tf.compat.v1.make_template``: a function whose variables are made on the first call and
shared by later ones (names, scopes, the variables lists, values in a session, the error for a
``tf.Variable`` made on a later call).

Run with real TensorFlow 2.21: ``/work/venv-tf/bin/python tools/tf_reference/make_template.py
> tests/data/make_template/tf_2_21.txt``; tests/test_make_template.py runs it with
``python -m flowgrad`` and compares the output line by line.
"""
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()


def dense(x, units, scale=1.0):
    w = tf.get_variable("w", [x.shape[1], units], initializer=tf.constant_initializer(scale))
    b = tf.get_variable("b", [units], initializer=tf.zeros_initializer())
    return tf.matmul(x, w) + b


with tf.Graph().as_default():
    layer = tf.make_template("layer", dense, units=2, scale=0.5)
    x = tf.ones([3, 4])
    y1 = layer(x)
    y2 = layer(x * 2.0)
    other = tf.make_template("layer", dense, units=3)
    y3 = other(x)
    print(layer.name, layer.variable_scope.name, layer.variable_scope_name,
          other.variable_scope_name)
    print([v.name for v in layer.variables], [v.name for v in layer.trainable_variables])
    print([v.name for v in other.global_variables], len(layer.local_variables))
    print([v.name for v in tf.global_variables()])
    with tf.variable_scope("outer"):
        nested = tf.make_template("inner", dense, create_scope_now_=True, units=1)
    y4 = nested(x)
    print(nested.variable_scope_name, [v.name for v in nested.variables])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print(sess.run(y1).tolist(), sess.run(y2).tolist(), sess.run(y3).shape, sess.run(y4).shape)

    def bad(x):
        return x * tf.Variable(1.0, name="v")

    t = tf.make_template("bad", bad)
    t(x)
    try:
        t(x)
    except ValueError as e:
        print("ValueError", str(e).split(":")[0])
    try:
        tf.make_template(None, dense)
    except ValueError as e:
        print("ValueError", e)

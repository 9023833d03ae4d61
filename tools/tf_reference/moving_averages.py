"""A TensorFlow program using ExponentialMovingAverage in both faces: run by real TensorFlow it
made tests/data/moving_averages/tf_2_21.txt (``/path/to/tf-venv/bin/python
tools/tf_reference/moving_averages.py > tests/data/moving_averages/tf_2_21.txt``);
tests/test_moving_averages.py runs it unchanged on flowgrad and compares the output."""
import tensorflow as tf
import tensorflow.compat.v1 as tf1

# TF2, eager
w = tf.Variable([1.0, 2.0], name="w")
ema = tf.train.ExponentialMovingAverage(decay=0.9)
ema.apply([w])
print("eager name", ema.average(w).name, ema.average_name(w))
for _ in range(3):
    w.assign_add([0.5, -0.25])
    ema.apply([w])
print("eager avg", ema.average(w).numpy().tolist())
step = tf.Variable(0.0)
ema2 = tf.train.ExponentialMovingAverage(0.999, num_updates=step)
ema2.apply([w])
step.assign_add(1.0)
w.assign([3.0, 3.0])
ema2.apply([w])
print("num_updates", ema2.average(w).numpy().tolist())

# TF1, a graph
g = tf1.Graph()
with g.as_default():
    v = tf1.get_variable("v", initializer=tf1.constant([1.0, 2.0]))
    with tf1.variable_scope("scope"):
        u = tf1.Variable(5.0, name="u")
    gs = tf1.train.get_or_create_global_step()
    ema = tf1.train.ExponentialMovingAverage(0.99, num_updates=gs)
    op = ema.apply([v, u])
    t = tf1.constant(4.0) * 2.0
    ema_t = tf1.train.ExponentialMovingAverage(0.5, zero_debias=True, name="EMAt")
    op_t = ema_t.apply([t])
    print("graph names", ema.average(v).name, ema.average(u).name, ema.average_name(v),
          ema_t.average(t).name)
    print("collection", [x.name for x in tf1.moving_average_variables()])
    print("restore", sorted(ema.variables_to_restore().keys()))
    print("globals", sorted(x.name for x in tf1.global_variables()))
    with tf1.Session() as s:
        s.run(tf1.global_variables_initializer())
        for _ in range(3):
            s.run(v.assign_add([1.0, 1.0]))
            s.run(gs.assign_add(1))
            s.run(op)
            s.run(op_t)
        print("graph avg", s.run(ema.average(v)).tolist(), s.run(ema.average(u)).tolist(),
              s.run(ema_t.average(t)).tolist())
    print("op name", op.name, op_t.name)

"""TF1 programs that TensorFlow accepts: broadcasting softmax cross-entropy, a global step
found by name, and nested-structure feed keys (issue 17).

The numerical gradient checks of the tf1_gaps cases are entries of tests/op_db.py."""
import collections

import numpy as np
import pytest

import flowgrad
import flowgrad.compat.v1 as tf
from tests.gradcheck import check_gradients

RNG = np.random.RandomState(17)
N, C = 4, 7
LOGITS = RNG.randn(N, C)
PROBS = RNG.dirichlet(np.ones(C), size=N)


def _np_xent(labels, logits):
    s = logits - logits.max(-1, keepdims=True)
    return -(labels * (s - np.log(np.exp(s).sum(-1, keepdims=True)))).sum(-1)


# --------------------------------------------------------------------------------------
# softmax cross-entropy with labels and logits of different rank (TF flattens both to
# [-1, classes] matrices; the kernel broadcasts the labels; the loss has the logits' shape)

XENT_FORMS = {
    "v2": lambda z, x: tf.nn.softmax_cross_entropy_with_logits_v2(labels=z, logits=x),
    "v1": lambda z, x: tf.nn.softmax_cross_entropy_with_logits(labels=z, logits=x),
    "tf2": lambda z, x: flowgrad.nn.softmax_cross_entropy_with_logits(z, x),
}


@pytest.mark.parametrize("form", sorted(XENT_FORMS))
def test_one_hot_labels_of_higher_rank_broadcast_like_tensorflow(form):
    idx = tf.placeholder(tf.int32, [None, 1])
    logits = tf.placeholder(tf.float32, [None, C])
    labels = tf.one_hot(idx, C)                    # [None, 1, 7]: one_hot of a [N, 1] tensor
    loss = XENT_FORMS[form](tf.transpose(labels, [1, 0, 2]), logits)   # [1, None, 7]
    assert loss.shape.as_list() == [None]
    ids = np.array([[2], [0], [6], [3]])
    got = tf.Session().run(loss, {idx: ids, logits: LOGITS})
    want = _np_xent(np.eye(C)[ids[:, 0]], LOGITS)
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_labels_broadcast_over_the_batch_and_their_gradient_has_their_shape():
    z = tf.constant(PROBS[:1])                     # [1, 7] against logits [4, 7]
    x = tf.constant(LOGITS)
    loss = tf.nn.softmax_cross_entropy_with_logits_v2(labels=z, logits=x)
    gz, gx = tf.gradients(tf.reduce_sum(loss), [z, x])
    assert loss.shape.as_list() == [N] and gz.shape.as_list() == [1, C]
    sess = tf.Session()
    np.testing.assert_allclose(sess.run(loss), _np_xent(PROBS[:1], LOGITS))
    s = LOGITS - LOGITS.max(-1, keepdims=True)
    log_sm = s - np.log(np.exp(s).sum(-1, keepdims=True))
    np.testing.assert_allclose(sess.run(gz), -log_sm.sum(0, keepdims=True))
    np.testing.assert_allclose(sess.run(gx), np.exp(log_sm) - PROBS[:1])


def test_higher_rank_labels_gradient_has_the_labels_shape():
    z = tf.constant(PROBS[None])
    x = tf.constant(LOGITS)
    loss = tf.nn.softmax_cross_entropy_with_logits_v2(labels=z, logits=x)
    gz, gx = tf.gradients(loss, [z, x])
    assert gz.shape.as_list() == [1, N, C] and gx.shape.as_list() == [N, C]
    assert tf.Session().run(gz).shape == (1, N, C)


def test_v1_broadcast_xent_stops_the_label_gradient():
    fn = XENT_FORMS["v1"]
    check_gradients(fn, [PROBS[None], LOGITS], order=2, expect_none=(0,))


def test_labels_that_do_not_broadcast_are_rejected():
    x = tf.constant(LOGITS)
    with pytest.raises(ValueError, match="same shape, received"):
        tf.nn.softmax_cross_entropy_with_logits_v2(labels=tf.constant(PROBS[:2]), logits=x)
    with pytest.raises(ValueError, match="last one"):
        tf.nn.softmax_cross_entropy_with_logits_v2(labels=tf.constant(PROBS[None]),
                                                   logits=x, axis=0)
    z = tf.placeholder(tf.float64, [None, C])
    loss = tf.nn.softmax_cross_entropy_with_logits_v2(labels=z, logits=x)
    with pytest.raises(tf.errors.InvalidArgumentError, match="labels that broadcast"):
        tf.Session().run(loss, {z: PROBS[:3]})


# --------------------------------------------------------------------------------------
# tf.train.get_global_step() finds a plain Variable named 'global_step'


def test_global_step_found_by_name_is_the_variable_and_minimize_increments_it():
    step = tf.Variable(0, trainable=False, name="global_step")
    w = tf.Variable(1.0)
    found = tf.train.get_global_step()
    assert found is step
    train = tf.train.GradientDescentOptimizer(0.1).minimize(
        tf.square(w), global_step=tf.train.get_global_step())
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        sess.run(train)
        assert sess.run(step) == 2
        assert tf.train.global_step(sess, found) == 2


def test_global_step_by_name_still_checks_its_type():
    tf.Variable(0.5, trainable=False, name="global_step")
    with pytest.raises(TypeError, match="integer type"):
        tf.train.get_global_step()


# --------------------------------------------------------------------------------------
# Session.run feeds nested-structure keys component by component

StateTuple = collections.namedtuple("StateTuple", ["c", "h"])


def test_feed_dict_namedtuple_key_feeds_each_component():
    state = StateTuple(tf.placeholder(tf.float32, [None, 3]), tf.placeholder(tf.float32, [None, 3]))
    x = tf.placeholder(tf.float32, [None, 3])
    out = state.c * 2.0 + state.h - x
    value = StateTuple(np.ones((2, 3)), np.full((2, 3), 5.0))
    with tf.Session() as sess:
        for _ in range(2):        # the second run reuses the cached plan
            got = sess.run(out, feed_dict={state: value, x: np.zeros((2, 3))})
            np.testing.assert_allclose(got, np.full((2, 3), 7.0))
        fetched = sess.run(state, feed_dict={state: value})
        assert isinstance(fetched, StateTuple)
        np.testing.assert_allclose(fetched.h, value.h)


def test_feed_dict_nested_tuple_key():
    a, b, c = (tf.placeholder(tf.float32, []) for _ in range(3))
    with tf.Session() as sess:
        assert sess.run(a + b * c, feed_dict={(a, (b, c)): (1.0, [2.0, 3.0])}) == 7.0


def test_feed_dict_nested_key_with_mismatched_value():
    a, b = tf.placeholder(tf.float32, []), tf.placeholder(tf.float32, [])
    with tf.Session() as sess:
        with pytest.raises(ValueError, match="Key had 2 elements, but value had 3"):
            sess.run(a + b, feed_dict={(a, b): (1.0, 2.0, 3.0)})
        with pytest.raises(TypeError, match="is a sequence but its value"):
            sess.run(a + b, feed_dict={(a, b): 1.0})


def test_a_tf1_policy_gradient_program_runs_end_to_end():
    """The pieces together, as an RL program uses them: a Categorical policy, a global step
    found by name, tf.metrics, and a nested-structure feed."""
    tf.set_random_seed(0)
    obs = tf.placeholder(tf.float32, [None, 4])
    act = tf.placeholder(tf.int32, [None])
    adv = tf.placeholder(tf.float32, [None])
    memory = StateTuple(tf.placeholder(tf.float32, [None, 4]), tf.placeholder(tf.float32,
                                                                               [None, 4]))
    hidden = tf.layers.dense(obs + memory.c * memory.h, 2)
    policy = tf.distributions.Categorical(logits=hidden)
    loss = -tf.reduce_mean(policy.log_prob(act) * adv) - 0.01 * tf.reduce_mean(
        policy.entropy())
    step = tf.Variable(0, trainable=False, name="global_step")
    train = tf.train.AdamOptimizer(0.05).minimize(loss,
                                                  global_step=tf.train.get_global_step())
    acc, acc_update = tf.metrics.accuracy(act, policy.mode())
    sample = policy.sample(seed=1)
    rng = np.random.RandomState(0)
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        o = rng.randn(16, 4).astype(np.float32)
        a = (o[:, 0] > 0).astype(np.int32)       # the rewarded action depends on the sign
        zeros = StateTuple(np.zeros((16, 4)), np.zeros((16, 4)))
        feed = {obs: o, act: a, adv: np.ones(16), memory: zeros}
        before = sess.run(loss, feed)
        for _ in range(60):
            sess.run(train, feed)
        assert sess.run(loss, feed) < before and sess.run(step) == 60
        assert sess.run(sample, feed).shape == (16,)
        sess.run(acc_update, feed)
        assert sess.run(acc) > 0.8

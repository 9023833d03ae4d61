"""``list + TensorShape`` concatenates as in TensorFlow 2.21 (Keras's ops build output shapes
so): ``[1] + TensorShape([2, 3])`` is ``TensorShape([1, 2, 3])``, unknown rank stays unknown."""
import flowgrad as tf


def test_list_or_tuple_plus_shape_concatenates():
    assert [1] + tf.TensorShape([2, 3]) == tf.TensorShape([1, 2, 3])
    assert isinstance([1] + tf.TensorShape([2, 3]), tf.TensorShape)
    assert ((1,) + tf.TensorShape([2])).as_list() == [1, 2]
    assert ([None] + tf.TensorShape([2])).as_list() == [None, 2]
    assert ([1] + tf.TensorShape(None)).rank is None
    assert (tf.TensorShape([2]) + [4]).as_list() == [2, 4]

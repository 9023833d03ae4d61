"""TensorFlow 1.15's ``tf.contrib.eager`` (``tfe``): eager execution's helpers, most of them
TF 1.x's own names (``tfe.defun`` is ``tf.function``, ``tfe.Variable`` ``tf.Variable``,
``tfe.GradientTape`` ``tf.GradientTape``), and the implicit-gradient functions
(``implicit_gradients``, ``gradients_function``) built on ``GradientTape``."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from flowgrad.autodiff.custom_gradient import custom_gradient
from flowgrad.autodiff.tape import GradientTape
from flowgrad.framework.context import enable_eager_execution, executing_eagerly
from flowgrad.framework.tensor import convert_to_tensor
from flowgrad.layers.base import Layer
from flowgrad.ops.script_ops import py_function as py_func
from flowgrad.ops.state_ops import Variable
from flowgrad.ops.template import make_template
from flowgrad.runtime.function import TensorSpec, function
from flowgrad.train import Checkpoint

defun = function


def in_eager_mode() -> bool:
    """Whether eager execution is on (``tf.executing_eagerly()``).

    Returns:
      True when operations run eagerly.
    """
    return executing_eagerly()


def num_gpus() -> int:
    """The number of GPUs flowgrad runs on: none (it computes with NumPy on the CPU).

    Returns:
      0.
    """
    return 0


def _value_and_grads_and_vars(f: Callable, args: Sequence, kwargs: dict) -> tuple:
    with GradientTape() as tape:
        value = f(*args, **kwargs)
    variables = [v for v in tape.watched_variables() if getattr(v, "trainable", True)]
    if not variables:
        raise ValueError("No trainable variables were accessed while the function was being "
                         "computed.")
    grads = tape.gradient(value, variables)
    return value, list(zip(grads, variables))


def implicit_value_and_gradients(f: Callable) -> Callable:
    """A function returning ``f``'s value and its gradients with respect to the trainable
    variables ``f`` reads.

    Args:
      f: A function of tensors returning a scalar or a tensor (its sum is differentiated).

    Returns:
      ``grad_fn(*args, **kwargs) -> (value, [(gradient, variable), ...])``.
    """
    def grad_fn(*args: object, **kwargs: object) -> tuple:
        return _value_and_grads_and_vars(f, args, kwargs)
    return grad_fn


def implicit_gradients(f: Callable) -> Callable:
    """A function returning the gradients of ``f`` with respect to the trainable variables
    ``f`` reads (what ``optimizer.apply_gradients`` takes).

    Args:
      f: A function of tensors.

    Returns:
      ``grad_fn(*args, **kwargs) -> [(gradient, variable), ...]``.
    """
    def grad_fn(*args: object, **kwargs: object) -> list:
        return _value_and_grads_and_vars(f, args, kwargs)[1]
    return grad_fn


def _value_and_arg_grads(f: Callable, params: Sequence[int] | None, args: Sequence,
                         kwargs: dict) -> tuple:
    args = [convert_to_tensor(a) for a in args]
    chosen = list(range(len(args))) if params is None else list(params)
    with GradientTape() as tape:
        for i in chosen:
            tape.watch(args[i])
        value = f(*args, **kwargs)
    return value, tape.gradient(value, [args[i] for i in chosen])


def value_and_gradients_function(f: Callable, params: Sequence[int] | None = None) -> Callable:
    """A function returning ``f``'s value and its gradients with respect to its positional
    arguments (those at the indices ``params``; all when None).

    Args:
      f: A function of tensors.
      params: The indices of the arguments to differentiate by.

    Returns:
      ``fn(*args, **kwargs) -> (value, [gradient, ...])``.
    """
    def fn(*args: object, **kwargs: object) -> tuple:
        return _value_and_arg_grads(f, params, args, kwargs)
    return fn


def gradients_function(f: Callable, params: Sequence[int] | None = None) -> Callable:
    """A function returning the gradients of ``f`` with respect to its positional arguments
    (those at the indices ``params``; all when None).

    Args:
      f: A function of tensors.
      params: The indices of the arguments to differentiate by.

    Returns:
      ``fn(*args, **kwargs) -> [gradient, ...]``.
    """
    def fn(*args: object, **kwargs: object) -> list:
        return _value_and_arg_grads(f, params, args, kwargs)[1]
    return fn


class Iterator:
    """An iterator over a dataset's elements in eager mode, with TF 1.x's ``next()`` method
    (``tfe.Iterator(dataset).next()``).

    Args:
      dataset: A ``tf.data.Dataset``.
    """

    def __init__(self, dataset: object):
        self._iterator = iter(dataset)

    def __iter__(self) -> Iterator:
        return self

    def __next__(self) -> object:
        return next(self._iterator)

    def next(self) -> object:
        """The next element.

        Returns:
          The element.

        Raises:
          StopIteration: the dataset is exhausted.
        """
        return next(self._iterator)

    def get_next(self, name: str | None = None) -> object:
        """The next element (``tf.data`` iterators' name for ``next``).

        Args:
          name: Accepted for TensorFlow's signature.

        Returns:
          The element.
        """
        return next(self._iterator)


class Network(Layer):
    """TF 1.x's eager ``tfe.Network``: a layer made of the layers it tracks
    (``self.dense = self.track_layer(tf.layers.Dense(10))``), whose ``call`` combines them and
    whose variables are theirs.

    Args:
      name: The network's name (its variable scope).
    """

    def __init__(self, name: str | None = None):
        super().__init__(name=name)
        self._tracked: list = []

    def track_layer(self, layer: Layer) -> Layer:
        """Makes ``layer`` part of this network (its variables become the network's).

        Args:
          layer: A ``tf.layers`` layer (or another Network).

        Returns:
          ``layer``.

        Raises:
          TypeError: ``layer`` is not a layer.
        """
        if not isinstance(layer, Layer):
            raise TypeError("Network.track_layer() passed type %s, not a tf.layers.Layer"
                            % type(layer))
        if not any(layer is t for t in self._tracked):
            self._tracked.append(layer)
        return layer

    @property
    def layers(self) -> list:
        """The tracked layers, in the order they were tracked."""
        return list(self._tracked)

    @property
    def trainable_weights(self) -> list:
        own = super().trainable_weights
        return own + [w for layer in self._tracked for w in layer.trainable_weights]

    @property
    def non_trainable_weights(self) -> list:
        own = super().non_trainable_weights
        return own + [w for layer in self._tracked for w in layer.non_trainable_weights]

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    @property
    def weights(self) -> list:
        return self.trainable_weights + self.non_trainable_weights

    variables = weights

    def __call__(self, inputs: object, *args: object, **kwargs: object) -> object:
        """Runs ``call`` (inputs of any structure; the tracked layers build themselves).

        Args:
          inputs: The inputs.
          *args: Further arguments of ``call``.
          **kwargs: Keyword arguments of ``call``.

        Returns:
          ``call``'s result.
        """
        self.built = True
        return self.call(inputs, *args, **kwargs)


__all__ = ["Checkpoint", "GradientTape", "Iterator", "Network", "TensorSpec", "Variable",
           "custom_gradient", "defun", "enable_eager_execution", "executing_eagerly", "function",
           "gradients_function", "implicit_gradients", "implicit_value_and_gradients",
           "in_eager_mode", "make_template", "num_gpus", "py_func",
           "value_and_gradients_function"]


def __dir__() -> list:
    return sorted(__all__)

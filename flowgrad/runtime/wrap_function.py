"""``tf.compat.v1.wrap_function``: TF1-style graph code (placeholders, ``get_variable``,
``import_graph_def``) traced once into a function TF2 code calls eagerly, and
``WrappedFunction.prune`` to call a subgraph from chosen feeds to chosen fetches -- the
recipe TF2 programs use to run a frozen GraphDef."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flowgrad import nest
from flowgrad.framework import errors
from flowgrad.framework.tensor import Tensor, convert_to_tensor
from flowgrad.runtime.function import ConcreteFunction, function


class WrappedFunction(ConcreteFunction):
    """A traced TF1-style graph called eagerly (what ``wrap_function`` returns).

    Args:
      graph: the traced graph.
      inputs: the graph tensors the call's arguments feed, in order.
      structured_outputs: the graph tensors the call returns (nested).
    """

    @property
    def outputs(self) -> list:
        """The graph tensors the function returns, flattened."""
        return [t for t in nest.flatten(self.structured_outputs) if isinstance(t, Tensor)]

    def __call__(self, *args: Any) -> Any:
        """Runs the function on values for its inputs, in order.

        Args:
          *args: one tensor (or value) per input.

        Returns:
          The outputs' values, structured as the outputs.

        Raises:
          TypeError: the wrong number of arguments.
          InvalidArgumentError: an argument of another dtype than its input's.
        """
        if len(args) != len(self.inputs):
            raise TypeError("This WrappedFunction takes %d tensor arguments, got %d"
                            % (len(self.inputs), len(args)))
        values = []
        for i, (arg, placeholder) in enumerate(zip(args, self.inputs)):
            want = placeholder.dtype.base_dtype
            # a tensor or array keeps its dtype; a Python value takes the input's
            value = convert_to_tensor(arg) if hasattr(arg, "dtype") else \
                convert_to_tensor(arg, want)
            if value.dtype.base_dtype != want:
                raise errors.InvalidArgumentError(
                    None, None, "cannot compute the function as input #%d(zero-based) was "
                    "expected to be a %s tensor but is a %s tensor"
                    % (i, _type_name(want), _type_name(value.dtype)))
            values.append(value._value)
        return self._call_flat(values)

    def _element(self, item: Any, what: str) -> Tensor:
        if isinstance(item, str):
            item = self.graph.as_graph_element(item)
        if not isinstance(item, Tensor):
            raise TypeError("prune: %s must be tensors of the function's graph or their names, "
                            "got %r" % (what, item))
        if item.graph is not self.graph:
            raise ValueError("Can only prune function whose feeds and fetches are from this "
                             "graph (%s). Input %s is from a different graph %s."
                             % (self.graph, item, item.graph))
        return item

    def prune(self, feeds: Any, fetches: Any, name: str | None = None,
              input_signature: Any = None) -> WrappedFunction:
        """A function of the graph computing ``fetches`` from ``feeds``.

        Args:
          feeds: a (nested) structure of the graph's tensors, or their names; the pruned
            function takes their values, flattened, as its arguments.
          fetches: a (nested) structure of the graph's tensors, or their names: what it returns.
          name: accepted, as TensorFlow.
          input_signature: accepted, as TensorFlow.

        Returns:
          A WrappedFunction.

        Raises:
          TypeError: a feed or fetch is not a tensor or a tensor's name.
          ValueError: a feed or fetch of another graph.
        """
        flat_feeds = [self._element(f, "feeds") for f in nest.flatten(feeds)]
        outputs = nest.map_structure(lambda f: self._element(f, "fetches"), fetches)
        return WrappedFunction(self.graph, flat_feeds, outputs)


def _type_name(dtype: Any) -> str:
    """A dtype as TensorFlow's runtime names it in errors (``float``, ``int32``)."""
    return {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name)


def wrap_function(fn: Callable, signature: Any = None, name: str | None = None) -> Any:
    """Traces ``fn`` once, as TF1 code in a graph, into a function called eagerly.

    Variables ``fn`` makes (``tf.compat.v1.get_variable``) are made once and kept by the
    function (``.variables``); placeholders it makes are fed through ``.prune``.

    Args:
      fn: the function; it gets one placeholder per spec of ``signature``.
      signature: a (nested) list of ``tf.TensorSpec`` (None: ``fn`` takes no arguments).
      name: accepted, as TensorFlow.

    Returns:
      A WrappedFunction.
    """
    traced = function(fn, input_signature=list(signature or []),
                      autograph=False).get_concrete_function()
    wrapped = WrappedFunction(traced.graph, traced.inputs, traced.structured_outputs)
    wrapped._parameters = getattr(traced, "_parameters", [])
    return wrapped

"""Session: runs pruned subgraphs through compiled plans; holds variable values."""
from __future__ import annotations

import contextlib
import threading
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from flowgrad import nest
from flowgrad.framework import errors, hooks, threads
from flowgrad.framework.context import state
from flowgrad.framework.graph import Graph, Operation, get_default_graph
from flowgrad.framework.indexed_slices import IndexedSlices
from flowgrad.framework.op_call import op_rng
from flowgrad.framework.philox import PhiloxStream
from flowgrad.framework.tensor import EagerTensor, Tensor, TensorBase
from flowgrad.ops.ragged_tensor import RaggedTensor, ragged_value
from flowgrad.ops.sparse_tensor import SparseTensor, SparseTensorValue
from flowgrad.runtime import step_stats
from flowgrad.runtime.plan import Plan, PlanCompiler, failing_op, inter_op_parallelism


class IndexedSlicesValue(tuple):
    """The fetched value of an IndexedSlices: (values, indices, dense_shape).

    Args:
        values: The slices' values (an ndarray).
        indices: Their row indices (an ndarray).
        dense_shape: The dense shape (an ndarray), or None.
    """

    __slots__ = ()

    def __new__(cls, values: Any, indices: Any, dense_shape: Any) -> IndexedSlicesValue:
        return tuple.__new__(cls, (values, indices, dense_shape))

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])
    dense_shape = property(lambda self: self[2])

    def __repr__(self) -> str:
        return "IndexedSlicesValue(values=%r, indices=%r, dense_shape=%r)" % self


def _fetch_key(f: Any) -> Any:
    t = type(f)
    if t is Tensor or t is Operation:
        return f
    if t is list or t is tuple or isinstance(f, tuple):
        return (t, tuple([_fetch_key(x) for x in f]))
    if isinstance(f, dict):
        return (t, tuple(f), tuple([_fetch_key(x) for x in f.values()]))
    if t is float or t is int:
        return (t, f)
    return f


def _type_error(f: Any) -> TypeError:
    if f is None:
        return TypeError('Argument `fetch` = None has invalid type "NoneType". Cannot be None')
    return TypeError('Argument `fetch` = %r has invalid type "%s" must be a string or Tensor. '
                     "(Can not convert a %s into a Tensor or Operation.)"
                     % (f, type(f).__name__, type(f).__name__))


class BaseSession:
    """A TF1 Session: ``run(fetches, feed_dict)`` over a graph, with its own variable values."""

    def __init__(self, target: str = "", graph: Graph | None = None, config: Any = None,
                 check_numerics: bool = False):
        self._graph = graph if graph is not None else get_default_graph()
        self._state: dict = {}
        # variable op -> its array that no caller holds; weak, so that a value replaced
        # (initializer, load, an update out of place) is not kept alive
        self._owned: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
        self._rngs: dict = {}
        self._plans: dict = {}
        self._var_locks: dict = {}      # variable op -> the lock its writers hold
        self._closed = False
        threads.session_intra_op_threads(getattr(config, "intra_op_parallelism_threads", 0))
        self._compiler = PlanCompiler(self._state, self._rng_for, self._owned,
                                      _parallel(config))
        self._check_numerics = check_numerics   # flowgrad extension: see flowgrad.debug

    @property
    def graph(self) -> Graph:
        return self._graph

    @property
    def graph_def(self) -> Any:
        """The session's graph as a ``GraphDef`` proto (``graph.as_graph_def()``), which
        ``convert_variables_to_constants(sess, sess.graph_def, ...)`` freezes."""
        return self._graph.as_graph_def()

    @property
    def sess_str(self) -> str:
        return ""

    # -- running ----------------------------------------------------------------------
    def run(self, fetches: Any, feed_dict: dict | None = None, options: Any = None,
            run_metadata: Any = None) -> Any:
        """Computes ``fetches`` (any nesting of tensors, ops, variables) given the feeds."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        try:
            key = (_fetch_key(fetches), tuple(feed_dict) if feed_dict else (),
                   state.check_numerics)
            plan = self._plans.get(key)
        except TypeError:
            key, plan = None, None
        if plan is None:
            plan = self._compile(fetches, list(feed_dict) if feed_dict else [])
            if key is not None:
                self._plans[key] = plan
        values = tuple(feed_dict.values()) if feed_dict else ()
        try:
            if run_metadata is not None and getattr(options, "trace_level", 0):
                result, records = step_stats.traced(
                    lambda: _run_locked(plan, values), getattr(plan.fn, "__code__", None),
                    plan.ops_by_line)
                hooks.fill_step_stats(run_metadata, records)
                return result
            if plan.locks:
                return _run_locked(plan, values)
            return plan.fn(values)
        except Exception as e:
            _reraise(self._runtime_error(plan, e, feed_dict.items() if feed_dict else ()), e)

    def make_callable(self, fetches: Any, feed_list: list | None = None,
                      accept_options: bool = False) -> Callable:
        """A function running ``fetches`` with positional values for ``feed_list``."""
        feed_list = list(feed_list or [])
        plan = self._compile(fetches, feed_list)

        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                return _run_locked(plan, args) if plan.locks else plan.fn(args)
            except Exception as e:
                _reraise(self._runtime_error(plan, e, zip(feed_list, args)), e)
        return call

    def _compile(self, fetches: Any, feed_keys: list) -> Plan:
        if any(isinstance(k, (tuple, SparseTensor)) for k in feed_keys):
            return self._compile_nested_feeds(fetches, feed_keys)
        fed = [self._feed_tensor(k) for k in feed_keys]
        leaves: list = []
        template = self._template(fetches, leaves)

        def build(expr_of: Callable, gname: Callable) -> str:
            return _render(template, expr_of, gname)
        compiler = self._compiler
        if self._check_numerics or state.check_numerics:
            compiler = hooks.numerics_plan_compiler(self._state, self._rng_for)
        plan = compiler.compile(leaves, fed, build)
        plan.locks = self._locks_for(plan.written)
        return plan

    def _locks_for(self, var_ops: frozenset) -> tuple:
        """The locks of the variables a plan writes, in one global order (no deadlocks).

        Concurrency model: a run that writes variables holds their locks from its start
        to its commit, so runs that write a common variable are serialized and no
        read-modify-write (assign_add, optimizer updates) is lost, whatever
        ``use_locking`` says; runs that only read variables never wait."""
        return tuple(self._var_locks.setdefault(op, threading.RLock())
                     for op in sorted(var_ops, key=lambda o: o._id))

    def _compile_nested_feeds(self, fetches: Any, feed_keys: list) -> Plan:
        """A plan for feed keys that are nested structures of tensors (an LSTMStateTuple):
        as in TensorFlow, each component is fed from the same place in the key's value."""
        inner = self._compile(fetches, [t for k in feed_keys for t in _feed_parts(k)])
        run = inner.fn

        def fn(values: tuple) -> Any:
            flat: list = []
            for k, v in zip(feed_keys, values):
                if isinstance(k, SparseTensor):
                    flat.extend(_sparse_feed(k, v))
                elif isinstance(k, tuple):
                    flat.extend(_flatten_feed(k, v))
                else:
                    flat.append(v)
            return run(tuple(flat))
        return Plan(fn, inner.var_ops, inner.ops_by_line, inner.source, inner.written)

    def _element(self, f: Any) -> Any:
        if f is None or isinstance(f, (int, float, complex, bool, np.ndarray, np.generic)):
            raise _type_error(f)
        if isinstance(f, EagerTensor):
            raise TypeError("Cannot fetch an eager tensor from a Session: %r" % (f,))
        try:
            el = self._graph.as_graph_element(f)
        except TypeError:
            raise _type_error(f) from None
        except KeyError as e:
            raise ValueError("Fetch argument %r cannot be interpreted as a Tensor. (%s)"
                             % (f, e.args[0])) from None
        except ValueError:
            raise ValueError("Fetch argument %r cannot be interpreted as a Tensor. (Tensor %s "
                             "is not an element of this graph.)" % (f, f)) from None
        return el

    def _template(self, f: Any, leaves: list) -> tuple:
        if isinstance(f, (list, tuple)):
            return ("seq", type(f), [self._template(x, leaves) for x in f])
        if isinstance(f, dict):
            return ("dict", type(f), list(f), [self._template(x, leaves) for x in f.values()])
        if isinstance(f, IndexedSlices):
            parts = [f.values, f.indices] + ([f.dense_shape] if f.dense_shape is not None else [])
            subs = [self._template(x, leaves) for x in parts]
            if f.dense_shape is None:
                subs.append(("none",))
            return ("slices", subs)
        if isinstance(f, SparseTensor):
            return ("sparse", [self._template(x, leaves)
                               for x in (f.indices, f.values, f.dense_shape)])
        if isinstance(f, RaggedTensor):
            return ("ragged", [self._template(x, leaves)
                               for x in (f.flat_values,) + f.nested_row_splits])
        el = self._element(f)
        leaves.append(el)
        return ("leaf", el)

    def _feed_tensor(self, k: Any) -> Tensor:
        if isinstance(k, TensorBase) or isinstance(k, str) or hasattr(k, "_as_graph_element"):
            try:
                t = self._graph.as_graph_element(k, allow_operation=False)
            except (KeyError, ValueError, TypeError) as e:
                raise TypeError("Cannot interpret feed_dict key %r as a Tensor: %s" % (k, e)) \
                    from None
            if isinstance(t, Tensor):
                return t
        raise TypeError("Cannot interpret feed_dict key as Tensor: %r" % (k,))

    def _runtime_error(self, plan: Plan, e: Exception, feeds: Any = ()) -> Exception:
        bad = None if isinstance(e, errors.OpError) else self._bad_feed_value(feeds)
        if bad is not None:
            return bad
        if isinstance(e, KeyError) and e.args and e.args[0] in plan.var_ops:
            op = e.args[0]
            where = " (created at %s:%d)" % op.traceback[:2] if op.traceback else ""
            return errors.FailedPreconditionError(
                None, op, "Attempting to use uninitialized value %s%s" % (op.name, where))
        op = failing_op(plan, e)
        if isinstance(e, errors.OpError):
            if e.op is not None or op is None:
                return e
            e = type(e)(e.node_def, op, "%s\n\t [[node %s (op %s)%s]]" % (
                e.message, op.name, op.type, _where(op)))
            return e
        if op is None:
            return e
        msg = "%s: %s\n\t [[node %s (op %s)%s]]" % (type(e).__name__, e, op.name, op.type,
                                                     _where(op))
        cls = errors.InvalidArgumentError if isinstance(
            e, (ValueError, IndexError, TypeError, ArithmeticError)) else errors.UnknownError
        return cls(None, op, msg)

    def _bad_feed_value(self, feeds: Any) -> TypeError | None:
        """TensorFlow's TypeError for a feed value that cannot be fed (looked for only after
        a run failed): a graph tensor, or a number out of the placeholder dtype's range."""
        for k, v in feeds:
            parts = nest.flatten(v) if isinstance(v, (list, tuple)) else [v]
            if any(isinstance(p, (Tensor, Operation)) or hasattr(p, "_as_graph_element")
                   for p in parts):
                return TypeError(
                    "The value of a feed cannot be a tf.Tensor object. Acceptable feed values "
                    "include Python scalars, strings, lists, numpy ndarrays, or TensorHandles. "
                    "For reference, the tensor object was %r which was passed to the argument "
                    "`feed_dict` with key %r." % (v, k))
            if isinstance(k, (tuple, SparseTensor)):
                continue
            dt = self._feed_tensor(k).dtype.base_dtype
            try:
                np.asarray(v, dt.np)
            except OverflowError as e:
                return TypeError("Cannot feed value %s for Tensor %s of dtype %s: %s"
                                 % (_short(v), self._feed_tensor(k).name, dt.name, e))
        return None

    def _rng_for(self, op: Operation) -> PhiloxStream:
        rng = self._rngs.get(op)
        if rng is None:
            rng = self._rngs[op] = op_rng(op)
        return rng

    def _load_variable(self, var: Any, value: Any) -> None:
        from flowgrad.framework.tensor import to_numpy
        v = np.array(to_numpy(value, var.dtype.base_dtype), copy=True)
        if not var.shape.is_compatible_with(v.shape):
            raise ValueError("Cannot load value of shape %s into variable %s of shape %s"
                             % (v.shape, var.name, var.shape))
        with self._locks_for(frozenset([var.op]))[0]:
            self._state[var.op] = v if v.ndim else v[()]

    # -- lifetime ---------------------------------------------------------------------
    def close(self) -> None:
        """Releases the session's variable values and plans."""
        self._closed = True
        self._state.clear()
        self._owned.clear()
        self._plans.clear()

    @contextlib.contextmanager
    def as_default(self) -> Iterator[BaseSession]:
        """Makes this the default session inside the block (does not close it)."""
        state.session_stack.append(self)
        try:
            yield self
        finally:
            state.session_stack.remove(self)

    def __enter__(self) -> BaseSession:
        # as TensorFlow's: the session's graph is the default graph inside the with block
        # (``with tf.Session(graph=g): tf.train.import_meta_graph(...)`` imports into g)
        self._graph_context = self._graph.as_default()
        self._graph_context.__enter__()
        state.session_stack.append(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self in state.session_stack:
            state.session_stack.remove(self)
        context_manager = getattr(self, "_graph_context", None)
        self._graph_context = None
        if context_manager is not None:
            context_manager.__exit__(*exc)
        self.close()

    def list_devices(self) -> list:
        return ["/job:localhost/replica:0/task:0/device:CPU:0"]


class Session(BaseSession):
    """A TF1 Session (``tf.Session`` / ``tf.compat.v1.Session``) that runs a graph's ops.

    A ``run`` is all-or-nothing: a failed step changes no variable.

    Example:

        >>> tf1 = tf.compat.v1
        >>> with tf1.Graph().as_default():
        ...     a = tf1.placeholder(tf.float32, shape=[])
        ...     b = a * 2.0
        ...     with tf1.Session() as sess:
        ...         print(sess.run(b, feed_dict={a: 21.0}))
        42.0

    Args:
        target: Accepted for TensorFlow's signature (flowgrad runs in process).
        graph: The graph to run; the default graph if None.
        config: A ``tf.compat.v1.ConfigProto``; its thread settings are used.
        check_numerics: If true (a flowgrad extension), ``run`` stops at the first
            non-finite value, forward or backward, and names the op that made it.
    """


class InteractiveSession(BaseSession):
    """A Session that installs itself as the default session on creation.

    Args:
        target: Accepted for TensorFlow's signature (the in-process runtime).
        graph: The graph to run; the default graph when None.
        config: A ``ConfigProto`` (its thread settings are read).
        check_numerics: Whether to check every op's outputs for NaN and Inf.
    """

    def __init__(self, target: str = "", graph: Graph | None = None, config: Any = None,
                 check_numerics: bool = False):
        super().__init__(target, graph, config, check_numerics)
        state.session_stack.append(self)

    def close(self) -> None:
        if self in state.session_stack:
            state.session_stack.remove(self)
        super().close()


def _parallel(config: Any) -> bool:
    """Whether a session's plans overlap big kernels on a worker thread: not when ``config``
    (a ConfigProto; where it says 0, ``tf.config.threading``'s setting) asks for one
    inter-op thread, or for none (negative: every op runs in the caller's thread)."""
    threads = getattr(config, "inter_op_parallelism_threads", 0) or state.inter_op_threads
    return (threads == 0 or threads > 1) and inter_op_parallelism()


def _reraise(err: Exception, cause: Exception) -> None:
    """Raises ``err``, chained to ``cause`` unless it is ``cause`` itself."""
    if err is cause:
        raise err
    raise err from cause


def _feed_parts(key: Any) -> list:
    """The tensors a feed key stands for: a SparseTensor's three, a tuple's leaves."""
    if isinstance(key, SparseTensor):
        return [key.indices, key.values, key.dense_shape]
    return nest.flatten(key) if isinstance(key, tuple) else [key]


def _sparse_feed(key: SparseTensor, value: Any) -> list:
    """The three arrays fed to a SparseTensor key (a SparseTensorValue or a 3-tuple)."""
    if isinstance(value, SparseTensor):
        value = (value.indices, value.values, value.dense_shape)
    if not isinstance(value, tuple) or len(value) != 3:
        raise TypeError("The value fed to SparseTensor %s must be a SparseTensorValue or a "
                        "tuple (indices, values, dense_shape), got %r" % (key, value))
    return list(value)


def _flatten_feed(key: Any, value: Any) -> list:
    """The leaves of a feed ``value`` matching the structure of its nested ``key``."""
    if not nest.is_nested(value):
        raise TypeError("Could not flatten dictionary: key %s is a sequence but its value %s "
                        "is not." % (key, value))
    keys, values = nest.flatten(key), nest.flatten(value)
    if len(keys) != len(values):
        raise ValueError("Could not flatten dictionary. Key had %d elements, but value had %d "
                         "elements. Key: %s, value: %s." % (len(keys), len(values), key, value))
    return values


def _run_locked(plan: Plan, values: tuple) -> Any:
    """Runs ``plan`` holding the locks of the variables it writes."""
    locks = plan.locks
    for lock in locks:
        lock.acquire()
    try:
        return plan.fn(values)
    finally:
        for lock in locks:
            lock.release()


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def _where(op: Operation) -> str:
    return " defined at %s:%d" % op.traceback[:2] if op.traceback else ""


def _render(node: tuple, expr_of: Callable, gname: Callable) -> str:
    kind = node[0]
    if kind == "leaf":
        return expr_of(node[1])
    if kind == "none":
        return "None"
    if kind == "slices":
        return "%s(%s)" % (gname("T", IndexedSlicesValue),
                           ", ".join(_render(n, expr_of, gname) for n in node[1]))
    if kind == "sparse":
        return "%s(%s)" % (gname("T", SparseTensorValue),
                           ", ".join(_render(n, expr_of, gname) for n in node[1]))
    if kind == "ragged":
        return "%s(%s)" % (gname("T", ragged_value),
                           ", ".join(_render(n, expr_of, gname) for n in node[1]))
    if kind == "seq":
        typ, items = node[1], [_render(n, expr_of, gname) for n in node[2]]
        if typ is list:
            return "[%s]" % ", ".join(items)
        if typ is tuple:
            return "(%s)" % "".join(i + ", " for i in items)
        if hasattr(typ, "_fields"):
            return "%s(%s)" % (gname("T", typ), ", ".join(items))
        return "%s([%s])" % (gname("T", typ), ", ".join(items))
    typ, keys, items = node[1], node[2], [_render(n, expr_of, gname) for n in node[3]]
    d = "{%s}" % ", ".join("%s: %s" % (gname("Q", k), v) for k, v in zip(keys, items))
    return d if typ is dict else "%s(%s)" % (gname("T", typ), d)


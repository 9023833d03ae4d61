"""Records ``tf.experimental.ExtensionType`` and the dispatch API on TensorFlow 2.21
(``/path/to/tf-venv/bin/python tools/tf_reference/extension_type_reference.py``) into
tests/data/dispatch/extension_type_tf_2_21.json: the TF guide's examples (MaskedTensor,
Network, TensorGraph, a custom constructor), their reprs, specs, validation and type errors,
immutability, equality, ``tf.nest`` flattening, ``tf.function`` (with an input_signature of
the Spec) and ``tf.experimental.dispatch_for_*``. tests/test_extension_type.py runs the same
``program`` with flowgrad as ``tf`` and compares case by case."""
import json
import os
import re
import typing


def normalize(text: str) -> str:
    """``text`` without what differs between runs and hosts: object addresses and the
    module a class was loaded as."""
    text = re.sub(r" at 0x[0-9a-f]+", "", text)
    return re.sub(r"[\w.]*\.(guide_types|dispatch_cases)\.", r"\1.", text)


def plain(x):
    """A result as plain JSON: tensors as nested lists, everything else by repr."""
    if hasattr(x, "numpy"):
        v = x.numpy()
        return ["tensor", json.loads(json.dumps(v.tolist() if hasattr(v, "tolist") else v,
                                                default=lambda b: b.decode()))]
    if isinstance(x, (bool, int, float, str)) or x is None:
        return x
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    return ["repr", normalize(repr(x))]


def run(cases: dict) -> dict:
    """{case: plain(result)} or {case: ["error", class name, message]}."""
    out = {}
    for name, f in cases.items():
        try:
            out[name] = plain(f())
        except Exception as e:  # noqa: BLE001 - the error is the recorded result
            message = str(e).split("\n")[0]
            # TensorFlow prefixes errors raised while tracing a tf.function with a traceback
            # of the user's code: only the class is compared then.
            out[name] = ["error", type(e).__name__,
                         None if message == "in user code:" else normalize(message)]
    return out


def guide_types(tf) -> dict:
    """The TF guide's ExtensionTypes, defined against ``tf``."""
    class MaskedTensor(tf.experimental.ExtensionType):
        values: tf.Tensor
        mask: tf.Tensor

        def __validate__(self):
            self.values.shape.assert_is_compatible_with(self.mask.shape)
            assert self.mask.dtype.is_bool, "mask.dtype must be bool"

        def with_default(self, default):
            return tf.where(self.mask, self.values, default)

        @property
        def shape(self):
            return self.values.shape

    class Network(tf.experimental.ExtensionType):
        work: tf.Tensor
        bandwidth: tf.Tensor

    class TensorGraph(tf.experimental.ExtensionType):
        num_nodes: tf.Tensor
        edge_src: tf.Tensor
        edge_dst: tf.Tensor
        node_features: typing.Mapping[str, tf.Tensor]
        edge_features: typing.Mapping[str, tf.Tensor]

        def with_node_features(self, node_features):
            updated = dict(self.node_features)
            updated.update(node_features)
            return TensorGraph(self.num_nodes, self.edge_src, self.edge_dst, updated,
                               self.edge_features)

    class Toy(tf.experimental.ExtensionType):
        name: str
        price: tf.Tensor

        def __init__(self, name, price, discount=0):
            self.name = name
            self.price = price * (1 - discount)

    class Player(tf.experimental.ExtensionType):
        name: str
        attributes: typing.Mapping[str, tf.Tensor]
        shape: tf.TensorShape = [None]
        dtype: tf.DType = tf.float32
        tags: tuple[str, ...] = ()
        score: typing.Optional[tf.Tensor] = None

    class Pair(tf.experimental.ExtensionType):
        first: MaskedTensor
        second: tuple[int, float]

    return dict(MaskedTensor=MaskedTensor, Network=Network, TensorGraph=TensorGraph, Toy=Toy,
                Player=Player, Pair=Pair)


def extension_type_cases(tf) -> dict:
    """The guide's examples and TensorFlow's rules."""
    T = guide_types(tf)
    MT, Network, TensorGraph, Toy, Player, Pair = (T[k] for k in (
        "MaskedTensor", "Network", "TensorGraph", "Toy", "Player", "Pair"))
    mt = MT([1, 2, 3], [True, False, True])
    net = Network([5.0, 3, 8], [[0.0, 2, 0], [2, 0, 3], [0, 3, 0]])
    graph = TensorGraph(num_nodes=4, edge_src=[0, 0, 2, 3], edge_dst=[3, 2, 1, 0],
                        node_features={"x": [3.0, 2.0, 1.0, 0.0]}, edge_features={})

    def set_field():
        mt.values = [4, 5, 6]

    def del_field():
        del mt.mask

    @tf.function
    def double(m):
        return MT(m.values * 2, m.mask)

    @tf.function(input_signature=[MT.Spec(values=tf.TensorSpec([None], tf.int32),
                                          mask=tf.TensorSpec([None], tf.bool))])
    def filled(m):
        return m.with_default(0)

    @tf.function
    def balance(network):
        delta = tf.reduce_sum(network.bandwidth, axis=1) - network.work
        return Network(network.work + 0.1 * delta, network.bandwidth)

    spec = MT.Spec(values=tf.TensorSpec([None], tf.int32), mask=tf.TensorSpec([None], tf.bool))

    def pick(p):
        return tf.cond(p, lambda: mt, lambda: MT(mt.values * 2, mt.mask))

    def count(m):
        return tf.while_loop(lambda i, m: i < 3, lambda i, m: (i + 1, MT(m.values + i, m.mask)),
                             (0, m))

    class Batch(tf.experimental.BatchableExtensionType):
        values: tf.Tensor
        mask: tf.Tensor

    batch = Batch([[1.0, 2.0], [3.0, 4.0]], [[True, False], [True, True]])
    rows = tf.data.Dataset.from_tensor_slices([[1.0, -2.0], [3.0, 4.0], [-5.0, 6.0]])
    masked = rows.map(lambda x: Batch(x, x > 0))
    return {
        "data map": lambda: list(masked),
        "data element_spec": lambda: masked.element_spec,
        "data batch": lambda: list(masked.batch(2)),
        "data batch element_spec": lambda: masked.batch(2).element_spec,
        "data batch drop_remainder spec": lambda: masked.batch(2, drop_remainder=True)
        .element_spec,
        "data map on ExtensionType": lambda: list(masked.map(lambda m: tf.reduce_sum(
            tf.where(m.mask, m.values, 0.0)))),
        "data batch not batchable": lambda: rows.map(lambda x: MT(x, x > 0)).batch(2),
        "type_spec_from_value": lambda: tf.type_spec_from_value(mt),
        "data from_tensors": lambda: list(tf.data.Dataset.from_tensors(mt)),
        "data from_tensors spec": lambda: tf.data.Dataset.from_tensors((mt, 1)).element_spec,
        "data from_tensor_slices": lambda: list(tf.data.Dataset.from_tensor_slices(batch)),
        "data from_tensor_slices spec": lambda: tf.data.Dataset.from_tensor_slices(
            {"b": batch}).element_spec,
        "data from_tensor_slices batch": lambda: list(
            tf.data.Dataset.from_tensor_slices(batch).batch(2)),
        "data from_tensors sparse": lambda: [
            tf.sparse.to_dense(x) for x in tf.data.Dataset.from_tensors(
                tf.sparse.SparseTensor([[0, 1]], [5.0], [2, 2]))],
        "data from_tensors ragged": lambda: [
            x.to_list() for x in tf.data.Dataset.from_tensors(tf.ragged.constant([[1], [2, 3]]))],
        "cond": lambda: pick(tf.constant(False)),
        "cond in function": lambda: tf.function(pick)(tf.constant(False)),
        "cond structure mismatch": lambda: tf.function(lambda p: tf.cond(
            p, lambda: mt, lambda: Network([1.0], [[1.0]])))(tf.constant(True)),
        "while_loop": lambda: count(mt),
        "while_loop in function": lambda: tf.function(count)(mt),
        "map_fn to ExtensionType": lambda: tf.map_fn(lambda b: Batch(b.values * 2, b.mask),
                                                     batch),
        "map_fn in function": lambda: tf.function(lambda b: tf.map_fn(
            lambda e: tf.reduce_sum(tf.where(e.mask, e.values, 0.0)), b,
            fn_output_signature=tf.float32))(batch),
        "repr": lambda: mt,
        "fields": lambda: [mt.values, mt.mask],
        "spec": lambda: mt._type_spec,
        "Spec()": lambda: spec,
        "spec value_type": lambda: spec.value_type.__name__,
        "spec compatible": lambda: [spec.is_compatible_with(mt), mt._type_spec == spec,
                                    MT.Spec.from_value(mt) == mt._type_spec],
        "spec supertype": lambda: mt._type_spec.most_specific_common_supertype(
            [MT([1, 2], [True, True])._type_spec]),
        "method": lambda: mt.with_default(9),
        "property": lambda: mt.shape,
        "as_dict": lambda: sorted(tf.experimental.extension_type.as_dict(mt)),
        "validate shape": lambda: MT([1, 2, 3], [True, False]),
        "validate dtype": lambda: MT([1, 2], [0, 1]),
        "missing field": lambda: MT([1, 2]),
        "extra field": lambda: MT([1], [True], x=3),
        "bad tensor": lambda: MT(["a", 1], [True, False]),
        "setattr": set_field,
        "delattr": del_field,
        "eq same": lambda: mt == MT([1, 2, 3], [True, False, True]),
        "eq different": lambda: mt == MT([1, 2, 4], [True, False, True]),
        "ne": lambda: mt != MT([1, 2, 4], [True, False, True]),
        "eq other type": lambda: mt == 3,
        "eq other shape": lambda: mt == MT([1, 2], [True, False]),
        "nest flatten": lambda: tf.nest.flatten(mt, expand_composites=True),
        "nest flatten plain": lambda: len(tf.nest.flatten(mt)),
        "nest map": lambda: tf.nest.map_structure(lambda t: t, mt, expand_composites=True),
        "nest flatten spec": lambda: tf.nest.flatten(spec, expand_composites=True),
        "function": lambda: double(mt),
        "function signature": lambda: filled(mt),
        "function signature shorter": lambda: filled(MT([7], [False])),
        "network": lambda: balance(net),
        "network repr": lambda: net,
        "graph spec": lambda: graph._type_spec,
        "graph features": lambda: graph.with_node_features({"y": [1, 2, 3, 4]}).node_features,
        "graph flatten": lambda: tf.nest.flatten(graph, expand_composites=True),
        "custom init": lambda: Toy("ball", 5.0, discount=0.2),
        "custom init spec": lambda: Toy("ball", 5.0)._type_spec,
        "defaults": lambda: Player("p", {"speed": [1.0]}),
        "defaults spec": lambda: Player("p", {"speed": [1.0]}, tags=("a", "b"),
                                        score=3.0)._type_spec,
        "shape conversion": lambda: Player("p", {}, shape=[2, None]).shape,
        "dtype conversion": lambda: Player("p", {}, dtype="int64").dtype,
        "bad str": lambda: Player(3, {}),
        "bad mapping": lambda: Player("p", [1]),
        "bad tuple": lambda: Player("p", {}, tags="ab"),
        "bad dtype": lambda: Player("p", {}, dtype=3.5),
        "nested": lambda: Pair(mt, (1, 2.0)),
        "nested spec": lambda: Pair(mt, (1, 2.0))._type_spec,
        "nested flatten": lambda: tf.nest.flatten(Pair(mt, (1, 2.0)), expand_composites=True),
        "nested bad": lambda: Pair(3, (1, 2.0)),
        "nested bad tuple": lambda: Pair(mt, (1, 2.0, 3)),
        "abstract": lambda: tf.experimental.ExtensionType(),
        "bad annotation": lambda: type("Bad", (tf.experimental.ExtensionType,),
                                       {"__annotations__": {"x": list}}),
        "reserved name": lambda: type("Bad", (tf.experimental.ExtensionType,),
                                      {"__annotations__": {"_type_spec": int}}),
        "missing annotation": lambda: type("Bad", (tf.experimental.ExtensionType,),
                                           {"x": 3}),
        "is CompositeTensor": lambda: isinstance(mt, tf.__internal__.CompositeTensor),
        "is_tensor": lambda: [tf.is_tensor(mt), tf.is_tensor(mt.values)],
        "keras layer positional": lambda: type("MaskedLayer", (tf.keras.layers.Layer,), {
            "call": lambda self, m: tf.where(m.mask, m.values, 0)})()(mt),
        "batchable spec": lambda: type(
            "Vehicle", (tf.experimental.BatchableExtensionType,),
            {"__annotations__": {"top_speed": tf.Tensor}})(tf.constant([1.0, 2.0]))
        ._type_spec._batch(4),
    }


def dispatch_cases(tf) -> dict:
    """``tf.experimental.dispatch_for_*`` with the guide's MaskedTensor."""
    MT = guide_types(tf)["MaskedTensor"]
    mt = MT([1, -2, 3], [True, False, True])
    out = {}

    @tf.experimental.dispatch_for_api(tf.math.add, {"x": MT, "y": MT})
    def masked_add(x, y, name=None):
        return MT(x.values + y.values, x.mask & y.mask)

    out["add"] = lambda: tf.add(mt, MT([10, 10, 10], [True, True, False]))
    out["add kw"] = lambda: tf.math.add(x=mt, y=mt)
    out["add operator"] = lambda: mt + mt     # ExtensionTypes have no operators
    out["add mixed (no match)"] = lambda: tf.add(mt, 1)

    @tf.experimental.dispatch_for_unary_elementwise_apis(MT)
    def masked_unary(api_func, x):
        return MT(api_func(x.values), x.mask)

    out["abs"] = lambda: tf.abs(mt)
    out["negative"] = lambda: tf.math.negative(mt)
    out["ones_like dtype"] = lambda: tf.ones_like(mt, dtype=tf.float32)
    out["cast"] = lambda: tf.cast(mt, tf.float64)
    out["relu"] = lambda: tf.nn.relu(mt)

    @tf.experimental.dispatch_for_binary_elementwise_apis(
        typing.Union[MT, tf.Tensor], typing.Union[MT, tf.Tensor])
    def masked_binary(api_func, x, y):
        x_values = x.values if isinstance(x, MT) else x
        x_mask = x.mask if isinstance(x, MT) else True
        y_values = y.values if isinstance(y, MT) else y
        y_mask = y.mask if isinstance(y, MT) else True
        return MT(api_func(x_values, y_values), x_mask & y_mask)

    out["maximum mixed"] = lambda: tf.maximum(mt, tf.constant([0, 0, 5]))
    out["multiply mixed"] = lambda: tf.multiply(tf.constant([2, 2, 2]), mt)
    out["add still api target"] = lambda: tf.add(mt, mt)

    @tf.experimental.dispatch_for_api(tf.stack)
    def masked_stack(values: list[MT], axis=0, name=None):
        return MT(tf.stack([v.values for v in values], axis),
                  tf.stack([v.mask for v in values], axis))

    out["stack"] = lambda: tf.stack([mt, mt], axis=1)

    @tf.experimental.dispatch_for_api(tf.reduce_sum)
    def masked_sum(input_tensor: MT, axis=None, keepdims=False, name=None):
        return tf.reduce_sum(tf.where(input_tensor.mask, input_tensor.values, 0), axis,
                             keepdims)

    out["reduce_sum"] = lambda: tf.reduce_sum(mt)

    def bad_signature():
        @tf.experimental.dispatch_for_api(tf.math.add, {"x": MT})
        def wrong(a, b):
            return a
    out["bad target signature"] = bad_signature
    out["unknown parameter"] = lambda: tf.experimental.dispatch_for_api(tf.math.add,
                                                                        {"z": MT})
    out["not a dict"] = lambda: tf.experimental.dispatch_for_api(tf.math.add, [MT])
    out["no annotations"] = lambda: tf.experimental.dispatch_for_api(tf.math.add)(
        lambda x, y, name=None: x)
    out["unsupported annotation"] = lambda: tf.experimental.dispatch_for_api(
        tf.math.add, {"x": typing.Dict[str, MT]})  # noqa: UP006 - its repr is in the message
    out["duplicate unary"] = lambda: tf.experimental.dispatch_for_unary_elementwise_apis(MT)(
        lambda api_func, x: x)

    results = run(out)
    for target in (masked_add, masked_unary, masked_binary, masked_stack, masked_sum):
        tf.experimental.unregister_dispatch_for(target)
    results.update(run({
        "after unregister": lambda: tf.abs(mt),
        "unregister twice": lambda: tf.experimental.unregister_dispatch_for(masked_add),
        "not dispatchable": lambda: tf.experimental.dispatch_for_api(len, {"x": MT}),
    }))
    return results


def none_tensor_cases(tf) -> dict:
    """``tf.NoneTensorSpec``: a None beside tensors in tf.data and tf.nest."""
    ds = tf.data.Dataset.range(3)
    return {
        "none spec repr": lambda: tf.NoneTensorSpec(),
        "none spec eq": lambda: [tf.NoneTensorSpec() == tf.NoneTensorSpec(),
                                 tf.NoneTensorSpec() == tf.TensorSpec([])],
        "none type_spec_from_value": lambda: tf.type_spec_from_value(None),
        "none nest flatten": lambda: tf.nest.flatten(tf.NoneTensorSpec(), expand_composites=True),
        "none value_type": lambda: tf.NoneTensorSpec().value_type.__name__,
        "none map spec": lambda: ds.map(lambda x: (x, None)).element_spec,
        "none map batch": lambda: list(ds.map(lambda x: (x, None)).batch(2)),
        "none map dict": lambda: list(ds.map(lambda x: {"a": x, "b": None})),
        "none from_tensors": lambda: list(tf.data.Dataset.from_tensors((1, None))),
        "none from_tensors spec": lambda: tf.data.Dataset.from_tensors((1, None)).element_spec,
    }


def program(tf) -> dict:
    """{case: result}."""
    return {**run(extension_type_cases(tf)), **dispatch_cases(tf),
            **run(none_tensor_cases(tf))}


def main() -> None:
    """Writes the record."""
    import tensorflow as tf
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "dispatch",
                        "extension_type_tf_2_21.json")
    with open(path, "w") as f:
        json.dump(program(tf), f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()

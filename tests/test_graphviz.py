"""Graph export to Graphviz DOT: gradient ops clustered per forward op, stopped edges marked."""
import re
import shutil
import subprocess

import pytest

import flowgrad.compat.v1 as tf
from flowgrad.debug import to_dot

_EDGE = re.compile(r'^\s*"([^"]+)" -> "([^"]+)" \[(.*)\];$')
_NODE = re.compile(r'^\s*"([^"]+)" \[(.*)\];$')


def _parse(dot):
    """{node: attrs}, {(src, dst): attrs} of the DOT text (attrs as one string)."""
    nodes, edges = {}, {}
    for line in dot.splitlines():
        m = _EDGE.match(line)
        if m:
            edges[(m.group(1), m.group(2))] = m.group(3)
            continue
        m = _NODE.match(line)
        if m:
            nodes[m.group(1)] = m.group(2)
    return nodes, edges


def _model():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.Variable(tf.ones([3, 1]), name="w")
    target = tf.stop_gradient(tf.matmul(x, w, name="target_net"), name="frozen")
    pred = tf.matmul(x, w, name="pred")
    n = tf.cast(tf.shape(x, name="shape")[0], tf.float32, name="n")
    loss = tf.divide(tf.reduce_sum(tf.square(pred - target)), n, name="loss")
    return x, w, pred, loss


def test_forward_graph_nodes_and_marked_edges():
    x, w, pred, loss = _model()
    dot = to_dot()
    assert dot.startswith('digraph "flowgrad" {') and dot.rstrip().endswith("}")
    nodes, edges = _parse(dot)
    assert 'label="pred\\nMatMul"' in nodes["pred"]
    assert "created at" in nodes["pred"] and "test_graphviz.py" in nodes["pred"]
    assert 'fillcolor="lightblue"' in nodes["w"]             # a variable
    assert 'color="red"' in nodes["frozen"]                  # the StopGradient op
    # the edge into stop_gradient is stopped; the integer shape edge carries no gradient
    assert 'label="float32 (?, 1)\\nstopped"' in edges[("target_net", "frozen")]
    assert 'style="dashed"' in edges[("target_net", "frozen")]
    assert "no gradient" in edges[("shape", next(d for s, d in edges if s == "shape"))]
    assert 'style="dotted"' in edges[("shape", next(d for s, d in edges if s == "shape"))]
    assert edges[("x", "pred")] == 'label="float32 (?, 3)"'


def test_gradient_ops_are_clustered_by_forward_op():
    x, w, pred, loss = _model()
    tf.gradients(loss, [w])
    dot = to_dot()
    nodes, _ = _parse(dot)
    assert 'label="gradient of pred (MatMul)"' in dot
    grad_nodes = [n for n in nodes if n.startswith("gradients/")]
    assert grad_nodes and all('fillcolor="#fde0c5"' in nodes[n] for n in grad_nodes)
    cluster = dot.split('label="gradient of pred (MatMul)"')[1].split("}")[0]
    assert '"gradients/pred_grad/' in cluster
    no_grads = _parse(to_dot(include_gradients=False))[0]
    assert not [n for n in no_grads if n.startswith("gradients/")]


def test_stop_gradients_argument_and_fetch_pruning():
    a = tf.placeholder(tf.float32, [], name="a")
    h = tf.multiply(a, 2.0, name="h")
    y = tf.square(h, name="y")
    tf.square(a, name="unrelated")
    nodes, edges = _parse(to_dot(fetches=[y], stop_gradients=[h]))
    assert "unrelated" not in nodes
    assert "peripheries" in nodes["h"] and "(stop_gradients)" in nodes["h"]
    assert "stopped" in edges[("a", "h")]


def test_control_edges_and_quoting():
    with tf.name_scope('we"ird'):
        a = tf.constant(1.0, name="a")
    with tf.control_dependencies([a.op]):
        b = tf.constant(2.0, name="b")
    dot = to_dot(name="g")
    assert '"we\\"ird/a" -> "b"' in dot and 'arrowhead="odot"' in dot
    assert b.op.name == "b"


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz 'dot' is not installed")
def test_graphviz_accepts_the_output():
    x, w, pred, loss = _model()
    tf.gradients(loss, [w])
    out = subprocess.run(["dot", "-Tsvg"], input=to_dot(), capture_output=True, text=True,
                         check=True)
    assert out.stdout.lstrip().startswith("<?xml") and "gradient of pred" in out.stdout

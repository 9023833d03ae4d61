"""Checkpoint flows as TF2 programs write them, each printed as ``tag -> result`` or
``tag !! ErrorClass message``: tf.Module trees with lists and dicts of variables (their keys,
``list_variables``, shape and dtype maps), restoring with ``assert_consumed`` /
``assert_existing_objects_matched`` / ``expect_partial``, mismatched shapes and dtypes,
``write``/``read``, ``save_counter``, CheckpointManager (``max_to_keep``,
``checkpoint_number``, ``checkpoint_interval`` with ``step_counter``,
``restore_or_initialize`` with ``init_fn``, adopting a directory), attributes set later,
restore before a variable exists, ``CheckpointOptions``, ``Checkpoint(root=)``, missing files
and keys.

    /path/to/tf-venv/bin/python tools/tf_reference/checkpoint_user_flows.py DIR > out.txt

TensorFlow 2.21 printed tests/data/checkpoint_user_flows/flows_tf_2_21.txt;
tests/test_checkpoint_user_flows.py runs this on flowgrad (``python -m flowgrad``). Error
messages are printed without TensorFlow's ``{{function_node ...}}`` prefix and ``[Op:...]``
suffix (its C++ runtime's)."""

import os
import re
import shutil
import sys

import numpy as np
import tensorflow as tf

base = sys.argv[1]


def d(name):
    p = os.path.join(base, name)
    shutil.rmtree(p, ignore_errors=True)
    os.makedirs(p)
    return p


def show(tag, f):
    try:
        r = f()
        print(tag, "->", r)
    except Exception as e:
        text = re.sub(r"^\{\{function_node [^}]*\}\} | \[Op:\w+\]$", "", str(e))
        print(tag, "!!", type(e).__name__, text.replace(base, "BASE")[:400].replace("\n", " | "))


def rel(p):
    return None if p is None else os.path.relpath(p, base)


class M(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0, 2.0]], name="w")
        self.layers = [tf.Variable(3.0), tf.Variable([4.0, 5.0])]
        self.table = {"b": tf.Variable(6), "a": tf.Variable(7.0)}
        self.nested = {"x": [tf.Variable(8.0)]}


# 1 module tree keys, list_variables, shape map
p = d("m")
m = M()
path = tf.train.Checkpoint(model=m).save(os.path.join(p, "ck"))
show("1 save path", lambda: rel(path))
show("1 list_variables", lambda: tf.train.list_variables(p))
show(
    "1 shape_map",
    lambda: sorted(tf.train.load_checkpoint(path).get_variable_to_shape_map().items()),
)
show(
    "1 dtype_map",
    lambda: sorted(
        (k, v.name) for k, v in tf.train.load_checkpoint(path).get_variable_to_dtype_map().items()
    ),
)
show(
    "1 load_variable",
    lambda: tf.train.load_variable(p, "model/layers/1/.ATTRIBUTES/VARIABLE_VALUE").tolist(),
)
show("1 state file", lambda: open(os.path.join(p, "checkpoint")).read().replace(base, "BASE"))
# 2 restore into fresh, assert_consumed
m2 = M()
[v.assign(tf.zeros_like(v)) for v in m2.variables]
st = tf.train.Checkpoint(model=m2).restore(path)
show("2 consumed", lambda: st.assert_consumed() is st)
show("2 values", lambda: [v.numpy().tolist() for v in m2.variables])


# 3 mismatched shapes
class Bad(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0, 2.0, 3.0]])


show("3 shape mismatch", lambda: tf.train.Checkpoint(model=Bad()).restore(path))


class BadT(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1, 2]])


show("3 dtype mismatch", lambda: tf.train.Checkpoint(model=BadT()).restore(path))


# 4 partial: extra values in checkpoint
class Small(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[0.0, 0.0]])


s = Small()
st = tf.train.Checkpoint(model=s).restore(path)
show("4 existing matched", lambda: st.assert_existing_objects_matched() is st)
show("4 consumed", lambda: st.assert_consumed())
show("4 nontrivial", lambda: st.assert_nontrivial_match() is st)
show("4 expect_partial", lambda: type(st.expect_partial()).__name__)


# 5 live object not in checkpoint
class Big(M):
    def __init__(self):
        super().__init__()
        self.extra = tf.Variable(1.0)


st = tf.train.Checkpoint(model=Big()).restore(path)
show("5 existing matched", lambda: st.assert_existing_objects_matched())
# 6 missing path / None / dir
show("6 missing", lambda: tf.train.Checkpoint(model=M()).restore(os.path.join(p, "nope-3")))
show("6 none", lambda: type(tf.train.Checkpoint(model=M()).restore(None)).__name__)
show("6 none consumed", lambda: tf.train.Checkpoint(model=M()).restore(None).assert_consumed())
show("6 dir", lambda: tf.train.Checkpoint(model=M()).restore(p))
# 7 write/read
p7 = d("wr")
c = tf.train.Checkpoint(v=tf.Variable(2.0))
show("7 write", lambda: rel(c.write(os.path.join(p7, "w"))))
show("7 files", lambda: sorted(os.listdir(p7)))
show("7 latest after write", lambda: tf.train.latest_checkpoint(p7))
show("7 read", lambda: type(c.read(os.path.join(p7, "w"))).__name__)
show("7 read consumed", lambda: type(c.read(os.path.join(p7, "w")).assert_consumed()).__name__)
show("7 save_counter", lambda: int(c.save_counter))
show("7 save", lambda: rel(c.save(os.path.join(p7, "s"))))
show("7 save2", lambda: rel(c.save(os.path.join(p7, "s"))))
show("7 save_counter2", lambda: int(c.save_counter))
# 8 manager
p8 = d("mgr")
step = tf.Variable(0, dtype=tf.int64)
c8 = tf.train.Checkpoint(step=step)
mgr = tf.train.CheckpointManager(c8, p8, max_to_keep=2)
for _ in range(4):
    step.assign_add(1)
    mgr.save()
show("8 checkpoints", lambda: [rel(x) for x in mgr.checkpoints])
show("8 files", lambda: sorted(os.listdir(p8)))
show("8 latest", lambda: rel(mgr.latest_checkpoint))
show("8 save number", lambda: rel(mgr.save(checkpoint_number=100)))
show(
    "8 state",
    lambda: [rel(x) for x in tf.train.get_checkpoint_state(p8).all_model_checkpoint_paths],
)
show("8 state model", lambda: rel(tf.train.get_checkpoint_state(p8).model_checkpoint_path))
mgr2 = tf.train.CheckpointManager(c8, p8, max_to_keep=2)
show("8 new mgr checkpoints", lambda: [rel(x) for x in mgr2.checkpoints])
show(
    "8 max_to_keep None",
    lambda: rel(tf.train.CheckpointManager(c8, d("mgrn"), max_to_keep=None).save()),
)
show("8 max_to_keep 0", lambda: tf.train.CheckpointManager(c8, d("mgr0"), max_to_keep=0))
show(
    "8 name",
    lambda: rel(
        tf.train.CheckpointManager(c8, d("mgrname"), max_to_keep=1, checkpoint_name="model").save()
    ),
)
# 9 interval
p9 = d("intv")
st9 = tf.Variable(0)
m9 = tf.train.CheckpointManager(
    tf.train.Checkpoint(s=st9), p9, max_to_keep=5, step_counter=st9, checkpoint_interval=3
)
res = []
for _ in range(8):
    r = m9.save()
    res.append(rel(r))
    st9.assign_add(1)
show("9 interval saves", lambda: res)
show(
    "9 interval no counter",
    lambda: tf.train.CheckpointManager(c8, d("x9"), 3, checkpoint_interval=2),
)
# 10 restore_or_initialize
p10 = d("roi")
calls = []
m10 = tf.train.CheckpointManager(
    tf.train.Checkpoint(v=tf.Variable(1.0)), p10, 3, init_fn=lambda: calls.append(1)
)
show("10 roi empty", lambda: (m10.restore_or_initialize(), calls))
m10.save()
show("10 roi after", lambda: (rel(m10.restore_or_initialize()), calls))
# 11 checkpoint not trackable
show("11 bad kwarg", lambda: tf.train.Checkpoint(x=3))
show("11 bad kwarg np", lambda: tf.train.Checkpoint(x=np.ones(2)))
# 12 attribute added later
c12 = tf.train.Checkpoint()
c12.v = tf.Variable(5.0)
p12 = d("late")
show(
    "12 late attr",
    lambda: [k for k, _ in tf.train.list_variables(c12.save(os.path.join(p12, "c")))],
)


# 13 restore before variable created: Module attribute later
class Lazy(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = None

    def build(self):
        self.v = tf.Variable(0.0)


src = Lazy()
src.build()
src.v.assign(42.0)
p13 = d("lazy")
pp = tf.train.Checkpoint(m=src).save(os.path.join(p13, "c"))
dst = Lazy()
st13 = tf.train.Checkpoint(m=dst).restore(pp)
dst.build()
show("13 deferred module", lambda: float(dst.v.numpy()))
# 14 checkpoint_options / Checkpoint.save with options
show(
    "14 options",
    lambda: rel(
        tf.train.Checkpoint(v=tf.Variable(1.0)).save(
            os.path.join(d("opt"), "c"), options=tf.train.CheckpointOptions()
        )
    ),
)
calls14 = []
o14 = tf.train.CheckpointOptions(
    experimental_io_device="/job:localhost",
    experimental_write_callbacks=[lambda p: calls14.append(rel(p)), lambda: calls14.append(1)],
)
show(
    "14 callbacks",
    lambda: (
        rel(tf.train.Checkpoint(v=tf.Variable(1.0)).save(os.path.join(d("cb"), "c"), options=o14)),
        calls14,
    ),
)
# 15 tf.train.Checkpoint with root=
show(
    "15 root",
    lambda: [
        k
        for k, _ in tf.train.list_variables(
            tf.train.Checkpoint(root=M()).write(os.path.join(d("root"), "c"))
        )
    ],
)
r15 = M()
p15 = tf.train.Checkpoint(root=r15, extra=tf.Variable(3.0)).save(os.path.join(d("root2"), "c"))
show("15 root keys", lambda: [k for k, _ in tf.train.list_variables(p15)])
m15 = M()
m15.w.assign([[0.0, 0.0]])
show(
    "15 root restore",
    lambda: (tf.train.Checkpoint(root=m15).restore(p15) is not None, m15.w.numpy().tolist()),
)
# 16 restore status repr types
show("16 status type", lambda: type(tf.train.Checkpoint(model=M()).restore(path)).__name__)
# 17 checkpoint_exists / latest of empty dir
show("17 latest empty", lambda: tf.train.latest_checkpoint(d("empty")))
show("17 latest missing", lambda: tf.train.latest_checkpoint(os.path.join(base, "nonexist")))
# 18 load_checkpoint errors
show("18 load missing", lambda: tf.train.load_checkpoint(os.path.join(base, "nonexist")))
show("18 get_tensor missing key", lambda: tf.train.load_checkpoint(path).get_tensor("nope"))
show(
    "18 has_tensor",
    lambda: tf.train.load_checkpoint(path).has_tensor("model/w/.ATTRIBUTES/VARIABLE_VALUE"),
)


# 19 list of lists & tuple in module
class T(tf.Module):
    def __init__(self):
        super().__init__()
        self.tup = (tf.Variable(1.0), tf.Variable(2.0))
        self.ll = [[tf.Variable(3.0)]]


show(
    "19 tuple/nested keys",
    lambda: [
        k
        for k, _ in tf.train.list_variables(
            tf.train.Checkpoint(t=T()).write(os.path.join(d("tup"), "c"))
        )
    ],
)
# 20 int variables, strings
show(
    "20 dtypes",
    lambda: [
        (k, s)
        for k, s in tf.train.list_variables(
            tf.train.Checkpoint(
                a=tf.Variable("hi"), b=tf.Variable(np.int16(3)), c=tf.Variable(True)
            ).write(os.path.join(d("dt"), "c"))
        )
    ],
)


# 21 a tf.Module restored before the variables of its list and dict attributes exist
class Grow(tf.Module):
    def __init__(self):
        super().__init__()
        self.vs = []
        self.d = {}

    def build(self):
        self.vs.append(tf.Variable([1.0, 2.0]))
        self.d["k"] = tf.Variable(3.0)


g = Grow()
g.build()
g.vs[0].assign([5.0, 6.0])
g.d["k"].assign(7.0)
p21 = tf.train.Checkpoint(m=g).write(os.path.join(d("grow"), "c"))
g2 = Grow()
st21 = tf.train.Checkpoint(m=g2).read(p21)
g2.build()
show("21 deferred list/dict", lambda: (g2.vs[0].numpy().tolist(), float(g2.d["k"].numpy())))
show("21 consumed", lambda: type(st21.assert_consumed()).__name__)

"""The export table (flowgrad/api/exports.py) is the one place a face's names are declared:
each face shows exactly its table's names, and each name is the object its entry names."""
import pytest

import flowgrad
import flowgrad.compat.v1 as v1
from flowgrad.api import namespaces
from flowgrad.api.exports import EXPORTS

FACES = {"tf": flowgrad, "tf.compat.v1": v1}
#: TF1 names the face loads on first use (absl's, the flags extra), outside the table.
TF1_LAZY = {"app", "flags"}


def _public(names) -> set:
    return {n for n in names if not n.startswith("_")}


@pytest.mark.parametrize("path", sorted(EXPORTS))
def test_every_entry_is_the_object_its_namespace_shows(path):
    module = FACES.get(path) or namespaces.namespace(path)
    for name, source in EXPORTS[path].items():     # tf.keras: the real Keras 3's module
        assert getattr(module, name) is namespaces.resolve(source), (path, name, source)


@pytest.mark.parametrize("path", sorted(FACES))
def test_a_face_shows_exactly_its_table(path):
    shown = _public(dir(FACES[path])) - (TF1_LAZY if path == "tf.compat.v1" else set())
    assert shown == _public(EXPORTS[path])
    assert set(FACES[path].__all__) == _public(EXPORTS[path])


def test_built_namespaces_show_their_table_and_refuse_other_names():
    train = flowgrad.train
    assert train is namespaces.namespace("tf.train") and train.__name__ == "flowgrad.train"
    assert set(dir(train)) == set(EXPORTS["tf.train"])
    assert flowgrad.dtypes.float32 is flowgrad.float32
    with pytest.raises(AttributeError, match="'flowgrad.train' has no attribute 'Saver'"):
        train.Saver  # noqa: B018 - TF1's, in flowgrad.compat.v1.train only


def test_sources_name_modules_attributes_or_namespaces():
    assert namespaces.resolve("flowgrad.ops.math_ops:add") is flowgrad.add
    assert namespaces.resolve("tf.dtypes") is flowgrad.dtypes
    assert namespaces.modules("tf") >= {"math", "nn", "train", "keras", "compat"}
    assert "add" not in namespaces.modules("tf")

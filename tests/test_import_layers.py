"""flowgrad's imports point downwards: framework -> ops -> runtime (executing graphs:
``flowgrad/runtime/``) -> autodiff (differentiating them: ``flowgrad/autodiff/``) -> libraries
-> the two faces.

Every import statement of the package is read with ``ast`` (module level and inside
functions, ``from . import x`` included). A module may import modules of its own layer
and of the layers below; an import of a higher layer fails, and so does any import cycle,
inside one layer too: the modules of a layer are ordered as well. Where a lower module
needs behaviour from a higher one, the higher one registers it with
``flowgrad.framework.hooks`` (``ops/overloads.py``, the math op families,
``flowgrad.autodiff.tape``)."""
from __future__ import annotations

import ast
import pathlib

import pytest

import flowgrad

# The layer order, bottom to top, written once. A module belongs to the layer of the longest
# prefix naming it (a dotted name covers its submodules; the bare root "flowgrad", the TF2
# face, names only itself).
LAYERS: list[tuple[str, list[str]]] = [
    ("framework", ["flowgrad.framework", "flowgrad.nest", "flowgrad.version"]),
    ("ops", ["flowgrad.ops"]),
    ("runtime", ["flowgrad.runtime", "flowgrad.autograph"]),
    ("autodiff", ["flowgrad.autodiff"]),
    ("libraries", ["flowgrad.train", "flowgrad.legacy_keras", "flowgrad.layers", "flowgrad.losses",
                   "flowgrad.metrics", "flowgrad.data", "flowgrad.datasets", "flowgrad.tflite",
                   "flowgrad.distribute", "flowgrad.distributions", "flowgrad.debug",
                   "flowgrad.summary", "flowgrad.testing", "flowgrad.module", "flowgrad.rnn",
                   "flowgrad.saved_model", "flowgrad.initializers", "flowgrad.config",
                   "flowgrad.feature_column_lib", "flowgrad.experimental_numpy",
                   "flowgrad.linear_operators", "flowgrad.estimator",
                   "flowgrad.extension_types"]),
    ("tf_internal", ["flowgrad.tf_internal"]),
    ("faces", ["flowgrad", "flowgrad.compat", "flowgrad.compat.contrib", "flowgrad.api",
               "flowgrad.dropin", "flowgrad.dropin_aliases", "flowgrad.__main__",
               "flowgrad.dropin_site",
               "flowgrad.keras2_names",
               "flowgrad.internal_api",
               "flowgrad.raw_ops_api",
               "flowgrad.cluster_resolver_api", "flowgrad.lite_api", "flowgrad.lite_v1_api",
               "flowgrad.sysconfig_api",
               "flowgrad.replica_losses_api",
               "flowgrad.tensor_proto_api"]),
]

PACKAGE_DIR = pathlib.Path(flowgrad.__file__).parent


def layer_of(module: str, layers: list = LAYERS) -> int | None:
    """Index of ``module``'s layer (longest matching prefix), None when no prefix names it."""
    best, best_len = None, -1
    for i, (_, prefixes) in enumerate(layers):
        for p in prefixes:
            covers = module == p or ("." in p and module.startswith(p + "."))
            if covers and len(p) > best_len:
                best, best_len = i, len(p)
    return best


def package_modules() -> dict[str, pathlib.Path]:
    """Every module of the package: dotted name -> file."""
    mods = {}
    for f in sorted(PACKAGE_DIR.rglob("*.py")):
        parts = ("flowgrad",) + f.relative_to(PACKAGE_DIR).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = f
    return mods


def _resolve(base: str, name: str, known: set) -> str:
    """``from base import name``: the submodule base.name when it is one, else base."""
    full = base + "." + name
    return full if full in known else base


def imports_of(module: str, path: pathlib.Path, known: set) -> list[tuple[str, int]]:
    """(imported flowgrad module, line) for every import statement in ``path``."""
    is_package = path.name == "__init__.py"
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                pkg = module.split(".")
                pkg = pkg[:len(pkg) - node.level + (1 if is_package else 0)]
                base = ".".join(pkg + ([node.module] if node.module else []))
            else:
                base = node.module
            out += [(_resolve(base, a.name, known), node.lineno) for a in node.names]
    return [(m, line) for m, line in out if m == "flowgrad" or m.startswith("flowgrad.")]


def import_graph() -> dict[str, list[tuple[str, int]]]:
    mods = package_modules()
    known = set(mods)
    return {m: imports_of(m, f, known) for m, f in mods.items()}


def unplaced_modules(modules: list, layers: list = LAYERS) -> list[str]:
    return [m for m in modules if layer_of(m, layers) is None]


def upward_imports(graph: dict, layers: list = LAYERS) -> list[str]:
    """'a:line -> b (layer A imports layer B)' for each import of a higher layer."""
    bad = []
    for mod, targets in graph.items():
        me = layer_of(mod, layers)
        for target, line in targets:
            them = layer_of(target, layers)
            if me is not None and them is not None and them > me:
                bad.append("%s:%d imports %s (%s imports %s)"
                           % (mod, line, target, layers[me][0], layers[them][0]))
    return bad


def import_cycles(graph: dict) -> list[list[str]]:
    """The import cycles: strongly connected components of several modules, and modules that
    import themselves."""
    succ = {m: sorted({t for t, _ in ts if t in graph}) for m, ts in graph.items()}
    index: dict = {}
    low: dict = {}
    stack: list = []
    on_stack: set = set()
    sccs = []
    counter = 0
    for root in sorted(succ):
        if root in index:
            continue
        work = [(root, iter(succ[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(succ[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    comp.append(m)
                    if m == node:
                        break
                sccs.append(sorted(comp))
    return [c for c in sccs if len(c) > 1 or c[0] in succ[c[0]]]


def test_every_module_has_a_layer():
    missing = unplaced_modules(list(package_modules()))
    assert not missing, ("modules in no layer: %s. Add each (or its package) to LAYERS in "
                         "tests/test_import_layers.py, in the layer it belongs to."
                         % ", ".join(missing))


def test_imports_point_downwards():
    bad = upward_imports(import_graph())
    assert not bad, ("upward imports (a lower layer must not import a higher one, not even "
                     "inside a function; let the higher layer register a hook, see "
                     "flowgrad/framework/hooks.py):\n  " + "\n  ".join(bad))


def test_no_import_cycles():
    cycles = import_cycles(import_graph())
    assert not cycles, ("import cycles (break them: move the function to the module it "
                        "belongs to, import a family module instead of a facade, or let the "
                        "higher module register a hook):\n  " + "\n  ".join(
                            " <-> ".join(c) for c in cycles))


def test_the_walk_sees_function_local_and_relative_imports(tmp_path):
    src = tmp_path / "__init__.py"
    src.write_text("import flowgrad.ops.math_ops as m\n"
                   "from flowgrad import nest, autodiff\n"
                   "def f():\n"
                   "    from flowgrad.runtime.session import Session\n"
                   "    from .autodiff import tape\n"
                   "    from .ops import array_ops\n")
    known = {"flowgrad.nest", "flowgrad.autodiff", "flowgrad.autodiff.tape",
             "flowgrad.ops.array_ops"}
    got = [m for m, _ in imports_of("flowgrad", src, known)]
    assert got == ["flowgrad.ops.math_ops", "flowgrad.nest", "flowgrad.autodiff",
                   "flowgrad.runtime.session", "flowgrad.autodiff.tape", "flowgrad.ops.array_ops"]


@pytest.fixture
def toy_layers():
    return [("low", ["p.low"]), ("high", ["p.high", "p"])]


def test_checks_catch_upward_imports_cycles_and_unknown_modules(toy_layers):
    graph = {"p.low.a": [("p.high.b", 3)], "p.high.b": [("p.low.a", 1)],
             "p.low.c": [("p.low.a", 2)], "p.low.a2": [("p.low.c", 5)]}
    assert upward_imports(graph, toy_layers) == [
        "p.low.a:3 imports p.high.b (low imports high)"]
    assert import_cycles(graph) == [["p.high.b", "p.low.a"]]
    graph["p.low.c"].append(("p.low.a2", 4))          # a cycle inside one layer fails too
    assert sorted(import_cycles(graph)) == [["p.high.b", "p.low.a"],
                                            ["p.low.a2", "p.low.c"]]
    graph["p.low.d"] = [("p.low.d", 1)]               # and so does a module importing itself
    assert ["p.low.d"] in import_cycles(graph)
    assert layer_of("p.low.new.deep", toy_layers) == 0
    assert layer_of("p", toy_layers) == 1
    assert unplaced_modules(["q.x", "p.low.z"], toy_layers) == ["q.x"]


def test_importing_flowgrad_registers_every_hook():
    from flowgrad.framework import hooks
    missing = [n for n in hooks._PROVIDERS if getattr(hooks, n).__module__ == hooks.__name__]
    assert not missing, "hooks left unregistered by `import flowgrad`: %s" % missing


def test_register_rejects_unknown_and_uncallable_hooks():
    from flowgrad.framework import hooks
    with pytest.raises(ValueError, match="Unknown flowgrad hook 'eqaul'.*equal"):
        hooks.register(eqaul=len)
    with pytest.raises(TypeError, match="Hook 'equal' must be callable"):
        hooks.register(equal=3)
    assert hooks.equal.__name__ == "equal"


def test_an_unregistered_hook_names_its_provider():
    from flowgrad.framework import hooks
    with pytest.raises(RuntimeError, match="'record_operation' is not registered: import "
                                           "flowgrad.autodiff.tape"):
        hooks._unregistered("record_operation")()

"""AutoGraph's source transformation: Python control flow becomes calls of ``ag__`` operators.

A function's syntax tree is rewritten in four passes, as TensorFlow's AutoGraph does:

1. ``return`` inside ``if``/loops becomes ``do_return__ = True; retval__ = value`` (plus a
   ``break`` in loops), with the statements after it guarded by ``if not do_return__``.
2. ``break``/``continue`` become flags; the loop test gains ``not break__N`` and the rest of
   the body is guarded by the flags.
3. Every local the function assigns is bound to ``ag__.Undefined(name)`` at its start, so the
   generated functions can declare it ``nonlocal``; user reads go through ``ag__.ld``.
4. ``if``/``while``/``for``, ``assert``, conditional expressions and ``and``/``or``/``not``
   become ``ag__.if_stmt``/``while_stmt``/``for_stmt``/``assert_stmt``/``if_exp``/``and_``/
   ``or_``/``not_`` calls
   whose bodies are local functions, with ``get_state``/``set_state`` functions over the
   variables the statement assigns. Calls go through ``ag__.converted_call`` so that user
   functions called from converted code are converted too.

The operators decide at run time: a Tensor condition builds cond/while_loop, anything else
keeps Python's semantics."""
from __future__ import annotations

import ast
from collections import Counter
from typing import Any

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp,
           ast.SetComp, ast.DictComp, ast.GeneratorExp)
_LOOPS = (ast.For, ast.While)
DO_RETURN, RETVAL = "do_return__", "retval__"


class ConversionError(Exception):
    """The source of a function uses something AutoGraph does not convert."""


def _name(id_: str, store: bool = False) -> ast.Name:
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def _assign(id_: str, value: ast.expr) -> ast.Assign:
    return ast.Assign(targets=[_name(id_, True)], value=value)


def _ag_call(fn: str, *args: ast.expr) -> ast.Call:
    return ast.Call(func=ast.Attribute(value=_name("ag__"), attr=fn, ctx=ast.Load()),
                    args=list(args), keywords=[])


def _lambda(body: ast.expr) -> ast.Lambda:
    return ast.Lambda(args=_no_args(), body=body)


def _no_args(*names: str) -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in names], vararg=None,
                         kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])


def _def(name: str, body: list, *params: str) -> ast.FunctionDef:
    return ast.FunctionDef(name=name, args=_no_args(*params), body=body or [ast.Pass()],
                           decorator_list=[], returns=None)


def _str_tuple(names: list) -> ast.Tuple:
    return ast.Tuple(elts=[ast.Constant(n) for n in names], ctx=ast.Load())


def _walk_scope(node: ast.AST):
    """The nodes of ``node`` that belong to its scope (nested scopes are not entered)."""
    todo = list(ast.iter_child_nodes(node))
    while todo:
        n = todo.pop()
        yield n
        if isinstance(n, _SCOPES):
            continue
        todo.extend(ast.iter_child_nodes(n))


def _target_names(t: ast.AST) -> set:
    return {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}


def stored_names(nodes: list) -> set:
    """Names that ``nodes`` bind in their own scope."""
    out: set = set()
    for node in nodes:
        for n in [node, *_walk_scope(node)]:
            if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
                out.add(n.id)
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                    and n is not node:
                out.add(n.name)
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                out.update((a.asname or a.name).split(".")[0] for a in n.names)
            elif isinstance(n, ast.ExceptHandler) and n.name:
                out.add(n.name)
    return out


def _loads(nodes: list) -> Counter:
    """How often each name is read in ``nodes``, nested scopes included (closures read too)."""
    c: Counter = Counter()
    for node in nodes:
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                c[n.id] += 1
    return c


def _contains(node: ast.AST, kinds: tuple, through_loops: bool) -> bool:
    """Whether ``node`` holds a statement of ``kinds`` reached without entering a nested scope
    (nor a nested loop unless ``through_loops``)."""
    todo = list(ast.iter_child_nodes(node))
    while todo:
        n = todo.pop()
        if isinstance(n, kinds):
            return True
        if isinstance(n, _SCOPES) or (isinstance(n, _LOOPS) and not through_loops):
            continue
        todo.extend(ast.iter_child_nodes(n))
    return False


def _map_blocks(stmt: ast.stmt, fn: Any) -> None:
    """Applies ``fn`` to each statement list of ``stmt`` (bodies, else-parts, handlers)."""
    for field in ("body", "orelse", "finalbody"):
        block = getattr(stmt, field, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            setattr(stmt, field, fn(block))
    for h in getattr(stmt, "handlers", []) or []:
        h.body = fn(h.body)
    for c in getattr(stmt, "cases", []) or []:
        c.body = fn(c.body)


class _Counter:
    def __init__(self) -> None:
        self.n = 0

    def next(self) -> int:
        self.n += 1
        return self.n


def _guard_block(stmts: list, is_jump: Any, rewrite_jump: Any, may_jump: Any,
                 guard: Any, recurse: Any) -> list:
    """Rewrites jumps in ``stmts``; statements after a possible jump run under ``guard()``."""
    out: list = []
    for i, s in enumerate(stmts):
        if is_jump(s):
            out.extend(rewrite_jump(s))
            return out
        jumps = may_jump(s)
        recurse(s)
        out.append(s)
        if jumps:
            rest = _guard_block(stmts[i + 1:], is_jump, rewrite_jump, may_jump, guard, recurse)
            out.extend(guard(rest))
            return out
    return out


def _if(test: ast.expr, body: list, orelse: list | None = None) -> list:
    if not body and not orelse:
        return []
    return [ast.If(test=test, body=body or [ast.Pass()], orelse=orelse or [])]


def _not(id_: str) -> ast.expr:
    return ast.UnaryOp(op=ast.Not(), operand=_name(id_))


def _always_returns(block: list) -> bool:
    for s in block:
        if isinstance(s, ast.Return):
            return True
        if isinstance(s, ast.If) and _always_returns(s.body) and _always_returns(s.orelse):
            return True
    return False


def convert_returns(fdef: ast.FunctionDef) -> None:
    """Pass 1: single exit through ``retval__`` when a return sits inside control flow.

    When one branch of an ``if`` always returns, the statements after the ``if`` move into
    the other branch (so that both branches of a Tensor condition set the return value);
    otherwise they run under ``if not do_return__``."""
    nested = any(isinstance(n, ast.Return) for s in fdef.body
                 if not isinstance(s, (ast.Return, *_SCOPES))    # nested defs: on their own
                 for n in [s, *_walk_scope(s)])
    if not nested:
        return

    def jump(s: ast.Return, in_loop: bool) -> list:
        value = s.value if s.value is not None else ast.Constant(None)
        out = [_assign(DO_RETURN, ast.Constant(True)), _assign(RETVAL, value)]
        return out + ([ast.Break()] if in_loop else [])

    def guard(rest: list, in_loop: bool) -> list:
        if in_loop:
            return _if(_name(DO_RETURN), [ast.Break()], rest)
        return _if(_not(DO_RETURN), rest)

    def rewrite(block: list, in_loop: bool) -> list:
        out: list = []
        for i, s in enumerate(block):
            if isinstance(s, ast.Return):
                return out + jump(s, in_loop)
            if isinstance(s, _SCOPES):      # a nested def's returns are its own
                out.append(s)
                continue
            rest = block[i + 1:]
            inner = in_loop or isinstance(s, _LOOPS)
            if isinstance(s, ast.If) and rest:
                body_returns, else_returns = _always_returns(s.body), _always_returns(s.orelse)
                if body_returns and else_returns:
                    rest = []
                elif body_returns:
                    s.orelse = s.orelse + rest
                    rest = []
                elif else_returns:
                    s.body = s.body + rest
                    rest = []
            jumps = _contains(s, (ast.Return,), True)
            _map_blocks(s, lambda b, inner=inner: rewrite(b, inner))
            out.append(s)
            if jumps:
                return out + guard(rewrite(rest, in_loop), in_loop)
        return out

    body = rewrite(fdef.body, False)
    fdef.body = [_assign(DO_RETURN, ast.Constant(False)), _assign(RETVAL, ast.Constant(None)),
                 *body, ast.Return(value=_name(RETVAL))]


def convert_jumps(fdef: ast.FunctionDef, counter: _Counter) -> None:
    """Pass 2: ``break``/``continue`` become flags tested by the loop and the guards."""
    def visit_block(block: list) -> list:
        out: list = []
        for s in block:
            _map_blocks(s, visit_block) if not isinstance(s, _SCOPES) else None
            out.extend(convert_loop(s) if isinstance(s, _LOOPS) else [s])
        return out

    def rewrite(block: list, kind: type, flag: str) -> list:
        def recurse(s: ast.stmt) -> None:
            if not isinstance(s, (*_LOOPS, *_SCOPES)):
                _map_blocks(s, lambda b: rewrite(b, kind, flag))
        return _guard_block(block, lambda s: isinstance(s, kind),
                            lambda s: [_assign(flag, ast.Constant(True))],
                            lambda s: not isinstance(s, _LOOPS) and _contains(s, (kind,), False),
                            lambda rest: _if(_not(flag), rest), recurse)

    def convert_loop(loop: ast.stmt) -> list:
        before: list = []
        orelse = loop.orelse
        loop.orelse = []
        if _contains(loop, (ast.Continue,), False):
            flag = "continue__%d" % counter.next()
            loop.body = [_assign(flag, ast.Constant(False)), *rewrite(loop.body, ast.Continue,
                                                                    flag)]
        after = orelse
        if _contains(loop, (ast.Break,), False):
            flag = "break__%d" % counter.next()
            loop.body = rewrite(loop.body, ast.Break, flag)
            before = [_assign(flag, ast.Constant(False))]
            if isinstance(loop, ast.While):
                loop.test = ast.BoolOp(op=ast.And(), values=[_not(flag), loop.test])
            else:
                loop.extra_test__ = _not(flag)  # read by the control-flow pass
            after = _if(_not(flag), orelse)
        return before + [loop] + after

    fdef.body = visit_block(fdef.body)


def _super_fix(fdef: ast.FunctionDef) -> None:
    """Zero-argument ``super()`` becomes ``super(__class__, self)`` (it needs a class cell)."""
    first = (fdef.args.posonlyargs + fdef.args.args)[:1]
    for n in _walk_scope(fdef):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "super" \
                and not n.args and not n.keywords:
            if not first:
                raise ConversionError("super() in a function without arguments")
            n.args = [_name("__class__"), _name(first[0].arg)]


class _ControlFlow(ast.NodeTransformer):
    """Pass 4 over one function's scope (nested functions are converted on their own)."""

    def __init__(self, fdef: ast.FunctionDef, counter: _Counter, global_names: set):
        self.counter = counter
        self.globals = global_names
        self.total_loads = _loads(fdef.body)
        self.top = fdef

    # -- helpers ---------------------------------------------------------------------------
    def _state(self, node: ast.AST, extra: set = frozenset()) -> tuple:
        names = sorted((stored_names([node]) | set(extra)) - self.globals)
        inside = _loads([node])
        live = [self.total_loads[n] > inside[n] for n in names]
        return names, live

    def _decl(self, names: list) -> list:
        out: list = []
        if names:
            out.append(ast.Nonlocal(names=list(names)))
        if self.globals:
            out.append(ast.Global(names=sorted(self.globals)))
        return out

    def _state_fns(self, k: int, names: list) -> tuple:
        tup = ast.Tuple(elts=[_name(n) for n in names], ctx=ast.Load())
        get = _def("get_state__%d" % k, [ast.Return(value=tup)])
        store = ast.Tuple(elts=[_name(n, True) for n in names], ctx=ast.Store())
        body = [ast.Assign(targets=[store], value=_name("vars__"))] if names else [ast.Pass()]
        put = _def("set_state__%d" % k, self._decl(names)[:1] + body, "vars__")
        return [get, put], _name(get.name), _name(put.name)

    @staticmethod
    def _call_stmt(fn: str, args: list, node: ast.AST, opts: ast.expr | None = None
                   ) -> ast.Expr:
        call = _ag_call(fn, *args)
        if opts is not None:
            call.keywords = [ast.keyword(arg="opts", value=opts)]
        return ast.copy_location(ast.Expr(value=call), node)

    @staticmethod
    def _loop_options(loop: ast.stmt) -> ast.expr | None:
        """Removes ``set_loop_options(...)`` calls from the top of a loop body; their keyword
        arguments as a dict expression (evaluated before the loop, as in TensorFlow)."""
        keys: list = []
        values: list = []
        kept = []
        for s in loop.body:
            f = s.value.func if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) \
                else None
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
            if name == "set_loop_options":
                for kw in s.value.keywords:
                    keys.append(ast.Constant(kw.arg))
                    values.append(kw.value)
            else:
                kept.append(s)
        if not keys:
            return None
        loop.body = kept or [ast.Pass()]
        return ast.Dict(keys=keys, values=values)

    # -- statements ------------------------------------------------------------------------
    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        if node is self.top:
            self.generic_visit(node)
            return node
        try:
            return convert_function_def(node, self.counter)
        except ConversionError:         # a nested generator: left as it is
            return node

    def visit_AsyncFunctionDef(self, node: ast.AST) -> ast.AST:
        return node

    def visit_ClassDef(self, node: ast.AST) -> ast.AST:
        return node

    def visit_If(self, node: ast.If) -> list:
        names, live = self._state(node)
        self.generic_visit(node)
        k = self.counter.next()
        body = _def("if_body__%d" % k, self._decl(names) + node.body)
        orelse = _def("else_body__%d" % k, self._decl(names) + node.orelse)
        fns, get, put = self._state_fns(k, names)
        call = self._call_stmt("if_stmt", [node.test, _name(body.name), _name(orelse.name), get,
                                           put, _str_tuple(names),
                                           ast.Constant(tuple(live))], node)
        return [ast.copy_location(n, node) for n in (body, orelse, *fns)] + [call]

    def visit_While(self, node: ast.While) -> list:
        names, live = self._state(node)
        opts = self._loop_options(node)
        self.generic_visit(node)
        k = self.counter.next()
        test = _def("loop_test__%d" % k, [ast.Return(value=node.test)])
        body = _def("loop_body__%d" % k, self._decl(names) + node.body)
        fns, get, put = self._state_fns(k, names)
        call = self._call_stmt("while_stmt", [_name(test.name), _name(body.name), get, put,
                                              _str_tuple(names), ast.Constant(tuple(live))], node,
                               opts and self.visit(opts))
        return [ast.copy_location(n, node) for n in (test, body, *fns)] + [call]

    def visit_For(self, node: ast.For) -> list:
        names, live = self._state(node)
        targets = sorted(_target_names(node.target) - self.globals)
        extra = getattr(node, "extra_test__", None)
        opts = self._loop_options(node)
        self.generic_visit(node)
        k = self.counter.next()
        itr = "itr__%d" % k
        assign = ast.Assign(targets=[node.target], value=_name(itr))
        body = _def("loop_body__%d" % k, self._decl(names) + [assign] + node.body, itr)
        fns, get, put = self._state_fns(k, names)
        out = [body, *fns]
        extra_fn: ast.expr = ast.Constant(None)
        if extra is not None:
            test = _def("extra_test__%d" % k, [ast.Return(value=self.visit(extra))])
            out.append(test)
            extra_fn = _name(test.name)
        call = self._call_stmt("for_stmt", [node.iter, extra_fn, _name(body.name), get, put,
                                            _str_tuple(names), ast.Constant(tuple(live)),
                                            _str_tuple(targets)], node, opts and self.visit(opts))
        return [ast.copy_location(n, node) for n in out] + [call]

    def visit_Assert(self, node: ast.Assert) -> ast.AST:
        self.generic_visit(node)
        msg = _lambda(node.msg) if node.msg is not None else ast.Constant(None)
        return self._call_stmt("assert_stmt", [node.test, msg], node)

    # -- expressions -----------------------------------------------------------------------
    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        return ast.copy_location(_ag_call("if_exp", node.test, _lambda(node.body),
                                          _lambda(node.orelse)), node)

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        fn = "and_" if isinstance(node.op, ast.And) else "or_"
        return ast.copy_location(_ag_call(fn, *[_lambda(v) for v in node.values]), node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return ast.copy_location(_ag_call("not_", node.operand), node)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and \
                f.value.id == "ag__":
            return node
        if isinstance(f, ast.Name) and f.id in ("super", "locals", "globals", "vars", "eval",
                                                "exec"):
            return node
        node.func = ast.copy_location(_ag_call("converted_call", f), f)
        return node


class _Loads(ast.NodeTransformer):
    """Pass 3's reads: a read of a local that may be unbound goes through ``ag__.ld``."""

    def __init__(self, names: set):
        self.names = names

    def visit_FunctionDef(self, node: ast.AST) -> ast.AST:
        return node

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.names:
            return ast.copy_location(_ag_call("ld", node), node)
        return node


def _params(args: ast.arguments) -> set:
    names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    names.update(a.arg for a in (args.vararg, args.kwarg) if a is not None)
    return names


def convert_function_def(fdef: ast.FunctionDef, counter: _Counter) -> ast.FunctionDef:
    """Converts one function definition in place (and the functions nested in it)."""
    if any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await)) for n in _walk_scope(fdef)):
        raise ConversionError("generators and coroutines are not converted")
    declared_global: set = set()
    declared_nonlocal: set = set()
    for n in _walk_scope(fdef):
        if isinstance(n, ast.Global):
            declared_global.update(n.names)
        elif isinstance(n, ast.Nonlocal):
            declared_nonlocal.update(n.names)
    _super_fix(fdef)
    convert_returns(fdef)
    convert_jumps(fdef, counter)
    hoisted = stored_names(fdef.body) - _params(fdef.args) - declared_global - declared_nonlocal
    fdef.body = [_Loads(hoisted).visit(s) for s in fdef.body]
    first = fdef.body[0]
    doc = [first] if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) else []
    init = [_assign(n, _ag_call("Undefined", ast.Constant(n))) for n in sorted(hoisted)]
    fdef.body = doc + init + fdef.body[len(doc):]
    _ControlFlow(fdef, counter, declared_global).visit(fdef)
    return fdef


class _Prepare(ast.NodeTransformer):
    """Drops annotations (the converted code is compiled outside the original module's
    ``from __future__`` and ``TYPE_CHECKING`` context) and mangles ``__private`` names as the
    class body the function came from did."""

    def __init__(self, class_name: str | None):
        self.prefix = "_" + class_name.lstrip("_") if class_name and class_name.strip("_") \
            else None

    def _mangle(self, name: str) -> str:
        if self.prefix and name.startswith("__") and not name.endswith("__"):
            return self.prefix + name
        return name

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.annotation = None
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.returns = None
        self.generic_visit(node)
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        node.attr = self._mangle(node.attr)
        self.generic_visit(node)
        return node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        node.id = self._mangle(node.id)
        return node


def convert_module(tree: ast.Module, class_name: str | None = None) -> ast.FunctionDef:
    """Converts the single function definition that ``tree`` (a parsed source) holds;
    ``class_name``: the class whose body defined it (for private name mangling)."""
    fdefs = [s for s in tree.body if isinstance(s, ast.FunctionDef)]
    if len(fdefs) != 1 or len(tree.body) != 1:
        raise ConversionError("expected the source of one function definition")
    fdef = fdefs[0]
    fdef.decorator_list = []
    _Prepare(class_name).visit(fdef)
    convert_function_def(fdef, _Counter())
    return fdef

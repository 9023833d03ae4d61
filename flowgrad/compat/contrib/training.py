"""TensorFlow 1.15's ``tf.contrib.training``: ``HParams``, the hyperparameter container
(``HParams(learning_rate=0.1, layers=[64, 32]).parse("learning_rate=0.3,layers=[8,8]")``), with
TF 1.15's parsing, type checks and error messages."""
from __future__ import annotations

import json
import numbers
import re

PARAM_RE = re.compile(r"""
  (?P<name>[a-zA-Z][\w\.]*)      # variable name: "var" or "x"
  (\[\s*(?P<index>\d+)\s*\])?  # (optional) index: "1" or None
  \s*=\s*
  ((?P<val>[^,\[]*)            # single value: "a" or None
   |
   \[(?P<vals>[^\]]*)\])       # list of values: None or "1,2,3"
  ($|,\s*)""", re.VERBOSE)


def _parse_fail(name: str, var_type: type, value: object, values: str) -> None:
    raise ValueError("Could not parse hparam '%s' of type '%s' with value '%s' in %s"
                     % (name, var_type.__name__, value, values))


def _reuse_fail(name: str, values: str) -> None:
    raise ValueError("Multiple assignments to variable '%s' in %s" % (name, values))


def _parser(name: str, type_: type, values: str) -> object:
    if type_ is not bool:
        return type_

    def parse_bool(value: str) -> bool:
        if value in ("true", "True"):
            return True
        if value in ("false", "False"):
            return False
        try:
            return bool(int(value))
        except ValueError:
            _parse_fail(name, type_, value, values)
    return parse_bool


def parse_values(values: str, type_map: dict, ignore_unknown: bool = False) -> dict:
    """Parses ``"name=value,name=[v1,v2],name[i]=v"`` into a dict of typed values.

    Args:
      values: The string to parse.
      type_map: The type of each hyperparameter (``bool`` accepts true/false/0/1).
      ignore_unknown: Skip names ``type_map`` lacks (else ValueError).

    Returns:
      A dict from names to values (lists for ``[...]``, dicts of index to value for
      ``name[i]=v``).

    Raises:
      ValueError: malformed text, an unknown name, a value that does not parse, or a name
        assigned twice.
    """
    results: dict = {}
    pos = 0
    while pos < len(values):
        m = PARAM_RE.match(values, pos)
        if not m:
            raise ValueError("Malformed hyperparameter value: %s" % values[pos:])
        pos = m.end()
        groups = m.groupdict()
        name = groups["name"]
        if name not in type_map:
            if ignore_unknown:
                continue
            raise ValueError("Unknown hyperparameter type for %s" % name)
        type_ = type_map[name]
        parse = _parser(name, type_, values)
        if groups["val"] is not None:
            try:
                parsed = parse(groups["val"])
            except ValueError:
                _parse_fail(name, type_, groups["val"], values)
            if not groups["index"]:
                if name in results:
                    _reuse_fail(name, values)
                results[name] = parsed
            else:
                if name in results and not isinstance(results[name], dict):
                    _reuse_fail(name, values)
                slot = results.setdefault(name, {})
                index = int(groups["index"])
                if index in slot:
                    _reuse_fail(f"{name}[{index}]", values)
                slot[index] = parsed
        elif groups["vals"] is not None:
            if groups["index"] is not None:
                raise ValueError("Assignment of a list to a list index.")
            if name in results:
                _reuse_fail(name, values)
            elements = [e for e in re.split("[ ,]", groups["vals"]) if e]
            try:
                results[name] = [parse(e) for e in elements]
            except ValueError:
                _parse_fail(name, type_, groups["vals"], values)
        else:
            _parse_fail(name, type_, "", values)
    return results


def _cast_to_type_if_compatible(name: str, param_type: type, value: object) -> object:
    fail_msg = "Could not cast hparam '%s' of type '%s' from value %r" % (name, param_type,
                                                                          value)
    if isinstance(value, param_type):
        return value
    if issubclass(param_type, type(None)):
        return value
    if issubclass(param_type, (str, bytes)) and not isinstance(value, (str, bytes)):
        raise ValueError(fail_msg)
    if issubclass(param_type, bool) != isinstance(value, bool):
        raise ValueError(fail_msg)
    if issubclass(param_type, numbers.Integral) and not isinstance(value, numbers.Integral):
        raise ValueError(fail_msg)
    if issubclass(param_type, numbers.Number) and not isinstance(value, numbers.Number):
        raise ValueError(fail_msg)
    return param_type(value)


class HParams:
    """Hyperparameters as attributes, each with the type of its first value.

    Args:
      hparam_def: A serialized ``HParamDef`` (not supported: raises).
      model_structure: Anything describing the model, kept as it is.
      **kwargs: The hyperparameters and their values (a list for a multi-valued one).

    Raises:
      ValueError: a name is reserved (an attribute of HParams) or a list is empty.
      NotImplementedError: ``hparam_def`` is given.
    """

    _HAS_DYNAMIC_ATTRIBUTES = True

    def __init__(self, hparam_def: object = None, model_structure: object = None,
                 **kwargs: object):
        self._hparam_types: dict = {}
        self._model_structure = model_structure
        if hparam_def:
            raise NotImplementedError("HParams from an HParamDef proto is not supported by "
                                      "flowgrad")
        for name, value in kwargs.items():
            self.add_hparam(name, value)

    def add_hparam(self, name: str, value: object) -> None:
        """Adds the hyperparameter ``name``.

        Args:
          name: Its name.
          value: Its value (a non-empty list for a multi-valued one).

        Raises:
          ValueError: the name is reserved or taken, or the list is empty.
        """
        if getattr(self, name, None) is not None:
            raise ValueError("Hyperparameter name is reserved: %s" % name)
        if isinstance(value, (list, tuple)):
            if not value:
                raise ValueError("Multi-valued hyperparameters cannot be empty: %s" % name)
            self._hparam_types[name] = (type(value[0]), True)
        else:
            self._hparam_types[name] = (type(value), False)
        setattr(self, name, value)

    def set_hparam(self, name: str, value: object) -> None:
        """Sets the existing hyperparameter ``name``, cast to its type.

        Args:
          name: Its name.
          value: The new value (a list for a multi-valued one).

        Raises:
          KeyError: ``name`` is not a hyperparameter.
          ValueError: a list for a single value or the reverse, or a value of another kind.
        """
        param_type, is_list = self._hparam_types[name]
        if isinstance(value, dict) and is_list:      # name[i]=v assignments
            current = list(getattr(self, name))
            for index, v in value.items():
                current[index] = _cast_to_type_if_compatible(name, param_type, v)
            setattr(self, name, current)
        elif isinstance(value, list):
            if not is_list:
                raise ValueError("Must not pass a list for single-valued parameter: %s" % name)
            setattr(self, name, [_cast_to_type_if_compatible(name, param_type, v)
                                 for v in value])
        else:
            if is_list:
                raise ValueError("Must pass a list for multi-valued parameter: %s." % name)
            setattr(self, name, _cast_to_type_if_compatible(name, param_type, value))

    def del_hparam(self, name: str) -> None:
        """Removes the hyperparameter ``name`` (nothing when it is not one).

        Args:
          name: Its name.
        """
        if hasattr(self, name):
            delattr(self, name)
            self._hparam_types.pop(name, None)

    def parse(self, values: str) -> HParams:
        """Overrides hyperparameters from ``"name=value,..."`` text.

        Args:
          values: The text (``"lr=0.3,layers=[8,8],use_bn=true"``).

        Returns:
          This HParams.

        Raises:
          ValueError: the text does not parse or names an unknown hyperparameter.
        """
        type_map = {name: t for name, (t, _) in self._hparam_types.items()}
        return self.override_from_dict(parse_values(values, type_map))

    def override_from_dict(self, values_dict: dict) -> HParams:
        """Sets each hyperparameter of ``values_dict``.

        Args:
          values_dict: Names and values.

        Returns:
          This HParams.
        """
        for name, value in values_dict.items():
            self.set_hparam(name, value)
        return self

    def set_model_structure(self, model_structure: object) -> None:
        """Sets the model structure.

        Args:
          model_structure: Anything describing the model.
        """
        self._model_structure = model_structure

    def get_model_structure(self) -> object:
        """The model structure.

        Returns:
          What ``set_model_structure`` (or the constructor) got.
        """
        return self._model_structure

    def to_json(self, indent: int | None = None, separators: tuple | None = None,
                sort_keys: bool = False) -> str:
        """The hyperparameters as JSON (callables left out).

        Args:
          indent: ``json.dumps``' indent.
          separators: ``json.dumps``' separators.
          sort_keys: Whether to sort the names.

        Returns:
          The JSON text.
        """
        values = {k: v for k, v in self.values().items() if not callable(v)}
        return json.dumps(values, indent=indent, separators=separators, sort_keys=sort_keys)

    def parse_json(self, values_json: str) -> HParams:
        """Overrides hyperparameters from a JSON object.

        Args:
          values_json: The JSON text.

        Returns:
          This HParams.
        """
        return self.override_from_dict(json.loads(values_json))

    def values(self) -> dict:
        """The hyperparameters as a dict.

        Returns:
          Names to values.
        """
        return {n: getattr(self, n) for n in self._hparam_types}

    def get(self, key: str, default: object = None) -> object:
        """The hyperparameter ``key``, or ``default`` when there is none.

        Args:
          key: The name.
          default: The value when ``key`` is not a hyperparameter.

        Returns:
          The value.

        Raises:
          ValueError: ``default`` is of a kind the hyperparameter cannot take.
        """
        if key in self._hparam_types:
            if default is not None:
                param_type, is_param_list = self._hparam_types[key]
                type_str = "list<%s>" % param_type if is_param_list else str(param_type)
                fail_msg = ("Hparam '%s' of type '%s' is incompatible with default=%s"
                            % (key, type_str, default))
                is_default_list = isinstance(default, list)
                if is_param_list != is_default_list:
                    raise ValueError(fail_msg)
                try:
                    for v in (default if is_default_list else [default]):
                        _cast_to_type_if_compatible(key, param_type, v)
                except ValueError as e:
                    raise ValueError("%s. %s" % (fail_msg, e)) from e
            return getattr(self, key)
        return default

    def __contains__(self, key: str) -> bool:
        return key in self._hparam_types

    def __str__(self) -> str:
        return str(sorted(self.values().items()))

    def __repr__(self) -> str:
        return "%s(%s)" % (type(self).__name__, self.__str__())


__all__ = ["HParams", "parse_values"]


def __dir__() -> list:
    return sorted(__all__)

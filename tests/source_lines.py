"""Test helper: line numbers of marked lines in a test file (for creation-line checks)."""


def line_of(path: str, text: str) -> int:
    """The number of the first line of ``path`` containing ``text`` (but not 'line_of')."""
    with open(path) as f:
        for i, line in enumerate(f, 1):
            if text in line and "line_of" not in line:
                return i
    raise AssertionError(text)

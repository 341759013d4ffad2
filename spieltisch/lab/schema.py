"""The experiment file's JSON Schema, and its check with the line of every mistake.

The schema (``experiment.schema.json`` beside this module) says which keys an experiment file
may have and what kind of value each takes; editors that read JSON Schema for TOML (Taplo,
Even Better TOML) can use it as it is. :func:`schema_errors` checks a parsed file against it
and names each wrong key with its line, which :mod:`tomllib` does not keep, so the line is found
again in the text: the key's own line inside its table, or its table's header.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

import jsonschema

SCHEMA_FILE = "experiment.schema.json"
MAX_ERRORS = 5
"""The most mistakes one message lists (the rest follow once those are mended)."""


@cache
def experiment_schema() -> dict[str, Any]:
    """The experiment file's JSON Schema, as shipped in the package."""
    text = resources.files("spieltisch.lab").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def known_keys() -> frozenset[str]:
    """The keys an experiment file may have at its top."""
    return frozenset(experiment_schema()["properties"])


def schema_errors(data: Mapping[str, object], text: str) -> list[str]:
    """Every way ``data`` (the TOML ``text`` parsed) breaks the schema, each as
    ``line N: key: what is wrong``, in the order of the file (empty when it fits)."""
    validator = jsonschema.Draft202012Validator(experiment_schema())
    found: list[tuple[int, str]] = []
    for error in validator.iter_errors(dict(data)):
        for path, message in _explained(error):
            found.append((line_of(text, path), f"{_dotted(path)}: {message}"))
    found.sort()
    return [f"line {line}: {message}" if line else message for line, message in found]


def _explained(error: jsonschema.ValidationError) -> Iterator[tuple[list[str | int], str]]:
    """The key paths an error is about, each with a short message in words."""
    path = list(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        schema = error.schema if isinstance(error.schema, Mapping) else {}
        allowed = set(schema.get("properties", {}))
        for key in sorted(set(error.instance) - allowed):
            known = ", ".join(sorted(allowed))
            yield [*path, str(key)], "unknown key" + (f" (known: {known})" if known else "")
        return
    if error.validator == "uniqueItems":
        yield path, "lists one value twice"
        return
    if error.validator == "required":
        yield path, error.message.replace("property", "key")
        return
    if error.validator == "oneOf":
        wanted = error.schema.get("description", "") if isinstance(error.schema, Mapping) else ""
        close = [e for e in error.context or () if e.validator != "type"]
        detail = ""
        if close:
            detail = " (it lists one value twice)" if close[0].validator == "uniqueItems" else ""
            detail = detail or f" ({close[0].message})"
        yield path, f"{_value(error.instance)} is not {wanted or 'valid here'}{detail}"
        return
    yield path, f"{error.message}"


def _value(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _dotted(path: Sequence[str | int]) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text or "the file"


_HEADER = re.compile(r"^\s*\[\s*([^\]]+?)\s*\]\s*(#.*)?$")


def _key_pattern(key: str) -> re.Pattern[str]:
    name = re.escape(key)
    return re.compile(rf"^\s*(?:{name}|\"{name}\"|'{name}')\s*=")


def line_of(text: str, path: Sequence[str | int]) -> int:
    """The line (1-based) where the key at ``path`` is written: ``key = ...`` inside its table,
    or the table's ``[header]``; 0 if it cannot be found (a key written inline, say)."""
    keys = [p for p in path if isinstance(p, str)]
    if not keys:
        return 0
    table, key = ".".join(keys[:-1]), keys[-1]
    current = ""
    pattern = _key_pattern(key)
    for number, line in enumerate(text.splitlines(), 1):
        header = _HEADER.match(line)
        if header:
            current = header.group(1).strip()
            if current == ".".join(keys):
                return number
            continue
        if current == table and pattern.match(line):
            return number
    return line_of(text, path[:-1]) if len(keys) > 1 else 0

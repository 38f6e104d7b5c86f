"""Discord's official OpenAPI spec as a checker of the REST requests the bot sends.

``SpecChecker.check(method, path, params, body)`` returns one readable line per violation:
the request's method and path, the JSON pointer of the bad field, its value and why. A
request is matched to the spec's path templates (the most literal one wins, so
``/channels/{id}/messages/pins`` beats ``/channels/{id}/messages/{message_id}``); an
unknown path or method is a violation. Then the path parameters, the query parameters
(unknown names, missing required ones, values of the wrong type) and the body against the
operation's request schema (OpenAPI 3.1 schemas are JSON Schema 2020-12; ``$ref`` resolve
in a ``referencing`` registry holding the whole spec).

Build one checker per test session: the validators are made once per operation, the
result of a request is cached by its content (the command sync is the same at every start),
the spec's unions are rewritten into equivalent direct forms (``discriminate``) and valid
``$ref`` results are remembered (``memoized``): about 1 ms a request, 4x less than plain
jsonschema on the spec as it is. SimCord's record has no content type and no files: a
multipart body is checked through its ``payload_json``, the files are not.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

import orjson
import referencing
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match
from referencing.jsonschema import DRAFT202012

SPEC_FILE = Path(__file__).with_name("openapi.json")
BASE_URI = "urn:discord-api-spec"  # the spec's URI in the registry
# a request's body is read as JSON; a multipart body's ``payload_json`` holds the same
# fields (SimCord records it parsed), and its schema is the JSON one plus ``files[n]``
CONTENT_TYPES = ("application/json", "multipart/form-data")
NULL = {"type": "null"}
ANNOTATIONS = {"title", "description", "x-discord-union"}  # keys that validate nothing
METHODS = ("get", "put", "post", "patch", "delete")
INTEGER_SNOWFLAKE = {"type": "integer", "minimum": 0, "maximum": 2**64 - 1}
USE_NESTED_FIELDS = {"name": "use_nested_fields", "in": "query", "schema": {"type": "boolean"}}
QUERY_BOOLEANS = {"True": True, "true": True, "1": True, "False": False, "false": False, "0": False}
GUILD_MEDIA = {
    "title": "GUILD_MEDIA",
    "description": "Channel that can only contain threads, similar to GUILD_FORUM channels",
    "const": 16,
}


def load_spec(path: Path = SPEC_FILE) -> dict[str, Any]:
    """The vendored spec, amended where Discord accepts what the spec does not say."""
    spec: dict[str, Any] = json.loads(path.read_bytes())
    amend(spec)
    return spec


def amend(spec: dict[str, Any]) -> None:
    """The only places the checker accepts more than the spec (each one skipped once the
    spec has it): what Discord documents or accepts and discord.py sends."""
    schemas = spec["components"]["schemas"]
    # Discord documents channel type 16, GUILD_MEDIA (a forum of media posts), but the
    # spec's ChannelTypes stops at 15 (GUILD_FORUM): discord.py lists 16 in the
    # ``channel_types`` of a command option that takes forums, and a channel may be one.
    branches = schemas["ChannelTypes"]["oneOf"]
    if not any(branch.get("const") == 16 for branch in branches):
        branches.append(GUILD_MEDIA)
    # discord.py writes ids as JSON integers (``recipient_id`` of a DM, the users of
    # ``allowed_mentions``...), which Discord reads like the spec's decimal strings
    snowflake = schemas["SnowflakeType"]
    if not any("integer" in str(s.get("type")) for s in [snowflake, *snowflake.get("anyOf", [])]):
        schemas["SnowflakeType"] = {"anyOf": [snowflake, INTEGER_SNOWFLAKE]}
    # discord.py asks for a forum post with ``?use_nested_fields=1`` (the starter message
    # nested under ``message``, the form Discord required when forums came out)
    forum_post = spec["paths"]["/channels/{channel_id}/threads"]["post"]
    parameters = forum_post.setdefault("parameters", [])
    if not any(p.get("name") == "use_nested_fields" for p in parameters):
        parameters.append(USE_NESTED_FIELDS)


def discriminate(spec: dict[str, Any]) -> int:
    """Rewrite (in place) the unions jsonschema is slow on into equivalent direct forms;
    return how many were rewritten.

    A ``oneOf``/``anyOf`` makes jsonschema validate the instance against every branch, and
    the spec nests them (a callback of any kind, holding components of any kind, holding
    components...): tens of ms for one table message. Two kinds are rewritten:

    - branches that are objects requiring a ``type`` field, each allowing its own set of
      values for it (disjoint sets): the union holds exactly when the instance is an object
      whose ``type`` is one of those values and the branch owning that value holds. That
      is what the rewrite says, with ``if``/``then``: only that branch is validated, and an
      error points inside it instead of "not valid under any of the given schemas";
    - ``{"type": "null"}`` or a schema whose types exclude null: ``if`` null, ``else`` it.

    The second pass runs after the first, which gives the unions it rewrote a type.
    """
    count = 0
    for node, branches in unions(spec):
        values = [type_values(spec, branch) for branch in branches]
        flat = [orjson.dumps(value) for found in values for value in found or [None]]
        if all(values) and len(flat) == len(set(flat)):
            node.clear()  # the union and its annotations: nothing else (see ``unions``)
            node.update(
                type="object",
                required=["type"],
                properties={"type": {"enum": [value for found in values for value in found]}},
                allOf=[
                    {"if": tagged(v), "then": branch}
                    for v, branch in zip(values, branches, strict=True)
                ],
            )
            count += 1
    for node, branches in unions(spec):
        if nullable(spec, branches):
            node.clear()
            node.update({"if": NULL, "else": next(b for b in branches if b != NULL)})
            count += 1
    return count


def memoized(valid: set[tuple[str, bytes]]) -> Any:
    """A 2020-12 validator class that remembers which (``$ref``, object or array) pairs
    were valid and skips them the next time (a table message repeats its button rows).

    Sound for this spec: every ``$ref`` is a ``#/...`` pointer into the one document (no
    ``$id``, ``$dynamicRef`` or ``unevaluated*``), so what a ``$ref`` validates depends on
    the ref and the instance only."""
    ref = Draft202012Validator.VALIDATORS["$ref"]

    def memo_ref(validator: Any, target: str, instance: Any, schema: Any) -> Iterator[Any]:
        if not isinstance(instance, dict | list):  # a scalar is quicker to check again
            yield from ref(validator, target, instance, schema)
            return
        key = (target, content_key(instance))
        if key in valid:
            return
        errors = list(ref(validator, target, instance, schema))
        if not errors:
            valid.add(key)
        yield from errors

    return validators.extend(Draft202012Validator, {"$ref": memo_ref})


def tagged(values: list[Any]) -> dict[str, Any]:
    """The schema of an object whose ``type`` field is one of ``values``."""
    return {"type": "object", "required": ["type"], "properties": {"type": {"enum": values}}}


def unions(spec: dict[str, Any]) -> Iterator[tuple[dict[str, Any], list[Any]]]:
    """Each ``oneOf``/``anyOf`` node that holds nothing else but annotations, with its
    branches."""
    for node in list(walk(spec)):
        union = [key for key in ("oneOf", "anyOf") if key in node]
        if len(union) == 1 and all(k in ANNOTATIONS for k in node if k != union[0]):
            yield node, node[union[0]]


def walk(node: Any) -> Iterator[dict[str, Any]]:
    """Every object of a JSON document, parents first."""
    if isinstance(node, dict):
        yield node
        for value in list(node.values()):
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def local(spec: dict[str, Any], node: Any) -> Any:
    """``node``, or what its local ``$ref`` (``#/components/...``) points to."""
    while isinstance(node, dict) and "$ref" in node:
        found: Any = spec
        for part in node["$ref"].split("#", 1)[1].strip("/").split("/"):
            found = found[part.replace("~1", "/").replace("~0", "~")]
        node = found
    return node


def nullable(spec: dict[str, Any], branches: list[Any]) -> bool:
    """Whether a union is ``{"type": "null"}`` and one schema whose types exclude null."""
    if len(branches) != 2 or NULL not in branches:
        return False
    other = local(spec, next(b for b in branches if b != NULL))
    kinds = other.get("type") if isinstance(other, dict) else None
    return isinstance(kinds, str | list) and "null" not in kinds


def type_values(spec: dict[str, Any], branch: Any) -> list[Any] | None:
    """The values a branch allows for its ``type`` field, when it is an object schema that
    requires that field and lists them (``enum`` or ``const``); else None."""
    branch = local(spec, branch)
    if branch.get("type") != "object" or "type" not in branch.get("required", ()):
        return None
    field = local(spec, branch.get("properties", {}).get("type"))
    if not isinstance(field, dict):
        return None
    if "const" in field:
        return [field["const"]]
    return list(field["enum"]) if field.get("enum") else None


def escape(segment: str) -> str:
    """One JSON pointer segment (RFC 6901)."""
    return segment.replace("~", "~0").replace("/", "~1")


def pointer(path: Iterator[Any] | Any) -> str:
    """The JSON pointer of a field from its path (``/0/options/1/max_value``)."""
    return "".join("/" + escape(str(part)) for part in path) or "/"


def short(value: Any, limit: int = 120) -> str:
    """A value for a message, cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Operation:
    """One method of one path template: its parameters and request body schemas."""

    def __init__(self, checker: SpecChecker, template: str, method: str) -> None:
        item = checker.spec["paths"][template]
        self.template = template
        self.operation = item[method]
        self.pointer = f"/paths/{escape(template)}/{method}"
        # (in, name) -> (the parameter, the JSON pointer of its schema in the spec); the
        # operation's own parameters override the path's
        self.parameters: dict[tuple[str, str], tuple[dict[str, Any], str]] = {}
        for owner, prefix in ((item, f"/paths/{escape(template)}"), (self.operation, self.pointer)):
            for index, entry in enumerate(owner.get("parameters", [])):
                parameter = checker.deref(entry)
                where = (
                    entry["$ref"].split("#", 1)[1]
                    if "$ref" in entry
                    else (f"{prefix}/parameters/{index}")
                )
                self.parameters[(parameter["in"], parameter["name"])] = (
                    parameter,
                    f"{where}/schema",
                )
        body = self.operation.get("requestBody")
        self.body = checker.deref(body) if body else None
        self.body_pointer = (
            body["$ref"].split("#", 1)[1]
            if body and "$ref" in body
            else f"{self.pointer}/requestBody"
        )

    def body_schema(self) -> str | None:
        """The JSON pointer (in the spec) of the body schema a recorded body is read by."""
        if self.body is None:
            return None
        content = self.body["content"]
        for kind in CONTENT_TYPES:
            if kind in content:
                return f"{self.body_pointer}/content/{escape(kind)}/schema"
        return None


class SpecChecker:
    """Checks REST requests against Discord's OpenAPI spec."""

    def __init__(self, spec: dict[str, Any] | None = None, *, fast: bool = True) -> None:
        self.spec = spec if spec is not None else load_spec()
        self.unions = discriminate(self.spec) if fast else 0  # unions made direct
        self.valid: set[tuple[str, bytes]] = set()  # ($ref, instance) found valid
        self.kind = memoized(self.valid) if fast else Draft202012Validator
        self.registry: referencing.Registry[Any] = referencing.Registry().with_resource(
            BASE_URI, DRAFT202012.create_resource(self.spec)
        )
        self.resolver = self.registry.resolver(BASE_URI)
        # number of segments -> the templates that have that many
        self.templates: dict[int, list[tuple[str, list[str]]]] = {}
        for template in self.spec["paths"]:
            parts = template.strip("/").split("/")
            self.templates.setdefault(len(parts), []).append((template, parts))
        self.operations: dict[tuple[str, str], Operation] = {}
        self.validators: dict[str, Any] = {}
        self.results: dict[bytes, list[str]] = {}
        self.checked = 0  # requests checked (cached results included)

    # ------------------------------------------------------------ the spec
    def deref(self, node: Mapping[str, Any]) -> Any:
        """``node``, or what its ``$ref`` points to in the spec."""
        while "$ref" in node:
            node = self.resolver.lookup(node["$ref"]).contents
        return node

    def validator(self, spec_pointer: str) -> Any:
        """A validator of the schema at ``spec_pointer``, made once."""
        found = self.validators.get(spec_pointer)
        if found is None:
            ref = BASE_URI + "#" + quote(spec_pointer, safe="/~")
            found = self.kind({"$ref": ref}, registry=self.registry)
            self.validators[spec_pointer] = found
        return found

    def match(self, path: str) -> tuple[str, dict[str, str]] | None:
        """The path template a request path falls under, with its parameters."""
        segments = path.strip("/").split("/")
        best: tuple[int, str, dict[str, str]] | None = None
        for template, parts in self.templates.get(len(segments), []):
            args: dict[str, str] = {}
            literals = 0
            for part, segment in zip(parts, segments, strict=True):
                if part.startswith("{") and part.endswith("}"):
                    args[part[1:-1]] = segment
                elif part == segment:
                    literals += 1
                else:
                    break
            else:
                if best is None or literals > best[0]:
                    best = (literals, template, args)
        return None if best is None else (best[1], best[2])

    def operation(self, template: str, method: str) -> Operation | None:
        """The spec's operation for a template and a method, or None."""
        method = method.lower()
        if method not in self.spec["paths"][template] or method not in METHODS:
            return None
        key = (template, method)
        if key not in self.operations:
            self.operations[key] = Operation(self, template, method)
        return self.operations[key]

    # ------------------------------------------------------------ a request
    def check(
        self, method: str, path: str, params: Mapping[str, Any] | None, body: Any
    ) -> list[str]:
        """Every violation of one request, as readable lines (empty when it conforms)."""
        self.checked += 1
        key = content_key([method, path, params or {}, body])
        found = self.results.get(key)
        if found is None:
            where = f"{method} {path}"
            found = [f"{where}: {problem}" for problem in self.problems(method, path, params, body)]
            self.results[key] = found
        return found

    def problems(
        self, method: str, path: str, params: Mapping[str, Any] | None, body: Any
    ) -> Iterator[str]:
        """What is wrong with a request, without its method and path."""
        matched = self.match(path)
        if matched is None:
            yield "no path of the spec matches"
            return
        template, args = matched
        operation = self.operation(template, method)
        if operation is None:
            yield f"the spec has no {method} on {template}"
            return
        for name, value in args.items():
            yield from self.parameter(operation, "path", name, value)
        for name, value in (params or {}).items():
            yield from self.parameter(operation, "query", name, value)
        for (where, name), (parameter, _) in operation.parameters.items():
            if where == "query" and parameter.get("required") and name not in (params or {}):
                yield f"query parameter {name!r} is required"
        yield from self.body(operation, body)

    def parameter(self, operation: Operation, where: str, name: str, value: Any) -> Iterator[str]:
        """A path segment or a query value against its parameter's schema."""
        found = operation.parameters.get((where, name))
        if found is None:
            yield f"{where} parameter {name!r} is not in the spec for {operation.template}"
            return
        # aiohttp (yarl) builds the query string from str, int and float values only
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            yield f"{where} parameter {name!r} = {short(value)}: not a str, int or float"
            return
        read = self.from_text(found[1], str(value))
        for error in self.validator(found[1]).iter_errors(read):
            yield f"{where} parameter {name!r} = {short(value)}: {best_match([error]).message}"

    def from_text(self, spec_pointer: str, text: str) -> Any:
        """A query or path value read as its schema's type (a URL carries text only)."""
        return read_text(text, frozenset(self.types(spec_pointer)))

    def types(self, spec_pointer: str) -> Iterator[str]:
        """The JSON types a schema allows at its top (following ``$ref`` and the branches
        of ``oneOf``, ``anyOf`` and ``if``/``else``)."""
        todo = [self.resolver.lookup(BASE_URI + "#" + spec_pointer).contents]
        while todo:
            node = self.deref(todo.pop())
            kinds = node.get("type", [])
            yield from [kinds] if isinstance(kinds, str) else kinds
            todo += [*node.get("oneOf", []), *node.get("anyOf", [])]
            todo += [node[key] for key in ("if", "else") if key in node]

    def body(self, operation: Operation, body: Any) -> Iterator[str]:
        """The body against the operation's request schema."""
        schema = operation.body_schema()
        if body is None:
            if operation.body is not None and operation.body.get("required"):
                yield "the body is required"
            return
        if schema is None:
            yield f"a body was sent but the spec takes none: {short(body)}"
            return
        for error in self.validator(schema).iter_errors(body):
            yield describe(error)


def content_key(value: Any) -> bytes:
    """A JSON value's content as bytes, the same for equal values (a cache key)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # an integer beyond 64 bits (a bug the check is there to show)
        return json.dumps(value, sort_keys=True, default=repr).encode()


def describe(error: ValidationError) -> str:
    """One body violation: where (JSON pointer), the value, why (the most relevant cause)."""
    best = best_match([error])
    why = best.message  # jsonschema repeats the value in it: keep its end, which says why
    why = why if len(why) <= 200 else why[:80] + " ... " + why[-100:]
    if best.context:  # no branch of a oneOf/anyOf fits: say why each one does not
        why += " (" + "; ".join(sorted({cause.message for cause in best.context})) + ")"
    return f"body {pointer(best.absolute_path)} = {short(best.instance)}: {why}"


@cache
def read_text(text: str, kinds: frozenset[str]) -> Any:
    """A URL's text as what its schema's ``kinds`` expect: the text itself when they take a
    string, else the first of integer, number, boolean it reads as (else the text)."""
    if "string" in kinds:
        return text
    if "integer" in kinds and text.lstrip("-").isascii() and text.lstrip("-").isdigit():
        return int(text)
    if "number" in kinds:
        try:
            return float(text)
        except ValueError:
            pass
    # Discord's "Boolean Query Strings" (API reference): True, true or 1; False, false or 0
    if "boolean" in kinds and text in QUERY_BOOLEANS:
        return QUERY_BOOLEANS[text]
    return text

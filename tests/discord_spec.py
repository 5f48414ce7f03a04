"""Every request body the bot sends, checked against Discord's own OpenAPI description
(tests/discord_api/openapi.json: github.com/discord/discord-api-spec, see SOURCE.txt there).

The fake (tests/fakediscord.py) models a few of Discord's rules by hand; this checks the whole
shape of what goes out — message creates and edits over REST, interaction callbacks,
follow-ups and webhook edits — against the spec's request-body schemas for those operations
(OpenAPI 3.1: JSON Schema 2020-12, jsonschema's Draft202012Validator; the spec's `$ref`s are
inlined once, see `_inline`).
`SpecCheck()(request)` gives the violations of one fakediscord.Request, as readable lines.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

SPEC_PATH = Path(__file__).parent / "discord_api" / "openapi.json"
SPEC_ID = "urn:discord-api-spec"

# discord.py's route (method, template) -> the spec's path and method. The webhook PATCH of a
# message and of @original share one schema; a follow-up is the webhook's execute.
OPERATIONS = {
    ("POST", "/channels/{channel_id}/messages"): "/channels/{channel_id}/messages",
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"):
        "/channels/{channel_id}/messages/{message_id}",
    ("POST", "/interactions/{webhook_id}/{webhook_token}/callback"):
        "/interactions/{interaction_id}/{interaction_token}/callback",
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"): "/webhooks/{webhook_id}/{webhook_token}",
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"):
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"):
        "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
}


def _tagged(branches: list) -> list | None:
    """The `type` values of a union's branches, when each branch is an object that requires a
    `type` from an enum of its own (Discord's components and callbacks); else None."""
    tags = []
    for b in branches:
        enum = ((b.get("properties") or {}).get("type") or {}).get("enum") if isinstance(
            b, dict) else None
        if not enum or "type" not in (b.get("required") or []):
            return None
        tags.append(enum)
    flat = [t for enum in tags for t in enum]
    return tags if len(flat) == len(set(flat)) else None


def _inline(spec: dict, node: Any, stack: tuple[str, ...] = ()) -> Any:
    """`node` with every `#/components/schemas/...` reference replaced by its schema (the
    request schemas have no cycles), and each union of type-tagged branches (`oneOf`/`anyOf`
    of components or callbacks told apart by their `type`) turned into "`type` is one of
    these, and the branch of that `type` holds": the same verdicts, checked in a tenth of
    the time, and an error names the field that is wrong instead of "matches none of 7"."""
    if isinstance(node, list):
        return [_inline(spec, v, stack) for v in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
        name = ref.rsplit("/", 1)[1]
        if name in stack:
            raise ValueError(f"the spec's schema {name} refers to itself")
        target = _inline(spec, spec["components"]["schemas"][name], stack + (name,))
        rest = {k: v for k, v in node.items() if k != "$ref"}
        return {**target, **_inline(spec, rest, stack)} if rest else target
    out = {k: _inline(spec, v, stack) for k, v in node.items()}
    for key in ("oneOf", "anyOf"):
        branches = out.get(key)
        tags = _tagged(branches) if isinstance(branches, list) and len(branches) > 1 else None
        if tags:
            del out[key]
            out.setdefault("allOf", []).append(
                {"type": "object", "required": ["type"],
                 "properties": {"type": {"enum": [t for enum in tags for t in enum]}}})
            out["allOf"] += [{"if": {"properties": {"type": {"enum": enum}}}, "then": b}
                             for enum, b in zip(tags, branches)]
    return out


@lru_cache(maxsize=1)
def _validators() -> dict[tuple[str, str], Any]:
    from jsonschema import Draft202012Validator

    spec = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    # One allowance, and only this one: a snowflake may go as a JSON integer. discord.py
    # sends user ids in allowed_mentions and a new upload's attachment id (its index) as
    # ints, as it always has, and Discord reads them; the spec types snowflakes as strings.
    snowflake = spec["components"]["schemas"]["SnowflakeType"]
    spec["components"]["schemas"]["SnowflakeType"] = {
        "anyOf": [snowflake, {"type": "integer", "minimum": 0}]}
    out = {}
    for route, path in OPERATIONS.items():
        body = spec["paths"][path][route[0].lower()]["requestBody"]["content"]
        schema = _inline(spec, body["application/json"]["schema"])
        out[route] = Draft202012Validator(schema)
    return out


class SpecCheck:
    """Call with a fakediscord.Request: the list of its body's violations of the spec (empty
    when it conforms, or when its route is not a message-sending one)."""

    def __init__(self) -> None:
        self.validators = _validators()
        self.checked = 0

    def __call__(self, req) -> list[str]:
        validator = self.validators.get((req.method, req.route))
        if validator is None or req.json is None:
            return []
        self.checked += 1
        errors = []
        for e in validator.iter_errors(req.json):
            # a union no branch of which fits: the deepest complaint says the most
            best = max(e.context or [e], key=lambda c: len(c.absolute_path))
            where = "/".join(str(p) for p in best.absolute_path)
            errors.append(f"{req.method} {req.route} {where or '(body)'}: {best.message[:300]}")
        return errors

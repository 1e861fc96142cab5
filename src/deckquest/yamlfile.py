"""Reading YAML from untrusted files (pack manifests, party files): positions kept,
limits enforced, no host objects.

ruamel.yaml's round-trip loader keeps the line and column of every key and
item, which is what lets us point at the exact spot of a schema error. It only
builds plain mappings, sequences and scalars (no Python objects), and we refuse
explicit tags outright so no document can ask for anything else. Size and
nesting are capped before and after parsing, since a shared file may be hostile.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from deckquest.i18n import _
from deckquest.errors import DeckquestError, Span
from deckquest.files import TooLarge, read_regular

MAX_YAML_BYTES = 256 * 1024
MAX_NESTING = 20
_BRACKET_LIMIT = 200


def read_text(path: Path, display: str, limit: int, *, follow_links: bool = True) -> str:
    """A UTF-8 file's text, refusing files over `limit` bytes after reading at most one more.

    Only a plain file is read (`deckquest.files.open_regular`): a FIFO would block forever
    and a device (`/dev/zero`) never ends, so both are refused without waiting on them; a
    pack's file is not read through a link (``follow_links=False``).
    """
    try:
        data = read_regular(path, limit, follow_links=follow_links)
    except TooLarge:
        raise DeckquestError(
            _("{display} is larger than the {value} KiB allowed", display=display, value=limit // 1024), Span(display),
            hint=_("a manifest or script this big is not plausible; is it the right file?"),
        ) from None
    except OSError as error:
        raise DeckquestError(_("cannot read {display}: {strerror}", display=display, strerror=error.strerror), Span(display)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise DeckquestError(_("{display} is not valid UTF-8", display=display), Span(display, line, 1)) from None


def load_yaml(text: str, display: str) -> Any:
    """Parse YAML text into ruamel's position-carrying mappings and lists (untrusted data of
    any shape: the caller checks it against its schema)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    _check_brackets(text, display)
    yaml = YAML(typ="rt")
    try:
        data = yaml.load(text)
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark else 0
        col = mark.column + 1 if mark else 0
        problem = error.problem or error.context or "invalid YAML"
        raise DeckquestError(
            _("invalid YAML: {problem}", problem=problem), Span(display, line, col),
            source_line=source_line(text, line), hint=_yaml_hint(problem),
        ) from None
    except YAMLError as error:
        raise DeckquestError(_("invalid YAML: {error}", error=error), Span(display)) from None
    except TypeError:  # ruamel hashes a `? KEY` that is a mapping holding a list, and cannot
        raise DeckquestError(_("invalid YAML: a mapping key that is a list or a mapping"), Span(display),
                             hint=_("a key is a plain word or string, as in `name: value`")) from None
    except RecursionError:
        raise DeckquestError(_("{display} is nested too deeply", display=display), Span(display)) from None
    _check_shape(data, display, text)
    return data


def _check_brackets(text: str, display: str) -> None:
    """Refuse absurdly deep `[[[[…` before the parser spends seconds recursing into it.

    Quotes are not tracked, so the bound is far above any real document's
    depth: only a hostile file has 200 more `[`/`{` than closing brackets.
    """
    depth = 0
    for position, char in enumerate(text):
        if char in "[{":
            depth += 1
            if depth > _BRACKET_LIMIT:
                line = text.count("\n", 0, position) + 1
                raise DeckquestError(_("{display} is nested too deeply", display=display), Span(display, line, 1))
        elif char in "]}" and depth:
            depth -= 1


def _check_shape(data, display: str, text: str) -> None:
    """Refuse explicit tags (even `!!str`: values must be plain), aliased collections and deep nesting, at the offending spot.

    An aliased collection is refused because a few lines of anchors and aliases
    can stand for billions of nodes (the "billion laughs" attack) once walked.
    """
    seen: set[int] = set()
    pending = [(data, 0, (1, 1))]
    while pending:
        node, depth, where = pending.pop()
        span = Span(display, where[0], where[1])
        tag = getattr(node, "tag", None)
        tag_value = getattr(tag, "value", tag) if tag is not None else None
        if isinstance(tag_value, str) and tag_value:
            raise DeckquestError(
                _("YAML tag `{tag_value}` is not allowed here", tag_value=tag_value), span,
                hint=_("deckquest files hold plain data only: remove the `!` tag"),
                source_line=source_line(text, span.line),
            )
        if not isinstance(node, (dict, list)):
            continue
        if id(node) in seen:
            raise DeckquestError(
                _("YAML aliases of lists or mappings are not allowed"), span,
                hint=_("write the data out in full instead of using `*alias`"),
                source_line=source_line(text, span.line),
            )
        seen.add(id(node))
        if depth >= MAX_NESTING:
            raise DeckquestError(
                _("data nested more than {MAX_NESTING} levels deep", MAX_NESTING=MAX_NESTING), span,
                source_line=source_line(text, span.line),
            )
        children = [(child, depth + 1, position) for child, position in _children(node, where)]
        pending.extend(reversed(children))  # popped in document order


def _children(node, where: tuple[int, int]):
    """Each child of a mapping or list with its 1-based (line, col), where ruamel knows it."""
    lc = getattr(node, "lc", None)
    if isinstance(node, dict):
        for key, value in node.items():
            yield value, _position(lc, "value", key, where)
    else:
        for index, value in enumerate(node):
            yield value, _position(lc, "item", index, where)


def _position(lc, kind: str, key, fallback: tuple[int, int]) -> tuple[int, int]:
    try:
        line, col = getattr(lc, kind)(key)
    except (AttributeError, KeyError, IndexError, TypeError):
        return fallback
    return (line + 1, col + 1)


def source_line(text: str, line: int) -> str | None:
    """Line `line` (1-based) of `text`, for a diagnostic's quoted source."""
    lines = text.splitlines()
    return lines[line - 1] if 0 < line <= len(lines) else None


def value_span(data: Any, path: list[str | int], display: str) -> Span:
    """Where the value at `path` is: ruamel records positions on the parent container."""
    node, position = data, (1, 1)
    for key in path:
        try:
            line, col = node.lc.value(key) if isinstance(node, dict) else node.lc.item(key)
        except (AttributeError, KeyError, IndexError, TypeError):
            break
        position = (line + 1, col + 1)
        node = node[key]
    return Span(display, *position)


def key_span(data: Any, path: list[str | int], key: str, display: str) -> Span:
    """Where the key `key` of the mapping at `path` is (for an unknown or misspelt key)."""
    node = data
    for step in path:
        node = node[step]
    try:
        line, col = node.lc.key(key)
    except (AttributeError, KeyError, TypeError):
        return value_span(data, path, display)
    return Span(display, line + 1, col + 1)


def dotted(path: list[str | int]) -> str:
    """A path into YAML data as a reader writes it: `party[0].critical[1]`."""
    text = ""
    for step in path:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else str(step))
    return text


def _yaml_hint(problem: str) -> str | None:
    if "tab" in problem:
        return "indent YAML with spaces, not tabs"
    if "duplicate key" in problem:
        return "each key may appear only once; remove one of them"
    return None

"""`pack.yaml`: reading a pack's manifest and checking it against the shipped schema.

Every problem is reported at once, each at the YAML line and column it
concerns (an unknown key at the key, a wrong value at the value), so a pack
author fixes the whole manifest in one pass.
"""

from __future__ import annotations

import json
import stat
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from deckquest.i18n import _
from deckquest.errors import CompileError, DeckquestError, Diagnostic, Span, did_you_mean
from deckquest.packs.paths import name_key, path_problem
from deckquest.packs.versions import Version, VersionError, VersionRange
from deckquest.yamlfile import MAX_YAML_BYTES, dotted, key_span, load_yaml, read_text, value_span

MANIFEST_NAME = "pack.yaml"
FILE_SECTIONS = ("scenarios", "libraries", "decks", "parties", "cards", "files")


@dataclass(frozen=True)
class Dependency:
    """Another pack this one needs: its name and the versions that will do."""

    name: str
    versions: VersionRange


@dataclass(frozen=True)
class Manifest:
    """A checked manifest. `spans` maps (section,) or (section, index) to its YAML spot."""

    path: Path
    display: str
    name: str
    version: Version
    title: str
    authors: tuple[str, ...]
    license: str
    description: str
    deckquest: VersionRange
    scenarios: tuple[str, ...]
    libraries: tuple[str, ...] = ()
    decks: tuple[str, ...] = ()
    parties: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    files: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    depends: tuple[Dependency, ...] = ()
    spans: dict = field(default_factory=dict, compare=False, repr=False)

    def listed_files(self) -> list[str]:
        """Every file the pack ships, pack.yaml first, in manifest order."""
        return [MANIFEST_NAME] + [path for section in FILE_SECTIONS for path in getattr(self, section)]

    def span(self, *key) -> Span:
        """Where a section or list item sits in pack.yaml (the file itself when unknown)."""
        return self.spans.get(tuple(key)) or self.spans.get(key[:1]) or Span(self.display)


@lru_cache(maxsize=1)
def schema() -> dict:
    """The manifest's JSON Schema, shipped as deckquest/packs/pack.schema.json."""
    text = resources.files("deckquest.packs").joinpath("pack.schema.json").read_text("utf-8")
    return json.loads(text)


def load_manifest(location: Path, display: str | None = None) -> Manifest:
    """Read and check `location` (a pack folder or its pack.yaml).

    `display` is the name used in messages (e.g. `goblins.dqpack!pack.yaml`
    when the file sits in a temporary folder). Raises CompileError carrying
    every problem found, or DeckquestError for unreadable or invalid YAML.
    """
    path = location / MANIFEST_NAME if location.is_dir() else location
    display = display or str(path)
    if not path.exists() and not path.is_symlink():
        raise DeckquestError(
            _("no {MANIFEST_NAME} in {parent}", MANIFEST_NAME=MANIFEST_NAME, parent=path.parent), Span(display), code="DQ7000",
            hint=_("a pack is a folder with a pack.yaml; `deckquest pack init NAME` makes one"),
        )
    status = path.lstat()
    if not stat.S_ISREG(status.st_mode):
        raise DeckquestError(_("{display} is not a regular file", display=display), Span(display), code="DQ7010",
                             hint=_("pack.yaml must be a plain file, not a link, FIFO or device"))
    key = (str(path.absolute()), display, status.st_ino, status.st_size, status.st_mtime_ns)
    manifest = _CHECKED.get(key)
    if manifest is None:
        if len(_CHECKED) >= 64:
            _CHECKED.clear()
        manifest = _CHECKED[key] = _read_and_check(path, display)
    return manifest


#: Manifests read and checked, by file and version of the file (its inode, size and time of
#: change): compiling a pack's script asks for its manifest at every deck and `use`
#: reference, and reading and checking pack.yaml is most of that (issue 19 item 4).
_CHECKED: dict[tuple[str, str, int, int, int], Manifest] = {}


def _read_and_check(path: Path, display: str) -> Manifest:
    try:
        text = read_text(path, display, MAX_YAML_BYTES, follow_links=False)
        data = load_yaml(text, display)
    except DeckquestError as error:
        error.code = error.code or "DQ7001"
        raise
    lines = text.splitlines()
    diagnostics = _schema_diagnostics(data, display, lines)
    if not diagnostics:
        diagnostics = _semantic_diagnostics(data, display, lines)
    if diagnostics:
        raise CompileError(diagnostics)
    return _build(data, path, display)


def _schema_diagnostics(data, display: str, lines: list[str]) -> list[Diagnostic]:
    from jsonschema import Draft202012Validator

    if not isinstance(data, dict):
        return [Diagnostic("error", "pack.yaml must be a mapping of keys such as `name:` and `version:`",
                           Span(display, 1, 1), code="DQ7002")]
    validator = Draft202012Validator(schema())
    found = []
    for error in validator.iter_errors(data):
        found.extend(_describe(error, data, display, lines))
    found.sort(key=lambda d: (d.span.line, d.span.col, d.message))
    return found


def _describe(error, data, display: str, lines: list[str]) -> list[Diagnostic]:
    """Turn one jsonschema error into diagnostics in a GM's words, at the right spot."""
    path = list(error.absolute_path)
    where = " in " + dotted(path) if path else ""
    if error.validator == "additionalProperties":
        known = error.schema.get("properties", {})
        return [
            _diag(f"unknown key `{key}`{where}", key_span(data, path, key, display), lines,
                  did_you_mean(str(key), known) or f"allowed keys: {', '.join(known)}")
            for key in error.instance if key not in known
        ]
    span = value_span(data, path, display)
    if error.validator == "required":
        missing = error.message.split("'")[1]
        return [_diag(f"missing required key `{missing}`{where}", span, lines, None)]
    if error.validator == "type":
        kind = _kind(error.instance)
        hint = _("write it in quotes, e.g. \"1.0.0\"") if error.validator_value == "string" else None
        return [_diag(f"`{dotted(path)}` must be a {_kind_name(error.validator_value)}, not {kind}",
                      span, lines, hint)]
    if error.validator == "pattern" and path and path[-1] == "name":
        return [_diag(f"`{_printable(error.instance)}` is not a pack name", span, lines,
                      "use lowercase letters, digits and single dashes, e.g. `goblin-cave`")]
    if error.validator == "pattern" and path and path[-1] == "version":
        return [_diag(f"`{_printable(error.instance)}` is not a semantic version", span, lines,
                      "write MAJOR.MINOR.PATCH, e.g. \"1.0.0\"")]
    if error.validator in ("maxLength", "maxItems"):
        what = _("characters") if error.validator == "maxLength" else _("items")
        return [_diag(f"`{dotted(path)}` is too long ({len(error.instance)} {what}; "
                      f"at most {error.validator_value})", span, lines, None)]
    if error.validator in ("minLength", "minItems"):
        return [_diag(f"`{dotted(path)}` must not be empty", span, lines, None)]
    message = error.message if len(error.message) <= 200 else error.message[:200] + "…"
    return [_diag(f"{dotted(path) or 'pack.yaml'}: {message}", span, lines, None)]


def _semantic_diagnostics(data, display: str, lines: list[str]) -> list[Diagnostic]:
    """What the schema cannot say: safe paths, parseable ranges, no file listed twice."""
    found = []
    seen: dict[str, tuple[str, str]] = {}  # spelling key -> (name as listed, section)
    for section in FILE_SECTIONS:
        for index, item in enumerate(data.get(section, [])):
            span = value_span(data, [section, index], display)
            problem = path_problem(item)
            if problem:
                found.append(_diag(f"`{_printable(item)}`: {problem}", span, lines, None, code="DQ7003"))
            elif name_key(item) in seen:
                found.append(_diag(_twice(item, *seen[name_key(item)]), span, lines,
                                   "list each file once, spelt one way", code="DQ7004"))
            elif item == MANIFEST_NAME:
                found.append(_diag("pack.yaml is always shipped; do not list it", span, lines, None,
                                   code="DQ7003"))
            else:
                seen[name_key(item)] = (item, section)
    for section in ("scenarios", "libraries"):
        for index, item in enumerate(data.get(section, [])):
            if isinstance(item, str) and not item.endswith(".quest"):
                found.append(_diag(f"`{item}` under `{section}` must be a .quest script",
                                   value_span(data, [section, index], display), lines, None, code="DQ7003"))
    found.extend(_range_diag(data, ["deckquest"], display, lines))
    names = set()
    for index, dependency in enumerate(data.get("depends", [])):
        found.extend(_range_diag(data, ["depends", index, "version"], display, lines))
        span = value_span(data, ["depends", index, "name"], display)
        if dependency["name"] == data["name"]:
            found.append(_diag("a pack cannot depend on itself", span, lines, None, code="DQ7005"))
        elif dependency["name"] in names:
            found.append(_diag(f"`{dependency['name']}` is listed twice under depends", span, lines, None,
                               code="DQ7005"))
        names.add(dependency["name"])
    return found


def _range_diag(data, path: list, display: str, lines: list[str]) -> list[Diagnostic]:
    value = data
    for key in path:
        value = value[key]
    try:
        VersionRange.parse(value)
    except VersionError as error:
        return [_diag(str(error), value_span(data, path, display), lines,
                      "ranges look like \">=0.1, <1.0\", \"^1.2\" or \"~1.2.0\"", code="DQ7005")]
    return []


def _build(data, path: Path, display: str) -> Manifest:
    spans = {}
    for key in data:
        spans[(key,)] = key_span(data, [], key, display)
        if isinstance(data[key], list):
            for index in range(len(data[key])):
                spans[(key, index)] = value_span(data, [key, index], display)
    return Manifest(
        path=path, display=display, name=str(data["name"]), version=Version.parse(data["version"]),
        title=str(data["title"]), authors=tuple(map(str, data["authors"])),
        license=str(data["license"]), description=str(data.get("description", "")),
        deckquest=VersionRange.parse(data["deckquest"]),
        **{section: tuple(map(str, data.get(section, []))) for section in FILE_SECTIONS},
        tags=tuple(map(str, data.get("tags", []))),
        depends=tuple(Dependency(d["name"], VersionRange.parse(d["version"]))
                      for d in data.get("depends", [])),
        spans=spans,
    )


def _diag(message: str, span: Span, lines: list[str], hint: str | None,
          code: str = "DQ7002") -> Diagnostic:
    source = lines[span.line - 1] if 0 < span.line <= len(lines) else None
    return Diagnostic("error", message, span, code=code, hint=hint, source_line=source)


def _twice(item: str, first: str, section: str) -> str:
    if first == item:
        return f"`{item}` is listed twice (also under `{section}`)"
    return (f"`{_printable(item)}` and `{_printable(first)}` (under `{section}`) are one file on "
            "macOS and Windows, which ignore case and Unicode normalization in file names")


def _printable(value) -> str:
    """A value as it can be shown on one line: newlines and other controls escaped."""
    text = str(value)
    if text.isprintable():
        return text[:120]
    return text.encode("unicode_escape").decode("ascii")[:120]


def _kind(value) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if value is None:
        return "empty"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"`{value}`"


def _kind_name(kind) -> str:
    names = {"string": "string", "array": "list", "object": "mapping", "integer": "whole number"}
    return names.get(kind, str(kind))

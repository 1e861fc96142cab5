"""Semantic versions and version ranges, small enough to read in one sitting.

Packs name the deckquest versions and the dependency versions they need. We
parse those ourselves (no extra dependency) and keep the grammar small:

* a version is ``MAJOR.MINOR.PATCH`` with an optional ``-prerelease`` and
  ``+build`` (semver 2.0.0; build metadata is ignored when comparing);
* a range is comma- or space-separated comparators that must all hold:
  ``>=1.2``, ``<2.0.0``, ``=1.4.0``, ``!=1.3.0``, ``^1.2`` (same major; same
  minor below 1.0), ``~1.2`` (same minor), ``1.x`` / ``1.2.*`` wildcards, ``*``;
  ``||`` joins alternatives. Missing minor or patch numbers count as 0.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import total_ordering

_VERSION = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?"
    r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$"
)
_PARTIAL = re.compile(r"^(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-([0-9A-Za-z.-]+))?$")
_COMPARATOR = re.compile(r"^(>=|<=|>|<|=|!=|\^|~)?\s*(.+)$")
_MAX_TEXT = 200


class VersionError(ValueError):
    """Text that is not a version or a version range; the caller adds a location."""


@total_ordering
@dataclass(frozen=True)
class Version:
    """A semantic version; ordering follows semver precedence rules."""

    major: int
    minor: int
    patch: int
    prerelease: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str) -> "Version":
        match = _VERSION.fullmatch(text) if len(text) <= _MAX_TEXT else None
        if not match:
            raise VersionError(f"`{text[:40]}` is not a semantic version such as 1.0.0")
        major, minor, patch, pre, _build = match.groups()
        return cls(int(major), int(minor), int(patch), tuple(pre.split(".")) if pre else ())

    def _key(self):
        # A release sorts after its prereleases; numeric identifiers sort before
        # alphanumeric ones and compare as numbers (semver 11.4).
        pre = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in self.prerelease)
        return (self.major, self.minor, self.patch, not self.prerelease, pre)

    def __lt__(self, other: "Version") -> bool:
        return self._key() < other._key()

    def __str__(self) -> str:
        text = f"{self.major}.{self.minor}.{self.patch}"
        return text + ("-" + ".".join(self.prerelease) if self.prerelease else "")


@dataclass(frozen=True)
class _Comparator:
    op: str
    version: Version

    def allows(self, version: Version) -> bool:
        ops = {
            ">=": version >= self.version, ">": version > self.version,
            "<=": version <= self.version, "<": version < self.version,
            "=": version == self.version, "!=": version != self.version,
        }
        return ops[self.op]


@dataclass(frozen=True)
class VersionRange:
    """Alternatives (``||``) of comparator sets; a version matches if any set allows it."""

    text: str
    alternatives: tuple[tuple[_Comparator, ...], ...]

    @classmethod
    def parse(cls, text: str) -> "VersionRange":
        if not isinstance(text, str) or not text.strip() or len(text) > _MAX_TEXT:
            raise VersionError(f"`{str(text)[:40]}` is not a version range such as >=1.0,<2.0")
        alternatives = tuple(_parse_set(part) for part in text.split("||"))
        return cls(text.strip(), alternatives)

    def allows(self, version: Version) -> bool:
        return any(all(c.allows(version) for c in group) for group in self.alternatives)

    def __str__(self) -> str:
        return self.text


def _parse_set(text: str) -> tuple[_Comparator, ...]:
    # ">= 1.2" is accepted: glue an operator to the version that follows it.
    tokens = re.sub(r"(>=|<=|!=|>|<|=|\^|~)\s+", r"\1", text.replace(",", " ")).split()
    if not tokens:
        raise VersionError(f"empty alternative in version range `{text}`")
    comparators: list[_Comparator] = []
    for token in tokens:
        comparators.extend(_parse_comparator(token))
    return tuple(comparators)


def _parse_comparator(token: str) -> list[_Comparator]:
    op, rest = _COMPARATOR.match(token).groups()
    match = _PARTIAL.match(rest)
    if not match:
        raise VersionError(f"`{token}` is not a version comparator such as >=1.2.0")
    major, minor, patch, pre = match.groups()
    numbers = [None if p is None or p in "xX*" else int(p) for p in (major, minor, patch)]
    if numbers[0] is None:
        if op not in (None, "="):
            raise VersionError(f"`{token}`: a wildcard cannot follow `{op}`")
        return []  # "*" allows everything
    exact = all(n is not None for n in numbers)
    low = Version(numbers[0], numbers[1] or 0, numbers[2] or 0, tuple(pre.split(".")) if pre else ())
    if op in (None, "=") and exact:
        return [_Comparator("=", low)]
    if op in (None, "=") or op == "~":
        return _between(low, _bump(numbers, 1 if numbers[1] is not None else 0))
    if op == "^":
        return _between(low, _caret_upper(numbers))
    if not exact and op in ("<=", ">"):
        # "<=1.2" means "anything in 1.2.x or below": compare against the next minor.
        upper = _bump(numbers, 1 if numbers[1] is not None else 0)
        return [_Comparator("<" if op == "<=" else ">=", upper)]
    return [_Comparator(op, low)]


def _between(low: Version, high: Version) -> list[_Comparator]:
    return [_Comparator(">=", low), _Comparator("<", _release_floor(high))]


def _release_floor(version: Version) -> Version:
    # "<2.0.0-0" keeps 2.0.0 prereleases out of a "^1" range.
    return Version(version.major, version.minor, version.patch, ("0",))


def _bump(numbers: list[int | None], index: int) -> Version:
    parts = [n or 0 for n in numbers]
    parts[index] += 1
    for later in range(index + 1, 3):
        parts[later] = 0
    return Version(*parts)


def _caret_upper(numbers: list[int | None]) -> Version:
    major, minor, patch = numbers
    if major > 0 or minor is None:
        return _bump(numbers, 0)
    if minor > 0 or patch is None:
        return _bump(numbers, 1)
    return _bump(numbers, 2)


def version_allowed(version: str, range_text: str) -> bool:
    """Whether a version string satisfies a range string (both must parse)."""
    return VersionRange.parse(range_text).allows(Version.parse(version))

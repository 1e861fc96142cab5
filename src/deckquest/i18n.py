"""Messages in the GM's language: gettext catalogs, one language per command.

Most people who play MTG-TRPG read Japanese first, so every sentence deckquest itself writes
(transcripts, prompts at the table, reports, diagnostics) goes through ``_()`` or
``ngettext()``. The message id is the English text with ``{named}`` fields; the catalog
``deckquest/locale/LANG/LC_MESSAGES/deckquest.po`` gives each its translation, compiled to the
``.mo`` beside it that ships with the package (so running in Japanese needs only the standard
library; Babel extracts and compiles, docs/development.md, "Translations").

The language is a context variable, set by the command for its whole run (``--lang`` or the
script's ``language`` header): the same run in the same language is byte-identical.
Diagnostics are made while a script is read, before its header is known, so ``_()`` returns a
:class:`Message` that can be shown again in another language (``localize``) where it is
rendered. This module sits on the ground floor: every layer may import it.
"""

from __future__ import annotations

import gettext
import unicodedata
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from importlib.resources import files
from typing import Any, Iterator

LANGUAGES = ("en", "ja")
DOMAIN = "deckquest"

_current: ContextVar[str] = ContextVar("deckquest_language", default="en")
_chosen: ContextVar[str | None] = ContextVar("deckquest_chosen_language", default=None)


class Message(str):
    """A sentence in the language current when it was made, that remembers its message id and
    fields so that ``localize`` can write it again in another language."""

    msgid: str
    plural: str | None
    number: int  # the count a plural was chosen for (not `count`: str has a method of that name)
    fields: dict[str, Any]
    context: str | None

    def __new__(cls, text: str, msgid: str, plural: str | None, count: int, fields: dict[str, Any],
                context: str | None = None) -> "Message":
        made = super().__new__(cls, text)
        made.msgid, made.plural, made.number, made.fields, made.context = msgid, plural, count, fields, context
        return made

    def __reduce__(self):  # pickled across sim workers with its id and fields
        return (Message, (str(self), self.msgid, self.plural, self.number, self.fields, self.context))


@lru_cache(maxsize=None)
def catalog(language: str) -> gettext.NullTranslations:
    """The compiled catalog of ``language`` (English is the message ids themselves)."""
    if language == "en":
        return gettext.NullTranslations()
    compiled = files("deckquest") / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    with compiled.open("rb") as handle:
        return gettext.GNUTranslations(handle)


def current() -> str:
    """The language of the command running now: ``en`` or ``ja``."""
    return _current.get()


@contextmanager
def language(name: str | None) -> Iterator[str]:
    """Write in ``name`` (None: keep the current language) until the block ends."""
    token = _current.set(name or current())
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def choose(name: str | None) -> None:
    """``--lang``: the command's language, over any script's ``language`` header, until the end
    of the ``command_scope`` around the command (so the error report is in it too)."""
    _chosen.set(name)
    if name:
        _current.set(name)


def language_for(script_language: str | None) -> str:
    """The language to write a script's output in: ``--lang``, else the script's header, else
    the current one."""
    return _chosen.get() or script_language or current()


@contextmanager
def command_scope() -> Iterator[None]:
    """One command: the language ``choose`` sets ends with it."""
    tokens = (_current.set(_current.get()), _chosen.set(None))
    try:
        yield
    finally:
        _chosen.reset(tokens[1])
        _current.reset(tokens[0])


def _write(msgid: str, plural: str | None, count: int, fields: dict[str, Any], lang: str,
           context: str | None = None) -> str:
    translations = catalog(lang)
    if context is not None:
        text = translations.pgettext(context, msgid)
    elif plural is not None:
        text = translations.ngettext(msgid, plural, count)
    else:
        text = translations.gettext(msgid)
    if not fields:
        return text
    return text.format(**{key: _in(value, lang) for key, value in fields.items()})


def _in(value: Any, lang: str) -> Any:
    if isinstance(value, Message):
        return _write(value.msgid, value.plural, value.number, value.fields, lang, value.context)
    return value


def _(msgid: str, **fields: Any) -> str:
    """``msgid`` (English, with ``{named}`` fields filled from ``fields``) in the current language.

    Without fields the text is used as it is (no brace doubling). The result is a
    :class:`Message` (typed as the ``str`` it is)."""
    return Message(_write(msgid, None, 1, fields, current()), msgid, None, 1, fields)


def pgettext(context: str, msgid: str, **fields: Any) -> str:
    """``msgid`` where the same English word needs another translation (``column``: a table's
    heading, as "success" the rate and "success" the verdict)."""
    return Message(_write(msgid, None, 1, fields, current(), context), msgid, None, 1, fields, context)


def ngettext(singular: str, plural: str, count: int, **fields: Any) -> str:
    """The singular or plural sentence for ``count`` in the current language; ``{count}`` is
    among its fields."""
    fields = {"count": count, **fields}
    return Message(_write(singular, plural, count, fields, current()), singular, plural, count, fields)


def localize(text: str | None) -> str | None:
    """``text`` in the current language: a :class:`Message` is written again, other text is
    shown as it is (a script's own words, a file name)."""
    if isinstance(text, Message):
        return _in(text, current())
    return text


def width(text: str) -> int:
    """Terminal columns of ``text``: a wide (CJK) character takes two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def ljust(text: str, columns: int) -> str:
    """``text`` padded to ``columns`` terminal columns (str.ljust counts characters, and
    Japanese characters are twice as wide); English text is padded exactly as str.ljust."""
    return text + " " * max(0, columns - width(text))


def rjust(text: str, columns: int) -> str:
    return " " * max(0, columns - width(text)) + text

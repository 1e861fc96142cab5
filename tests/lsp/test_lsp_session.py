"""`deckquest lsp` in a real Language Server Protocol session: a pygls client starts the server
as an editor does (`python -m deckquest lsp` over stdio), opens the Goblin Cave, types a
mistake, and asks what an editor asks (issue 20, item 1)."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CAVE = ROOT / "scenarios" / "goblin_cave" / "goblin_cave.quest"
URI = CAVE.as_uri()
SERVER = ["-m", "deckquest", "lsp"]
# Seconds to wait for an answer before taking the server to hang: an analysis takes well under a
# second of CPU, so this holds on a machine whose every core is busy (docs/development.md).
HANG_GUARD = 60


def position(text: str, needle: str, offset: int = 0) -> types.Position:
    for number, line in enumerate(text.splitlines()):
        if needle in line:
            return types.Position(line=number, character=line.index(needle) + offset)
    raise AssertionError(needle)


class Session:
    """A client with the diagnostics the server has published, by document version."""

    def __init__(self) -> None:
        self.client = LanguageClient("deckquest-tests", "1")
        self.published: asyncio.Queue = asyncio.Queue()

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def publish(params: types.PublishDiagnosticsParams) -> None:
            self.published.put_nowait(params)

    async def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
        await self.client.start_io(sys.executable, *SERVER, env=env)
        await self.client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=(ROOT / "scenarios").as_uri()))
        self.client.initialized(types.InitializedParams())

    async def diagnostics(self) -> list[types.Diagnostic]:
        params = await asyncio.wait_for(self.published.get(), timeout=HANG_GUARD)
        return params.diagnostics

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await asyncio.wait_for(self.client.stop(), timeout=HANG_GUARD)


def document(uri: str = URI) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


async def conversation() -> dict:
    text = CAVE.read_text("utf-8")
    session = Session()
    await session.start()
    client = session.client
    answers: dict = {}
    try:
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=URI, language_id="quest", version=1, text=text)))
        answers["open"] = await session.diagnostics()
        broken = text.replace("-> throne", "-> thron", 1)
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=broken)]))
        answers["typed"] = await session.diagnostics()
        error = next(d for d in answers["typed"] if d.code == "DQ0031")
        answers["fix"] = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=document(), range=error.range,
            context=types.CodeActionContext(diagnostics=[error])))
        answers["hover_npc"] = await client.text_document_hover_async(types.HoverParams(
            text_document=document(), position=position(broken, "battle against warlord", 16)))
        answers["hover_check"] = await client.text_document_hover_async(types.HoverParams(
            text_document=document(), position=position(broken, "check green", 2)))
        answers["definition"] = await client.text_document_definition_async(types.DefinitionParams(
            text_document=document(), position=position(broken, "set boulder_moved", 6)))
        answers["references"] = await client.text_document_references_async(types.ReferenceParams(
            text_document=document(), position=position(broken, "flag boulder_moved", 6),
            context=types.ReferenceContext(include_declaration=True)))
        answers["complete_scene"] = await client.text_document_completion_async(types.CompletionParams(
            text_document=document(), position=position(broken, "-> thron", 3)))
        answers["symbols"] = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
            text_document=document()))
        answers["text"] = broken
    finally:
        await session.stop()
    return answers


@pytest.fixture(scope="module")
def answers() -> dict:
    return asyncio.run(conversation())


def test_diagnostics_are_checks_own_as_the_gm_types(answers):
    assert not [d for d in answers["open"] if d.severity == types.DiagnosticSeverity.Error]
    typed = answers["typed"]
    error = next(d for d in typed if d.code == "DQ0031")
    assert error.message.startswith("unknown scene `thron`") and "did you mean `throne`?" in error.message
    line = answers["text"].splitlines()[error.range.start.line]
    assert line[error.range.start.character:error.range.end.character] == "thron"


def test_a_did_you_mean_is_a_quick_fix(answers):
    (action,) = answers["fix"]
    assert action.kind == types.CodeActionKind.QuickFix and action.title == "Replace with `throne`"
    (edit,) = action.edit.changes[URI]
    line = answers["text"].splitlines()[edit.range.start.line]
    fixed = line[:edit.range.start.character] + edit.new_text + line[edit.range.end.character:]
    assert fixed.strip() == "-> throne"


def test_hover_shows_an_npc_and_a_checks_exact_odds(answers):
    npc = answers["hover_npc"].contents.value
    assert "Krenko the Warlord" in npc and "life 30" in npc
    check = answers["hover_check"].contents.value
    assert "green difficulty 3" in check and "Alice the Ranger" in check and "Bram the Hothead" in check
    assert "%" in check


def test_definition_and_references_of_a_flag(answers):
    text = answers["text"].splitlines()
    definition = answers["definition"]
    assert text[definition.range.start.line].startswith("flag boulder_moved")
    lines = sorted({location.range.start.line for location in answers["references"]})
    assert [text[n].strip().split()[0] for n in lines] == ["flag", "set", "if"]


def test_completion_after_an_arrow_offers_scenes(answers):
    labels = {item.label for item in answers["complete_scene"].items}
    assert labels == {"gate", "side_tunnel", "hall", "throne"}


def test_document_symbols_are_scenes_and_declarations(answers):
    names = [symbol.name for symbol in answers["symbols"]]
    assert {"gate", "hall", "throne", "alice", "warlord", "boulder_moved", "torches"} <= set(names)

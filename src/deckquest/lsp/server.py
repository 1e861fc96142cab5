"""``deckquest lsp``: the language server an editor starts over stdio (pygls).

Every change of an open ``.quest`` buffer is compiled as ``deckquest check`` compiles a
file, and its coded diagnostics are published; hover, go to definition, find references,
completion, document symbols and "did you mean" quick fixes answer from the same analysis
(``deckquest.lsp.analysis`` and ``.features``). pygls is an optional dependency:
``pip install 'deckquest[lsp]'``.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from deckquest.errors import hint_line
from deckquest.i18n import language, localize
from deckquest import __version__
from deckquest.lsp import features
from deckquest.lsp.analysis import Analysis, Range, analyse, diagnostic_range, quick_fix

SYMBOL_KINDS = {
    "scene": types.SymbolKind.Namespace, "pc": types.SymbolKind.Class, "creature": types.SymbolKind.Object,
    "planeswalker": types.SymbolKind.Object, "player": types.SymbolKind.Object, "horde": types.SymbolKind.Object,
    "card": types.SymbolKind.Struct, "flag": types.SymbolKind.Boolean, "counter": types.SymbolKind.Number,
}
COMPLETION_KINDS = {"keyword": types.CompletionItemKind.Keyword, "scene": types.CompletionItemKind.Module,
                    "flag": types.CompletionItemKind.Variable, "counter": types.CompletionItemKind.Variable}


class QuestServer(LanguageServer):
    """A pygls server that keeps the last analysis of each open document."""

    def __init__(self) -> None:
        super().__init__("deckquest", __version__)
        self.analyses: dict[str, Analysis] = {}

    def refresh(self, uri: str) -> Analysis:
        document = self.workspace.get_text_document(uri)
        analysis = analyse(path_of(uri), document.source, self.analyses.get(uri))
        self.analyses[uri] = analysis
        lines = document.source.splitlines()
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=document.version,
            diagnostics=[lsp_diagnostic(d, lines, analysis.language) for d in analysis.diagnostics]))
        return analysis

    def analysis(self, uri: str) -> Analysis:
        return self.analyses.get(uri) or self.refresh(uri)


def path_of(uri: str) -> str:
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else uri


def lsp_range(where: Range) -> types.Range:
    return types.Range(start=types.Position(line=where.line, character=where.start),
                       end=types.Position(line=where.end_line, character=where.end))


def lsp_diagnostic(diagnostic, lines: list[str], script_language: str | None = None) -> types.Diagnostic:
    """The diagnostic as the editor shows it, in the script's language (`language ja`); the quick
    fix reads the hint as it was made (English), so it works in either."""
    severity = types.DiagnosticSeverity.Error if diagnostic.severity == "error" else types.DiagnosticSeverity.Warning
    with language(script_language):
        message = localize(diagnostic.message) + ("\n" + hint_line(diagnostic.hint) if diagnostic.hint else "")
    fix = quick_fix(diagnostic, lines)
    data = None if fix is None else {"replace": [fix[0].line, fix[0].start, fix[0].end_line, fix[0].end],
                                     "with": fix[1]}
    return types.Diagnostic(range=lsp_range(diagnostic_range(diagnostic, lines)), message=message,
                            severity=severity, code=diagnostic.code or None, source="deckquest", data=data)


server = QuestServer()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: QuestServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.refresh(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: QuestServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.refresh(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: QuestServer, params: types.DidSaveTextDocumentParams) -> None:
    ls.refresh(params.text_document.uri)  # a deck list beside it may have changed


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: QuestServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.analyses.pop(params.text_document.uri, None)


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: QuestServer, params: types.HoverParams) -> types.Hover | None:
    text = features.hover(ls.analysis(params.text_document.uri), params.position.line, params.position.character)
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
def definition(ls: QuestServer, params: types.DefinitionParams) -> types.Location | None:
    analysis = ls.analysis(params.text_document.uri)
    symbol = analysis.symbol_at(params.position.line, params.position.character)
    if symbol is None:
        return None
    return types.Location(uri=params.text_document.uri, range=lsp_range(symbol.range))


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
def references(ls: QuestServer, params: types.ReferenceParams) -> list[types.Location]:
    analysis = ls.analysis(params.text_document.uri)
    found = features.references(analysis, params.position.line, params.position.character,
                                params.context.include_declaration)
    return [types.Location(uri=params.text_document.uri, range=lsp_range(r)) for r in found]


@server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[">", " "]))
def completion(ls: QuestServer, params: types.CompletionParams) -> types.CompletionList:
    analysis = ls.analysis(params.text_document.uri)
    items = [types.CompletionItem(label=label, kind=COMPLETION_KINDS.get(kind, types.CompletionItemKind.Reference),
                                  detail=kind)
             for label, kind in features.completions(analysis, params.position.line, params.position.character)]
    return types.CompletionList(is_incomplete=False, items=items)


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls: QuestServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    analysis = ls.analysis(params.text_document.uri)
    return [types.DocumentSymbol(name=s.name, detail=f"{s.kind}: {s.title}",
                                 kind=SYMBOL_KINDS.get(s.kind, types.SymbolKind.Variable),
                                 range=lsp_range(s.block), selection_range=lsp_range(s.range))
            for s in features.document_symbols(analysis)]


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
def code_action(ls: QuestServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    """A quick fix for each diagnostic whose hint names a replacement ("did you mean `hall`?")."""
    actions = []
    for diagnostic in params.context.diagnostics:
        fix = diagnostic.data if isinstance(diagnostic.data, dict) else {}
        if "replace" not in fix or "with" not in fix:
            continue
        suggestion = fix["with"]
        edit = types.TextEdit(range=lsp_range(Range(*fix["replace"])), new_text=suggestion)
        actions.append(types.CodeAction(
            title=f"Replace with `{suggestion}`", kind=types.CodeActionKind.QuickFix, diagnostics=[diagnostic],
            is_preferred=True, edit=types.WorkspaceEdit(changes={params.text_document.uri: [edit]})))
    return actions


def main() -> None:
    """Serve over stdio until the editor says exit."""
    server.start_io()


if __name__ == "__main__":  # pragma: no cover - `python -m deckquest.lsp.server`
    main()

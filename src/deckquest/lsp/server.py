"""``deckquest lsp``: the language server an editor starts over stdio (pygls).

Every change of an open ``.quest`` buffer is compiled as ``deckquest check`` compiles a
file, and its coded diagnostics are published; hover, go to definition, find references,
completion, document symbols and "did you mean" quick fixes answer from the same analysis
(``deckquest.lsp.analysis`` and ``.features``). pygls is an optional dependency:
``pip install 'deckquest[lsp]'``.

What an editor (or anything else) writes to it is hostile input (docs/hostile.md): the frames
are cut by ``deckquest.lsp.frames`` (a malformed one is skipped, never wedges the server), each
body is checked as a JSON-RPC message before pygls sees it (a request that is not one is
answered with an error), scripts are analysed off the request thread with only their latest
version analysed (``deckquest.lsp.documents``), a request on a document that is not open
answers null, and no answer ever carries a traceback: a handler that fails is reported on
stderr and answers null.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
import traceback
from collections import Counter
from typing import Any, BinaryIO, Callable, Iterator
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInternalError
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.protocol.json_rpc import RPCRequest

from deckquest import __version__
from deckquest.errors import hint_line
from deckquest.i18n import _, language, localize
from deckquest.lsp import features
from deckquest.lsp.analysis import Analysis, Range, diagnostic_range, quick_fix
from deckquest.lsp.documents import DEBOUNCE, PATIENCE, Document, Documents
from deckquest.lsp.frames import FrameReader

SYMBOL_KINDS = {
    "scene": types.SymbolKind.Namespace, "pc": types.SymbolKind.Class, "creature": types.SymbolKind.Object,
    "planeswalker": types.SymbolKind.Object, "player": types.SymbolKind.Object, "horde": types.SymbolKind.Object,
    "card": types.SymbolKind.Struct, "flag": types.SymbolKind.Boolean, "counter": types.SymbolKind.Number,
}
COMPLETION_KINDS = {"keyword": types.CompletionItemKind.Keyword, "scene": types.CompletionItemKind.Module,
                    "flag": types.CompletionItemKind.Variable, "counter": types.CompletionItemKind.Variable}
# JSON-RPC's and the LSP's error codes for what a client sends wrong
INVALID_REQUEST, INVALID_PARAMS, INTERNAL_ERROR, SERVER_NOT_INITIALIZED = -32600, -32602, -32603, -32002
STATUS = "deckquest/status"
REPORTED = 20  # skipped inputs reported on stderr, one line each; the rest are only counted
Handler = Callable[["QuestServer", Any, Analysis], Any]


class QuestProtocol(LanguageServerProtocol):
    """pygls' protocol with two guards pygls lacks: a change to a document that is not open is
    ignored (pygls raises KeyError), and an error answer never carries a traceback (pygls puts
    one in ``data`` when a handler raises)."""

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Iterator[Any]:
        if unquote(params.text_document.uri) in self.workspace.text_documents:
            yield from super().lsp_text_document__did_change(params)

    def _send_response(self, msg_id: Any, result: Any = None, error: types.ResponseError | None = None) -> None:
        """Every answer goes out here (pygls 2's method, hence the pin below 3 in pyproject.toml);
        a traceback pygls put in ``data`` stays in the server (``report_server_error`` counts it)."""
        if error is not None and error.data is not None:
            error = types.ResponseError(code=error.code, message=error.message)
        super()._send_response(msg_id, result, error)


class FrameWriter:
    """Writes whole frames to stdout, one thread at a time: the analysis thread publishes
    diagnostics while the request thread answers. Writes after ``exit`` closed it are dropped."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self.lock = threading.Lock()

    def write(self, data: bytes) -> None:
        with self.lock:
            if not self.stream.closed:
                self.stream.write(data)
                self.stream.flush()

    def close(self) -> None:
        with self.lock:
            self.stream.close()


class QuestServer(LanguageServer):
    """A pygls server that keeps each open document's latest text and last analysis."""

    def __init__(self, debounce: float = DEBOUNCE, patience: float = PATIENCE) -> None:
        super().__init__("deckquest", __version__, protocol_cls=QuestProtocol)
        self.documents = Documents(self.publish, self.internal_error, debounce, patience)
        self.internal_errors: Counter[str] = Counter()  # "where: TypeError at file:line": how often
        self.first_failure: BaseException | None = None  # the first of them, with its traceback
        self.skipped = 0  # frames and messages refused
        self.shut_down = False
        self.say: Callable[[str], None] = _to_stderr
        for method, (handler, options) in REQUESTS.items():
            self.feature(method, options)(self._answering(method, handler))
        for method, notified in NOTIFICATIONS.items():
            self.feature(method)(self._guarding(method, notified))
        self.feature(STATUS)(lambda params: self.status())

    # ------------------------------------------------------------ the stdio loop

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve over stdio until the editor says exit or closes its end. pygls' own loop is
        not used: its reader wedges on a malformed frame (``deckquest.lsp.frames``)."""
        source = stdin or sys.stdin.buffer
        read = getattr(source, "read1", source.read)
        self.protocol.set_writer(FrameWriter(stdout or sys.stdout.buffer))
        reader = FrameReader(self.skip)
        try:
            while chunk := read(1 << 16):
                for body in reader.feed(chunk):
                    self.receive(body)
            reader.close()
        except BrokenPipeError:  # the editor has gone
            pass
        finally:
            self.shutdown()

    def shutdown(self) -> None:
        """The process ends (not the `shutdown` request, which only refuses what comes after it)."""
        self.documents.stop()
        super().shutdown()

    def receive(self, body: bytes) -> None:
        """Handle one frame's body: a JSON-RPC message, or a refusal of what is not one."""
        try:
            message = json.loads(body)
        except (ValueError, RecursionError):
            self.skip(_("a frame whose body is not JSON"))
            return
        if not isinstance(message, dict):
            self.skip(_("a frame whose body is not a JSON object"))
            return
        method = message.get("method")
        if "id" in message and "method" in message:
            self._request(message)
        elif "method" in message:
            self._notification(message, method)
        elif "id" in message and _is_id(message["id"]) and message.get("jsonrpc") == "2.0":  # an answer to us
            self._dispatch(message, None)
        else:
            self.skip(_("a message that is neither a request, a notification nor an answer"))

    def _request(self, message: dict[str, Any]) -> None:
        ident, method = message["id"], message["method"]
        if not _is_id(ident) or message.get("jsonrpc") != "2.0" or not isinstance(method, str):
            self.refuse(ident if _is_id(ident) else None, INVALID_REQUEST,
                        _("not a JSON-RPC 2.0 request: it needs \"jsonrpc\": \"2.0\", an id and a method name"))
        elif method == types.INITIALIZE and self.ready:
            self.refuse(ident, INVALID_REQUEST, _("the server is initialized already"))
        elif method != types.INITIALIZE and not self.ready:
            self.refuse(ident, SERVER_NOT_INITIALIZED, _("the server is not initialized yet"))
        elif self.shut_down:
            self.refuse(ident, INVALID_REQUEST, _("the server is shutting down"))
        elif self._dispatch(message, ident) and method == types.SHUTDOWN:
            self.shut_down = True

    def _notification(self, message: dict[str, Any], method: Any) -> None:
        if message.get("jsonrpc") != "2.0" or not isinstance(method, str):
            self.skip(_("a notification that is not JSON-RPC 2.0"))
        elif method == types.EXIT or (self.ready and not self.shut_down):
            self._dispatch(message, None)

    def _dispatch(self, message: dict[str, Any], ident: Any) -> bool:
        """Hand a checked message to pygls (True), or refuse one whose parameters do not fit it."""
        method = str(message.get("method", ""))[:80]
        try:
            structured = self.protocol.structure_message(message)
        except JsonRpcException:
            if ident is None:
                self.skip(_("a {method} message whose parameters do not fit it", method=method))
            else:
                self.refuse(ident, INVALID_PARAMS, _("the parameters do not fit {method}", method=method))
            return False
        if ident is not None and not isinstance(structured, RPCRequest):
            self.refuse(ident, INVALID_REQUEST, _("{method} is a notification, not a request", method=method))
            return False
        try:
            self.protocol.handle_message(structured)
        except Exception as error:  # pygls itself failed on a message it accepted
            self.internal_error(method or "message", error)
            if ident is not None:
                self.refuse(ident, INTERNAL_ERROR, _("internal error"))
        return True

    @property
    def ready(self) -> bool:
        """Initialized: pygls has made its workspace."""
        try:
            return self.workspace is not None
        except RuntimeError:
            return False

    # ------------------------------------------------------------ handlers, guarded

    def _answering(self, method: str, handler: Handler) -> Callable[[Any], Any]:
        """A request handler that answers null for a document not open (or not analysed yet),
        and null, reported, when it fails."""
        def answer(params: Any) -> Any:
            document = self.documents.get(unquote(params.text_document.uri))
            analysis = document.analysis if document is not None else None
            if analysis is None:
                return None
            try:
                return handler(self, params, analysis)
            except Exception as error:
                self.internal_error(method, error)
                return None
        answer.__doc__ = handler.__doc__
        return answer

    def _guarding(self, method: str, notified: Callable[["QuestServer", Any], None]) -> Callable[[Any], None]:
        def notification(params: Any) -> None:
            try:
                notified(self, params)
            except Exception as error:
                self.internal_error(method, error)
        notification.__doc__ = notified.__doc__
        return notification

    # ------------------------------------------------------------ what the server says

    def publish(self, document: Document, analysis: Analysis) -> None:
        """The diagnostics of a document's latest version (called on the analysis thread)."""
        lines = analysis.text.splitlines()
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=document.uri, version=document.version,
            diagnostics=[lsp_diagnostic(d, lines, analysis.language) for d in analysis.diagnostics]))

    def refuse(self, ident: Any, code: int, message: str) -> None:
        """Answer a request with an error (no traceback: there is none, it is the client's)."""
        self.skipped += 1
        self.protocol._send_response(ident, error=types.ResponseError(code=code, message=message))

    def skip(self, reason: str) -> None:
        """Input that is not a message was skipped: said on stderr (the first few times)."""
        self.skipped += 1
        if self.skipped <= REPORTED:
            self.say(_("skipped {reason}", reason=reason))
        if self.skipped == REPORTED:
            self.say(_("further skipped input is counted, not reported (deckquest/status)"))

    def internal_error(self, where: str, error: BaseException) -> None:
        """A bug: counted (deckquest/status, the fuzzer), said on stderr in one line."""
        signature = f"{where}: {_signature(error)}"
        self.internal_errors[signature] += 1
        self.first_failure = self.first_failure or error
        self.say(_("internal error in {where}, please report it: {error}", where=signature, error=error))

    def report_server_error(self, error: Exception, source: Any) -> None:
        """pygls' report of a failure in its own handlers: an internal error unless it is the
        client's (an unknown method, bad parameters, a cancelled request), already answered."""
        if isinstance(error, JsonRpcException) and not isinstance(error, JsonRpcInternalError):
            return
        self.internal_error("pygls", error)

    def status(self) -> dict[str, Any]:
        """`deckquest/status`: what the server has done with each document (docs/editor.md)."""
        return {"documents": {d.uri: d.status() for d in list(self.documents.open.values())},
                "pending": self.documents.pending, "skipped": self.skipped,
                "internalErrors": dict(self.internal_errors)}


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


# ---------------------------------------------------------------- the handlers

REQUESTS: dict[str, tuple[Handler, Any]] = {}
NOTIFICATIONS: dict[str, Callable[[QuestServer, Any], None]] = {}


def request(method: str, options: Any = None) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        REQUESTS[method] = (handler, options)
        return handler
    return register


def notification(method: str) -> Callable[[Callable[[QuestServer, Any], None]], Callable[[QuestServer, Any], None]]:
    def register(handler: Callable[[QuestServer, Any], None]) -> Callable[[QuestServer, Any], None]:
        NOTIFICATIONS[method] = handler
        return handler
    return register


@notification(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: QuestServer, params: types.DidOpenTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.documents.opened(unquote(uri), uri, path_of(uri), params.text_document.text, params.text_document.version)


@notification(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: QuestServer, params: types.DidChangeTextDocumentParams) -> None:
    key = unquote(params.text_document.uri)
    if key in ls.workspace.text_documents:
        ls.documents.changed(key, ls.workspace.text_documents[key].source, params.text_document.version)


@notification(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: QuestServer, params: types.DidSaveTextDocumentParams) -> None:
    ls.documents.saved(unquote(params.text_document.uri))  # a deck list beside it may have changed


@notification(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: QuestServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.documents.closed(unquote(params.text_document.uri))


@request(types.TEXT_DOCUMENT_HOVER)
def hover(ls: QuestServer, params: types.HoverParams, analysis: Analysis) -> types.Hover | None:
    text = features.hover(analysis, params.position.line, params.position.character)
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


@request(types.TEXT_DOCUMENT_DEFINITION)
def definition(ls: QuestServer, params: types.DefinitionParams, analysis: Analysis) -> types.Location | None:
    symbol = analysis.symbol_at(params.position.line, params.position.character)
    if symbol is None:
        return None
    return types.Location(uri=params.text_document.uri, range=lsp_range(symbol.range))


@request(types.TEXT_DOCUMENT_REFERENCES)
def references(ls: QuestServer, params: types.ReferenceParams, analysis: Analysis) -> list[types.Location]:
    found = features.references(analysis, params.position.line, params.position.character,
                                params.context.include_declaration)
    return [types.Location(uri=params.text_document.uri, range=lsp_range(r)) for r in found]


@request(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[">", " "]))
def completion(ls: QuestServer, params: types.CompletionParams, analysis: Analysis) -> types.CompletionList:
    items = [types.CompletionItem(label=label, kind=COMPLETION_KINDS.get(kind, types.CompletionItemKind.Reference),
                                  detail=kind)
             for label, kind in features.completions(analysis, params.position.line, params.position.character)]
    return types.CompletionList(is_incomplete=False, items=items)


@request(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls: QuestServer, params: types.DocumentSymbolParams,
                    analysis: Analysis) -> list[types.DocumentSymbol]:
    return [types.DocumentSymbol(name=s.name, detail=f"{s.kind}: {s.title}",
                                 kind=SYMBOL_KINDS.get(s.kind, types.SymbolKind.Variable),
                                 range=lsp_range(s.block), selection_range=lsp_range(s.range))
            for s in features.document_symbols(analysis)]


@request(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
def code_action(ls: QuestServer, params: types.CodeActionParams, analysis: Analysis) -> list[types.CodeAction]:
    """A quick fix for each diagnostic whose hint names a replacement ("did you mean `hall`?")."""
    actions = []
    for diagnostic in params.context.diagnostics:
        fix = quick_fix_of(diagnostic.data)
        if fix is None:
            continue
        where, suggestion = fix
        edit = types.TextEdit(range=lsp_range(where), new_text=suggestion)
        actions.append(types.CodeAction(
            title=f"Replace with `{suggestion}`", kind=types.CodeActionKind.QuickFix, diagnostics=[diagnostic],
            is_preferred=True, edit=types.WorkspaceEdit(changes={params.text_document.uri: [edit]})))
    return actions


def quick_fix_of(data: Any) -> tuple[Range, str] | None:
    """The fix a diagnostic's ``data`` holds (``lsp_diagnostic`` put it there): the client sends
    the diagnostic back with its code-action request, so ``data`` may be anything by then."""
    if not isinstance(data, dict):
        return None
    where, suggestion = data.get("replace"), data.get("with")
    if not isinstance(suggestion, str) or not isinstance(where, list) or len(where) != 4:
        return None
    if not all(type(number) is int and 0 <= number < 2**31 for number in where):
        return None
    return Range(*where), suggestion


def _is_id(ident: Any) -> bool:
    """A request id JSON-RPC allows and the LSP uses: an integer or a string."""
    return isinstance(ident, (int, str)) and not isinstance(ident, bool)


def _signature(error: BaseException) -> str:
    """`TypeError at deckquest/lsp/features.py:42`: where a failure comes from, in one line."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "deckquest" in f.filename]
    trace = getattr(error, "data", None)
    where = ""
    if frames:
        where = f" at {frames[-1].filename.split('/src/')[-1]}:{frames[-1].lineno}"
    elif isinstance(error, JsonRpcInternalError) and isinstance(trace, dict) and trace.get("traceback"):
        where = " at " + str(trace["traceback"][-1]).strip().splitlines()[0]
    return f"{type(error).__name__}{where}"


def _to_stderr(message: str) -> None:
    print(f"deckquest lsp: {message}", file=sys.stderr, flush=True)


def main() -> None:
    """Serve over stdio until the editor says exit."""
    logging.getLogger("pygls").setLevel(logging.CRITICAL)  # deckquest reports what matters, in one line
    QuestServer().start_io()


if __name__ == "__main__":  # pragma: no cover - `python -m deckquest.lsp.server`
    main()

// Starts `deckquest lsp` (over stdio) for .quest files; see docs/editor.md.
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("deckquest").get("command", ["deckquest", "lsp"]);
  const [program, ...args] = command.length ? command : ["deckquest", "lsp"];
  const server = { command: program, args: args.length ? args : ["lsp"], transport: TransportKind.stdio };
  client = new LanguageClient("deckquest", "deckquest", server, {
    documentSelector: [{ scheme: "file", language: "quest" }],
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/*.{quest,txt}") },
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };

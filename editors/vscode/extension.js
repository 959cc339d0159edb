// Starts `mason lsp` for the YAML files of a Mason game (a folder with game.yaml or expansion.yaml).
// The server decides what belongs to a game: a YAML file outside any game gets nothing from it.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("mason").get("command", ["mason", "lsp"]);
  client = new LanguageClient(
    "mason",
    "Mason rule files",
    { command, args },
    { documentSelector: [{ scheme: "file", language: "yaml" }] }
  );
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };

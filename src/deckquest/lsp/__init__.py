"""The language server (``deckquest lsp``) and what it knows of a script (docs/editor.md)."""

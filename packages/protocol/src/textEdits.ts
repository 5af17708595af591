import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextEdit } from 'vscode-languageserver-protocol';

/** Applies LSP text edits (non-overlapping, any order) to `text`. */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const doc = TextDocument.create('untitled:x', 'plaintext', 0, text);
  return TextDocument.applyEdits(doc, [...edits]);
}

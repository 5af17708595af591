import type { AnnotatedTextEdit, CreateFile, DeleteFile, RenameFile, TextDocumentEdit, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { applyTextEdits, UserError } from '@agent-lsp/protocol';
import { currentMode, readCurrent } from './restore.js';
import type { FileChange } from './transaction.js';

type DocumentChange = TextDocumentEdit | CreateFile | RenameFile | DeleteFile;
type AnyTextEdit = TextEdit | AnnotatedTextEdit | { range: TextEdit['range']; snippet: { value: string } };

export interface EditPlanOptions {
  /** Real, checked path for a URI or path (see resolveWritablePath). */
  resolve(uriOrPath: string): string;
  /** How a path is shown in messages. */
  label(path: string): string;
}

/**
 * Computes what a WorkspaceEdit (text edits, file creations, renames, deletions, in order) does
 * to each file, on an in-memory view of the disk, before anything is written. Invalid edits fail
 * here, so a bad edit writes nothing. `changes()` gives the files whose bytes end up different.
 */
export class EditPlan {
  private readonly view = new Map<string, Buffer | null>();
  private readonly modes = new Map<string, number>();

  constructor(private readonly options: EditPlanOptions) {}

  /** The planned bytes of `path` (null: absent). */
  current(path: string): Buffer | null {
    if (!this.view.has(path)) this.view.set(path, readCurrent(path));
    return this.view.get(path) ?? null;
  }

  private text(path: string, why: string): string {
    const data = this.current(path);
    if (data === null) throw new UserError('file_not_found', `${this.options.label(path)} does not exist, so it cannot be ${why}.`);
    return data.toString('utf8');
  }

  /** Makes `uriOrPath` (checked like every path of the plan) read `text`, creating it if need be. */
  setText(uriOrPath: string, text: string): void {
    this.put(this.options.resolve(uriOrPath), text);
  }

  private put(path: string, text: string): void {
    this.current(path);
    this.view.set(path, Buffer.from(text, 'utf8'));
  }

  /** Replaces `oldText`, which must occur exactly once in the file, by `newText`. */
  replaceText(uriOrPath: string, oldText: string, newText: string): void {
    const path = this.options.resolve(uriOrPath);
    const text = this.text(path, 'edited');
    if (oldText === '') throw new UserError('invalid_argument', 'old_text is empty: give the exact text to replace (copied from the file, whitespace included).');
    const at = text.indexOf(oldText);
    if (at < 0) throw new UserError('pattern_not_found', `old_text does not occur in ${this.options.label(path)}. Copy it exactly from the file, whitespace included.`);
    const again = text.indexOf(oldText, at + 1);
    if (again >= 0) throw new UserError('pattern_ambiguous', `old_text occurs more than once in ${this.options.label(path)}; include more surrounding lines so it occurs once.`);
    this.put(path, text.slice(0, at) + newText + text.slice(at + oldText.length));
  }

  applyTextEdits(uriOrPath: string, edits: readonly AnyTextEdit[]): void {
    const path = this.options.resolve(uriOrPath);
    const plain: TextEdit[] = edits.map((e) => ({ range: e.range, newText: 'newText' in e ? e.newText : e.snippet.value }));
    let next: string;
    try {
      next = applyTextEdits(this.text(path, 'edited'), plain);
    } catch (err) {
      if (err instanceof UserError) throw err;
      throw new UserError('invalid_argument', `The edits to ${this.options.label(path)} cannot be applied: ${(err as Error).message}.`);
    }
    this.put(path, next);
  }

  applyWorkspaceEdit(edit: WorkspaceEdit): void {
    if (edit.documentChanges) {
      for (const change of edit.documentChanges as DocumentChange[]) this.applyDocumentChange(change);
    } else {
      for (const [uri, edits] of Object.entries(edit.changes ?? {})) this.applyTextEdits(uri, edits);
    }
  }

  private applyDocumentChange(change: DocumentChange): void {
    if (!('kind' in change)) return this.applyTextEdits(change.textDocument.uri, change.edits);
    if (change.kind === 'create') {
      const path = this.options.resolve(change.uri);
      if (this.current(path) !== null) {
        if (change.options?.overwrite) this.view.set(path, Buffer.alloc(0));
        else if (!change.options?.ignoreIfExists) throw new UserError('invalid_argument', `Cannot create ${this.options.label(path)}: it already exists (set options.overwrite or options.ignoreIfExists).`);
        return;
      }
      this.view.set(path, Buffer.alloc(0));
    } else if (change.kind === 'rename') {
      const from = this.options.resolve(change.oldUri);
      const to = this.options.resolve(change.newUri);
      const data = this.current(from);
      if (data === null) throw new UserError('file_not_found', `Cannot rename ${this.options.label(from)}: it does not exist.`);
      if (this.current(to) !== null && from !== to) {
        if (change.options?.ignoreIfExists && !change.options.overwrite) return;
        if (!change.options?.overwrite) throw new UserError('invalid_argument', `Cannot rename to ${this.options.label(to)}: it already exists (set options.overwrite).`);
      }
      const mode = currentMode(from);
      if (mode !== undefined) this.modes.set(to, mode);
      this.view.set(from, null);
      this.view.set(to, data);
    } else {
      const path = this.options.resolve(change.uri);
      if (this.current(path) === null) {
        if (change.options?.ignoreIfNotExists) return;
        throw new UserError('file_not_found', `Cannot delete ${this.options.label(path)}: it does not exist.`);
      }
      this.view.set(path, null);
    }
  }

  /** The files whose bytes (or existence) would change, in first-touch order. */
  changes(): FileChange[] {
    const out: FileChange[] = [];
    for (const [path, content] of this.view) {
      const disk = readCurrent(path);
      const same = content === null ? disk === null : disk !== null && disk.equals(content);
      if (!same) out.push({ path, content, mode: this.modes.get(path) });
    }
    return out;
  }
}

import type { Diagnostic, Range, TextEdit } from 'vscode-languageserver-protocol';
import { applyTextEdits } from '@agent-lsp/protocol';
import type { DiskState, SettledBy } from '@agent-lsp/lsp';
import { contentHash } from '../contentHash.js';
import { addEditedRegion } from './rangeMapping.js';
import type { Declaration } from './declarations.js';

export { contentHash } from '../contentHash.js';

/** A file's diagnostics for its on-disk text, settled. */
export interface Baseline {
  diagnostics: Diagnostic[];
  settledBy: SettledBy;
}

/**
 * One file as a session sees it: the on-disk text at the session's first touch (and its settled
 * diagnostics, taken then or, for a standalone preview, in the evaluation's own section), the text after the session's edits, the edits in order, the regions of the current
 * text they wrote, and the overlay's own version counter. Lives in the front; the server sees it
 * only inside an evaluation's exclusive section.
 */
export class OverlayFile {
  private textValue: string;
  private readonly history: TextEdit[] = [];
  private regionList: Range[] = [];
  private versionValue = 0;
  /** The server's declarations in `baseText`, once listed (what the edits' changed names are looked up in). */
  baseDeclarations: Declaration[] | undefined;

  constructor(
    readonly path: string,
    readonly uri: string,
    readonly languageId: string,
    readonly baseText: string,
    private baselineValue: Baseline | undefined,
    /** The file's state on disk when `baseText` was read from it. */
    readonly baseDisk?: DiskState,
  ) {
    this.textValue = baseText;
  }

  /** Undefined until taken: a standalone preview takes it inside its evaluation's section. */
  get baseline(): Baseline | undefined {
    return this.baselineValue;
  }

  /** Records the baseline of `baseText` (once). */
  setBaseline(baseline: Baseline): void {
    this.baselineValue ??= baseline;
  }

  readonly baseHash = (): string => contentHash(this.baseText);

  get text(): string {
    return this.textValue;
  }
  get edits(): readonly TextEdit[] {
    return this.history;
  }
  get regions(): readonly Range[] {
    return this.regionList;
  }
  /** Strictly increasing with every edit (0: no edit yet). */
  get version(): number {
    return this.versionValue;
  }
  get changed(): boolean {
    return this.textValue !== this.baseText;
  }

  /** Applies one edit (its range in the current text); throws, changing nothing, when it cannot. */
  apply(edit: TextEdit): number {
    const next = applyTextEdits(this.textValue, [edit]);
    this.textValue = next;
    this.history.push(edit);
    this.regionList = addEditedRegion(this.regionList, edit);
    return ++this.versionValue;
  }
}

import type { Diagnostic, Location, LocationLink, Range } from 'vscode-languageserver-protocol';
import { fromLspPositionOnLine, fromLspRange, LineTable, toAgentDiagnostic, uriToPath } from '@agent-lsp/protocol';
import { readRegularTextSync, type LspConnection } from '@agent-lsp/lsp';
import type { Workspace } from '@agent-lsp/workspace';
import { DiskLineReader } from './diskLines.js';
import { locationTargets } from './freshAnswer.js';
import type { DiagnosticOut, LocationOut } from './schemas.js';

/**
 * Converts server ranges (UTF-16) to agent positions (1-based characters). Needs each file's
 * text: the server's copy when the file is open, else the disk, read once per call.
 */
export class PositionMapper {
  private readonly lines = new Map<string, LineTable | undefined>();
  /** Each file's displayed name, once per file (a thousand references name a few hundred files). */
  private readonly files = new Map<string, string>();

  constructor(
    private readonly workspace: Workspace,
    private readonly conn: LspConnection,
  ) {}

  private linesOf(uri: string): LineTable | undefined {
    if (this.lines.has(uri)) return this.lines.get(uri);
    let text = this.conn.documents.get(uri)?.text;
    if (text === undefined) {
      const path = uriToPath(uri);
      text = path ? readRegularTextSync(path) : undefined;
    }
    const lines = text === undefined ? undefined : new LineTable(text);
    this.lines.set(uri, lines);
    return lines;
  }

  range(uri: string, range: Range): { line: number; column: number; end_line: number; end_column: number } {
    const lines = this.linesOf(uri);
    if (!lines) {
      return { line: range.start.line + 1, column: range.start.character + 1, end_line: range.end.line + 1, end_column: range.end.character + 1 };
    }
    return fromLspRange(lines, range);
  }

  private fileOf(uri: string): string {
    let file = this.files.get(uri);
    if (file === undefined) {
      // Files a server names become readable by the agent (a definition in typeshed, say).
      this.workspace.allowServerNamed(uri);
      file = this.workspace.displayUri(uri);
      this.files.set(uri, file);
    }
    return file;
  }

  location(uri: string, range: Range): LocationOut {
    return { file: this.fileOf(uri), ...this.range(uri, range) };
  }

  /**
   * Normalizes Location | Location[] | LocationLink[] | null into sorted, de-duplicated locations.
   * Files the server does not hold open are read one at a time as bytes, only the lines named
   * becoming strings (see DiskLineReader), and never kept for later calls of this mapper.
   */
  locations(result: Location | Location[] | LocationLink[] | null | undefined): LocationOut[] {
    const byUri = new Map<string, Range[]>();
    for (const { uri, range } of locationTargets(result)) {
      const ranges = byUri.get(uri);
      if (ranges) ranges.push(range);
      else byUri.set(uri, [range]);
    }
    const out: LocationOut[] = [];
    const seen = new Set<string>();
    const disk = new DiskLineReader();
    for (const [uri, ranges] of byUri) {
      const file = this.fileOf(uri);
      const path = this.lines.has(uri) || this.conn.documents.get(uri) ? undefined : uriToPath(uri);
      const fromDisk = path !== undefined && disk.load(path);
      for (const range of ranges) {
        const at = fromDisk ? rangeOnLines(disk, range) : this.range(uri, range);
        const loc = { file, ...at };
        const key = `${loc.file}:${loc.line}:${loc.column}:${loc.end_line}:${loc.end_column}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(loc);
      }
    }
    return out.sort(compareLocations);
  }

  diagnostic(uri: string, d: Diagnostic): DiagnosticOut {
    return toAgentDiagnostic(this.workspace.displayUri(uri), this.linesOf(uri), d);
  }
}

function rangeOnLines(disk: DiskLineReader, range: Range): { line: number; column: number; end_line: number; end_column: number } {
  const startLine = disk.line(range.start.line);
  const s = fromLspPositionOnLine(startLine, range.start);
  const e = fromLspPositionOnLine(range.end.line === range.start.line ? startLine : disk.line(range.end.line), range.end);
  return { line: s.line, column: s.column, end_line: e.line, end_column: e.column };
}

/** Ordinal, not locale-aware: stable across machines, and much faster on thousands of references. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareLocations(a: LocationOut, b: LocationOut): number {
  return compareStrings(a.file, b.file) || a.line - b.line || a.column - b.column;
}

/** "src/a.ts: 3:5 10:2" lines, one per file: much shorter than one line per location. */
export function locationsByFileText(locs: readonly LocationOut[]): string {
  const byFile = new Map<string, string[]>();
  for (const l of locs) {
    const list = byFile.get(l.file) ?? [];
    list.push(`${l.line}:${l.column}`);
    byFile.set(l.file, list);
  }
  return [...byFile].map(([file, ps]) => `${file}: ${ps.join(' ')}`).join('\n');
}

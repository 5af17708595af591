import type { Diagnostic, Location, LocationLink, Range } from 'vscode-languageserver-protocol';
import { fromLspPositionOnLine, fromLspRange, LineTable, toAgentDiagnostic, uriToPath } from '@agent-lsp/protocol';
import { readRegularTextSync, type LspConnection } from '@agent-lsp/lsp';
import type { Workspace } from '@agent-lsp/workspace';
import { DiskLineReader } from './diskLines.js';
import { locationTargets } from '../project/freshAnswer.js';
import { page, type Page } from './paging.js';
import type { DiagnosticOut, LocationOut } from '../catalog/schemas.js';

/** A location of a server's answer before its positions are converted. */
interface UnconvertedLocation {
  uri: string;
  file: string;
  range: Range;
}

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
    return this.convert(this.unconverted(result));
  }

  /**
   * One page of `locations(result)`, and how many distinct files the whole answer spans: only the
   * page's positions are converted (a thousand references name hundreds of files, a page a few).
   * The order and the duplicates are decided on the server's positions: a line's UTF-16 offsets
   * and its characters sort alike.
   */
  locationsPage(result: Location | Location[] | LocationLink[] | null | undefined, offset: number | undefined, limit: number | undefined, defaultLimit: number): { page: Page<LocationOut>; files: number } {
    const all = this.unconverted(result);
    const p = page(all, offset, limit, defaultLimit);
    return { page: { ...p, items: this.convert(p.items) }, files: new Set(all.map((l) => l.file)).size };
  }

  /** The answer's locations with their files' names, sorted and de-duplicated, positions still the server's. */
  private unconverted(result: Location | Location[] | LocationLink[] | null | undefined): UnconvertedLocation[] {
    const out: UnconvertedLocation[] = [];
    const seen = new Set<string>();
    for (const { uri, range } of locationTargets(result)) {
      const file = this.fileOf(uri);
      const key = `${file}:${range.start.line}:${range.start.character}:${range.end.line}:${range.end.character}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ uri, file, range });
    }
    return out.sort((a, b) => compareStrings(a.file, b.file) || a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  }

  /** Agent positions for sorted locations: each file's text read once for its run of locations. */
  private convert(locations: readonly UnconvertedLocation[]): LocationOut[] {
    const disk = new DiskLineReader();
    let loadedUri: string | undefined;
    let fromDisk = false;
    return locations.map(({ uri, file, range }) => {
      if (uri !== loadedUri) {
        loadedUri = uri;
        const path = this.lines.has(uri) || this.conn.documents.get(uri) ? undefined : uriToPath(uri);
        fromDisk = path !== undefined && disk.load(path);
      }
      return { file, ...(fromDisk ? rangeOnLines(disk, range) : this.range(uri, range)) };
    });
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

/** By file, then start line and column: what an answer's order is (end positions do not count). */
export function compareLocations(a: Pick<LocationOut, 'file' | 'line' | 'column'>, b: Pick<LocationOut, 'file' | 'line' | 'column'>): number {
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

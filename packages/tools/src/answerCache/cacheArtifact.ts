import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { gunzipSync, gzipSync } from 'node:zlib';
import { UserError } from '@agent-lsp/protocol';
import type { CachedAnswer } from './answerStore.js';
import { CACHED_TOOLS } from './cachedAnswers.js';

/** What export_cache writes: gzip'd JSON, every path in it root-relative but those outside the workspace. */
export interface CacheArtifact {
  format: typeof ARTIFACT_FORMAT;
  version: 1;
  /** The workspace root it was exported from, and the machine: entries naming files outside the root hold only there. */
  root: string;
  machine: string;
  exported_at: string;
  entries: CachedAnswer[];
}

const ARTIFACT_FORMAT = 'agent-lsp-answer-cache';

export function artifactBytes(root: string, entries: readonly CachedAnswer[]): Buffer {
  const artifact: CacheArtifact = { format: ARTIFACT_FORMAT, version: 1, root, machine: hostname(), exported_at: new Date().toISOString(), entries: [...entries] };
  return gzipSync(JSON.stringify(artifact));
}

export interface ReadArtifact {
  /** Entries that hold in this workspace. */
  entries: CachedAnswer[];
  from_root: string;
  from_machine: string;
  /** Entries naming a file outside the exporting workspace (a library, the toolchain): that machine's paths, not taken. */
  outside_workspace: number;
  /** Entries not of the form export_cache writes (not taken). */
  malformed: number;
}

/** Whether any string in `value` is an absolute path or a file URI. */
function namesAbsolutePath(value: unknown): boolean {
  if (typeof value === 'string') return value.startsWith('/') || value.startsWith('file:') || /^[A-Za-z]:[\\/]/.test(value);
  if (Array.isArray(value)) return value.some(namesAbsolutePath);
  if (value !== null && typeof value === 'object') return Object.values(value).some(namesAbsolutePath);
  return false;
}

function wellFormed(e: Partial<CachedAnswer>): e is CachedAnswer {
  const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  return typeof e.tool === 'string' && CACHED_TOOLS.has(e.tool) && isObject(e.args) && typeof e.server === 'string' && typeof e.state === 'string' && /^[0-9a-f]{64}$/.test(e.state) && isObject(e.result) && typeof e.computed_at === 'string';
}

/**
 * The entries of an artifact that hold in the workspace at `root`. Paths inside a workspace are
 * root-relative and every key is the content of the files, so an artifact exported from another
 * path or machine maps onto this one as it is; an entry that names a path outside its workspace
 * holds only on the machine and root it came from, and is left out anywhere else.
 */
export function readArtifact(path: string, root: string): ReadArtifact {
  let raw: Buffer;
  try {
    raw = readFileSync(path);
  } catch (err) {
    throw new UserError('invalid_argument', `Cannot read ${path}: ${(err as Error).message}. Nothing was imported.`);
  }
  let text: Buffer;
  try {
    text = gunzipSync(raw);
  } catch {
    throw new UserError('invalid_argument', `${path} is not a gzip file (export_cache writes one). Nothing was imported.`);
  }
  if (text.subarray(0, 16).toString('latin1') === 'SQLite format 3\0') {
    throw new UserError(
      'invalid_argument',
      `${path} is the original agent-lsp's SQLite cache. Its entries are keyed on the hash of one file each, so an edit to another file they depend on goes unseen; they cannot be checked here and are not imported. Run find_references etc. here once and export_cache again. Nothing was imported.`,
    );
  }
  let artifact: Partial<CacheArtifact>;
  try {
    artifact = JSON.parse(text.toString('utf8')) as Partial<CacheArtifact>;
  } catch {
    throw new UserError('invalid_argument', `${path} is not an agent-lsp cache artifact (not JSON inside the gzip). Nothing was imported.`);
  }
  if (artifact.format !== ARTIFACT_FORMAT || !Array.isArray(artifact.entries)) throw new UserError('invalid_argument', `${path} is not an agent-lsp cache artifact (export_cache writes one). Nothing was imported.`);
  if (artifact.version !== 1) throw new UserError('invalid_argument', `${path} is a cache artifact of version ${String(artifact.version)}; this agent-lsp reads version 1. Nothing was imported.`);
  const sameTree = artifact.root === root && artifact.machine === hostname();
  const out: ReadArtifact = { entries: [], from_root: String(artifact.root), from_machine: String(artifact.machine), outside_workspace: 0, malformed: 0 };
  for (const e of artifact.entries as Partial<CachedAnswer>[]) {
    if (!wellFormed(e)) out.malformed++;
    else if (!sameTree && (namesAbsolutePath(e.result) || namesAbsolutePath(e.args))) out.outside_workspace++;
    else out.entries.push(e);
  }
  return out;
}

// What a preview of a breaking Django edit must get right whatever settles in time (the quick
// and the full tier share it): files not examined count for nothing and are listed, and nothing
// calls the edit a fix.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { expect } from 'vitest';
import { ok, type ToolAnswer } from '../helpers/mcpClient.js';
import type { Corpus } from './corpora.js';
import { pyrightCliErrors } from './fieldCheckers.js';
import { compareSets, judge } from './fieldOutcome.js';

export const ENCODING = 'django/utils/encoding.py';
/** encoding becomes required: every force_str call without it breaks; nothing can get fixed. */
export const FORCE_STR = { old_text: "def force_str(s, encoding='utf-8',", new_text: 'def force_str(s, encoding,' };

/** An error of a preview's errors_introduced / errors_resolved, as the field tests read it. */
export interface PreviewDiag {
  file: string;
  line: number;
  message: string;
}
/** One entry of a preview's `files`. */
export interface PreviewFile {
  file: string;
  dependent: boolean;
  examined: boolean;
  not_examined_because?: string;
}
export interface Coverage {
  found: number;
  examined: number;
  not_examined: number;
  not_examined_sample: string[];
}

/** Files other than `except` under `root` whose text names `word` (with `ext`), relative (grep, as ground truth). */
export function naming(root: string, word: string, ext: string, except: string): string[] {
  const out = execFileSync('grep', ['-rlw', '--include', `*${ext}`, word, '.'], { cwd: root, encoding: 'utf8' });
  return out.split('\n').filter(Boolean).map((p) => p.replace(/^\.\//, '')).filter((p) => p !== except);
}

/** pyright CLI's errors (`file:line message`) that FORCE_STR introduces and resolves. */
export interface CliTruth {
  introduced: string[];
  resolved: string[];
}

/**
 * The truth for FORCE_STR under `root`: pyright's CLI on encoding.py and every file naming
 * force_str, without the edit and with it. Compute it before any server watches the files.
 */
export function forceStrTruth(root: string): CliTruth {
  const files = [ENCODING, ...naming(root, 'force_str', '.py', ENCODING)];
  const path = join(root, ENCODING);
  const original = readFileSync(path, 'utf8');
  const before = pyrightCliErrors(root, files);
  writeFileSync(path, original.replace(FORCE_STR.old_text, FORCE_STR.new_text));
  let after: string[];
  try {
    after = pyrightCliErrors(root, files);
  } finally {
    writeFileSync(path, original);
  }
  return { introduced: after.filter((k) => !before.includes(k)), resolved: before.filter((k) => !after.includes(k)) };
}

/**
 * A workspace-scope preview of FORCE_STR judged on the CLI's truth: the errors it says the edit
 * introduces and resolves are the CLI's in every file it examined, and it says which it did not.
 */
export function judgeByCli(answer: ToolAnswer, truth: CliTruth, workspace: string): void {
  const data = ok(answer);
  expect(truth.introduced.length, 'the CLI found no error the edit introduces').toBeGreaterThan(0);
  expect(answer.text).not.toMatch(/fix errors|break none/);
  const complete = data['confidence'] !== 'partial' && (data['not_examined'] as number) === 0;
  if (!complete) expect(answer.text).toMatch(/not examined/);
  const examined = new Set((data['files'] as PreviewFile[]).filter((f) => f.examined).map((f) => f.file));
  const inExamined = (keys: string[]) => (complete ? keys : keys.filter((k) => examined.has(k.slice(0, k.indexOf(':')))));
  const keys = (list: PreviewDiag[]) => list.map((d) => `${d.file}:${d.line} ${d.message}`);
  for (const side of ['introduced', 'resolved'] as const) {
    const judged = compareSets(keys(data[`errors_${side}`] as PreviewDiag[]), inExamined(truth[side]), complete);
    judge({ tool: 'preview_edit (workspace scope)', corpus: 'django', case: `force_str's encoding required, ${workspace}: errors ${side}`, ...judged });
  }
}

/** A workspace-scope preview of FORCE_STR, however much of it settled. */
export function expectNoFixFromUnexamined(answer: ToolAnswer, root: string): void {
  const data = ok(answer);
  // Ground truth: the only errors a stricter signature introduces are calls of force_str that pass
  // no encoding. It can resolve errors only where pyright's inference through such a call changes
  // (django's gdal raster: self.name + '...' once name's force_str call is an error), never by a
  // file it did not examine, and never more than it introduces.
  const examined = new Set((data['files'] as PreviewFile[]).filter((f) => f.examined).map((f) => f.file));
  for (const d of data['errors_resolved'] as PreviewDiag[]) expect(examined.has(d.file), `${d.file} resolved an error but was not examined`).toBe(true);
  expect((data['errors_resolved'] as PreviewDiag[]).length, answer.text).toBeLessThanOrEqual((data['errors_introduced'] as PreviewDiag[]).length);
  for (const d of data['errors_introduced'] as PreviewDiag[]) {
    expect(d.message).toMatch(/parameter "encoding"/);
    expect(readFileSync(join(root, d.file), 'utf8').split('\n').slice(d.line - 1, d.line + 2).join('\n')).toMatch(/force_str/);
  }
  expect(data['net_delta'] as number).toBeGreaterThanOrEqual(0);
  expect(answer.text).not.toMatch(/fix errors|break none/);
  const files = data['files'] as PreviewFile[];
  const unsettled = files.filter((f) => !f.examined);
  for (const f of unsettled) expect(f.not_examined_because).toMatch(/did not settle/);
  const coverage = data['dependents'] as Coverage;
  expect(coverage.found).toBeGreaterThan(10);
  expect(data['not_examined']).toBe(unsettled.filter((f) => !f.dependent).length + coverage.not_examined);
  if ((data['not_examined'] as number) > 0) {
    expect(data['confidence']).toBe('partial');
    expect(answer.text).toMatch(/not examined/);
    expect(answer.text).not.toMatch(/^net_delta [+]?\d+: no new errors \(/m);
  }
}

function pythonFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) pythonFiles(path, out);
    else if (entry.name.endsWith('.py')) out.push(path);
  }
  return out;
}

/**
 * django/utils and every Django module naming force_str (with their packages' __init__.py), copied
 * out of the corpus: the same code and the same dependents of encoding.py, in a workspace pyright
 * indexes in seconds instead of a minute.
 */
export function djangoUtilsAndImporters(corpus: Corpus): string {
  const root = join(dirname(corpus.root), 'django-utils');
  for (const path of pythonFiles(join(corpus.root, 'django'))) {
    const rel = relative(corpus.root, path);
    if (!rel.startsWith('django/utils/') && !/\bforce_str\b/.test(readFileSync(path, 'utf8'))) continue;
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    cpSync(path, join(root, rel));
    for (let dir = dirname(rel); dir !== '.'; dir = dirname(dir)) {
      const init = join(dir, '__init__.py');
      if (existsSync(join(corpus.root, init)) && !existsSync(join(root, init))) cpSync(join(corpus.root, init), join(root, init));
    }
  }
  return execFileSync('realpath', [root], { encoding: 'utf8' }).trim();
}

import { execFile } from 'node:child_process';
import { lstatSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { UserError } from '@agent-lsp/protocol';
import { walkSourceDirsAsync } from '@agent-lsp/lsp';
import { resolveExistingPath } from '@agent-lsp/session';
import { globToRegExp, matchesAnyGlob } from '../project/globFilter.js';
import { findOccurrences, MAX_OCCURRENCES, queryPattern, replaceOccurrences, textFingerprint, type Occurrence, type TextQuery } from '../analysis/textOccurrences.js';
import { defineTool, WRITES, type ToolContext } from '../catalog/toolDefinition.js';
import { writeOrPreview, writeOutput, writeText } from '../output/writeResult.js';

/** Files larger than this, or with a NUL byte in their first 8 KiB, are not text to replace in. */
const MAX_FILE_BYTES = 8 * 1024 * 1024;
const OCCURRENCES_LISTED = 200;

const occurrenceOut = z.object({ id: z.string(), file: z.string(), line: z.number(), column: z.number(), old_line: z.string(), new_line: z.string() });

/** Comma-separated globs (the original agent-lsp's form) as patterns; a trailing / means the whole directory. */
function globList(globs: string | undefined): RegExp[] {
  return (globs ?? '')
    .split(',')
    .map((g) => g.trim())
    .filter((g) => g !== '')
    .map((g) => globToRegExp(g.endsWith('/') ? `${g}**` : g));
}

/** The files under `base` a replacement may touch: git's own list (tracked and untracked, .gitignore honoured) in a repository, else every file but those in directories nobody indexes. */
async function candidateFiles(root: string, base: string): Promise<string[]> {
  const rel = relative(root, base);
  const listed = await promisify(execFile)('git', ['-C', root, 'ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', rel === '' ? '.' : rel], { maxBuffer: 256 * 1024 * 1024 }).catch(() => undefined);
  if (listed) return [...new Set(listed.stdout.split('\0').filter((f) => f !== ''))].map((f) => join(root, f)).sort();
  const files: string[] = [];
  for await (const { dir, files: names } of walkSourceDirsAsync(base)) for (const name of names) files.push(join(dir, name));
  return files.sort();
}

/** A regular file's text, or undefined for a symlink, a binary or an oversized file (counted as skipped). */
function readText(path: string): string | undefined {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  if (!stat?.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
  const data = readFileSync(path);
  if (data.subarray(0, 8192).includes(0)) return undefined;
  return data.toString('utf8');
}

interface Scan {
  occurrences: Occurrence[];
  /** Absolute path of each file with occurrences, by its display name. */
  paths: Map<string, string>;
  skipped: number;
}

async function scan(ctx: ToolContext, q: TextQuery, where: { relative_path?: string | undefined; paths_include_glob?: string | undefined; paths_exclude_glob?: string | undefined }): Promise<Scan> {
  const root = ctx.workspace.primaryRoot as string;
  const pattern = queryPattern(q);
  const include = globList(where.paths_include_glob);
  const exclude = globList(where.paths_exclude_glob);
  let files: string[];
  if (where.relative_path !== undefined) {
    const named = resolveExistingPath(where.relative_path, ctx.workspace.rootList);
    // A file named explicitly is the caller's intent: the globs do not filter it out.
    files = lstatSync(named).isDirectory() ? (await candidateFiles(root, named)).filter((f) => kept(f)) : [named];
  } else {
    files = (await candidateFiles(root, root)).filter((f) => kept(f));
  }
  function kept(path: string): boolean {
    const rel = relative(root, path).split(sep).join('/');
    return (include.length === 0 || matchesAnyGlob(rel, include)) && !matchesAnyGlob(rel, exclude);
  }
  const occurrences: Occurrence[] = [];
  const paths = new Map<string, string>();
  let skipped = 0;
  for (const path of files) {
    ctx.signal.throwIfAborted();
    const text = readText(path);
    if (text === undefined) {
      skipped++;
      continue;
    }
    const file = ctx.workspace.display(path);
    const found = findOccurrences(file, text, q, pattern, MAX_OCCURRENCES - occurrences.length);
    if (found.overflow) throw new UserError('invalid_argument', `needle matches more than ${MAX_OCCURRENCES} places; narrow it with relative_path or paths_include_glob. Nothing was changed.`);
    if (found.occurrences.length > 0) paths.set(file, path);
    occurrences.push(...found.occurrences);
  }
  return { occurrences, paths, skipped };
}

/** The occurrences to replace: those named (every id known and current, none twice), else all. */
function selected(all: readonly Occurrence[], ids: readonly string[] | undefined): Occurrence[] {
  if (ids === undefined || ids.length === 0) return [...all];
  const byId = new Map(all.map((o) => [o.id, o]));
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length > 0 || repeated.length > 0) {
    const parts = [unknown.length ? `${unknown.length} occurrence id(s) unknown or stale (the file changed since the dry run?): ${unknown.slice(0, 10).join(', ')}` : '', repeated.length ? `repeated: ${[...new Set(repeated)].join(', ')}` : ''];
    throw new UserError('invalid_argument', `${parts.filter(Boolean).join('; ')}. Nothing was changed: run again with dry_run: true for current ids.`);
  }
  return ids.map((id) => byId.get(id) as Occurrence);
}

export const replaceInFiles = defineTool({
  name: 'replace_in_files',
  title: 'Replace text in files',
  description: 'Find/replace text (literal or regex) across files as one checkpointed transaction; dry_run lists occurrences with ids.',
  group: 'editing',
  concurrency: 'none',
  input: () => ({
    needle: z.string().min(1).describe('Text, or with mode regex a JavaScript regex, to find.'),
    repl: z.string().default('').describe('Replacement; regex mode expands $1, ${1}, $<name>, ${name}, $&.'),
    mode: z.enum(['literal', 'regex']).default('literal'),
    relative_path: z.string().optional().describe('Only this file or directory.'),
    paths_include_glob: z.string().optional().describe('Comma-separated globs of root-relative paths.'),
    paths_exclude_glob: z.string().optional().describe('Comma-separated globs to leave out.'),
    dry_run: z.boolean().describe('true: list occurrences and diff, write nothing; false: replace.'),
    occurrence_ids: z.array(z.string()).optional().describe('With dry_run false: replace only these ids from the dry run.'),
    expected_count: z.number().int().nonnegative().optional().describe('Refuse unless exactly this many are found.'),
  }),
  output: () => ({
    ...writeOutput,
    total: z.number().optional().describe('Occurrences found.'),
    replaced: z.number().optional().describe('Occurrences replaced (or, in a dry run, that would be).'),
    occurrences: z.array(occurrenceOut).optional().describe(`The first ${OCCURRENCES_LISTED} occurrences found.`),
    skipped_files: z.number().optional().describe('Files not searched: binary, over 8 MiB, or symlinks.'),
  }),
  annotations: WRITES,
  async handler(args, ctx) {
    await ctx.workspace.ensureRoots(undefined, 'Call start_lsp with root_dir first.');
    const q: TextQuery = { needle: args.needle, repl: args.repl, mode: args.mode };
    const found = await scan(ctx, q, args);
    if (args.expected_count !== undefined && found.occurrences.length !== args.expected_count) {
      throw new UserError('invalid_argument', `expected_count is ${args.expected_count} but needle occurs ${found.occurrences.length} time(s). Nothing was changed.`);
    }
    const chosen = args.dry_run ? found.occurrences : selected(found.occurrences, args.occurrence_ids);
    const byFile = new Map<string, Occurrence[]>();
    for (const o of chosen) {
      const list = byFile.get(o.file);
      if (list) list.push(o);
      else byFile.set(o.file, [o]);
    }
    const out = await writeOrPreview(ctx, args.dry_run, (plan) => {
      for (const [file, list] of byFile) {
        const path = found.paths.get(file) as string;
        // The file as the transaction sees it now must be the text the ids were computed on.
        const now = plan.current(path)?.toString('utf8');
        if (now === undefined || textFingerprint(now, q) !== list[0]?.id.split('@').pop()) {
          throw new UserError('conflict', `${file} changed while replace_in_files ran. Nothing was changed: run it again.`);
        }
        plan.setText(path, replaceOccurrences(now, list));
      }
    });
    const listed = found.occurrences.slice(0, OCCURRENCES_LISTED).map(({ id, file, line, column, old_line, new_line }) => ({ id, file, line, column, old_line, new_line }));
    return { ...out, total: found.occurrences.length, replaced: chosen.length, occurrences: listed, skipped_files: found.skipped };
  },
  text: (r) => {
    const head = `${r.dry_run ? 'Dry run: would replace' : 'Replaced'} ${r.replaced ?? 0} of ${r.total ?? 0} occurrence(s)${r.skipped_files ? ` (${r.skipped_files} binary, huge or symlinked file(s) not searched)` : ''}.`;
    const shown = (r.occurrences ?? []).map((o) => `[${o.id}] ${o.file}:${o.line}:${o.column}\n  - ${o.old_line}\n  + ${o.new_line}`);
    const more = (r.total ?? 0) > shown.length ? `\n(+${(r.total ?? 0) - shown.length} more occurrence(s) not listed)` : '';
    return [head, writeText(r), ...(r.dry_run ? shown : []), more].filter(Boolean).join('\n');
  },
});

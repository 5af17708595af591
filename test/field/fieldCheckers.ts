// The command-line checkers a field case compares get_diagnostics with: pyright's CLI (the one
// agent-lsp's pyright ships with), tsc, `go build`, gcc -fsyntax-only, `cargo check`. Each gives the errors of one
// file as `line:column` keys (1-based, columns in characters), which every checker prints alike.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { BUILTIN_SERVERS } from '@agent-lsp/lsp';

export type Checker = (root: string, rel: string) => string[];

const require = createRequire(import.meta.url);

function run(command: string, args: string[], cwd: string, env?: Record<string, string>): string {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...(env ? { env: { ...process.env, ...env } } : {}) });
  if (r.error) throw r.error;
  return `${r.stdout}\n${r.stderr}`;
}

/** pyright's CLI (index.js) from the package agent-lsp runs its language server from. */
function pyrightCliScript(root: string): string {
  const server = BUILTIN_SERVERS.find((s) => s.id === 'pyright')?.resolve(root);
  if (!server) throw new Error('pyright is not installed');
  return join(dirname(server.command[1]!), 'index.js');
}

/** pyright's CLI from the package agent-lsp runs its language server from. */
export const pyrightCli: Checker = (root, rel) => pyrightJson(root, [rel], run(process.execPath, [pyrightCliScript(root), '--outputjson', rel], root), ['error']).get(rel) ?? [];

/**
 * The same CLI on several files in one run, with the configuration found at `root` (its
 * pyrightconfig.json or pyproject.toml): each file's errors and warnings as `severity line:column` keys.
 */
export function pyrightCliFiles(root: string, rels: readonly string[]): Map<string, string[]> {
  return pyrightJson(root, rels, run(process.execPath, [pyrightCliScript(root), '--outputjson', ...rels], root), ['error', 'warning']);
}

/**
 * The same CLI's errors in `rels` (one run) as `file:line message` keys: what a preview's
 * errors_introduced and errors_resolved are judged on (messages tell apart two errors of a line).
 */
export function pyrightCliErrors(root: string, rels: readonly string[]): string[] {
  const out = run(process.execPath, [pyrightCliScript(root), '--outputjson', ...rels], root);
  const json = JSON.parse(out.slice(out.indexOf('{'), out.lastIndexOf('}') + 1)) as {
    generalDiagnostics: { file: string; severity: string; message: string; range: { start: { line: number } } }[];
  };
  return json.generalDiagnostics.filter((d) => d.severity === 'error').map((d) => `${relative(root, d.file)}:${d.range.start.line + 1} ${d.message}`);
}

/**
 * basedpyright's CLI (on PATH, beside its language server) on several files in one run: each
 * file's errors and warnings as `severity line:column` keys.
 */
export function basedpyrightCli(root: string, rels: readonly string[]): Map<string, string[]> {
  return pyrightJson(root, rels, run('basedpyright', ['--outputjson', ...rels], root), ['error', 'warning']);
}

/** The keys of a pyright-style `--outputjson` report, per file asked about; the severity leads a key when several are kept. */
function pyrightJson(root: string, rels: readonly string[], out: string, severities: readonly string[]): Map<string, string[]> {
  const json = JSON.parse(out.slice(out.indexOf('{'), out.lastIndexOf('}') + 1)) as {
    generalDiagnostics: { file: string; severity: string; range: { start: { line: number; character: number } } }[];
  };
  const keys = new Map<string, string[]>();
  for (const rel of rels) {
    const lines = readFileSync(join(root, rel), 'utf8').split(/\r\n|\r|\n/);
    const at = (d: (typeof json.generalDiagnostics)[number]): string => `${d.range.start.line + 1}:${[...(lines[d.range.start.line] ?? '').slice(0, d.range.start.character)].length + 1}`;
    keys.set(
      rel,
      json.generalDiagnostics.filter((d) => severities.includes(d.severity) && relative(root, d.file) === rel).map((d) => (severities.length > 1 ? `${d.severity} ${at(d)}` : at(d))),
    );
  }
  return keys;
}

/**
 * tsc with the corpus's tsconfig.json, on the one file (and what it imports): a config beside the
 * corpus, not in it, so the language server sees no new project.
 */
export const tsc: Checker = (root, rel) => {
  const bin = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
  const dir = mkdtempSync(join(tmpdir(), 'agent-lsp-field-tsc-'));
  let out: string;
  try {
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: join(root, 'tsconfig.json'), files: [join(root, rel)], include: [] }));
    out = run(process.execPath, [bin, '--noEmit', '--pretty', 'false', '-p', join(dir, 'tsconfig.json')], root);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return [...out.matchAll(/^(.+?)\((\d+),(\d+)\): error /gm)].filter((m) => m[1] === rel).map((m) => `${m[2]}:${m[3]}`);
};

/** tsc on the whole project of the corpus's tsconfig.json: every error as a `file:line` key (relative). */
export function tscProjectErrors(root: string): string[] {
  const bin = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
  const out = run(process.execPath, [bin, '--noEmit', '--pretty', 'false', '-p', join(root, 'tsconfig.json')], root);
  return [...out.matchAll(/^(.+?)\((\d+),\d+\): error /gm)].map((m) => `${m[1]}:${m[2]}`);
}

/** `go build` of the file's package (the compiler's type errors, columns in bytes converted). */
export const goBuild: Checker = (root, rel) => {
  const out = run('go', ['build', '-gcflags=-e', `./${dirname(rel)}`], root);
  return byteColumns(root, rel, [...out.matchAll(/^(?:\.\/)?(.+?\.go):(\d+):(\d+): /gm)].filter((m) => m[1] === rel).map((m) => [Number(m[2]), Number(m[3])]));
};

/** gcc -fsyntax-only with the corpus's include path. */
export const gccSyntax: Checker = (root, rel) => {
  const out = run('gcc', ['-fsyntax-only', '-I', root, rel], root);
  return byteColumns(root, rel, [...out.matchAll(/^(.+?\.[ch]):(\d+):(\d+): error: /gm)].filter((m) => m[1] === rel).map((m) => [Number(m[2]), Number(m[3])]));
};

/**
 * `cargo check` of the crate's library, offline (the corpus has no dependency), into a target
 * directory beside the corpus, not in it: rustc's JSON messages, whose columns are characters.
 */
export const cargoCheck: Checker = (root, rel) => {
  const target = mkdtempSync(join(tmpdir(), 'agent-lsp-field-cargo-'));
  let out: string;
  try {
    out = run('cargo', ['check', '--lib', '--offline', '--message-format', 'json'], root, { CARGO_TARGET_DIR: target });
  } finally {
    rmSync(target, { recursive: true, force: true });
  }
  const keys: string[] = [];
  for (const line of out.split('\n')) {
    if (!line.startsWith('{')) continue;
    const m = JSON.parse(line) as { reason?: string; message?: { level: string; spans: { file_name: string; line_start: number; column_start: number; is_primary: boolean }[] } };
    if (m.reason !== 'compiler-message' || m.message?.level !== 'error') continue;
    for (const s of m.message.spans) if (s.is_primary && s.file_name === rel) keys.push(`${s.line_start}:${s.column_start}`);
  }
  return keys;
};

function byteColumns(root: string, rel: string, at: [number, number][]): string[] {
  const lines = readFileSync(join(root, rel), 'utf8').split(/\r\n|\r|\n/);
  return at.map(([line, byte]) => `${line}:${[...Buffer.from(lines[line - 1] ?? '', 'utf8').subarray(0, byte - 1).toString('utf8')].length + 1}`);
}

// The Rust field corpus: the regex-syntax crate (the regex crate's parser: ~58,000 lines in 30
// files, its AST, HIR and printers referring to each other), as cargo fetches it from crates.io —
// from cargo's own cache when it already has it. No build script and no proc-macro, so
// rust-analyzer loads it in seconds.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

export const REGEX_SYNTAX_VERSION = '0.8.5';

/** What the crate's directory in cargo's registry holds beyond its sources: cargo's bookkeeping. */
const NOT_SOURCES = new Set(['Cargo.toml.orig', '.cargo_vcs_info.json', '.cargo-ok', 'target']);

function cargo(args: string[], cwd: string): { ok: boolean; stdout: string; stderr: string } {
  const r = spawnSync('cargo', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { ok: r.status === 0, stdout: r.stdout ?? '', stderr: r.error ? r.error.message : (r.stderr ?? '') };
}

/** The directory cargo unpacked a crate into (from its cache, else crates.io), or why it cannot be had. */
export function fetchedCrate(name: string, version: string): { dir: string } | { why: string } {
  const probe = mkdtempSync(join(tmpdir(), 'agent-lsp-field-crate-'));
  try {
    mkdirSync(join(probe, 'src'));
    writeFileSync(join(probe, 'src', 'lib.rs'), '');
    writeFileSync(join(probe, 'Cargo.toml'), `[package]\nname = "field-probe"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\n${name} = "=${version}"\n`);
    const metadata = ['metadata', '--format-version', '1', '--offline'];
    let meta = cargo(metadata, probe);
    if (!meta.ok) {
      const fetched = cargo(['fetch'], probe);
      if (!fetched.ok) return { why: `${name} ${version} cannot be fetched from crates.io: ${lastLine(fetched.stderr)}` };
      meta = cargo(metadata, probe);
      if (!meta.ok) return { why: `cargo metadata failed after cargo fetch: ${lastLine(meta.stderr)}` };
    }
    const packages = (JSON.parse(meta.stdout) as { packages: { name: string; manifest_path: string }[] }).packages;
    const crate = packages.find((p) => p.name === name);
    return crate ? { dir: dirname(crate.manifest_path) } : { why: `cargo metadata does not list ${name}` };
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const lastLine = (text: string): string => text.trim().split('\n').pop() ?? '';

/**
 * Copies the crate into `root` as a package of its own. Its optional `arbitrary` dependency (for
 * fuzzing, off by default) is dropped from the manifest, the feature kept empty: the crate then has
 * no dependency at all, so neither cargo nor rust-analyzer needs the registry to load it.
 */
export function copyRegexSyntax(root: string): string | undefined {
  if (spawnSync('cargo', ['--version']).status !== 0) return 'cargo is not installed (rustup brings it)';
  const crate = fetchedCrate('regex-syntax', REGEX_SYNTAX_VERSION);
  if ('why' in crate) return crate.why;
  cpSync(crate.dir, root, { recursive: true, filter: (from) => !NOT_SOURCES.has(basename(from)) });
  const manifest = join(root, 'Cargo.toml');
  const text = readFileSync(manifest, 'utf8');
  const alone = text.replace(/^\[dependencies\.arbitrary\]\n(?:(?!\[).*\n)*/m, '').replace(/^arbitrary = \["dep:arbitrary"\]$/m, 'arbitrary = []');
  if (/^\[(?:[\w.-]+\.)?(?:dev-|build-)?dependencies\b|dep:/m.test(alone)) return `regex-syntax ${REGEX_SYNTAX_VERSION}'s manifest has dependencies other than arbitrary: update crateCorpus.ts`;
  writeFileSync(manifest, alone);
  return undefined;
}

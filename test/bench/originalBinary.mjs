// The original agent-lsp (Go), as npm ships it: @blackwell-systems/agent-lsp-linux-x64, unpacked
// once into a cache dir (`npm pack`, npm's own client and registry settings). The benchmarks run it
// side by side with ours on the same queries.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCache } from './peerInstall.mjs';

/** Our bundled pyright's language server, the one the original and every peer are given. */
export const PYRIGHT_LANGSERVER = fileURLToPath(new URL('../../packages/lsp/node_modules/.bin/pyright-langserver', import.meta.url));

/**
 * A peer's environment: its own HOME (caches, daemons), the same pyright first on PATH. Not the
 * caller's PATH alone: pyright-langserver is on it only by chance (the original's daemon then
 * fails to start, "broker did not start within 30s", and each later tool call answers "LSP
 * client not initialized").
 */
export const peerEnv = (home) => ({ ...process.env, HOME: home, PATH: `${join(PYRIGHT_LANGSERVER, '..')}:${process.env.PATH}` });

/** The original's launch arguments for `language`, with our pyright by absolute path. */
export const originalArgs = (language) => [`${language}:${PYRIGHT_LANGSERVER},--stdio`];

export const ORIGINAL_VERSION = '0.19.5';
const PACKAGE = `@blackwell-systems/agent-lsp-${process.platform}-${process.arch}`;

/** The original's binary: `{ bin, label }`, or `{ notRun }` with the reason it could not be had. */
export function originalBinary() {
  const dir = benchCache(`original-${ORIGINAL_VERSION}`);
  const bin = join(dir, 'package', 'bin', 'agent-lsp');
  const label = `the original agent-lsp ${ORIGINAL_VERSION} (npm ${PACKAGE})`;
  if (existsSync(bin)) return { bin, label };
  mkdirSync(dir, { recursive: true });
  const pack = spawnSync('npm', ['pack', `${PACKAGE}@${ORIGINAL_VERSION}`, '--silent'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (pack.status !== 0 || !tgz) return { notRun: `npm pack ${PACKAGE}@${ORIGINAL_VERSION} failed: ${(pack.stderr || pack.error?.message || '').trim().slice(0, 200)}` };
  const untar = spawnSync('tar', ['xzf', tgz], { cwd: dir, encoding: 'utf8' });
  if (untar.status !== 0 || !existsSync(bin)) return { notRun: `unpacking ${tgz} failed: ${untar.stderr.trim().slice(0, 200)}` };
  return { bin, label };
}

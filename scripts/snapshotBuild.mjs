// dist/agent-lsp-snapshot-build.mjs (copied by scripts/bundle.mjs): builds the start-up snapshot
// of the bundle beside it for the node running it, checks that a front starts from it, and puts
// it in the first of the given directories it can write:
//   node dist/agent-lsp-snapshot-build.mjs <key> <dir>...
// The bundle's loader runs it, detached, after a front's first answer when bin/agent-lsp found no
// blob for this bundle, install, node binary and node flags (the key; see bin/agent-lsp), under those flags. <dir>/agent-lsp.blob
// is the blob, <dir>/agent-lsp.blob.id its key (written after it: bin/agent-lsp uses a blob only
// when the id is its own key). A build that fails writes <dir>/agent-lsp.blob.failed with the key,
// and fronts with that key then do not try again.
import { spawnSync } from 'node:child_process';
import { mkdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const [key, ...given] = process.argv.slice(2);
// Absolute: the builder runs without a working directory (scripts/snapshotEntry.cjs) and writes the blob at the end.
const dirs = given.map((dir) => resolve(dir));
const entry = fileURLToPath(new URL('./agent-lsp-snapshot.cjs', import.meta.url));
const bundle = fileURLToPath(new URL('./agent-lsp.cjs', import.meta.url));
const bin = fileURLToPath(new URL('../bin/agent-lsp', import.meta.url));
const TIMEOUT_MS = 120_000;
/**
 * The node flags this script runs under are the fronts' (the loader starts it with its own, which
 * bin/agent-lsp gave it; they are part of the key): V8 refuses to start from a blob built under
 * other V8 flags (exit code 14), so the blob is built and checked with them.
 */
const flags = process.execArgv;

function removeQuietly(path) {
  try {
    unlinkSync(path);
  } catch {
    // not there
  }
}

/** Builds into `tmp`; true when the blob was made and a process started from it answers --version. */
function buildInto(tmp) {
  // An almost empty environment: what the modules' top-level code reads is frozen into the blob.
  const env = { PATH: process.env.PATH ?? '', AGENT_LSP_SNAPSHOT_BUNDLE: bundle };
  const built = spawnSync(process.execPath, [...flags, '--snapshot-blob', tmp, '--build-snapshot', entry], { env, stdio: ['ignore', 'ignore', 'pipe'], timeout: TIMEOUT_MS });
  if (built.status !== 0) {
    process.stderr.write(`agent-lsp snapshot: the build failed (${built.status ?? built.signal}): ${String(built.stderr).slice(-2000)}\n`);
    return false;
  }
  const checked = spawnSync(process.execPath, [...flags, '--snapshot-blob', tmp, bin, '--version'], { env: { PATH: env.PATH }, encoding: 'utf8', timeout: TIMEOUT_MS });
  if (checked.status !== 0 || !/^\d+\.\d+\.\d+/.test(checked.stdout)) {
    process.stderr.write(`agent-lsp snapshot: a process started from the new blob did not answer --version (${checked.status ?? checked.signal}): ${checked.stderr.slice(-2000)}\n`);
    return false;
  }
  return true;
}

function install() {
  for (const dir of dirs) {
    const tmp = join(dir, `.agent-lsp.blob.${process.pid}.tmp`);
    const idTmp = `${tmp}.id`;
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(idTmp, `${key}\n`);
    } catch {
      removeQuietly(idTmp);
      continue; // not writable: the next place
    }
    try {
      if (!buildInto(tmp)) {
        writeFileSync(join(dir, 'agent-lsp.blob.failed'), `${key}\n`);
        return false;
      }
      // The old id goes first: no moment where another key's id names the new blob.
      removeQuietly(join(dir, 'agent-lsp.blob.id'));
      renameSync(tmp, join(dir, 'agent-lsp.blob'));
      renameSync(idTmp, join(dir, 'agent-lsp.blob.id'));
      return true;
    } finally {
      removeQuietly(tmp);
      removeQuietly(idTmp);
    }
  }
  return false;
}

if (!key || dirs.length === 0) {
  process.stderr.write('usage: node agent-lsp-snapshot-build.mjs <key> <dir>...\n');
  process.exitCode = 2;
} else if (!install()) {
  process.exitCode = 1;
}

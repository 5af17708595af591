// dist/agent-lsp.mjs: written by scripts/bundle.mjs from scripts/bundleLoader.mjs. It runs the
// bundle (agent-lsp.cjs, one CommonJS file) through vm.Script with V8's code cache, which Node 20
// offers only this way (no module.enableCompileCache, none for ES modules): a fresh front then
// deserializes compiled code instead of parsing and compiling ~1.5 MB of JavaScript.
//
// The cache is made once, by the first front whose first query answered (the code it ran is then
// compiled and goes into the cache), and stored beside the bundle or, when that directory is not
// writable (a system-wide install), in $AGENT_LSP_HOME/code-cache or the XDG cache dir. Its name
// carries the bundle's content hash, Node's version and the architecture; V8 itself rejects a cache
// of another V8 or other flags (the name carries a hash of the flags too), and a rejected cache is
// made again. AGENT_LSP_NO_CODE_CACHE=1 runs without reading or writing one.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';

/**
 * A front is a relay: V8's young generation growing to its default 16 MiB semi-spaces was
 * ~12-15 MiB of every front's RSS for no measurable speed. `--max-semi-space-size` works only on
 * node's command line, but the growth factor is read as the space grows, so it can be set here
 * (before compiling: the code cache is made and read under the same flags). Likewise the old
 * generation: V8 lets it grow up to 4× what survived a full collection, so a front kept 50-100 MiB
 * of dead answers after a few dozen calls; `--heap-growing-percent=50` (read at each collection)
 * keeps it within 1.5× (or 16 MiB more), the calls no slower. A broker (started as
 * `node bin/agent-lsp daemon-broker`, no command-line flags of ours) keeps its young generation
 * small too: ~5 MiB less private memory with four fronts on effect's sources, its answers as fast;
 * the old generation's growth made no difference there, so it keeps V8's. A node started with its
 * own semi-space (or heap growing) flags keeps them.
 */
const nodeFlags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
const youngFlag = /--(max|min)-semi-space-size|--semi-space-growth-factor/.test(nodeFlags) ? '' : '--semi-space-growth-factor=1';
const oldFlag = process.argv.includes('daemon-broker') || /--heap-growing-percent/.test(nodeFlags) ? '' : '--heap-growing-percent=50';
const ownFlags = youngFlag && [youngFlag, oldFlag].filter(Boolean).join(' ');
if (ownFlags) setFlagsFromString(ownFlags);

/** FNV-1a, 32 bits, hex: names V8's flags in the cache's name (V8 rejects a cache made under other flags). */
function shortHash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

const BUILD_ID = '__AGENT_LSP_BUILD_ID__';
const BROKER_BUILD_ID = '__AGENT_LSP_BROKER_BUILD_ID__';
// `daemon-broker` runs the broker's own bundle (packages/cli/src/brokerMain.ts): a fifth of the
// code to compile and hold, none of the MCP SDK or the tools.
const isBroker = process.argv[2] === 'daemon-broker';
const bundleUrl = new URL(isBroker ? './agent-lsp-broker.cjs' : './agent-lsp.cjs', import.meta.url);
const bundlePath = fileURLToPath(bundleUrl);
const useCache = process.env.AGENT_LSP_NO_CODE_CACHE !== '1';
// One cache per flag set: fronts and brokers (V8's defaults) would otherwise reject each other's.
const cacheName = `${isBroker ? `agent-lsp-broker-${BROKER_BUILD_ID}` : `agent-lsp-${BUILD_ID}`}-${process.version}-${process.arch}-${shortHash(`${nodeFlags} ${ownFlags}`)}.v8-cache`;

/**
 * bin/agent-lsp, run as a program, found no start-up snapshot for this bundle, install and node
 * binary and says so with its key (see bin/agent-lsp): this front builds one after its first answer,
 * in the background (dist/agent-lsp-snapshot-build.mjs), unless a build with this key failed. Not
 * passed on to the processes this one starts.
 */
const snapshotKey = process.env.AGENT_LSP_SNAPSHOT_KEY;
delete process.env.AGENT_LSP_SNAPSHOT_KEY;

function cacheDirs() {
  const home = process.env.AGENT_LSP_HOME;
  const fallback = home ? join(home, 'code-cache') : join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'agent-lsp', 'code-cache');
  return [dirname(bundlePath), fallback];
}

function readCache() {
  for (const dir of cacheDirs()) {
    try {
      return readFileSync(join(dir, cacheName));
    } catch {
      // not there: the next place, else none
    }
  }
  return undefined;
}

/** Writes the cache where it can (a temp file renamed into place: readers never see half of it). */
function writeCache(script) {
  let data;
  try {
    data = script.createCachedData();
  } catch {
    return;
  }
  for (const dir of cacheDirs()) {
    const tmp = join(dir, `.${cacheName}.${process.pid}.tmp`);
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(tmp, data);
      renameSync(tmp, join(dir, cacheName));
      return;
    } catch {
      // read-only, full or missing: the next place (and no half-written temp file left behind)
      try {
        unlinkSync(tmp);
      } catch {
        // never written
      }
    }
  }
}

/** Starts the snapshot's build, detached and at low priority: this front does not wait for it. */
function buildSnapshot() {
  const dirs = process.env.AGENT_LSP_SNAPSHOT_DIR ? [process.env.AGENT_LSP_SNAPSHOT_DIR] : cacheDirs();
  for (const dir of dirs) {
    try {
      if (readFileSync(join(dir, 'agent-lsp.blob.failed'), 'utf8').trim() === snapshotKey) return;
    } catch {
      // no failed build here
    }
  }
  try {
    // Under this front's node flags (bin/agent-lsp's, part of the key): the builder builds and checks the blob with them.
    const builder = spawn(process.execPath, [...process.execArgv, join(dirname(bundlePath), 'agent-lsp-snapshot-build.mjs'), snapshotKey, ...dirs], { detached: true, stdio: 'ignore' });
    builder.on('error', () => undefined);
    builder.unref();
  } catch {
    // no snapshot: fronts keep starting from the bundle
  }
}

/** Compiles and runs the bundle; the cache's bytes are garbage once it returns (the source stays: V8 compiles functions from it as they are first called). */
function load() {
  const source = readFileSync(bundlePath, 'utf8');
  const cachedData = useCache ? readCache() : undefined;
  // The bundle is one function expression (scripts/bundle.mjs wraps it): compiled as it is read, no copy.
  const script = new Script(source, {
    filename: bundlePath,
    ...(cachedData ? { cachedData } : {}),
  });
  const saveCache = useCache && (!cachedData || script.cachedDataRejected);
  const makeSnapshot = snapshotKey !== undefined && !isBroker;
  if (saveCache || makeSnapshot) {
    // Called by the front after a query's answer (packages/protocol/src/startupMarks.ts).
    globalThis[Symbol.for('agent-lsp.saveCodeCache')] = () => {
      if (saveCache) writeCache(script);
      if (makeSnapshot) buildSnapshot();
    };
  }
  const bundle = { exports: {} };
  script.runInThisContext()(bundle.exports, createRequire(bundlePath), bundle, bundlePath, dirname(bundlePath), bundleUrl.href);
  return bundle.exports;
}

const bundle = load();
export const { main } = bundle;
export default bundle;

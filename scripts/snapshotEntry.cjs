// dist/agent-lsp-snapshot.cjs (copied by scripts/bundle.mjs): the entry of Node's start-up
// snapshot builder, `node --snapshot-blob <blob> --build-snapshot dist/agent-lsp-snapshot.cjs`,
// run by dist/agent-lsp-snapshot-build.mjs (scripts/snapshotBuild.mjs). It runs the bundle and
// loads what `serve` loads (the MCP SDK, the tools and their zod schemas, the workspace, the broker
// client); the heap that results is the snapshot, which `node --snapshot-blob` deserializes instead
// of loading and running ~1.5 MB of JavaScript. bin/agent-lsp starts a front from it when the blob
// was built for this bundle, this install and this node binary.
//
// What runs here is frozen into every front started from the blob, and a front started from it
// must see the same working directory, environment, argv and files as one started plainly
// (DESIGN.md: a start-up optimisation changes nothing but time). So while the bundle loads and
// warms up, the builder has no working directory (process.cwd() throws: graceful-fs, which caches
// it as it loads, keeps no cache, and code that needs one fails the build), and it records what is
// read of the environment, argv, the user, the machine, the clock and the disk (buildTimeReads below): anything
// not known to be harmless fails the build, and bin/agent-lsp then starts fronts plainly. Open
// handles fail the build too.
'use strict';
const fs = require('node:fs');
const { readFileSync } = fs;
const os = require('node:os');
const { dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');
const { setFlagsFromString, startupSnapshot } = require('node:v8');
const { runInThisContext } = require('node:vm');

// Node 20's snapshot builder runs without V8's change-array-by-copy methods (a deserialized
// process has them), and node:http, which a dependency may load, calls toSorted as it loads. A
// stand-in is there while building only: it is removed before the heap is written.
const standIns = [];
if (typeof Array.prototype.toSorted !== 'function') {
  standIns.push('toSorted');
  Object.defineProperty(Array.prototype, 'toSorted', { configurable: true, writable: true, value: function toSorted(compare) { return Array.prototype.slice.call(this).sort(compare); } });
}

const bundlePath = process.env.AGENT_LSP_SNAPSHOT_BUNDLE;
if (!bundlePath) throw new Error('AGENT_LSP_SNAPSHOT_BUNDLE: the bundle to snapshot (dist/agent-lsp.cjs)');
const source = readFileSync(bundlePath, 'utf8');

/**
 * Environment variables modules read as they load, each with why keeping the builder's value
 * (unset: it runs with PATH alone) changes nothing: bin/agent-lsp starts a front plainly when one
 * of the first three is set, and the last is never used.
 */
const HARMLESS_ENV_READS = {
  NODE_DEBUG: "graceful-fs's gfs4 debugging (bin/agent-lsp: no snapshot when NODE_DEBUG is set)",
  GRACEFUL_FS_PLATFORM: "graceful-fs's test hook (bin/agent-lsp: no snapshot when it is set)",
  TEST_GRACEFUL_FS_GLOBAL_PATCH: "graceful-fs's test hook (bin/agent-lsp: no snapshot when it is set)",
  XDG_RUNTIME_DIR: "vscode-jsonrpc's pipe names, which agent-lsp never makes (stdio and its own sockets only)",
};

/**
 * Records what the bundle reads of the process's state while it loads and warms up; stop() puts
 * process.env and the functions back and returns the reads that are not harmless. A module that
 * kept a reference to a recording function keeps a plain pass-through once recording stops.
 */
function buildTimeReads() {
  const reads = new Set();
  let recording = true;
  // Node's own reads (its console as it prints the builder's warnings) are Node's: it reads them again in every process.
  // Frames: calledByNode, record, the trap or wrapper, then who read.
  const calledByNode = () => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 5;
    const site = {};
    Error.captureStackTrace(site);
    Error.stackTraceLimit = limit;
    return /^\s*at (?:.* \()?node:/.test(String(site.stack).split('\n')[4] ?? '');
  };
  const record = (what) => {
    if (recording && !calledByNode()) reads.add(what);
  };
  const realEnv = process.env;
  process.env = new Proxy(realEnv, {
    get: (target, key) => {
      if (typeof key === 'string' && !Object.hasOwn(HARMLESS_ENV_READS, key)) record(`process.env.${key}`);
      return target[key];
    },
    has: (target, key) => {
      if (typeof key !== 'string' || !Object.hasOwn(HARMLESS_ENV_READS, key)) record(`process.env (has ${String(key)})`);
      return key in target;
    },
    ownKeys: (target) => (record('process.env (all keys)'), Reflect.ownKeys(target)),
  });
  const argv = Object.getOwnPropertyDescriptor(process, 'argv');
  Object.defineProperty(process, 'argv', {
    configurable: true,
    enumerable: true,
    get: () => (record('process.argv'), argv.value),
    set: (v) => {
      argv.value = v;
    },
  });
  const watched = [
    [os, 'os', ['homedir', 'tmpdir', 'userInfo', 'hostname', 'cpus', 'availableParallelism', 'totalmem', 'freemem', 'networkInterfaces', 'loadavg']],
    [process, 'process', ['getuid', 'geteuid', 'getgid', 'umask']],
    [Date, 'Date', ['now']],
    [fs, 'fs', ['readFileSync', 'readdirSync', 'statSync', 'lstatSync', 'existsSync', 'accessSync', 'openSync', 'realpathSync']],
  ];
  const originals = [];
  for (const [target, label, names] of watched) {
    for (const name of names) {
      const original = target[name];
      if (typeof original !== 'function') continue;
      originals.push([target, name, original]);
      target[name] = Object.assign(function (...args) {
        record(`${label}.${name}(${typeof args[0] === 'string' ? args[0] : ''})`);
        return Reflect.apply(original, this, args);
      }, original);
    }
  }
  return () => {
    recording = false;
    process.env = realEnv;
    Object.defineProperty(process, 'argv', argv);
    for (const [target, name, original] of originals) target[name] = original;
    return [...reads];
  };
}

// No working directory while the bundle loads: a directory made and removed (process.cwd() throws).
const noCwd = fs.mkdtempSync(join(os.tmpdir(), 'agent-lsp-snapshot-'));
process.chdir(noCwd);
fs.rmdirSync(noCwd);
const stopRecording = buildTimeReads();
// The bundle is one function expression (scripts/bundle.mjs wraps it), run as the bundle's loader runs it
// (scripts/bundleLoader.mjs); the builder's require loads node's own modules only, all the bundle needs.
const wrapper = runInThisContext(source, { filename: bundlePath });
const bundle = { exports: {} };
wrapper(bundle.exports, require, bundle, bundlePath, dirname(bundlePath), pathToFileURL(bundlePath).href);

/** Signal listeners modules add as they load (proper-lockfile's signal-exit): taken out while the heap is written (a signal handle cannot be), put back in every front. */
const signalListeners = [];
startupSnapshot.addSerializeCallback(() => {
  for (const name of standIns) delete Array.prototype[name];
  for (const event of process.eventNames()) {
    if (typeof event !== 'string' || !event.startsWith('SIG')) continue;
    for (const listener of process.rawListeners(event)) signalListeners.push([event, listener]);
    process.removeAllListeners(event);
  }
});

/**
 * Loads what `serve` loads, then creates and closes one MCP server with a registry and logger of
 * its own (no root, no language server, nothing written): the functions a front runs to create
 * its server are then compiled in the snapshot instead of in every front.
 */
async function loadAndWarm() {
  const [lsp, server] = await bundle.exports.loadServeModules();
  // No skills: their files are read by each front (a front from the blob sees them as they are now).
  const warm = server.createAgentLspServer({ registry: new lsp.ServerRegistry(), logger: lsp.createLogger({ level: 'error' }), ledger: { home: '/nonexistent/agent-lsp-snapshot' }, prefetch: false, skills: [] });
  await warm.close();
  const kept = stopRecording();
  if (kept.length > 0) throw new Error(`the bundle read process state while it loaded, which every front from the blob would keep instead of reading its own: ${kept.join(', ')}. Read it at run time, or say in scripts/snapshotEntry.cjs why keeping it is harmless.`);
}

loadAndWarm().catch((err) => {
  process.stderr.write(`agent-lsp snapshot: ${err && err.stack ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});

startupSnapshot.setDeserializeMainFunction(() => {
  const cpuMs = () => ((({ user, system }) => (user + system) / 1000)(process.cpuUsage())).toFixed(1);
  const mark = (name) => process.env.AGENT_LSP_STARTUP_TRACE === '1' && process.stderr.write(`agent-lsp-mark ${name} ${(performance.timeOrigin + performance.now()).toFixed(2)} cpu=${cpuMs()}\n`);
  mark('entry');
  mark('started from the snapshot');
  for (const [event, listener] of signalListeners) process.on(event, listener);
  // The same flags as the bundle's loader sets (scripts/bundleLoader.mjs, where the why is): fronts
  // keep V8's young generation small and grow the old one by half at most.
  const nodeFlags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  if (!process.argv.includes('daemon-broker') && !/--(max|min)-semi-space-size|--semi-space-growth-factor/.test(nodeFlags)) {
    setFlagsFromString(`--semi-space-growth-factor=1${/--heap-growing-percent/.test(nodeFlags) ? '' : ' --heap-growing-percent=50'}`);
  }
  mark('cli loaded');
  bundle.exports.main(process.argv).catch((err) => {
    process.stderr.write(`agent-lsp: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
});

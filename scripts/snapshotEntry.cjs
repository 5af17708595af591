// dist/agent-lsp-snapshot.cjs (copied by scripts/bundle.mjs): the entry of Node's start-up
// snapshot builder, `node --snapshot-blob <blob> --build-snapshot dist/agent-lsp-snapshot.cjs`,
// run by dist/agent-lsp-snapshot-build.mjs (scripts/snapshotBuild.mjs). It runs the bundle and
// loads what `serve` loads (the MCP SDK, the tools and their zod schemas, the workspace, the broker
// client); the heap that results is the snapshot, which `node --snapshot-blob` deserializes instead
// of loading and running ~1.5 MB of JavaScript. bin/agent-lsp starts a front from it when the blob
// was built for this bundle, this install and this node binary.
//
// What runs here is frozen into every front started from the blob: module top-level code must not
// keep anything read from the environment, argv, the current directory, the time, the pid or the
// uid (the builder runs with an almost empty environment, so a slip shows as a default, not as
// someone's value), nor open handles (the builder fails on those).
'use strict';
const { readFileSync } = require('node:fs');
const { dirname } = require('node:path');
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
  const warm = server.createAgentLspServer({ registry: new lsp.ServerRegistry(), logger: lsp.createLogger({ level: 'error' }), ledger: { home: '/nonexistent/agent-lsp-snapshot' }, prefetch: false });
  await warm.close();
}

loadAndWarm().catch((err) => {
  process.stderr.write(`agent-lsp snapshot: ${err && err.stack ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});

startupSnapshot.setDeserializeMainFunction(() => {
  const mark = (name) => process.env.AGENT_LSP_STARTUP_TRACE === '1' && process.stderr.write(`agent-lsp-mark ${name} ${(performance.timeOrigin + performance.now()).toFixed(2)}\n`);
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

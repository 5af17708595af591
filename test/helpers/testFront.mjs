// A front for tests: `agent-lsp` with test hooks injected through its composition root (`main`'s
// second argument); the production entry (bin/agent-lsp) never has them and reads no variable for
// them. Arguments: a JSON object of hooks (see TestFrontHooks in mcpClient.ts), then the usual
// agent-lsp arguments.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { main } from '@agent-lsp/cli';
import { atomicFileWriter, SessionError } from '@agent-lsp/session';

const hooks = JSON.parse(process.argv[2] ?? '{}');
const argv = [process.argv[0], process.argv[1], ...process.argv.slice(3)];

/** Holds the evaluation's section (overlay pushed, not yet settled), marking it with a file meanwhile. */
async function overlayPushed() {
  if (hooks.sectionMarker) writeFileSync(hooks.sectionMarker, String(process.pid));
  try {
    if (hooks.holdSectionMs) await sleep(hooks.holdSectionMs);
    // A stalled front (a long GC pause, an overloaded machine): no timer of this process runs.
    if (hooks.stallSectionMs) for (const until = Date.now() + hooks.stallSectionMs; Date.now() < until; );
    if (hooks.holdSectionUntil) while (!existsSync(hooks.holdSectionUntil)) await sleep(20);
  } finally {
    if (hooks.sectionMarker) rmSync(hooks.sectionMarker, { force: true });
  }
}

/** After the Nth file this process writes, waits until the call is cancelled or the process killed. */
function pausingWriter(inner, n) {
  let count = 0;
  const hold = async (signal) => {
    if (++count !== n) return;
    process.stderr.write(`agent-lsp: test pause after file ${n}\n`);
    await new Promise((resolve) => {
      if (!signal) return; // held until killed
      if (signal.aborted) resolve();
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    if (signal?.aborted) throw new SessionError('cancelled', 'The call was cancelled before its writes finished.');
  };
  return {
    async write(path, data, options = {}) {
      await inner.write(path, data, options);
      await hold(options.signal);
    },
    async remove(path, options = {}) {
      await inner.remove(path, options);
      await hold(options.signal);
    },
  };
}

const ledger = {};
if (hooks.sectionMarker || hooks.holdSectionMs || hooks.holdSectionUntil || hooks.stallSectionMs) ledger.simulations = { hooks: { overlayPushed } };
// JSON has no Infinity: null asks for one section (the reference a stepped evaluation is compared with).
if (hooks.evaluationStepMs !== undefined) ledger.simulations = { hooks: { ...ledger.simulations?.hooks, stepMs: hooks.evaluationStepMs ?? Infinity } };
if (hooks.pauseAfterFiles) ledger.writer = pausingWriter(atomicFileWriter, hooks.pauseAfterFiles);
main(argv, { ledger, ...(hooks.lease ? { lease: hooks.lease } : {}) }).catch((err) => {
  process.stderr.write(`agent-lsp (test front): ${err && err.message ? err.message : String(err)}\n`);
  process.exitCode = 1;
});

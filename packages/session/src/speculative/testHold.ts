import { rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A test hook, read by the evaluator only: with AGENT_LSP_TEST_HOLD_SECTION_MS set, an evaluation
 * holds its exclusive section that long after pushing the overlay to the server and before settling
 * its diagnostics, and
 * with AGENT_LSP_TEST_SECTION_MARKER set it creates that file while it does. Tests use it to make
 * two agents' evaluations overlap for certain instead of by timing. Unset, it does nothing.
 */
export async function holdSectionForTests(): Promise<void> {
  const ms = Number(process.env['AGENT_LSP_TEST_HOLD_SECTION_MS'] ?? '');
  if (!Number.isFinite(ms) || ms <= 0) return;
  const marker = process.env['AGENT_LSP_TEST_SECTION_MARKER'];
  if (marker) writeFileSync(marker, String(process.pid));
  try {
    await sleep(ms);
  } finally {
    if (marker) rmSync(marker, { force: true });
  }
}

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { daemonsHome } from '@agent-lsp/broker';
import { writeFileAtomicSync } from '@agent-lsp/lsp';

/**
 * The initialize answer a server profile gave `agent-lsp lsp` last time (its capabilities), kept
 * beside the daemons. With it, a host that starts every language's `agent-lsp lsp` when a session
 * starts (Claude Code starts each plugin server at once) is answered at once, and the broker and
 * its server start only when the host first opens or asks about a file: no idle pyright, gopls or
 * rust-analyzer for a language the session never touches.
 */
function cachePath(profileFingerprint: string): string {
  return join(dirname(daemonsHome()), 'capabilities', `${createHash('sha256').update(profileFingerprint).digest('hex').slice(0, 16)}.json`);
}

export function cachedInitializeAnswer(profileFingerprint: string): Record<string, unknown> | undefined {
  let cached: unknown;
  try {
    cached = JSON.parse(readFileSync(cachePath(profileFingerprint), 'utf8'));
  } catch {
    return undefined;
  }
  return cached !== null && typeof cached === 'object' && 'capabilities' in cached ? (cached) : undefined;
}

/** Keeps an answer, without what names one broker (experimental.agentLsp: its key and state then). */
export function cacheInitializeAnswer(profileFingerprint: string, answer: unknown): void {
  if (answer === null || typeof answer !== 'object') return;
  const { capabilities, ...rest } = answer as { capabilities?: { experimental?: Record<string, unknown> } };
  if (!capabilities) return;
  const experimental = { ...(capabilities.experimental ?? {}) };
  delete experimental['agentLsp'];
  try {
    const path = cachePath(profileFingerprint);
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileAtomicSync(path, JSON.stringify({ ...rest, capabilities: { ...capabilities, experimental } }), { mode: 0o600 });
  } catch {
    // A cache: without it the next start is only not lazy.
  }
}

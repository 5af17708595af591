import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { daemonsHome } from '@agent-lsp/broker';
import { writeFileAtomicSync } from '@agent-lsp/lsp';

/**
 * The initialize answer a server profile gave `agent-lsp lsp` last time (its capabilities), kept
 * beside the daemons. With it, a host that starts every language's `agent-lsp lsp` when a session
 * starts (Claude Code starts each plugin server at once) is answered at once, and the broker and
 * its server start only when the host first opens or asks about a file: no idle pyright, gopls or
 * rust-analyzer for a language the session never touches.
 *
 * An answer holds only for the server that gave it: the profile names the executable's path, not
 * what is there now, so each answer is kept with a stamp of the files of the server's command (its
 * real path, inode, size, modification and change times: npm gives every file it unpacks the same
 * modification time, but a file it writes gets a new inode or change time). An upgrade in place
 * (`servers install`, npm update, rustup) changes the stamp, and that start is not lazy: the host
 * gets the new server's answer.
 */
function cachePath(profileFingerprint: string): string {
  return join(dirname(daemonsHome()), 'capabilities', `${createHash('sha256').update(profileFingerprint).digest('hex').slice(0, 16)}.json`);
}

/** What runs for `command`: each of its words that names a file (the program, a script it runs). */
export function serverStamp(command: readonly string[]): string {
  const files: string[] = [];
  for (const word of command) {
    try {
      const real = realpathSync(word);
      const st = statSync(real);
      if (st.isFile()) files.push(`${real}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`);
    } catch {
      // An argument, not a file.
    }
  }
  return files.join('|');
}

interface CachedAnswer {
  stamp: string;
  answer: Record<string, unknown>;
}

export function cachedInitializeAnswer(profileFingerprint: string, command: readonly string[]): Record<string, unknown> | undefined {
  let cached: Partial<CachedAnswer> | null;
  try {
    cached = JSON.parse(readFileSync(cachePath(profileFingerprint), 'utf8')) as Partial<CachedAnswer> | null;
  } catch {
    return undefined;
  }
  const answer = cached?.answer;
  if (cached?.stamp !== serverStamp(command) || answer === null || typeof answer !== 'object' || !('capabilities' in answer)) return undefined;
  return answer;
}

/** Keeps an answer, without what names one broker (experimental.agentLsp: its key and state then). */
export function cacheInitializeAnswer(profileFingerprint: string, command: readonly string[], answer: unknown): void {
  if (answer === null || typeof answer !== 'object') return;
  const { capabilities, ...rest } = answer as { capabilities?: { experimental?: Record<string, unknown> } };
  if (!capabilities) return;
  const experimental = { ...(capabilities.experimental ?? {}) };
  delete experimental['agentLsp'];
  const kept: CachedAnswer = { stamp: serverStamp(command), answer: { ...rest, capabilities: { ...capabilities, experimental } } };
  try {
    const path = cachePath(profileFingerprint);
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileAtomicSync(path, JSON.stringify(kept), { mode: 0o600 });
  } catch {
    // A cache: without it the next start is only not lazy.
  }
}

import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { homedir, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/** Linux allows 108 bytes in sun_path including the NUL; macOS 104. Node truncates silently. */
export const MAX_SOCKET_PATH_BYTES = process.platform === 'darwin' ? 103 : 107;

/** Where daemons live: $AGENT_LSP_HOME/daemons, else the XDG cache dir (brokers are disposable). */
export function daemonsHome(env: NodeJS.ProcessEnv = process.env): string {
  const home = env['AGENT_LSP_HOME'];
  if (home) return join(home, 'daemons');
  return join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'agent-lsp', 'daemons');
}

/** The broker key: one per (real root, server profile). */
export function brokerKey(root: string, profileFingerprint: string): string {
  return createHash('sha256').update(`${realpathSync(root)}\0${profileFingerprint}`).digest('hex').slice(0, 16);
}

export function daemonDir(key: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(daemonsHome(env), key);
}

/** Creates a private directory (0700) or checks that an existing one is a real directory of ours. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (!st.isDirectory() || st.isSymbolicLink()) throw new Error(`${dir} is not a directory`);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) throw new Error(`${dir} belongs to another user`);
}

/**
 * The socket path for a daemon dir: `<dir>/daemon.sock`, or, when that is longer than the kernel
 * accepts, `<runtime>/agent-lsp-<user>/<key>-<dir hash>.sock` in a short private directory. The
 * runtime dir is shared by every home: the dir hash keeps two homes serving one root apart.
 */
export function socketPathFor(dir: string, key: string, env: NodeJS.ProcessEnv = process.env): string {
  const preferred = join(dir, 'daemon.sock');
  if (Buffer.byteLength(preferred) <= MAX_SOCKET_PATH_BYTES) return preferred;
  const base = env['XDG_RUNTIME_DIR'] && Buffer.byteLength(env['XDG_RUNTIME_DIR']) < 60 ? env['XDG_RUNTIME_DIR'] : shortTmp();
  const runtime = join(base, `agent-lsp-${userInfo().uid}`);
  ensurePrivateDir(runtime);
  const fallback = join(runtime, `${key}-${createHash('sha256').update(dir).digest('hex').slice(0, 8)}.sock`);
  if (Buffer.byteLength(fallback) > MAX_SOCKET_PATH_BYTES) throw new Error(`no socket path short enough for ${dir}`);
  return fallback;
}

function shortTmp(): string {
  const t = tmpdir();
  return Buffer.byteLength(t) < 60 ? t : '/tmp';
}

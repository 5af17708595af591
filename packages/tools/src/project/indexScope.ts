import { statSync } from 'node:fs';
import { isAbsolute, join, normalize } from 'node:path';
import { z } from 'zod';
import { UserError } from '@agent-lsp/protocol';
import { scopeSupport, type ServerDefinition } from '@agent-lsp/lsp';

export const scopeInput = z.array(z.string().min(1)).optional().describe('Only index these sub-directories (large repos).');

export const scopeOutput = z
  .object({
    directories: z.array(z.string()),
    servers: z.array(z.object({ server: z.string(), honoured: z.boolean(), note: z.string() })).describe('Per server found: whether it honours scope, and how or why not.'),
  })
  .optional();

/** start_lsp's scope, checked: root-relative directories that exist inside the root, normalized. */
export function checkedScope(root: string, scope: readonly string[]): string[] {
  return scope.map((entry) => {
    const dir = normalize(entry).replace(/\/+$/, '');
    if (isAbsolute(dir) || dir === '..' || dir.startsWith('../')) {
      throw new UserError('invalid_argument', `scope entries are directories relative to the root (${root}), inside it; "${entry}" is not.`);
    }
    let isDir = false;
    try {
      isDir = statSync(join(root, dir)).isDirectory();
    } catch {
      // reported below
    }
    if (!isDir) throw new UserError('invalid_argument', `scope entry "${entry}" is not a directory under ${root}.`);
    return dir;
  });
}

export function scopeOutcome(directories: string[], servers: readonly ServerDefinition[]) {
  return { directories, servers: servers.map((s) => ({ server: s.displayName, ...scopeSupport(s) })) };
}

export function scopeText(scope: { directories: readonly string[]; servers: readonly { server: string; honoured: boolean; note: string }[] }): string {
  return [`Scope: ${scope.directories.join(', ')}`, ...scope.servers.map((o) => `- ${o.server}${o.honoured ? '' : ' (NOT honoured)'}: ${o.note}`)].join('\n');
}

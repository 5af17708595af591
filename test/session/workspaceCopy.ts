import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/** A private copy of a fixture (or an empty dir) and a private AGENT_LSP_HOME beside it. */
export function scratchWorkspace(fixture?: string): { dir: string; root: string; home: string; dispose(): void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-tx-')));
  const root = join(dir, 'ws');
  if (fixture) cpSync(fixture, root, { recursive: true });
  else mkdirSync(root);
  return { dir, root, home: join(dir, 'home'), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Every file under `root` (relative path → bytes), to compare whole trees byte for byte. */
export function treeOf(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(root, p)] = readFileSync(p).toString('base64');
    }
  };
  walk(root);
  return out;
}

/** The intent records a transaction left in a front's state home (one per workspace it wrote in). */
export function intentFiles(home: string): string[] {
  const base = join(home, 'state', 'workspaces');
  if (!existsSync(base)) return [];
  return readdirSync(base).map((k) => join(base, k, 'intent.json')).filter((p) => existsSync(p));
}

import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vueServer } from '@agent-lsp/lsp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { FIXTURES } from '../helpers/paths.js';
import { descendants, isAlive, waitUntil } from '../helpers/processes.js';

/**
 * Vue's two servers as one profile (vueServer.ts, pairedTransport.ts), as an agent sees it: each
 * answer comes from the half that has it — a .vue file's outline from vue-language-server, its
 * script's types and cross-file answers from vtsls running @vue/typescript-plugin — and a
 * diagnostics answer holds both halves' findings, settled by the pair's own pull.
 */

const FIXTURE = join(FIXTURES, 'languages', 'vue');
const resolved = vueServer.resolve(FIXTURE);
const title = resolved ? 'vue-language-server with vtsls' : `vue-language-server with vtsls: not run (${vueServer.installHint})`;
if (!resolved) console.warn(title);

interface Diag {
  line: number;
  severity: string;
  message: string;
}

describe.skipIf(!resolved)(title, () => {
  let agent: AgentLspClient;
  let root: string;

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-vue-')));
    cpSync(FIXTURE, root, { recursive: true });
    // A template compile error: only vue-language-server reports these (tsserver sees scripts).
    writeFileSync(join(root, 'src', 'Template.vue'), '<script setup lang="ts">\nconst shown = true;\n</script>\n\n<template>\n  <p v-if>{{ shown }}</p>\n</template>\n');
    agent = await startAgentLsp({ cwd: root });
    const started = await agent.call('start_lsp', { root_dir: root, language_id: 'vue', ready_timeout_seconds: 120 });
    expect(started.isError, started.text).toBe(false);
  });
  afterAll(async () => {
    await agent?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('outlines a .vue file by its blocks (vue-language-server), not as nothing (vtsls has no outline for it)', async () => {
    const answer = await agent.call('list_symbols', { file_path: 'src/App.vue', format: 'flat' });
    const names = ((answer.data['symbols'] ?? []) as { name: string }[]).map((s) => s.name);
    expect(names, answer.text).toEqual(expect.arrayContaining(['template', 'script setup']));
  });

  it('hovers a <script setup lang="ts"> call with its TypeScript signature (vtsls through the plugin)', async () => {
    const answer = await agent.call('inspect_symbol', { file_path: 'src/App.vue', position_pattern: 'const size: number = @@area(3, 4)' });
    expect(String(answer.data['contents']), answer.text).toContain('area(width: number, height: number): number');
  });

  it('finds the .vue uses of a function declared in a .ts file of the project (the pair serves its .ts files)', async () => {
    const answer = await agent.call('find_references', { file_path: 'src/shapes.ts', position_pattern: 'export function @@area(' });
    const files = new Set(((answer.data['locations'] ?? []) as { file: string }[]).map((l) => l.file));
    expect([...files].sort(), answer.text).toEqual(['src/App.vue', 'src/Broken.vue', 'src/shapes.ts']);
  });

  it('reports the type error planted in a <script setup lang="ts"> block, settled by a pull', async () => {
    const answer = await agent.call('get_diagnostics', { file_path: 'src/Broken.vue' });
    const diags = (answer.data['diagnostics'] ?? []) as Diag[];
    expect(diags.filter((d) => d.severity === 'error').map((d) => [d.line, d.message]), answer.text).toEqual([[4, "Argument of type 'string' is not assignable to parameter of type 'number'."]]);
    expect(((answer.data['files'] ?? []) as { settled_by: string }[])[0]?.settled_by).toBe('pull');
  });

  it("reports a template compile error, which only vue-language-server finds, in the same answer as tsserver's", async () => {
    const answer = await agent.call('get_diagnostics', { file_path: 'src/Template.vue' });
    const diags = (answer.data['diagnostics'] ?? []) as Diag[];
    expect(diags.some((d) => d.line === 6 && d.severity === 'error'), answer.text).toBe(true);
  });

  /** The pids start_lsp reports of the pair: vtsls's and its companion's. */
  async function reportedPids(): Promise<{ pid?: number; companion_pid?: number; text: string }> {
    const answer = await agent.call('start_lsp', { root_dir: root, language_id: 'vue', ready_timeout_seconds: 120 });
    const server = ((answer.data['servers'] ?? []) as { pid?: number; companion_pid?: number }[])[0];
    return { ...server, text: answer.text };
  }

  it('reports both processes of the pair in start_lsp: vtsls and vue-language-server (through a broker: test/broker/vuePairPids)', async () => {
    const started = await reportedPids();
    expect(cmdline(started.pid ?? 0), started.text).toContain('vtsls');
    expect(cmdline(started.companion_pid ?? 0), started.text).toContain('vue-language-server');
    expect(started.text).toContain(`companion pid ${started.companion_pid}`);
  });

  it('ends both halves when one dies, and the next call restarts the pair', async () => {
    const halves = () => descendants(agent.pid).filter((pid) => /vue-language-server|vtsls/.test(cmdline(pid)) && !/tsserver/.test(cmdline(pid)));
    const before = halves();
    const companion = before.find((pid) => cmdline(pid).includes('vue-language-server'));
    const main = before.find((pid) => cmdline(pid).includes('vtsls') && pid !== companion);
    expect(companion && main, `halves: ${before.join(' ')}`).toBeTruthy();
    process.kill(companion as number, 'SIGKILL');
    await waitUntil(() => !isAlive(main as number), 10_000, 'vtsls to be ended with its companion');
    // The call that finds the server gone may say so; the next one runs on a new pair.
    let answer = await agent.call('list_symbols', { file_path: 'src/App.vue', format: 'flat', ready_timeout_seconds: 120 });
    if (answer.isError && /stopped unexpectedly/.test(answer.text)) answer = await agent.call('list_symbols', { file_path: 'src/App.vue', format: 'flat', ready_timeout_seconds: 120 });
    expect(((answer.data['symbols'] ?? []) as { name: string }[]).map((s) => s.name), answer.text).toContain('template');
    expect(halves().filter((pid) => before.includes(pid))).toEqual([]);
    // The pids reported are the new pair's.
    const now = await reportedPids();
    expect(cmdline(now.companion_pid ?? 0), now.text).toContain('vue-language-server');
    expect([now.pid, now.companion_pid].filter((pid) => before.includes(pid as number)), now.text).toEqual([]);
  });
});

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

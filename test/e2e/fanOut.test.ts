// find_symbol without language_id asks only the languages the workspace has a project of, and one
// server's failure is reported beside the others' answers, never instead of them.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope, daemonsByLanguage } from '../helpers/brokers.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';

/** A Python project with a few .js files beside it and no tsconfig/jsconfig/package.json (like Django). */
function mixedWorkspace(extra: Record<string, string> = {}): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-mixed-')));
  const files: Record<string, string> = {
    'main.py': 'from shop.models import Widget\n\nprint(Widget().price())\n',
    'shop/__init__.py': '',
    'shop/models.py': 'class Widget:\n    def price(self) -> int:\n        return 1\n',
    'shop/static/js/app.js': 'function Widget() { return 1; }\nWidget();\n',
    'shop/static/js/admin.js': 'var widgetCount = 0;\n',
    ...extra,
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

const PYTHON_WIDGET = expect.objectContaining({ name: 'Widget', kind: 'class', match: 'exact', file: 'shop/models.py', line: 1 });

const scope = new BrokerTestScope();
let agent: AgentLspClient | undefined;
const roots: string[] = [];

afterEach(async () => {
  await agent?.close();
  agent = undefined;
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
  await scope.cleanup();
});

describe('find_symbol without language_id', () => {
  it('asks pyright only: a few .js files without a JS project start no TypeScript broker', async () => {
    const root = mixedWorkspace();
    roots.push(root);
    const home = scope.home();
    const front = await scope.front(home);
    ok(await front.call('start_lsp', { root_dir: root }));
    const data = ok(await front.call('find_symbol', { query: 'Widget' }));
    expect(data).toMatchObject({ complete: true, servers: [{ language: 'python', server: 'pyright' }] });
    expect(data['symbols']).toEqual(expect.arrayContaining([PYTHON_WIDGET]));
    const brokers = daemonsByLanguage(home);
    expect([...brokers.keys()]).toEqual(['python']);
    const status = ok(await front.call('get_daemon_status', {}));
    expect((status['daemons'] as { language: string }[]).map((d) => d.language)).toEqual(['python']);
  });

  it('returns the other servers\' symbols when one server fails, with complete:false and the error as data', async () => {
    const config = join(realpathSync(tmpdir()), `agent-lsp-exits-${process.pid}-${Date.now()}.json`);
    // A custom server whose command exits at once, for .lua files that sit in the same workspace.
    writeFileSync(config, JSON.stringify({ servers: [{ language_id: 'lua', extensions: ['.lua'], command: [process.execPath, '-e', 'process.exit(3)'] }] }));
    const root = mixedWorkspace({ 'scripts/build.lua': 'print("hi")\n' });
    roots.push(root, config);
    agent = await startAgentLsp({ args: ['--config', config] });
    ok(await agent.call('start_lsp', { root_dir: root }));
    const answer = await agent.call('find_symbol', { query: 'Widget' });
    const data = ok(answer);
    expect(data['complete']).toBe(false);
    expect(data['symbols']).toEqual(expect.arrayContaining([PYTHON_WIDGET]));
    expect(data['servers']).toEqual(
      expect.arrayContaining([{ language: 'python', server: 'pyright' }, { language: 'lua', server: process.execPath, error: expect.stringContaining('exit code 3') as string }]),
    );
    expect(answer.text).toMatch(/INCOMPLETE: \S+ \(lua\) gave no answer: .*exit code 3/);
    expect(answer.text).toContain('shop/models.py');
    // Asked alone, the failing server gives an error, not an empty answer.
    const alone = await agent.call('find_symbol', { query: 'Widget', language_id: 'lua' });
    expect(alone.isError).toBe(true);
    expect(alone.text).toMatch(/No server answered: \S+ \(lua\): .*exit code 3/);
  });
});

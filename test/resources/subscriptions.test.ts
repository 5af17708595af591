// A subscribed client hears resources/updated when a file's diagnostics change: after its own apply_edit,
// after an outside write (sed -i), and after another front's write through the same broker.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope, fixtureRoot } from '../helpers/brokers.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { AgentNews, readResource } from './agentNews.js';

interface Diag {
  message: string;
  line: number;
}

const BROKEN = 'python-basic/app/broken.py';

function messages(data: Record<string, unknown>): string[] {
  return (data['diagnostics'] as Diag[]).map((d) => d.message);
}

/** `sed -i` as a shell does it: the file is rewritten outside agent-lsp. */
function sedInPlace(path: string, from: string, to: string): void {
  const text = readFileSync(path, 'utf8');
  if (!text.includes(from)) throw new Error(`${from} not in ${path}`);
  writeFileSync(path, text.replace(from, to));
}

/** Subscribes and checks the starting point: broken.py's `count: int = "three"` error is there. */
async function subscribeToBroken(agent: AgentLspClient, root: string): Promise<{ news: AgentNews; uri: string }> {
  const news = new AgentNews(agent);
  const uri = `lsp-diagnostics://${join(root, BROKEN)}`;
  await agent.client.subscribeResource({ uri }, { timeout: 300_000 });
  expect(messages(await readResource(agent, uri)).some((m) => m.includes('three'))).toBe(true);
  return { news, uri };
}

describe('diagnostics subscriptions (direct mode)', () => {
  let agent: AgentLspClient | undefined;
  let root: string | undefined;

  afterEach(async () => {
    await agent?.close();
    if (root) rmSync(root, { recursive: true, force: true });
    agent = undefined;
    root = undefined;
  });

  it('tells of an outside write and of the agent’s own apply_edit, and the read shows the new diagnostics', async () => {
    root = fixtureRoot('python-basic');
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root }));
    const { news, uri } = await subscribeToBroken(agent, root);

    // (b) first: the front's watcher drops events for a path agent-lsp itself wrote in the last moments.
    let seen = news.updated.length;
    sedInPlace(join(root, BROKEN), 'count: int = "three"', 'count: int = "three"\nlabel: int = "four"');
    await news.resourceUpdated(uri, seen);
    expect(messages(await readResource(agent, uri)).some((m) => m.includes('four'))).toBe(true);

    // (a) the agent's own write.
    seen = news.updated.length;
    ok(await agent.call('apply_edit', { file_path: BROKEN, old_text: 'count: int = "three"', new_text: 'count: int = 3' }));
    await news.resourceUpdated(uri, seen);
    const afterEdit = messages(await readResource(agent, uri));
    expect(afterEdit.some((m) => m.includes('three'))).toBe(false);
    expect(afterEdit.some((m) => m.includes('four'))).toBe(true);

    // Unsubscribed, the file's changes are not told any more; a subscription to every open file still is.
    const everyFile = 'lsp-diagnostics://';
    await agent.client.subscribeResource({ uri: everyFile }, { timeout: 300_000 });
    await agent.client.unsubscribeResource({ uri });
    seen = news.updated.length;
    ok(await agent.call('apply_edit', { file_path: BROKEN, old_text: 'label: int = "four"', new_text: 'label: int = 4' }));
    await news.resourceUpdated(everyFile, seen);
    expect(messages(await readResource(agent, everyFile)).some((m) => m.includes('four'))).toBe(false);
    expect(news.updated.slice(seen)).not.toContain(uri);

    // A file the agent has read, deleted outside: the agent hears of it.
    const extra = join(root, 'python-basic/app/extra.py');
    writeFileSync(extra, 'value: int = 1\n');
    ok(await agent.call('get_diagnostics', { file_path: extra }));
    const from = news.messages.length;
    rmSync(extra);
    // (Its creation may be told first: the watcher can report it after the agent opened the file.)
    const deleted = () => news.messages.slice(from).find((m) => m.data.type === 'files_changed_outside' && JSON.stringify(m.data['files']).includes('"deleted"'));
    await news.until(() => deleted() !== undefined, 'the deletion of extra.py');
    expect(deleted()).toMatchObject({ level: 'notice', data: { files: [{ file: 'python-basic/app/extra.py', change: 'deleted' }] } });
  });

  it('tells of an outside write to a TypeScript file (a server that pushes), and the read shows the new diagnostics', async () => {
    root = fixtureRoot('ts-basic');
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root }));
    const news = new AgentNews(agent);
    const file = join(root, 'ts-basic/src/broken.ts');
    const uri = `lsp-diagnostics://${file}`;
    await agent.client.subscribeResource({ uri }, { timeout: 300_000 });
    expect(messages(await readResource(agent, uri)).some((m) => m.includes("'string' is not assignable to type 'number'"))).toBe(true);

    const seen = news.updated.length;
    sedInPlace(file, "export const n: number = 'not a number';", 'export const n: number = 1;');
    await news.resourceUpdated(uri, seen);
    const after = messages(await readResource(agent, uri));
    expect(after.some((m) => m.includes("'string' is not assignable to type 'number'"))).toBe(false);
    expect(after.some((m) => m.includes("'number' is not assignable to type 'string'"))).toBe(true);
  });
});

describe('diagnostics subscriptions through a shared broker', () => {
  const scope = new BrokerTestScope();
  afterEach(async () => {
    await scope.cleanup();
  });

  it('tells of an outside write and of another front’s write, with the other client’s write also announced', async () => {
    const home = scope.home();
    const brokerRoot = scope.root('python-basic');
    const [watching, writing] = await Promise.all([scope.front(home), scope.front(home)]);
    for (const front of [watching, writing]) ok(await front.call('start_lsp', { root_dir: brokerRoot }));
    // The writer has read the file, as an agent does before it edits.
    ok(await writing.call('get_diagnostics', { file_path: BROKEN }));
    const { news, uri } = await subscribeToBroken(watching, brokerRoot);

    // (b) an outside write: the broker's watcher sees it, and this front re-reads.
    let seen = news.updated.length;
    let from = news.messages.length;
    sedInPlace(join(brokerRoot, BROKEN), 'count: int = "three"', 'count: int = "three"\nlabel: int = "four"');
    await news.resourceUpdated(uri, seen);
    expect(messages(await readResource(watching, uri)).some((m) => m.includes('four'))).toBe(true);
    const outside = await news.message('files_changed_outside', from);
    expect(outside.data['files']).toEqual([{ file: BROKEN, change: 'changed' }]);

    // (c) the other front writes through its own transaction.
    seen = news.updated.length;
    from = news.messages.length;
    ok(await writing.call('apply_edit', { file_path: BROKEN, old_text: 'count: int = "three"', new_text: 'count: int = 3' }));
    await news.resourceUpdated(uri, seen);
    const now = messages(await readResource(watching, uri));
    expect(now.some((m) => m.includes('three'))).toBe(false);
    expect(now.some((m) => m.includes('four'))).toBe(true);
    const peer = await news.message('files_changed_by_other_client', from);
    expect(peer).toMatchObject({ level: 'notice', data: { files: [{ file: BROKEN, change: 'changed' }] } });
  });
});

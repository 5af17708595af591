import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { Diagnostic, InitializeResult, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { pathToUri } from '@agent-lsp/protocol';
import { BrokerTestScope, daemonsByLanguage, daemonStatus, PYRIGHT, readyDaemon, serverPids, TYPESCRIPT_LANGUAGE_SERVER } from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';
import { BIN } from '../helpers/paths.js';
import { isAlive, waitUntil } from '../helpers/processes.js';

const ROUTES = 'python-basic/app/routes.py';
const GEOMETRY = 'python-basic/app/geometry.py';
const UNSAVED = 'unsaved_only: int = "typed in the editor, never saved"\n';

interface Editor {
  child: ChildProcess;
  rpc: MessageConnection;
  pushes: PublishDiagnosticsParams[];
  stderr(): string;
}

/** `agent-lsp lsp` driven as an editor drives it: plain LSP over its stdin/stdout. */
function startEditor(home: string, root: string | undefined, language = 'python'): Editor {
  const child = spawn(process.execPath, [BIN, 'lsp', ...(root !== undefined ? ['--root', root] : []), '--language', language], {
    env: { ...(process.env as Record<string, string>), AGENT_LSP_HOME: home },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const rpc = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const pushes: PublishDiagnosticsParams[] = [];
  rpc.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => void pushes.push(p));
  rpc.onRequest(() => null);
  rpc.listen();
  return { child, rpc, pushes, stderr: () => stderr };
}

function latest(editor: Editor, uri: string): Diagnostic[] | undefined {
  return editor.pushes.filter((p) => p.uri === uri).at(-1)?.diagnostics;
}

describe('agent-lsp lsp: the editor on the agents\' broker', () => {
  const scope = new BrokerTestScope();
  const editors: Editor[] = [];
  afterEach(async () => {
    for (const e of editors.splice(0)) {
      if (e.child.exitCode === null) e.child.kill('SIGTERM');
      e.rpc.dispose();
    }
    await scope.cleanup();
  });

  it('shares one broker and one server with an MCP front; unsaved text stays the editor\'s; the agent\'s write reaches the editor', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const agent = await scope.front(home);
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'python' }));
    const baseline = ok(await agent.call('get_diagnostics', { file_path: ROUTES }));
    const info = await readyDaemon(home, 'python');

    const editor = startEditor(home, root);
    editors.push(editor);
    const init = await editor.rpc.sendRequest<InitializeResult>('initialize', {
      processId: process.pid,
      clientInfo: { name: 'test-editor', version: '1' },
      rootUri: pathToUri(root),
      workspaceFolders: [{ uri: pathToUri(root), name: 'root' }],
      capabilities: { textDocument: { publishDiagnostics: { versionSupport: true }, synchronization: { didSave: true } } },
    });
    await editor.rpc.sendNotification('initialized', {});
    // The server's real capabilities, through the broker of the agents.
    expect(init.capabilities.referencesProvider).toBeTruthy();
    expect(init.capabilities.renameProvider).toBeTruthy();
    expect((init.capabilities.experimental as { agentLsp?: { key?: string } }).agentLsp?.key).toBe(info.key);

    // One broker, one pyright; daemon-status names who is connected.
    expect([...daemonsByLanguage(home).keys()]).toEqual(['python']);
    expect(serverPids(home, PYRIGHT)).toEqual([info.server.pid]);
    await waitUntil(
      // The editor in, and the short connection that located the broker for it gone.
      () => {
        const list = daemonsByLanguage(home).get('python')?.clientList ?? [];
        return list.length === 2 && list.some((c) => c.name === 'test-editor');
      },
      30_000,
      'the broker to list the editor',
    );
    const status = await daemonStatus(home);
    const kinds = status.daemons[0]?.client_list.map((c) => `${c.kind}${c.name === 'test-editor' ? ':test-editor' : ''}`).sort();
    expect(kinds).toEqual(['editor:test-editor', 'front']);
    expect(status.daemons[0]?.client_list.find((c) => c.kind === 'front')?.pid).toBe(agent.pid);
    // An editor that gives no --root joins the broker of the root its initialize names.
    const second = startEditor(home, undefined);
    editors.push(second);
    const secondInit = await second.rpc.sendRequest<InitializeResult>('initialize', {
      processId: process.pid,
      rootUri: pathToUri(root),
      capabilities: { textDocument: { publishDiagnostics: { versionSupport: true } } },
    });
    expect((secondInit.capabilities.experimental as { agentLsp?: { key?: string } }).agentLsp?.key).toBe(info.key);
    await second.rpc.sendRequest('shutdown');
    await second.rpc.sendNotification('exit');
    await waitUntil(() => second.child.exitCode !== null, 15_000, 'the second agent-lsp lsp to exit');
    expect(second.child.exitCode).toBe(0);
    expect(serverPids(home, PYRIGHT)).toEqual([info.server.pid]);

    await waitUntil(() => daemonsByLanguage(home).get('python')?.clientList?.length === 2, 30_000, 'the broker to drop the second editor');
    const table = await import('../helpers/brokers.js').then((m) => m.agentLspCli(home, ['daemon-status']));
    expect(table.stdout).toMatch(/client editor \(test-editor\) pid \d+ since /);
    expect(table.stdout).toMatch(new RegExp(`client front pid ${agent.pid} since `));

    // The editor's unsaved buffer: diagnostics for its text go to the editor...
    const routesUri = pathToUri(join(root, ROUTES));
    const disk = readFileSync(join(root, ROUTES), 'utf8');
    const unsavedLine = disk.split('\n').length - (disk.endsWith('\n') ? 1 : 0);
    await editor.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: routesUri, languageId: 'python', version: 1, text: disk + UNSAVED } });
    await waitUntil(() => (latest(editor, routesUri) ?? []).some((d) => d.range.start.line === unsavedLine), 60_000, 'the editor to see its unsaved line\'s error');

    // ... and never into the agent's answer, which is for the disk text.
    const agentAnswer = await agent.call('get_diagnostics', { file_path: ROUTES });
    expect(agentAnswer.text).toMatch(/another client \(an editor\) has unsaved changes/);
    const agentView = ok(agentAnswer);
    expect(JSON.stringify(agentView)).not.toContain('unsaved_only');
    expect(agentView['total']).toBe(baseline['total']);
    // ... and the agent is told that an editor holds another text of the file.
    expect((baseline['files'] as { other_text?: boolean }[])[0]?.other_text).toBeUndefined();
    expect((agentView['files'] as { other_text?: boolean }[])[0]?.other_text).toBe(true);

    // The agent commits a write to geometry.py: routes.py's calls now miss an argument, and the
    // editor is told so (for its own text, unsaved line included).
    ok(await agent.call('apply_edit', { file_path: GEOMETRY, old_text: 'def distance(a: Point, b: Point) -> float:', new_text: 'def distance(a: Point, b: Point, c: Point) -> float:' }));
    await waitUntil(
      () => (latest(editor, routesUri) ?? []).some((d) => /"c"/.test(typeof d.message === 'string' ? d.message : d.message.value) && d.range.start.line === 6),
      60_000,
      'the editor to be pushed diagnostics that reflect the agent\'s write',
    );
    expect((latest(editor, routesUri) ?? []).some((d) => d.range.start.line === unsavedLine)).toBe(true);

    // A clean end: shutdown, exit, and the relay exits 0; the broker lives on for the agent.
    await editor.rpc.sendRequest('shutdown');
    await editor.rpc.sendNotification('exit');
    await waitUntil(() => editor.child.exitCode !== null, 15_000, 'agent-lsp lsp to exit');
    expect(editor.child.exitCode).toBe(0);
    expect(isAlive(info.broker.pid)).toBe(true);
  });

  it('typescript: the editor\'s unsaved text stays out of the agent\'s exact diagnostics', async () => {
    const home = scope.home();
    const root = scope.root('ts-basic');
    const file = 'ts-basic/src/shapes.ts';
    const agent = await scope.front(home);
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'typescript' }));
    const baseline = ok(await agent.call('get_diagnostics', { file_path: file }));

    const editor = startEditor(home, root, 'typescript');
    editors.push(editor);
    await editor.rpc.sendRequest<InitializeResult>('initialize', { processId: process.pid, rootUri: pathToUri(root), capabilities: { textDocument: { publishDiagnostics: { versionSupport: true } } } });
    await editor.rpc.sendNotification('initialized', {});
    const uri = pathToUri(join(root, file));
    const disk = readFileSync(join(root, file), 'utf8');
    const unsavedLine = disk.split('\n').length - (disk.endsWith('\n') ? 1 : 0);
    await editor.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text: `${disk}const unsavedOnly: number = "typed in the editor";\n` } });
    await waitUntil(() => (latest(editor, uri) ?? []).some((d) => d.range.start.line === unsavedLine), 60_000, 'the editor to see its unsaved line\'s error');

    const answer = ok(await agent.call('get_diagnostics', { file_path: file }));
    expect(answer['total']).toBe(baseline['total']);
    expect((answer['diagnostics'] as { line: number }[]).some((d) => d.line === unsavedLine + 1)).toBe(false);
    expect((answer['files'] as { other_text?: boolean }[])[0]?.other_text).toBe(true);
    expect(serverPids(home, TYPESCRIPT_LANGUAGE_SERVER)).toHaveLength(1);
  });
});

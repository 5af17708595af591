// get_document_highlights and prepare_rename against the real pyright and typescript-language-server.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/paths.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { copyFixture, span } from './workspaceCopy.js';

const SCALE_PY = [
  'def scale(values: list[float], factor: float) -> list[float]:',
  '    result = []',
  '    for v in values:',
  '        result.append(v * factor)',
  '    café = 1; result = sorted(result)',
  '    return result',
  '',
].join('\n');

const SCALE_TS = [
  'export function scale(values: number[], factor: number): number[] {',
  '  let result: number[] = [];',
  '  for (const v of values) result.push(v * factor);',
  "  const café = '😀'; result = result.sort();",
  '  return result;',
  '}',
  '',
].join('\n');

describe.each([
  { language: 'python', fixture: 'python-basic', file: 'app/scale.py', text: SCALE_PY, keyword: 'return', library: 'sorted', writeKind: 'write' },
  // typescript-language-server maps tsserver's writtenReference to Read (only a `definition` span is Write).
  { language: 'typescript', fixture: 'ts-basic', file: 'src/scale.ts', text: SCALE_TS, keyword: 'return', library: 'push', writeKind: 'read' },
])('$language', ({ fixture, file, text, keyword, library, writeKind }) => {
  let agent: AgentLspClient;
  let ws: { root: string; remove(): void };
  const lineOf = (needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

  beforeAll(async () => {
    ws = copyFixture(fixture, { [file]: text });
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: ws.root }));
  });
  afterAll(async () => {
    await agent.close();
    ws.remove();
  });

  it('get_document_highlights lists every occurrence in the file with its exact range and kind', async () => {
    const data = ok(await agent.call('get_document_highlights', { file_path: file, position_pattern: 'return @@result' }));
    const declared = lineOf('result = []') || lineOf('let result');
    const loop = lineOf('.push(') || lineOf('.append(');
    const sorted = lineOf('café');
    const returned = lineOf('return result');
    const writes = [span(text, declared, 'result'), span(text, sorted, 'result')].map((r) => ({ ...r, kind: writeKind }));
    const reads = [span(text, loop, 'result'), span(text, sorted, 'result', 2), span(text, returned, 'result')].map((r) => ({ ...r, kind: 'read' }));
    const expected = [...writes, ...reads].sort((a, b) => a.line - b.line || a.column - b.column);
    expect(data['highlights']).toEqual(expected);
    expect(data['total']).toBe(5);
    expect(data['file']).toBe(file);
  });

  it('prepare_rename on a symbol gives its range and current name', async () => {
    const data = ok(await agent.call('prepare_rename', { file_path: file, position_pattern: 'return res@@ult' }));
    expect(data).toMatchObject({ renameable: true, placeholder: 'result', range: span(text, lineOf('return result'), 'result') });
  });

  it('prepare_rename on whitespace says there is nothing to rename, as a normal answer', async () => {
    const answer = await agent.call('prepare_rename', { file_path: file, line: lineOf('return result'), column: 1 });
    expect(answer.isError).toBe(false);
    expect(answer.data['renameable']).toBe(false);
    expect(answer.text).toMatch(/^cannot rename here: no identifier at this position/);
  });

  it('prepare_rename on a keyword is refused with a reason', async () => {
    const answer = await agent.call('prepare_rename', { file_path: file, position_pattern: `@@${keyword} result` });
    expect(answer.isError).toBe(false);
    expect(answer.data['renameable']).toBe(false);
    expect(answer.data['reason']).toMatch(/^cannot rename here: /);
  });

  it('prepare_rename on a library symbol is refused with a reason', async () => {
    const answer = await agent.call('prepare_rename', { file_path: file, position_pattern: `@@${library}(` });
    expect(answer.isError).toBe(false);
    expect(answer.data['renameable']).toBe(false);
    expect(answer.data['reason']).toMatch(/standard TypeScript library|defined outside the workspace|library symbol/);
  });
});

describe('prepare_rename on a server without prepareRename', () => {
  it('says so plainly, as a normal answer, and points at rename_symbol dry_run', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-nav2-fault-')));
    const config = join(dir, 'servers.json');
    writeFileSync(config, JSON.stringify({ servers: [{ language_id: 'fault', extensions: ['.fault'], command: [process.execPath, join(FIXTURES, 'fault-server', 'server.mjs')] }] }));
    writeFileSync(join(dir, 'calm.fault'), 'calm words\n');
    const agent = await startAgentLsp({ args: ['--config', config], env: { FAULT_RENAME: '1' } });
    try {
      ok(await agent.call('start_lsp', { root_dir: dir }));
      const answer = await agent.call('prepare_rename', { file_path: 'calm.fault', line: 1, column: 2 });
      expect(answer.isError).toBe(false);
      expect(answer.data).toMatchObject({ ready: true, renameable: false });
      expect(answer.data['reason']).toMatch(/^cannot rename here: .+ cannot check a rename in advance \(no prepareRename\); rename_symbol with dry_run: true shows what a rename would change\.$/);
    } finally {
      await agent.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

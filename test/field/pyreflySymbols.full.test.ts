// find_symbol with pyrefly on Django 3.2, full tier (issue 28): pyrefly builds its workspace index
// in the background after start-up and answered workspace/symbol from it alone, [] until it was
// built (~20-30 s on Django on this 2-core machine under load: too long for the quick tier; the quick
// tier asks the same of the small fixture, test/languages/concurrentQueries.test.ts). Truth: Python's ast.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, type AgentLspClient } from '../helpers/mcpClient.js';
import type { Corpus } from './corpora.js';
import { classDefinitions, djangoFor, pyreflyFront, WAIT, type Found } from './pyreflyDjango.js';

const whole = djangoFor('its index covers the workspace');
describe.skipIf(!whole.c)(whole.title, () => {
  const c = whole.c as Corpus;
  let agent: AgentLspClient;
  beforeAll(async () => {
    // Without Debian's dangling jquery links pyrefly's walk finds every file.
    execFileSync('find', [c.root, '-xtype', 'l', '-delete']);
    agent = await pyreflyFront(c.root);
  }, 180_000);
  afterAll(async () => {
    await agent?.close();
    c?.dispose();
  });

  it('a search asked before any file is open lists every class of the name, complete (it answered "No symbol(s)")', async () => {
    const truth = classDefinitions(c.root, 'SessionBase');
    expect(truth.length).toBeGreaterThan(0);
    const data = ok(await agent.call('find_symbol', { query: 'SessionBase', ...WAIT }));
    const exact = (data['symbols'] as Found[]).filter((s) => s.name === 'SessionBase').map((s) => `${s.file}:${s.line}`).sort();
    expect(exact).toEqual(truth);
    expect(data['complete']).toBe(true);
  }, 180_000);
});


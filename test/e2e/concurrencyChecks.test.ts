// The checks the lsp-concurrency-audit skill needs (the original agent-lsp's): find_callers with
// cross_concurrent lists the incoming calls that run in another goroutine (a go statement, a go
// func literal, an errgroup-style .Go(func literal)) and not those that do not (a plain literal, a
// direct call, text in a string); blast_radius (and its original name get_change_impact) says
// sync_guarded for a Go type holding a mutex and for its methods, not for a type whose only mutex is
// in a comment — with gopls on a module written here. For Python the answer says it was not computed.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { EXAMPLE_WORKSPACE } from '../helpers/paths.js';

const HUB = `package conc

import "sync"

type Hub struct {
	mu    sync.Mutex
	count int
}

func (h *Hub) Add() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.count++
}

type Plain struct {
	subscribers []string // a sync.Mutex in a comment guards nothing
}

func (p *Plain) Subscribe(name string) {
	p.subscribers = append(p.subscribers, name)
}

type group struct{}

func (g *group) Go(f func() error) { _ = f() }

func Run(h *Hub, p *Plain, g *group) {
	go h.Add()
	go func() {
		p.Subscribe("goroutine")
	}()
	g.Go(func() error {
		p.Subscribe("errgroup")
		return nil
	})
	later := func() { p.Subscribe("plain literal") }
	later()
	p.Subscribe("direct")
	s := "go p.Subscribe("
	_ = s
}
`;

interface Concurrent {
  name: string;
  pattern: string;
  call_site: { file: string; line: number; column: number };
}

const installed = onPath('gopls');
if (!installed) console.warn('gopls is not installed: the Go concurrency checks did not run (go install golang.org/x/tools/gopls@latest)');

describe.skipIf(!installed)(installed ? 'concurrency checks with gopls' : 'concurrency checks with gopls (gopls NOT INSTALLED — did not run)', () => {
  let agent: AgentLspClient;
  let root: string;

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-conc-')));
    writeFileSync(join(root, 'go.mod'), 'module conc\n\ngo 1.21\n');
    writeFileSync(join(root, 'hub.go'), HUB);
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root }));
  }, 120_000);
  afterAll(async () => {
    await agent.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('find_callers cross_concurrent: the calls in a go func literal and a .Go(func literal), not the plain literal, the direct call or the string', async () => {
    const r = ok(await agent.call('find_callers', { file_path: 'hub.go', line: 20, column: 17, direction: 'incoming', cross_concurrent: true }));
    expect((r['calls'] as { call_sites: unknown[] }[]).flatMap((c) => c.call_sites)).toHaveLength(4);
    const concurrent = r['concurrent_callers'] as Concurrent[];
    expect(concurrent.map((c) => [c.name, c.pattern, c.call_site.line]).sort()).toEqual([
      ['Run', '.Go(func literal)', 34],
      ['Run', 'go func literal', 31],
    ]);
  }, 120_000);

  it('find_callers cross_concurrent: a go statement', async () => {
    const r = ok(await agent.call('find_callers', { file_path: 'hub.go', line: 10, column: 15, cross_concurrent: true }));
    expect(r['concurrent_callers']).toEqual([expect.objectContaining({ name: 'Run', pattern: 'go statement', call_site: { file: 'hub.go', line: 29, column: 7 } })]);
    const plain = ok(await agent.call('find_callers', { file_path: 'hub.go', line: 10, column: 15 }));
    expect(plain['concurrent_callers']).toBeUndefined();
  }, 60_000);

  it('blast_radius, called by the original\'s get_change_impact with scope all: sync_guarded for Hub and (*Hub).Add only', async () => {
    const r = ok(await agent.call('get_change_impact', { changed_files: ['hub.go'], scope: 'all' }));
    const guarded = Object.fromEntries((r['symbols'] as { name: string; sync_guarded?: boolean }[]).map((s) => [s.name, s.sync_guarded]));
    expect(guarded).toMatchObject({ Hub: true, '(*Hub).Add': true, Plain: false, '(*Plain).Subscribe': false, Run: false });
    const exported = ok(await agent.call('blast_radius', { changed_files: ['hub.go'], scope: 'exported' }));
    expect((exported['symbols'] as { name: string }[]).map((s) => s.name)).not.toContain('group');
  }, 60_000);
});

describe('concurrency checks where they are not computed (pyright)', () => {
  it('find_callers cross_concurrent on Python says the call sites were not examined, and lists none', async () => {
    const agent = await startAgentLsp();
    try {
      ok(await agent.call('start_lsp', { root_dir: EXAMPLE_WORKSPACE }));
      const r = ok(await agent.call('find_callers', { file_path: 'py/shop/pricing.py', line: 6, column: 5, cross_concurrent: true }));
      expect(r['concurrent_callers']).toEqual([]);
      expect(r['notes']).toContainEqual(expect.stringMatching(/computed for Go only.*\.py files were not examined/));
    } finally {
      await agent.close();
    }
  }, 120_000);
});

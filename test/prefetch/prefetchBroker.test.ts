// Speculative prefetch where the server runs in a broker daemon (the default for Python): the
// broker's own watcher tells the server of files written outside agent-lsp, which no notification
// of this front carries; the prefetcher's watcher must still make a cached answer unreachable.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerTestScope, EXPECTED_REFERENCES, PYTHON_DISTANCE } from '../helpers/brokers.js';
import { speculationStats as stats } from '../helpers/speculation.js';
import { ok, type AgentLspClient } from '../helpers/mcpClient.js';

const scope = new BrokerTestScope();

async function settled(agent: AgentLspClient): Promise<void> {
  for (let i = 0; i < 600 && (await stats(agent)).in_flight > 0; i++) await new Promise((r) => setTimeout(r, 50));
}

describe('speculative prefetch through a broker', () => {
  const fronts: { agent: AgentLspClient; root: string }[] = [];

  beforeAll(async () => {
    for (const prefetch of ['on', 'off']) {
      const root = scope.root('python-basic');
      const agent = await scope.front(scope.home(), ['--prefetch', prefetch]);
      ok(await agent.call('start_lsp', { root_dir: root }));
      fronts.push({ agent, root });
    }
  });
  afterAll(() => scope.cleanup());

  it('answers a repeated query from the cache, and a file created outside (never opened) makes it a miss with the same answer as prefetch off', async () => {
    const [on, off] = fronts as [(typeof fronts)[0], (typeof fronts)[0]];
    const refs = async (f: (typeof fronts)[0]) => {
      const data = ok(await f.agent.call('find_references', PYTHON_DISTANCE));
      await settled(f.agent);
      return data;
    };
    const first = await refs(on);
    expect(first['total']).toBe(EXPECTED_REFERENCES);
    expect(await refs(off)).toEqual(first);
    const again = await refs(on);
    expect(again).toEqual(first);
    const warm = await stats(on.agent);
    expect(warm.hits).toBeGreaterThanOrEqual(1);

    for (const f of fronts) writeFileSync(join(f.root, 'python-basic/app/extra.py'), 'from app.geometry import Point, distance\n\nFAR = distance(Point(0.0, 0.0), Point(9.0, 9.0))\n');
    // Once the server knows of the new file (prefetch off sees it), the cached answer is not served.
    let afterOff: Record<string, unknown> = first;
    for (let i = 0; i < 100 && afterOff['total'] === EXPECTED_REFERENCES; i++) afterOff = await refs(off);
    expect(afterOff['total']).toBeGreaterThan(EXPECTED_REFERENCES);
    const after = await refs(on);
    expect(after).toEqual(afterOff);
    expect((after['locations'] as { file: string }[]).some((l) => l.file === 'python-basic/app/extra.py')).toBe(true);
    const s = await stats(on.agent);
    expect(s.hits).toBe(warm.hits);
    expect(s.misses).toBeGreaterThan(warm.misses);
  });
});

// When a front cannot attach to a broker it says why, not just "did not come up in time".
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope } from '../helpers/brokers.js';

describe('attaching to a broker that cannot start', () => {
  const scope = new BrokerTestScope();
  afterEach(async () => {
    await scope.cleanup();
  });

  it('reports that the broker exited at start, with its log tail naming the server that would not start', async () => {
    const home = scope.home();
    const root = scope.root();
    writeFileSync(join(root, 'a.quit'), 'anything\n');
    const config = join(root, 'servers.json');
    // A "server" that exits before it answers initialize: the broker gives up and exits.
    const command = [process.execPath, '-e', 'process.stderr.write("refusing to serve\\n"); process.exit(3)'];
    writeFileSync(config, JSON.stringify({ servers: [{ language_id: 'quitter', extensions: ['.quit'], command }] }));
    const front = await scope.front(home, ['--daemon', 'always', '--config', config]);
    const answer = await front.call('start_lsp', { root_dir: root, language_id: 'quitter' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/did not come up: it exited at start/);
    expect(answer.text).toMatch(/language server failed to start/);
    expect(answer.text).not.toMatch(/within \d+ s/);
  });
});

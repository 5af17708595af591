// Through a broker, find_references right after start_lsp is complete, as in direct mode: the
// broker's readiness reaches the front and a partial answer is never presented as complete.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope, brokerPids, readyDaemon } from '../helpers/brokers.js';
import { generatePythonProject, generateTypeScriptProject, type GeneratedProject } from '../helpers/generateFixtures.js';
import { ok } from '../helpers/mcpClient.js';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

function countByFile(locations: readonly { file: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const l of locations) counts[l.file] = (counts[l.file] ?? 0) + 1;
  return counts;
}

const languages = [
  { name: 'Python (pyright)', language: 'python', generate: generatePythonProject },
  { name: 'TypeScript (tsserver)', language: 'typescript', generate: generateTypeScriptProject },
] as const;

describe.each(languages)('find_references through a new $name broker', ({ language, generate }) => {
  it('asked right after start_lsp, returns every reference in every file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-lsp-broker-completeness-'));
    scope.dirs.push(dir);
    const project: GeneratedProject = generate(dir);
    expect(project.sourceFiles).toBeGreaterThanOrEqual(300);
    const home = scope.home();

    const front = await scope.front(home);
    ok(await front.call('start_lsp', { root_dir: project.root }));
    const refs = ok(await front.call('find_references', { file_path: project.definingFile, position_pattern: project.positionPattern }));
    const why = `find_references answered ${JSON.stringify({ ...refs, locations: '…' })}`;
    expect(refs['ready'], why).toBe(true);
    expect(refs['complete'], why).toBe(true);
    expect(refs['total'], why).toBe(project.expectedReferences);
    expect(refs['files'], why).toBe(project.expectedFiles);
    expect(countByFile(refs['locations'] as { file: string }[])).toEqual(project.expectedByFile);

    // The answer came through a broker, not a server of the front's own.
    const info = await readyDaemon(home, language);
    expect(brokerPids(home)).toEqual([info.broker.pid]);
  });
});

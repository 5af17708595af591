import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCustomServers } from '@agent-lsp/lsp';
import { loadRunnerConfig } from './runnerConfig.js';

const dirs: string[] = [];
function configFile(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-lsp-runner-config-'));
  dirs.push(dir);
  const path = join(dir, 'agent-lsp.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the config file\'s runners section', () => {
  it('reads build and test argv per language, and the flag that selects tests by name', () => {
    const path = configFile({ servers: [], runners: { python: { test: ['python3', '-m', 'pytest', '-x'], test_name_flag: '-k' }, go: { build: ['go', 'vet', './...'] } } });
    expect(loadRunnerConfig(path)).toEqual({ python: { test: ['python3', '-m', 'pytest', '-x'], test_name_flag: '-k' }, go: { build: ['go', 'vet', './...'] } });
  });

  it('is empty when the file has only servers, and a file with only runners configures no server', () => {
    expect(loadRunnerConfig(configFile({ servers: [] }))).toEqual({});
    expect(loadCustomServers(configFile({ runners: { go: { test: ['go', 'test', './...'] } } }))).toEqual([]);
  });

  it('refuses a shell string, an unknown language and an empty command, naming the field', () => {
    expect(() => loadRunnerConfig(configFile({ runners: { python: { test: 'pytest -x' } } }))).toThrow(/runners\.python\.test must be a non-empty list of strings \(argv, no shell\)/);
    expect(() => loadRunnerConfig(configFile({ runners: { cobol: { test: ['x'] } } }))).toThrow(/runners\.cobol: unknown language \(known: python, typescript, go, cpp\)/);
    expect(() => loadRunnerConfig(configFile({ runners: { go: { build: [] } } }))).toThrow(/runners\.go\.build must be a non-empty list/);
    expect(() => loadRunnerConfig(configFile('{ not json'))).toThrow(/is invalid/);
  });
});

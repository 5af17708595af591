import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultBrokerMemoryBudget, formatBytes, parseMemorySize, resolveBrokerMemoryBudget } from './memoryBudget.js';

describe('parseMemorySize', () => {
  it('reads binary units, fractions, suffixes and plain bytes', () => {
    expect(parseMemorySize('4G')).toBe(4 * 2 ** 30);
    expect(parseMemorySize('512M')).toBe(512 * 2 ** 20);
    expect(parseMemorySize('512m')).toBe(512 * 2 ** 20);
    expect(parseMemorySize('1.5GiB')).toBe(1.5 * 2 ** 30);
    expect(parseMemorySize('100MB')).toBe(100 * 2 ** 20);
    expect(parseMemorySize('2048k')).toBe(2048 * 1024);
    expect(parseMemorySize('1T')).toBe(2 ** 40);
    expect(parseMemorySize('1073741824')).toBe(2 ** 30);
    expect(parseMemorySize('1')).toBe(1);
    expect(parseMemorySize(' 7 B ')).toBe(7);
  });

  it('off, none and unlimited mean no budget', () => {
    for (const word of ['off', 'OFF', 'none', 'unlimited']) expect(parseMemorySize(word)).toBe(Infinity);
  });

  it('refuses what is not a positive size, saying what to write', () => {
    for (const bad of ['', 'abc', '4x', '-1G', '4 G G', 'G', '1e9', '0', '0.2', '0M']) {
      expect(() => parseMemorySize(bad), bad).toThrow(/size like|4G, 512M/);
    }
  });
});

describe('resolveBrokerMemoryBudget', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  function config(content: unknown): string {
    const dir = mkdtempSync(join(tmpdir(), 'agent-lsp-budget-'));
    dirs.push(dir);
    const path = join(dir, 'agent-lsp.json');
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  }

  it('defaults to half the RAM', () => {
    expect(defaultBrokerMemoryBudget(8 * 2 ** 30)).toBe(4 * 2 ** 30);
    expect(resolveBrokerMemoryBudget({ env: {} })).toEqual({ bytes: Math.floor(totalmem() / 2), source: 'default' });
  });

  it('takes the flag over the environment over the config file', () => {
    const path = config({ max_broker_memory: '3G' });
    const env = { AGENT_LSP_MAX_BROKER_MEMORY: '2G' };
    expect(resolveBrokerMemoryBudget({ flag: '1G', env, configPath: path })).toEqual({ bytes: 2 ** 30, source: 'flag' });
    expect(resolveBrokerMemoryBudget({ env, configPath: path })).toEqual({ bytes: 2 * 2 ** 30, source: 'env' });
    expect(resolveBrokerMemoryBudget({ env: {}, configPath: path })).toEqual({ bytes: 3 * 2 ** 30, source: 'config' });
    expect(resolveBrokerMemoryBudget({ env: {}, configPath: config({ max_broker_memory: 1000 }) })).toEqual({ bytes: 1000, source: 'config' });
    expect(resolveBrokerMemoryBudget({ env: {}, configPath: config({ servers: [] }) }).source).toBe('default');
  });

  it('names where an invalid value came from', () => {
    expect(() => resolveBrokerMemoryBudget({ flag: 'lots', env: {} })).toThrow(/--max-broker-memory: "lots" is not a size/);
    expect(() => resolveBrokerMemoryBudget({ env: { AGENT_LSP_MAX_BROKER_MEMORY: '-3' } })).toThrow(/AGENT_LSP_MAX_BROKER_MEMORY: "-3"/);
    const path = config({ max_broker_memory: 'much' });
    expect(() => resolveBrokerMemoryBudget({ env: {}, configPath: path })).toThrow(new RegExp(`max_broker_memory in ${path}: "much"`));
    expect(() => resolveBrokerMemoryBudget({ env: {}, configPath: config({ max_broker_memory: true }) })).toThrow(/must be a size like "4G"/);
    expect(() => resolveBrokerMemoryBudget({ env: {}, configPath: config('{not json') })).toThrow(/could not be read as JSON/);
  });
});

describe('formatBytes', () => {
  it('prints binary units', () => {
    expect(formatBytes(1)).toBe('1 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(300 * 2 ** 20)).toBe('300 MiB');
    expect(formatBytes(12 * 2 ** 30)).toBe('12 GiB');
    expect(formatBytes(Infinity)).toBe('no budget');
  });
});

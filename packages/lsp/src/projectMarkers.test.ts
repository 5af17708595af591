import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diskMarkerFiles, type MarkerFiles } from './projectMarkers.js';
import type { ServerDefinition } from './serverProfile.js';
import { ServerRegistry } from './serverRegistry.js';

/** A server that takes .ts files only under a package.json depending on vue, installed. */
const vueLike: ServerDefinition = {
  id: 'vue-like',
  displayName: 'vue-like-language-server',
  languageIds: ['vue', 'typescript'],
  extensions: { '.vue': 'vue', '.ts': 'typescript' },
  rootMarkers: [],
  claimsUnder: ['package.json#vue'],
  readiness: 'canary',
  installHint: 'install vue-like',
  resolve: () => ({ command: ['vue-like'], source: 'PATH', settings: {}, profileFingerprint: 'v', details: {} }),
};

/** The disk, with the package.json reads counted. */
function countingFiles(): MarkerFiles & { reads: string[] } {
  const reads: string[] = [];
  return { reads, identity: (path) => diskMarkerFiles.identity(path), read: (path) => (reads.push(path), diskMarkerFiles.read(path)) };
}

describe('ServerRegistry.forFile: package.json markers are read once while they stay the same', () => {
  const root = mkdtempSync(join(tmpdir(), 'agent-lsp-markers-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const routeOf = (reg: ServerRegistry, path: string) => reg.forFile(path)?.server.id;

  it('a second routing in the same project does not read its package.json again', () => {
    const app = join(root, 'same', 'app');
    mkdirSync(join(app, 'src'), { recursive: true });
    writeFileSync(join(app, 'package.json'), JSON.stringify({ dependencies: { vue: '^3.5.0' } }));
    const files = countingFiles();
    const reg = new ServerRegistry([vueLike], { markerFiles: files });
    expect(routeOf(reg, join(app, 'src', 'a.ts'))).toBe('vue-like');
    expect(files.reads).toEqual([join(app, 'package.json')]);
    expect(routeOf(reg, join(app, 'src', 'a.ts'))).toBe('vue-like');
    expect(routeOf(reg, join(app, 'src', 'b.ts'))).toBe('vue-like');
    expect(files.reads).toEqual([join(app, 'package.json')]);
  });

  it('sees the vue dependency added and removed at the next routing (same size included)', () => {
    const app = join(root, 'changing');
    mkdirSync(app, { recursive: true });
    const manifest = join(app, 'package.json');
    const file = join(app, 'main.ts');
    writeFileSync(manifest, JSON.stringify({ dependencies: { vux: '1' } }));
    const files = countingFiles();
    const reg = new ServerRegistry([vueLike], { markerFiles: files });
    expect(routeOf(reg, file)).not.toBe('vue-like');
    // The same length: only the file's times tell the edit apart.
    writeFileSync(manifest, JSON.stringify({ dependencies: { vue: '1' } }));
    expect(routeOf(reg, file)).toBe('vue-like');
    writeFileSync(manifest, JSON.stringify({ devDependencies: { react: '^19.0.0' } }));
    expect(routeOf(reg, file)).not.toBe('vue-like');
    writeFileSync(manifest, JSON.stringify({ peerDependencies: { vue: '^3.5.0' } }));
    expect(routeOf(reg, file)).toBe('vue-like');
    rmSync(manifest);
    expect(routeOf(reg, file)).not.toBe('vue-like');
    expect(files.reads).toHaveLength(4);
  });
});

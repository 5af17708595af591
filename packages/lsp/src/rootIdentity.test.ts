import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RootIdentity } from './rootIdentity.js';

describe('RootIdentity', () => {
  const parent = mkdtempSync(join(tmpdir(), 'agent-lsp-root-identity-'));
  afterEach(() => rmSync(parent, { recursive: true, force: true }));

  it('sees a root removed and made again at once, though the new directory gets the old inode', () => {
    const root = join(parent, 'repo');
    mkdirSync(root);
    writeFileSync(join(root, 'a.py'), 'x = 1\n');
    for (let i = 0; i < 5; i++) {
      const identity = new RootIdentity(root);
      expect(identity.replaced()).toBe(false);
      rmSync(root, { recursive: true, force: true });
      mkdirSync(root);
      writeFileSync(join(root, 'a.py'), 'x = 1\n');
      expect(identity.replaced(), `replacement ${i + 1}`).toBe(true);
    }
  });
});

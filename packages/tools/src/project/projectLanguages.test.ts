import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ServerRegistry } from '@agent-lsp/lsp';
import { hasProjectFor, projectLanguages } from './projectLanguages.js';

const registry = new ServerRegistry();
const python = registry.forLanguage('python');
const typescript = registry.forLanguage('typescript');
let root: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-projects-')));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function file(rel: string, content = ''): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}

describe('hasProjectFor', () => {
  it('Python: a project file, or a source file at the top or in a top-level directory', () => {
    file('tools/scripts/mod.py');
    expect(hasProjectFor(root, python)).toBe(false);
    file('manage.py');
    expect(hasProjectFor(root, python)).toBe(true);
  });

  it('Python: a package at the top (a checkout of Django is django/ and nothing else)', () => {
    file('django/__init__.py');
    file('django/utils/functional.py');
    expect(hasProjectFor(root, python)).toBe(true);
  });

  it('TypeScript/JavaScript: tsconfig, jsconfig or package.json at the top or one level down, never .js files alone', () => {
    file('static/js/app.js');
    expect(hasProjectFor(root, typescript)).toBe(false);
    file('frontend/package.json', '{}');
    expect(hasProjectFor(root, typescript)).toBe(true);
  });

  it('ignores markers in hidden and vendored directories', () => {
    file('node_modules/package.json', '{}');
    file('.venv/package.json', '{}');
    expect(hasProjectFor(root, typescript)).toBe(false);
  });
});

describe('projectLanguages', () => {
  it('leaves out a language whose files belong to no project of it', async () => {
    file('setup.py');
    file('app/models.py');
    file('app/static/admin.js');
    file('app/static/widgets.js');
    expect((await projectLanguages(root, registry)).map((s) => s.id)).toEqual(['pyright']);
  });
});

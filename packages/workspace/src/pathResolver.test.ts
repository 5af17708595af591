import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveDirectory, resolveFilePath } from './pathResolver.js';
import { userErrorFrom } from '../../../test/helpers/userErrors.js';

/**
 * A scratch area holding a workspace root `app/` and a directory `outside/` next to it, both
 * realpaths (as roots are once start_lsp has checked them).
 */
let scratch: string;
let root: string;
let outside: string;

beforeEach(() => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-paths-')));
  root = join(scratch, 'app');
  outside = join(scratch, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
});

afterEach(() => {
  rmSync(scratch, { recursive: true, force: true });
});

function file(path: string, content = ''): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  return path;
}

function link(path: string, target: string): string {
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(target, path);
  return path;
}

const NOTHING_OUTSIDE: ReadonlySet<string> = new Set();

/** Resolves `input` for a workspace whose only root is `app/`. */
function inApp(input: string, allowedOutside = NOTHING_OUTSIDE): string {
  return resolveFilePath(input, [root], allowedOutside).path;
}


describe('resolveFilePath', () => {
  it('resolves a relative path against the workspace root', () => {
    const main = file(join(root, 'src', 'main.py'));
    expect(inApp('src/main.py')).toBe(main);
  });

  it('normalizes ./ and .. that stay inside the root', () => {
    const main = file(join(root, 'src', 'main.py'));
    expect(inApp('./src/../src/./main.py')).toBe(main);
  });

  it('accepts an absolute path inside the root', () => {
    const main = file(join(root, 'src', 'main.py'));
    expect(inApp(main)).toBe(main);
  });

  it('resolves a relative path against the first root only', () => {
    const second = join(scratch, 'second');
    file(join(second, 'only-here.py'));
    const err = userErrorFrom(() => resolveFilePath('only-here.py', [root, second], NOTHING_OUTSIDE));
    expect(err.code).toBe('file_not_found');
    expect(err.message).toContain(join(root, 'only-here.py'));
  });

  it('accepts a file in any of several roots', () => {
    const second = join(scratch, 'second');
    const lib = file(join(second, 'lib.py'));
    expect(resolveFilePath(lib, [root, second], NOTHING_OUTSIDE).path).toBe(lib);
  });

  it('reports a missing file with the path it looked for', () => {
    const err = userErrorFrom(() => inApp('src/missing.py'));
    expect(err.code).toBe('file_not_found');
    expect(err.message).toContain('src/missing.py does not exist');
    expect(err.message).toContain(join(root, 'src', 'missing.py'));
  });

  it('refuses a directory where a file is expected', () => {
    mkdirSync(join(root, 'src'));
    const err = userErrorFrom(() => inApp('src'));
    expect(err.code).toBe('invalid_argument');
    expect(err.message).toContain('not a regular file');
  });

  it('refuses a file outside every root, listing the roots', () => {
    const secret = file(join(outside, 'secret.py'));
    const err = userErrorFrom(() => inApp(secret));
    expect(err.code).toBe('outside_workspace');
    expect(err.message).toContain(secret);
    expect(err.message).toContain(`the workspace roots are: ${root}`);
  });

  it('refuses a relative path that climbs out of the root', () => {
    file(join(outside, 'secret.py'));
    expect(userErrorFrom(() => inApp('../outside/secret.py')).code).toBe('outside_workspace');
  });

  it('refuses a sibling directory whose name starts with the root name', () => {
    const lookalike = file(join(`${root}-old`, 'main.py'));
    expect(userErrorFrom(() => inApp(lookalike)).code).toBe('outside_workspace');
  });

  it('refuses a symlink inside the root that points outside it, naming where it leads', () => {
    const secret = file(join(outside, 'secret.py'));
    link(join(root, 'src', 'innocent.py'), secret);
    const err = userErrorFrom(() => inApp('src/innocent.py'));
    expect(err.code).toBe('outside_workspace');
    expect(err.message).toContain(`resolves to ${secret}`);
  });

  it('refuses a file reached through a symlinked directory that points outside', () => {
    file(join(outside, 'secret.py'));
    link(join(root, 'vendor'), outside);
    expect(userErrorFrom(() => inApp('vendor/secret.py')).code).toBe('outside_workspace');
  });

  it('accepts a symlink inside the root that points inside it, returning the realpath', () => {
    const real = file(join(root, 'src', 'real.py'));
    link(join(root, 'alias.py'), real);
    expect(inApp('alias.py')).toBe(real);
  });

  it('reports a dangling symlink as a missing file', () => {
    link(join(root, 'dangling.py'), join(root, 'gone.py'));
    expect(userErrorFrom(() => inApp('dangling.py')).code).toBe('file_not_found');
  });

  it('accepts an outside file that a server named in an answer', () => {
    const typeshed = file(join(outside, 'typeshed', 'builtins.pyi'));
    expect(inApp(typeshed, new Set([typeshed]))).toBe(typeshed);
  });

  it('accepts only the named outside file, not its neighbours', () => {
    const typeshed = file(join(outside, 'typeshed', 'builtins.pyi'));
    const neighbour = file(join(outside, 'typeshed', 'os.pyi'));
    expect(userErrorFrom(() => inApp(neighbour, new Set([typeshed]))).code).toBe('outside_workspace');
  });

  it('refuses a relative path when there is no workspace root', () => {
    const err = userErrorFrom(() => resolveFilePath('src/main.py', [], NOTHING_OUTSIDE));
    expect(err.code).toBe('no_workspace');
    expect(err.message).toContain('"src/main.py" is relative');
    expect(err.message).toContain('start_lsp');
  });

  it('accepts an absolute path when there is no workspace root yet', () => {
    const anywhere = file(join(outside, 'script.py'));
    expect(resolveFilePath(anywhere, [], NOTHING_OUTSIDE).path).toBe(anywhere);
  });

  it.each(['', '   '])('refuses the empty path %j', (input) => {
    const err = userErrorFrom(() => inApp(input));
    expect(err.code).toBe('invalid_argument');
    expect(err.message).toContain('file_path is empty');
  });
});

describe('resolveDirectory', () => {
  it('returns the realpath of an existing directory', () => {
    expect(resolveDirectory(root)).toBe(root);
  });

  it('follows a symlink to a directory', () => {
    const alias = link(join(scratch, 'alias'), root);
    expect(resolveDirectory(alias)).toBe(root);
  });

  it('resolves a relative directory against the current directory', () => {
    expect(resolveDirectory(relative(process.cwd(), root))).toBe(root);
  });

  it('refuses a missing directory, naming the argument', () => {
    const err = userErrorFrom(() => resolveDirectory(join(scratch, 'nope'), 'folder'));
    expect(err.code).toBe('file_not_found');
    expect(err.message).toBe(`folder ${join(scratch, 'nope')} does not exist.`);
  });

  it('refuses a file', () => {
    const notes = file(join(root, 'notes.txt'));
    const err = userErrorFrom(() => resolveDirectory(notes));
    expect(err.code).toBe('invalid_argument');
    expect(err.message).toContain('root_dir');
    expect(err.message).toContain('is not a directory');
  });

  it('refuses an empty argument', () => {
    const err = userErrorFrom(() => resolveDirectory(' '));
    expect(err.code).toBe('invalid_argument');
    expect(err.message).toContain('root_dir is empty');
  });
});

import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectPythonInterpreter } from './pythonInterpreter.js';

/** A scratch area with a project root `project/` and an empty `bin/` to serve as PATH. */
let scratch: string;
let project: string;
let bin: string;

beforeEach(() => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-python-')));
  project = join(scratch, 'project');
  bin = join(scratch, 'bin');
  mkdirSync(project);
  mkdirSync(bin);
});

afterEach(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** Writes a stand-in interpreter (never run) with the given mode. */
function fakePython(path: string, mode = 0o755): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, '#!/bin/sh\nexit 0\n');
  chmodSync(path, mode);
  return path;
}

/** A virtual environment at `dir` with bin/python in it; returns the interpreter's path. */
function virtualenv(dir: string): string {
  return fakePython(join(dir, 'bin', 'python'));
}

describe('detectPythonInterpreter', () => {
  it('prefers the active virtualenv over .venv, venv and PATH', () => {
    const active = virtualenv(join(scratch, 'active-env'));
    virtualenv(join(project, '.venv'));
    virtualenv(join(project, 'venv'));
    fakePython(join(bin, 'python3'));
    expect(detectPythonInterpreter(project, { VIRTUAL_ENV: join(scratch, 'active-env'), PATH: bin })).toEqual({
      path: active,
      source: 'VIRTUAL_ENV',
    });
  });

  it('falls back to .venv when VIRTUAL_ENV has no bin/python', () => {
    mkdirSync(join(scratch, 'broken-env'));
    const dotVenv = virtualenv(join(project, '.venv'));
    expect(detectPythonInterpreter(project, { VIRTUAL_ENV: join(scratch, 'broken-env'), PATH: bin })).toEqual({
      path: dotVenv,
      source: '.venv',
    });
  });

  it('ignores an empty VIRTUAL_ENV', () => {
    const dotVenv = virtualenv(join(project, '.venv'));
    expect(detectPythonInterpreter(project, { VIRTUAL_ENV: '', PATH: bin })?.path).toBe(dotVenv);
  });

  it('prefers .venv over venv', () => {
    const dotVenv = virtualenv(join(project, '.venv'));
    virtualenv(join(project, 'venv'));
    expect(detectPythonInterpreter(project, { PATH: bin })).toEqual({ path: dotVenv, source: '.venv' });
  });

  it('uses venv when there is no .venv', () => {
    const venv = virtualenv(join(project, 'venv'));
    fakePython(join(bin, 'python3'));
    expect(detectPythonInterpreter(project, { PATH: bin })).toEqual({ path: venv, source: 'venv' });
  });

  it('looks for .venv in the given root, not in its parent', () => {
    virtualenv(join(scratch, '.venv'));
    expect(detectPythonInterpreter(project, { PATH: bin })).toBeUndefined();
  });

  it('falls back to python3 on PATH', () => {
    const python3 = fakePython(join(bin, 'python3'));
    fakePython(join(bin, 'python'));
    expect(detectPythonInterpreter(project, { PATH: bin })).toEqual({ path: python3, source: 'PATH' });
  });

  it('falls back to python on PATH when there is no python3', () => {
    const python = fakePython(join(bin, 'python'));
    expect(detectPythonInterpreter(project, { PATH: bin })).toEqual({ path: python, source: 'PATH' });
  });

  it('searches PATH entries in order', () => {
    const first = join(scratch, 'first');
    mkdirSync(first);
    const python3 = fakePython(join(first, 'python3'));
    fakePython(join(bin, 'python3'));
    expect(detectPythonInterpreter(project, { PATH: `${first}:${bin}` })?.path).toBe(python3);
  });

  it('skips a python3 on PATH that is not executable', () => {
    fakePython(join(bin, 'python3'), 0o644);
    const python = fakePython(join(bin, 'python'));
    expect(detectPythonInterpreter(project, { PATH: bin })?.path).toBe(python);
  });

  it('finds nothing when there is no virtualenv and nothing on PATH', () => {
    expect(detectPythonInterpreter(project, { PATH: bin })).toBeUndefined();
    expect(detectPythonInterpreter(project, {})).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { choosePythonServer, PYTHON_SERVERS, pythonServerFirst } from './pythonServerChoice.js';
import { ServerRegistry } from './serverRegistry.js';
import { userErrorFrom } from '../../../test/helpers/userErrors.js';

describe('choosePythonServer: --python-server > AGENT_LSP_PYTHON_SERVER > pyright', () => {
  it('defaults to pyright, prefers the flag to the environment, and takes jedi for jedi-language-server', () => {
    expect(choosePythonServer({})).toBe('pyright');
    expect(choosePythonServer({ env: 'ty' })).toBe('ty');
    expect(choosePythonServer({ flag: 'BasedPyright', env: 'ty' })).toBe('basedpyright');
    expect(choosePythonServer({ flag: 'jedi' })).toBe('jedi-language-server');
  });

  it('refuses a name that is not a Python server, naming the ones there are', () => {
    const error = userErrorFrom(() => choosePythonServer({ flag: 'mypy' }));
    expect(error.message).toContain('--python-server is "mypy"');
    for (const name of PYTHON_SERVERS) expect(error.message).toContain(name);
  });
});

describe('the chosen Python server takes .py files and language python', () => {
  it.each(PYTHON_SERVERS.filter((s) => s !== 'pyright'))('%s', (choice) => {
    const registry = new ServerRegistry(pythonServerFirst(choice));
    expect(registry.forFile('/w/app/main.py')?.server.id).toBe(choice);
    expect(registry.forLanguage('python').id).toBe(choice);
    // A broker is spawned with the server id and finds the same profile by it.
    expect(new ServerRegistry().forLanguage(choice).id).toBe(choice);
  });

  it('leaves pyright, the default, as it is', () => {
    expect(pythonServerFirst('pyright')).toEqual([]);
    expect(new ServerRegistry().forFile('/w/app/main.py')?.server.id).toBe('pyright');
  });
});

import { describe, expect, it } from 'vitest';
import { readableServerVersion } from './serverInfoVersion.js';

describe('readableServerVersion', () => {
  it("takes gopls's own version out of the build information it sends", () => {
    const gopls = JSON.stringify({ GoVersion: 'go1.26.8', Path: 'golang.org/x/tools/gopls', Main: { Path: 'golang.org/x/tools/gopls', Version: 'v0.23.0' }, Deps: [{ Path: 'golang.org/x/mod', Version: 'v0.37.0' }], Version: 'v0.23.0' });
    expect(readableServerVersion(gopls)).toBe('v0.23.0');
  });

  it('leaves a plain version, and JSON without one, as they are', () => {
    expect(readableServerVersion('1.1.414')).toBe('1.1.414');
    expect(readableServerVersion('{"build": 3}')).toBe('{"build": 3}');
    expect(readableServerVersion('{not json')).toBe('{not json');
    expect(readableServerVersion(undefined)).toBeUndefined();
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './serveHttp.js';

const HTTP_DOC = new URL('../../../../docs/http.md', import.meta.url);

// test/http/slowBody.test.ts cuts a dripping request off at a short --request-timeout; the default
// it stands in for is checked here, against what docs/http.md promises.
describe('serve --http request timeout', () => {
  it('is 30 s unless --request-timeout says otherwise, as docs/http.md says', () => {
    expect(DEFAULT_REQUEST_TIMEOUT_MS).toBe(30_000);
    expect(readFileSync(HTTP_DOC, 'utf8')).toMatch(/\| `--request-timeout <ms>` \| 30 s \|/);
  });
});

import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryHome } from '../helpers/testHome.js';
import { startHttpFront, type HttpFront } from './httpFront.js';

/**
 * docs/http.md: receiving a request (headers and body) may take at most --request-timeout (30 s by
 * default). The front here is given 3 s, so the test does not idle for half a minute; Node's own
 * check (every 30 s unless told otherwise) would cut the request off only at ~30 s, long after.
 * The default is checked by packages/server/src/http/requestTimeout.test.ts.
 */
const REQUEST_LIMIT_MS = 3_000;

describe('serve --http: a body that drips in (slowloris)', () => {
  const home = temporaryHome();
  let front: HttpFront;
  beforeAll(async () => {
    front = await startHttpFront(home.home, { args: ['--request-timeout', String(REQUEST_LIMIT_MS)] });
  });
  afterAll(async () => {
    await front?.stop();
    home.remove();
  });

  it('is cut off once the request has taken --request-timeout, not up to half a minute later', async () => {
    const started = Date.now();
    const closedAfter = await new Promise<number>((resolve, reject) => {
      const socket = connect(Number(front.url.port), front.url.hostname, () => {
        socket.write(
          [`POST ${front.url.pathname} HTTP/1.1`, `Host: ${front.url.host}`, 'Content-Type: application/json', `Authorization: Bearer ${front.token}`, 'Content-Length: 100000', '', '{'].join('\r\n'),
        );
      });
      // One byte every 200 ms: the connection is never idle, the request never complete.
      const drip = setInterval(() => socket.writable && socket.write(' '), 200);
      const giveUp = setTimeout(() => socket.destroy(new Error(`still open after ${REQUEST_LIMIT_MS + 12_000} ms`)), REQUEST_LIMIT_MS + 12_000);
      socket.on('data', () => undefined);
      socket.once('close', () => {
        clearInterval(drip);
        clearTimeout(giveUp);
        resolve(Date.now() - started);
      });
      socket.once('error', (err) => {
        if (err.message.startsWith('still open')) reject(err);
      });
    });
    expect(closedAfter).toBeGreaterThanOrEqual(REQUEST_LIMIT_MS - 1000);
  }, 60_000);
});

import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryHome } from '../helpers/testHome.js';
import { startHttpFront, type HttpFront } from './httpFront.js';

/** docs/http.md: receiving a request (headers and body) may take at most 30 s. */
const REQUEST_LIMIT_MS = 30_000;

describe('serve --http: a body that drips in (slowloris)', () => {
  const home = temporaryHome();
  let front: HttpFront;
  beforeAll(async () => {
    front = await startHttpFront(home.home);
  });
  afterAll(async () => {
    await front?.stop();
    home.remove();
  });

  it('is cut off once the request has taken 30 s, not half a minute later', async () => {
    const started = Date.now();
    const closedAfter = await new Promise<number>((resolve, reject) => {
      const socket = connect(Number(front.url.port), front.url.hostname, () => {
        socket.write(
          [`POST ${front.url.pathname} HTTP/1.1`, `Host: ${front.url.host}`, 'Content-Type: application/json', `Authorization: Bearer ${front.token}`, 'Content-Length: 100000', '', '{'].join('\r\n'),
        );
      });
      // One byte every second: the connection is never idle, the request never complete.
      const drip = setInterval(() => socket.writable && socket.write(' '), 1000);
      const giveUp = setTimeout(() => socket.destroy(new Error('still open after 45 s')), 45_000);
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

import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { attachReadinessStrategy, createLogger, LspConnection, ServerCrashedError, type ServerTransport } from '@agent-lsp/lsp';
import { faultServerDefinition } from '../helpers/faultServer.js';

/**
 * A transport whose peer answers `initialize`, then stops taking bytes (EPIPE) without the stream
 * closing yet: what a client sees in the instant after a broker is killed.
 */
function transportThatBreaks(): { transport: ServerTransport; breakIt: () => void } {
  const input = new PassThrough();
  let broken = false;
  let seen = '';
  const output = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (broken) return callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      seen += chunk.toString();
      const id = /"id":(\d+),"method":"initialize"/.exec(seen)?.[1];
      if (id !== undefined) {
        seen = '';
        const body = JSON.stringify({ jsonrpc: '2.0', id: Number(id), result: { capabilities: {} } });
        input.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      }
      callback();
    },
  });
  const transport: ServerTransport = { input, output, pid: undefined, exited: new Promise(() => undefined), terminate: () => Promise.resolve() };
  return { transport, breakIt: () => (broken = true) };
}

describe('LspConnection when a write fails before the close is seen', () => {
  it('treats the peer as gone: the request fails with a crash error, and so do later ones', async () => {
    const { transport, breakIt } = transportThatBreaks();
    const server = faultServerDefinition();
    const resolved = server.resolve('/');
    if (!resolved) throw new Error('the fault server profile always resolves');
    const conn = await LspConnection.start({ transport, server, resolved, rootDir: '/tmp', workspaceFolders: ['/tmp'], logger: createLogger({ level: 'error' }), attachReadiness: attachReadinessStrategy });
    try {
      breakIt();
      await expect(conn.request('textDocument/hover', {}, { timeoutMs: 600_000 })).rejects.toBeInstanceOf(ServerCrashedError);
      expect(conn.state).toBe('crashed');
      await expect(conn.request('textDocument/definition', {}, { timeoutMs: 600_000 })).rejects.toThrow(/stopped unexpectedly \(connection lost: /);
    } finally {
      await conn.shutdown();
    }
  });
});

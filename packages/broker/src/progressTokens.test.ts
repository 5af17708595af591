import { describe, expect, it } from 'vitest';
import { isClientToken, namespaceTokens, ownToken, ServerProgressTokens } from './progressTokens.js';

describe('progress-token namespacing', () => {
  const a = 'agentLsp/c1/';
  const b = 'agentLsp/c12/';

  it('prefixes both token fields per client, keeping numbers and strings apart', () => {
    const out = namespaceTokens({ textDocument: { uri: 'file:///x' }, workDoneToken: 7, partialResultToken: '7' }, a) as Record<string, unknown>;
    expect(out).toEqual({ textDocument: { uri: 'file:///x' }, workDoneToken: 'agentLsp/c1/n:7', partialResultToken: 'agentLsp/c1/s:7' });
    expect(ownToken(out['workDoneToken'], a)).toBe(7);
    expect(ownToken(out['partialResultToken'], a)).toBe('7');
  });

  it('leaves params without tokens (and non-objects) untouched, the same object', () => {
    const params = { query: 'x' };
    expect(namespaceTokens(params, a)).toBe(params);
    expect(namespaceTokens(null, a)).toBeNull();
    expect(namespaceTokens([1, 2], a)).toEqual([1, 2]);
    expect(namespaceTokens('s', a)).toBe('s');
  });

  it('gives a token back only to its own client, even when one prefix starts another', () => {
    const token = namespaceTokens({ workDoneToken: 'w' }, b) as { workDoneToken: string };
    expect(ownToken(token.workDoneToken, b)).toBe('w');
    expect(ownToken(token.workDoneToken, a)).toBeUndefined();
    // c1's prefix is not a prefix of c12's tokens: "agentLsp/c1/" vs "agentLsp/c12/".
    expect(token.workDoneToken.startsWith(a)).toBe(false);
  });

  it('tells client tokens from the server\'s own, and keeps a token that contains the marker', () => {
    expect(isClientToken('agentLsp/c3/s:x')).toBe(true);
    expect(isClientToken('pyright-progress-1')).toBe(false);
    expect(isClientToken(42)).toBe(false);
    const tricky = namespaceTokens({ workDoneToken: 'agentLsp/c9/s:evil' }, a) as { workDoneToken: string };
    expect(ownToken(tricky.workDoneToken, a)).toBe('agentLsp/c9/s:evil');
    expect(ownToken(tricky.workDoneToken, 'agentLsp/c9/')).toBeUndefined();
    expect(ownToken('agentLsp/c1/x:1', a)).toBeUndefined();
  });
});

describe("a client's share of server-created progress", () => {
  const begin = (token: string) => ({ token, value: { kind: 'begin', title: 'indexing' } });
  const report = (token: string) => ({ token, value: { kind: 'report', percentage: 50 } });
  const end = (token: string) => ({ token, value: { kind: 'end' } });

  it('asks a capable client to create a token at its begin, passes that token until its end, and nothing begun before', () => {
    const asked: unknown[] = [];
    const tokens = new ServerProgressTokens((token) => (asked.push(token), Promise.resolve(null)));
    tokens.supported = true;
    expect(tokens.admit(report('earlier'))).toBe(false);
    expect(tokens.admit(begin('t'))).toBe(true);
    expect(asked).toEqual(['t']);
    expect(tokens.admit(report('t'))).toBe(true);
    expect(tokens.admit(end('t'))).toBe(true);
    expect(tokens.admit(report('t'))).toBe(false);
    expect(tokens.admit(end('earlier'))).toBe(false);
  });

  it('gives a client that cannot take server-created progress nothing, and one that refused a token none of it', async () => {
    const none = new ServerProgressTokens(() => Promise.resolve(null));
    expect(none.admit(begin('t'))).toBe(false);
    const refusing = new ServerProgressTokens(() => Promise.reject(new Error('no')));
    refusing.supported = true;
    refusing.admit(begin('t'));
    await new Promise((r) => setImmediate(r));
    expect(refusing.admit(report('t'))).toBe(false);
  });
});

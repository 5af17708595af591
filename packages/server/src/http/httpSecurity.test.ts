import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { bearerMatches, generateToken, isLoopbackAddress, originAllowed } from './httpSecurity.js';
import { httpConfigurationError } from './serveHttp.js';

function request(authorization?: string): IncomingMessage {
  return { headers: authorization === undefined ? {} : { authorization } } as IncomingMessage;
}

describe('HTTP security checks', () => {
  it('accepts exactly the bearer token', () => {
    const token = generateToken();
    expect(bearerMatches(request(`Bearer ${token}`), token)).toBe(true);
    expect(bearerMatches(request(`bearer ${token}`), token)).toBe(true);
    expect(bearerMatches(request(`Bearer ${token}x`), token)).toBe(false);
    expect(bearerMatches(request(`Bearer ${token.slice(1)}`), token)).toBe(false);
    expect(bearerMatches(request(token), token)).toBe(false);
    expect(bearerMatches(request(`Basic ${token}`), token)).toBe(false);
    expect(bearerMatches(request(), token)).toBe(false);
    expect(bearerMatches(request('Bearer '), '')).toBe(false);
  });

  it('generates tokens that differ', () => {
    expect(generateToken()).not.toBe(generateToken());
  });

  it('knows loopback addresses', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1']) expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.2', 'example.com', '128.0.0.1']) expect(isLoopbackAddress(a), a).toBe(false);
  });

  it('allows no Origin, loopback origins and listed ones; refuses the rest', () => {
    expect(originAllowed(undefined, [])).toBe(true);
    expect(originAllowed('http://localhost:3000', [])).toBe(true);
    expect(originAllowed('http://127.0.0.1:8080', [])).toBe(true);
    expect(originAllowed('http://[::1]:8080', [])).toBe(true);
    expect(originAllowed('https://evil.example', [])).toBe(false);
    expect(originAllowed('null', [])).toBe(false);
    expect(originAllowed('not a url', [])).toBe(false);
    expect(originAllowed('http://localhost.evil.example', [])).toBe(false);
    expect(originAllowed('https://app.example.com', ['https://app.example.com'])).toBe(true);
    expect(originAllowed('https://APP.example.com', ['https://app.example.com/'])).toBe(true);
    expect(originAllowed('https://app.example.com:8443', ['https://app.example.com'])).toBe(false);
  });

  it('refuses --no-auth off loopback only', () => {
    expect(httpConfigurationError({ listen: '0.0.0.0', token: undefined })).toMatch(/only on a loopback address/);
    expect(httpConfigurationError({ listen: '127.0.0.1', token: undefined })).toBeUndefined();
    expect(httpConfigurationError({ listen: '0.0.0.0', token: 't' })).toBeUndefined();
  });
});

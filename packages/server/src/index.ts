export * from './createServer.js';
export * from './stdio.js';
export { MAX_STDIO_MESSAGE_BYTES } from './stdioTransport.js';
export * from './toolRunner.js';
export * from './http/serveHttp.js';
export * from './http/httpSecurity.js';

import { PassThrough, type Readable } from 'node:stream';
import { MAX_JSON_DEPTH } from '@agent-lsp/protocol';
import type { RAL } from 'vscode-jsonrpc/node';
import { ralReadable } from '@agent-lsp/lsp';

/** Largest message a client may send (a whole-file didOpen of a big file fits comfortably). */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024;
const MAX_HEADER_BYTES = 1024;
const HEADER_END = Buffer.from('\r\n\r\n', 'ascii');
const HEADER_LINE = /^(Content-Length: *(\d+)|Content-Type: *[^\r\n]*)$/i;

type Limits = { maxFrameBytes?: number; maxDepth?: number };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]); // [ {
const CLOSERS = new Set([0x5d, 0x7d]); // ] }

/**
 * Follows the nesting of one JSON body as its bytes go by, without parsing it: brackets outside
 * strings count, string contents are skipped with indexOf (a big didOpen is one long string).
 * UTF-8 continuation bytes never equal `"` or `\`, so bytes suffice.
 */
class NestingScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(private readonly maxDepth: number) {}

  reset(): void {
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
  }

  /** Scans the next bytes of the body; false once it nests deeper than allowed. */
  scan(bytes: Buffer): boolean {
    let i = 0;
    // Where the next quote / backslash of `bytes` is (-1: none), looked up only when passed.
    let quote = -2;
    let slash = -2;
    while (i < bytes.length) {
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
          i++;
          continue;
        }
        if (quote !== -1 && quote < i) quote = bytes.indexOf(QUOTE, i);
        if (slash !== -1 && slash < i) slash = bytes.indexOf(BACKSLASH, i);
        if (quote === -1 && slash === -1) return true;
        if (slash !== -1 && (quote === -1 || slash < quote)) {
          this.escaped = true;
          i = slash + 1;
        } else {
          this.inString = false;
          i = quote + 1;
        }
        continue;
      }
      const c = bytes[i++] as number;
      if (c === QUOTE) this.inString = true;
      else if (OPENERS.has(c)) {
        if (++this.depth > this.maxDepth) return false;
      } else if (CLOSERS.has(c)) this.depth--;
    }
    return true;
  }
}

/**
 * vscode-jsonrpc sets no size limit and keeps reading after a bad header. This follows the framing
 * of a client's bytes as they arrive and, on a malformed header, an oversized frame or a body
 * nesting deeper than `maxDepth` (which would overflow the recursion of JSON.parse/JSON.stringify
 * further on), reports the violation (the broker then closes that client only). Returns, for each
 * chunk, whether it may be passed on to the message reader: a chunk with a violation is not, nor
 * anything after it, so the reader never sees the bad frame.
 */
export function frameInspector(onViolation: (reason: string) => void, limits: Limits = {}): (chunk: Buffer) => boolean {
  const maxFrameBytes = limits.maxFrameBytes ?? MAX_FRAME_BYTES;
  const maxDepth = limits.maxDepth ?? MAX_JSON_DEPTH;
  const nesting = new NestingScanner(maxDepth);
  let header = Buffer.alloc(0);
  let bodyLeft = 0;
  let failed = false;

  const fail = (reason: string) => {
    if (!failed) {
      failed = true;
      onViolation(reason);
    }
    return false;
  };

  return (chunk) => {
    if (failed) return false;
    let at = 0;
    while (at < chunk.length) {
      if (bodyLeft > 0) {
        const take = Math.min(bodyLeft, chunk.length - at);
        if (!nesting.scan(chunk.subarray(at, at + take))) return fail(`message nests deeper than ${maxDepth} levels`);
        bodyLeft -= take;
        at += take;
        continue;
      }
      // The header so far and as much of this chunk as a header may still take, searched for its end
      // (which may straddle two chunks) rather than accumulated byte by byte.
      const piece = chunk.subarray(at, at + MAX_HEADER_BYTES + 1 - header.length);
      const joined = header.length > 0 ? Buffer.concat([header, piece]) : piece;
      const end = joined.indexOf(HEADER_END, Math.max(0, header.length - HEADER_END.length + 1));
      const headerBytes = end < 0 ? joined.length : end + HEADER_END.length;
      if (headerBytes > MAX_HEADER_BYTES) return fail(`header longer than ${MAX_HEADER_BYTES} bytes`);
      at += headerBytes - header.length;
      if (end < 0) {
        header = Buffer.from(joined);
        continue;
      }
      let length: number | undefined;
      for (const line of joined.toString('ascii', 0, headerBytes).split('\r\n').filter(Boolean)) {
        const m = HEADER_LINE.exec(line);
        if (!m) return fail(`malformed header line ${JSON.stringify(line.slice(0, 80))}`);
        if (m[2] !== undefined) length = Number(m[2]);
      }
      if (length === undefined) return fail('header without Content-Length');
      if (length > maxFrameBytes) return fail(`frame of ${length} bytes exceeds the ${maxFrameBytes}-byte limit`);
      header = Buffer.alloc(0);
      bodyLeft = length;
      nesting.reset();
    }
    return true;
  };
}

/**
 * frameInspector between a stream and vscode-jsonrpc's message reader, as the reader's own stream
 * interface: the chunks it lets pass reach the reader in the same call, with no stream in between
 * (a PassThrough there cost each message a second Readable's buffering on the broker's hot path).
 */
export function guardedStream(source: Readable, onViolation: (reason: string) => void, limits: Limits = {}): RAL.ReadableStream {
  const inspect = frameInspector(onViolation, limits);
  const stream = ralReadable(source);
  return {
    ...stream,
    onData: (listener) =>
      stream.onData((chunk) => {
        if (inspect(chunk as Buffer)) listener(chunk);
      }),
  };
}

/** frameInspector between a stream and a reader: only the chunks it lets pass come out. */
export function guardFrames(source: Readable, onViolation: (reason: string) => void, limits: Limits = {}): Readable {
  const out = new PassThrough();
  const guarded = guardedStream(source, onViolation, limits);
  guarded.onData((chunk) => out.write(chunk));
  source.on('end', () => out.end());
  source.on('close', () => out.end());
  source.on('error', (err) => out.destroy(err));
  return out;
}

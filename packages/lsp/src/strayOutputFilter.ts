import { Transform, type TransformCallback } from 'node:stream';

/** Header names in lower case: names are case-insensitive, and a buffer is compared as latin1 text (one character per byte). */
const HEADER_NAMES = ['content-length:', 'content-type:'];
const HEADERS_END = Buffer.from('\r\n\r\n');
const LONGEST_NAME = Math.max(...HEADER_NAMES.map((n) => n.length));

/**
 * A language server's stdout as the protocol allows it: LSP frames (headers, then Content-Length
 * bytes of body), with anything a server prints between frames dropped and reported.
 *
 * Some servers print to stdout outside the protocol: the Solidity server's compiler downloader
 * writes "Downloading compiler 0.8.16" between two messages. A reader takes that line for a header
 * without a Content-Length, fails, and reads nothing more: every later answer is lost and the
 * server looks hung. Between frames nothing but a header is valid, so skipping to the next header
 * loses nothing a reader could have used. Bodies pass through untouched, whatever they contain.
 */
export class StrayOutputFilter extends Transform {
  /** Bytes at a frame boundary not yet passed on: a header in progress, or a part of one. */
  private pending: Buffer = Buffer.alloc(0);
  /** Body bytes of the current frame still to pass through. */
  private bodyLeft = 0;

  constructor(private readonly onStray: (text: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let data: Buffer = chunk;
    while (data.length > 0) {
      if (this.bodyLeft > 0) {
        const n = Math.min(this.bodyLeft, data.length);
        this.push(data.subarray(0, n));
        this.bodyLeft -= n;
        data = data.subarray(n);
        continue;
      }
      this.pending = this.pending.length ? Buffer.concat([this.pending, data]) : data;
      data = Buffer.alloc(0);
      const start = headerStart(this.pending);
      if (start < 0) {
        // No header yet: keep what may be the start of one cut by the chunk's end.
        const keep = partialHeaderLength(this.pending);
        this.stray(this.pending.subarray(0, this.pending.length - keep));
        this.pending = this.pending.subarray(this.pending.length - keep);
        break;
      }
      this.stray(this.pending.subarray(0, start));
      this.pending = this.pending.subarray(start);
      const end = this.pending.indexOf(HEADERS_END);
      if (end < 0) break;
      const headers = this.pending.subarray(0, end + HEADERS_END.length);
      // No readable length: passed on as it is, for the reader to report.
      this.bodyLeft = Number(/Content-Length:\s*(\d+)/i.exec(headers.toString('ascii'))?.[1] ?? 0);
      this.push(headers);
      data = this.pending.subarray(headers.length);
      this.pending = Buffer.alloc(0);
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    this.stray(this.pending);
    done();
  }

  private stray(bytes: Buffer): void {
    if (bytes.length) this.onStray(bytes.toString('utf8'));
  }
}

/** Where the first header name begins in `buffer`, or -1. */
function headerStart(buffer: Buffer): number {
  const text = buffer.toString('latin1').toLowerCase();
  const found = HEADER_NAMES.map((name) => text.indexOf(name)).filter((i) => i >= 0);
  return found.length ? Math.min(...found) : -1;
}

/** How many bytes at the end of `buffer` could begin a header name. */
function partialHeaderLength(buffer: Buffer): number {
  for (let keep = Math.min(LONGEST_NAME - 1, buffer.length); keep > 0; keep--) {
    const tail = buffer.subarray(buffer.length - keep).toString('latin1').toLowerCase();
    if (HEADER_NAMES.some((name) => name.startsWith(tail))) return keep;
  }
  return 0;
}

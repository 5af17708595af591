import { PassThrough, type Readable } from 'node:stream';

/** Largest message a client may send (a whole-file didOpen of a big file fits comfortably). */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024;
const MAX_HEADER_BYTES = 1024;
const HEADER_LINE = /^(Content-Length: *(\d+)|Content-Type: *[^\r\n]*)$/i;

/**
 * vscode-jsonrpc sets no size limit and keeps reading after a bad header. This sits between a
 * client's socket and its message reader: it follows the framing and, on a malformed header or an
 * oversized frame, stops passing bytes on and reports the violation (the broker then closes that
 * client only).
 */
export function guardFrames(source: Readable, onViolation: (reason: string) => void, maxFrameBytes = MAX_FRAME_BYTES): Readable {
  const out = new PassThrough();
  let header = Buffer.alloc(0);
  let bodyLeft = 0;
  let failed = false;

  const fail = (reason: string) => {
    if (failed) return;
    failed = true;
    onViolation(reason);
  };

  source.on('data', (chunk: Buffer) => {
    if (failed) return;
    let at = 0;
    while (at < chunk.length && !failed) {
      if (bodyLeft > 0) {
        const take = Math.min(bodyLeft, chunk.length - at);
        bodyLeft -= take;
        at += take;
        continue;
      }
      header = Buffer.concat([header, chunk.subarray(at, at + 1)]);
      at++;
      if (header.length > MAX_HEADER_BYTES) return fail(`header longer than ${MAX_HEADER_BYTES} bytes`);
      if (!header.subarray(-4).equals(Buffer.from('\r\n\r\n'))) continue;
      let length: number | undefined;
      for (const line of header.toString('ascii').split('\r\n').filter(Boolean)) {
        const m = HEADER_LINE.exec(line);
        if (!m) return fail(`malformed header line ${JSON.stringify(line.slice(0, 80))}`);
        if (m[2] !== undefined) length = Number(m[2]);
      }
      if (length === undefined) return fail('header without Content-Length');
      if (length > maxFrameBytes) return fail(`frame of ${length} bytes exceeds the ${maxFrameBytes}-byte limit`);
      header = Buffer.alloc(0);
      bodyLeft = length;
    }
    if (!failed) out.write(chunk);
    // A chunk with a violation is not passed on at all: the reader never sees the bad frame.
  });
  source.on('end', () => out.end());
  source.on('close', () => out.end());
  source.on('error', (err) => out.destroy(err));
  return out;
}

import type { Readable, Writable } from 'node:stream';
import { AbstractMessageReader, AbstractMessageWriter, type DataCallback, type Disposable, type Message, type MessageReader, type MessageWriter } from 'vscode-jsonrpc/node';

const HEADER_END = Buffer.from('\r\n\r\n', 'ascii');

/**
 * LSP base-protocol framing (`Content-Length: n\r\n\r\n` + a UTF-8 JSON body), read and written
 * without the detours of vscode-jsonrpc's stream reader and writer, which sit on every message of
 * the broker hop (twice each way): their reader decodes each message behind a semaphore that
 * waits a setImmediate and arms a partial-message timer; their writer waits a setImmediate, then
 * writes the header and the body as two writes (two syscalls, and the peer may wake for the
 * header alone). Here a message is decoded as soon as its last byte arrives, in arrival order, and
 * written as one buffer. The wire format is the same (tests talk to vscode-jsonrpc's own peer).
 */
export class FramedMessageReader extends AbstractMessageReader implements MessageReader {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Body length of the message being read; -1 while its header is still coming. */
  private bodyLength = -1;
  private callback: DataCallback | undefined;
  private stuck = false;

  /** `accept` sees every chunk first; one it refuses (a frame guard's violation) is not read. */
  constructor(
    private readonly readable: Readable,
    private readonly accept?: (chunk: Buffer) => boolean,
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    const onData = (chunk: Buffer) => this.onData(chunk);
    const onError = (err: Error) => this.fireError(err);
    const onClose = () => this.fireClose();
    this.readable.on('data', onData);
    this.readable.on('error', onError);
    this.readable.on('close', onClose);
    return {
      dispose: () => {
        this.readable.off('data', onData);
        this.readable.off('error', onError);
        this.readable.off('close', onClose);
      },
    };
  }

  private take(): Buffer {
    const all = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.size);
    this.chunks = [all];
    return all;
  }

  private keep(rest: Buffer): void {
    this.chunks = rest.length > 0 ? [rest] : [];
    this.size = rest.length;
  }

  private onData(chunk: Buffer): void {
    // After a header it cannot read, like vscode-jsonrpc's reader, it reads nothing more.
    if (this.stuck || (this.accept && !this.accept(chunk))) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
    for (;;) {
      if (this.bodyLength < 0) {
        const buffer = this.take();
        const end = buffer.indexOf(HEADER_END);
        if (end < 0) return;
        const length = contentLength(buffer.toString('ascii', 0, end));
        if (typeof length === 'string') {
          this.stuck = true;
          this.fireError(new Error(length));
          return;
        }
        this.bodyLength = length;
        this.keep(buffer.subarray(end + HEADER_END.length));
      }
      if (this.size < this.bodyLength) return;
      const buffer = this.take();
      const body = buffer.subarray(0, this.bodyLength);
      this.keep(buffer.subarray(this.bodyLength));
      this.bodyLength = -1;
      let message: Message;
      try {
        message = JSON.parse(body.toString('utf8')) as Message;
      } catch (err) {
        this.fireError(err);
        continue;
      }
      try {
        this.callback?.(message);
      } catch (err) {
        this.fireError(err);
      }
    }
  }
}

/** The Content-Length of a header block, or what is wrong with it. */
function contentLength(header: string): number | string {
  for (const line of header.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) return `Message header must separate key and value using ':'\n${line}`;
    if (line.slice(0, colon).trim().toLowerCase() !== 'content-length') continue;
    const length = Number.parseInt(line.slice(colon + 1).trim(), 10);
    return Number.isNaN(length) ? `Content-Length value must be a number. Got ${line.slice(colon + 1).trim()}` : length;
  }
  return `Header must provide a Content-Length property.\n${header}`;
}

export class FramedMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private errorCount = 0;

  constructor(private readonly writable: Writable) {
    super();
    writable.on('error', (err: Error) => this.fireError(err));
    writable.on('close', () => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    let json: string;
    try {
      json = JSON.stringify(msg);
    } catch (err) {
      // Nothing reached the stream (a cycle, a BigInt, nesting too deep): the send fails alone.
      this.fireError(err);
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    const length = Buffer.byteLength(json, 'utf8');
    const header = `Content-Length: ${length}\r\n\r\n`;
    const frame = Buffer.allocUnsafe(header.length + length);
    frame.write(header, 0, 'ascii');
    frame.write(json, header.length, 'utf8');
    return new Promise((resolve, reject) => {
      this.writable.write(frame, (err) => {
        if (!err) return resolve();
        this.fireError(err, msg, ++this.errorCount);
        reject(err);
      });
    });
  }

  end(): void {
    this.writable.end();
  }
}

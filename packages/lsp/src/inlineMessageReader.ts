import type { Readable } from 'node:stream';
import { AbstractMessageReader, Disposable, RAL, type DataCallback, type MessageReader } from 'vscode-jsonrpc/node';

const CHARSET = 'utf-8';

/** A node stream as the RAL stream vscode-jsonrpc's readers take. */
export function ralReadable(stream: Readable): RAL.ReadableStream {
  const on = <A extends unknown[]>(event: string, listener: (...args: A) => void): Disposable => {
    const l = listener as (...args: unknown[]) => void;
    stream.on(event, l);
    return Disposable.create(() => stream.off(event, l));
  };
  return {
    onData: (listener) => on('data', listener),
    onClose: (listener) => on('close', listener),
    onError: (listener) => on('error', listener),
    onEnd: (listener) => on('end', listener),
  };
}

/**
 * vscode-jsonrpc's ReadableStreamMessageReader without its turn of the event loop per message.
 *
 * The library's reader hands each body to a semaphore that decodes it in a setImmediate, so a
 * message read in the loop's poll phase reaches its handler in the check phase, and whatever
 * the handler then writes (through the library's writer, which takes a setImmediate of its own)
 * waits for the next turn of the loop: on the broker's hop that was two extra turns per request
 * and one per answer. Here the frames are cut by the library's own message buffer (headers,
 * Content-Length, body) and decoded by its own JSON decoder, as in its reader; each message is
 * delivered in the read callback that completed it, in arrival order.
 *
 * Unlike the library's reader it does not report partial messages on a timer (nothing here
 * listens for them; the broker's frame guard bounds what a client may send).
 */
export class InlineMessageReader extends AbstractMessageReader implements MessageReader {
  private readonly buffer = RAL().messageBuffer.create(CHARSET);
  private nextMessageLength = -1;
  /** Deliveries in arrival order: the decoder answers with a promise. */
  private delivered: Promise<void> = Promise.resolve();

  constructor(private readonly readable: RAL.ReadableStream) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const data = this.readable.onData((chunk) => this.onData(chunk, callback));
    const error = this.readable.onError((err: unknown) => this.fireError(err));
    const close = this.readable.onClose(() => this.fireClose());
    return Disposable.create(() => {
      data.dispose();
      error.dispose();
      close.dispose();
    });
  }

  private onData(chunk: Uint8Array, callback: DataCallback): void {
    try {
      this.buffer.append(chunk);
      for (;;) {
        if (this.nextMessageLength === -1) {
          const headers = this.buffer.tryReadHeaders(true);
          if (!headers) return;
          const contentLength = headers.get('content-length');
          if (!contentLength) {
            this.fireError(new Error(`Header must provide a Content-Length property.\n${JSON.stringify(Object.fromEntries(headers))}`));
            return;
          }
          const length = parseInt(contentLength, 10);
          if (isNaN(length)) {
            this.fireError(new Error(`Content-Length value must be a number. Got ${contentLength}`));
            return;
          }
          this.nextMessageLength = length;
        }
        const body = this.buffer.tryReadBody(this.nextMessageLength);
        if (body === undefined) return;
        this.nextMessageLength = -1;
        this.deliver(body, callback);
      }
    } catch (err) {
      this.fireError(err);
    }
  }

  private deliver(body: Uint8Array, callback: DataCallback): void {
    // The decoder parses at once and answers with a settled promise: chained, the messages of
    // one chunk still reach `callback` one after another, before the loop reads anything else.
    const decoded = RAL().applicationJson.decoder.decode(body, { charset: CHARSET });
    decoded.catch(() => undefined); // reported below, in its turn
    this.delivered = this.delivered
      .then(() => decoded)
      .then((message) => callback(message))
      .catch((err: unknown) => this.fireError(err));
  }
}

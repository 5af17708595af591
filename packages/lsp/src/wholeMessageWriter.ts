import type { Writable } from 'node:stream';
import { Disposable, WriteableStreamMessageWriter, type MessageWriter, type MessageWriterOptions, type RAL } from 'vscode-jsonrpc/node';

/**
 * The stream under vscode-jsonrpc's message writer, passing each message on as ONE write.
 *
 * vscode-jsonrpc writes a message's header, waits for that write, then writes its body: two
 * writes, so two syscalls, and the peer is woken (and may read, parse a lone header and sleep
 * again) twice per message. On a busy machine the first wake-up can also preempt us before the
 * body goes. Here the header is held (and acknowledged at once) and goes out corked with the body
 * that follows, as one writev. The bytes are vscode-jsonrpc's own: this changes only how they
 * reach the socket or pipe, not the framing.
 */
class WholeMessageStream implements RAL.WritableStream {
  private header: string | undefined;

  constructor(private readonly stream: Writable) {}

  onClose(listener: () => void): Disposable {
    return this.listen('close', listener);
  }

  onError(listener: (error: Error) => void): Disposable {
    return this.listen('error', listener);
  }

  onEnd(listener: () => void): Disposable {
    return this.listen('end', listener);
  }

  write(data: Uint8Array): Promise<void>;
  write(data: string, encoding: RAL.MessageBufferEncoding): Promise<void>;
  write(data: Uint8Array | string, encoding?: RAL.MessageBufferEncoding): Promise<void> {
    if (typeof data === 'string') {
      // A stream that can take no more fails the header's write itself, as it would unheld (the
      // message writer reports that failure; a failed body write it only passes on).
      if (!this.stream.writable) return this.send(data, encoding === 'ascii' ? 'ascii' : 'utf8');
      // The header: sent with the body, which vscode-jsonrpc writes once this resolves.
      this.header = (this.header ?? '') + data;
      return Promise.resolve();
    }
    const header = this.header;
    this.header = undefined;
    if (header === undefined) return this.send(data);
    this.stream.cork();
    this.stream.write(header, 'ascii');
    const sent = this.send(data);
    this.stream.uncork();
    return sent;
  }

  end(): void {
    if (this.header !== undefined) this.stream.write(this.header, 'ascii');
    this.header = undefined;
    this.stream.end();
  }

  private send(data: Uint8Array | string, encoding: BufferEncoding = 'utf8'): Promise<void> {
    return new Promise((resolve, reject) => this.stream.write(data, encoding, (err) => (err ? reject(err) : resolve())));
  }

  private listen(event: string, listener: (error: Error) => void): Disposable {
    this.stream.on(event, listener);
    return Disposable.create(() => this.stream.off(event, listener));
  }
}

/** vscode-jsonrpc's message writer over `stream`, each message reaching it in one write. */
export function wholeMessageWriter(stream: Writable, options?: MessageWriterOptions): MessageWriter {
  return new WriteableStreamMessageWriter(new WholeMessageStream(stream), options);
}

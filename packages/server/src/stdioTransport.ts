import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The largest message read from the client; a longer line is refused as the client's error. */
export const MAX_STDIO_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * MCP over stdin/stdout, one JSON-RPC message a line, like the SDK's StdioServerTransport except
 * for an oversized message: the SDK's closes the transport (the front exited 0 without a word);
 * this one drops that line, answers a JSON-RPC error (id null: the id was in what it dropped) and
 * goes on serving the next line.
 */
export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private chunks: Buffer[] = [];
  private size = 0;
  /** Dropping the rest of an oversized line, up to its newline. */
  private dropping = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly maxMessageBytes = MAX_STDIO_MESSAGE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer): void => {
    let rest = chunk;
    for (let nl = rest.indexOf(0x0a); nl !== -1; nl = rest.indexOf(0x0a)) {
      this.take(rest.subarray(0, nl));
      if (!this.dropping && this.size > 0) this.deliver(Buffer.concat(this.chunks, this.size));
      this.chunks = [];
      this.size = 0;
      this.dropping = false;
      rest = rest.subarray(nl + 1);
    }
    this.take(rest);
  };

  private readonly onStreamError = (error: Error): void => this.onerror?.(error);

  /** Adds part of the current line, or starts dropping it once it is over the limit. */
  private take(part: Buffer): void {
    if (this.dropping || part.length === 0) return;
    if (this.size + part.length > this.maxMessageBytes) {
      this.chunks = [];
      this.size = 0;
      this.dropping = true;
      const message = `Request too large: a message over ${this.maxMessageBytes} bytes was dropped unread. Send smaller requests (e.g. split a workspace edit).`;
      this.onerror?.(new Error(message));
      // JSON-RPC's answer to a request whose id is unknown: id null (the SDK's message type has no such id).
      this.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message } })}\n`);
      return;
    }
    this.chunks.push(part);
    this.size += part.length;
  }

  private deliver(line: Buffer): void {
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line.toString('utf8').replace(/\r$/, ''));
    } catch (err) {
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    this.onmessage?.(message);
  }

  start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(serializeMessage(message))) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.size = 0;
    this.onclose?.();
    return Promise.resolve();
  }
}

import { spawn, type ChildProcess } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BIN } from './paths.js';
import { envWithHome, temporaryHome } from './testHome.js';

/**
 * An MCP client transport over a child we spawn and keep: unlike the SDK's StdioClientTransport,
 * closing it does not signal the process, so tests can see what the front does on its own when
 * stdin closes or a signal arrives.
 */
export class ChildTransport implements Transport {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly buffer = new ReadBuffer();
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(args: string[] = []) {
    const home = temporaryHome();
    // AGENT_LSP_TEST_AS_PROGRAM=1: bin/agent-lsp run as a program (from the start-up snapshot when built), as in mcpClient.ts.
    const asProgram = process.env['AGENT_LSP_TEST_AS_PROGRAM'] === '1';
    this.child = spawn(asProgram ? BIN : process.execPath, [...(asProgram ? [] : [BIN]), 'serve', '--daemon', 'never', ...args], { stdio: ['pipe', 'pipe', 'inherit'], env: envWithHome(home.home) });
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    void this.exited.then(() => home.remove());
  }

  start(): Promise<void> {
    this.child.stdout?.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let msg = this.buffer.readMessage(); msg; msg = this.buffer.readMessage()) this.onmessage?.(msg);
    });
    this.child.once('exit', () => this.onclose?.());
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => this.child.stdin?.write(serializeMessage(message), (err) => (err ? reject(err) : resolve())));
  }

  /** Closes our end of stdin only. */
  close(): Promise<void> {
    this.child.stdin?.end();
    return Promise.resolve();
  }
}

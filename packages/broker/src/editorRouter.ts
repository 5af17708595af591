import { connect } from 'node:net';
import type { Writable } from 'node:stream';
import { Message, SocketMessageReader, SocketMessageWriter, StreamMessageWriter, type NotificationMessage, type RequestMessage, type ResponseMessage } from 'vscode-jsonrpc/node';
import type { Logger } from '@agent-lsp/lsp';
import { uriToPath } from '@agent-lsp/protocol';
import type { EditorMessages } from './editorRelay.js';

export interface EditorRouterOptions {
  fromEditor: EditorMessages;
  output: Writable;
  logger: Logger;
  /** The server the editor's initialize is answered by (its capabilities are the editor's). */
  primary: string;
  /** The server (an id) a file belongs to, by its path; undefined: the primary's. */
  serverFor(path: string): string | undefined;
  /** The socket of that server's broker for the root, found or started; throws a message for the editor. */
  socketFor(server: string): Promise<string>;
  /**
   * The primary's initialize answer from an earlier start: given, the editor's initialize is
   * answered with it at once and the primary too is joined only when the editor first needs it.
   */
  cachedInitialize?: unknown;
  /** The primary's initialize answer, when it gave one (for the next start's cachedInitialize). */
  onInitializeAnswer?(result: unknown): void;
}

type Id = number | string | null;
type AnyMessage = RequestMessage | ResponseMessage | NotificationMessage;

/** One broker connection: messages to it keep their order (each waits on the same promise). */
interface Link {
  server: string;
  /** Prefix of the ids of its requests to the editor and of its progress tokens (none for the primary). */
  tag: string;
  write(message: AnyMessage): void;
  /** Our own request to this broker (a secondary's initialize, a fan-out's part). */
  request(method: string, params: unknown): Promise<ResponseMessage>;
  close(): void;
}

const INTERNAL = 'agent-lsp-route:';

/**
 * `agent-lsp lsp` without `--language`: one editor connection, routed by file to the brokers of
 * the root, one per language server, each joined when the editor first opens or asks about a file
 * of its language. The primary broker answers `initialize` (its server's capabilities are what the
 * editor sees); the others get the editor's own initialize when they are joined. Requests with a
 * document go to its file's broker; `workspace/symbol` goes to every joined broker, the answers
 * joined; other requests go to the primary; workspace notifications go to every joined broker.
 * The brokers' requests to the editor and their progress tokens are tagged per broker, so two
 * brokers' ids never meet. Resolves with the exit code LSP asks for: 0 after `shutdown`, else 1.
 */
export async function routeEditor(options: EditorRouterOptions): Promise<number> {
  const { fromEditor, logger } = options;
  const toEditor = new StreamMessageWriter(options.output);
  const links = new Map<string, Promise<Link>>();
  /** The editor's requests in flight: which link answers (for `$/cancelRequest`). */
  const inFlight = new Map<Id, Promise<Link>>();
  /** Brokers' requests to the editor, by the tagged id the editor answers. */
  const askedByBroker = new Map<string, { link: Link; id: Id }>();
  let initializeParams: unknown;
  let initializeId: Id | undefined;
  const lazy = options.cachedInitialize !== undefined;
  let lastRouted: Promise<Link> | undefined;
  let shutdownAsked = false;
  let internalIds = 0;
  const warned = new Set<string>();

  const sendToEditor = (message: AnyMessage) => void toEditor.write(message).catch((err: unknown) => finish(`editor write failed: ${String(err)}`));

  let finish: (why: string) => void = () => undefined;
  const ended = new Promise<number>((resolve) => {
    let done = false;
    finish = (why: string) => {
      if (done) return;
      done = true;
      logger.info(`relay ends: ${why}`);
      fromEditor.dispose();
      for (const link of links.values()) void link.then((l) => l.close(), () => undefined);
      resolve(shutdownAsked ? 0 : 1);
    };
  });

  async function join(server: string, primary: boolean): Promise<Link> {
    const socketPath = await options.socketFor(server);
    const socket = connect(socketPath);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const reader = new SocketMessageReader(socket);
    const writer = new SocketMessageWriter(socket);
    const waiting = new Map<Id, (r: ResponseMessage) => void>();
    const link: Link = {
      server,
      tag: primary ? '' : `${server}:`,
      write: (m) => void writer.write(m).catch((err: unknown) => logger.warn(`write to the ${server} broker failed: ${String(err)}`)),
      request: (method, params) =>
        new Promise((resolve) => {
          const id = `${INTERNAL}${++internalIds}`;
          waiting.set(id, resolve);
          link.write({ jsonrpc: '2.0', id, method, params } as RequestMessage);
        }),
      close: () => {
        reader.dispose();
        socket.end();
        setTimeout(() => socket.destroy(), 1000).unref();
      },
    };
    reader.listen((m) => {
      if (Message.isResponse(m) && m.id !== null && waiting.has(m.id)) {
        const resolve = waiting.get(m.id);
        waiting.delete(m.id);
        return resolve?.(m);
      }
      fromBroker(link, m);
    });
    const gone = () => {
      for (const [id, resolve] of waiting) resolve({ jsonrpc: '2.0', id, error: { code: -32097, message: `the ${server} broker closed the connection` } });
      waiting.clear();
      if (primary) finish(`the ${server} broker closed the connection`);
      else links.delete(server);
    };
    reader.onClose(gone);
    socket.once('close', gone);
    if (!primary || lazy) {
      const answer = await link.request('initialize', initializeParams ?? { processId: null, rootUri: null, capabilities: {} });
      if (answer.error) throw new Error(`the ${server} broker refused initialize: ${answer.error.message}`);
      // A lazy primary's answer is kept for the next start too (the server may have been updated).
      if (primary && answer.result !== undefined) options.onInitializeAnswer?.(answer.result);
      link.write({ jsonrpc: '2.0', method: 'initialized', params: {} });
    }
    logger.info(`joined the ${server} broker (${socketPath})`);
    return link;
  }

  function linkOf(server: string): Promise<Link> {
    let link = links.get(server);
    if (!link) {
      link = join(server, server === options.primary);
      links.set(server, link);
      link.catch((err: unknown) => {
        links.delete(server);
        const message = err instanceof Error ? err.message : String(err);
        logger.warn(`the ${server} broker: ${message}`);
        if (!warned.has(server)) {
          warned.add(server);
          sendToEditor({ jsonrpc: '2.0', method: 'window/showMessage', params: { type: 2, message: `agent-lsp: ${message}` } });
        }
      });
    }
    return link;
  }

  /** The broker of a message's document (`textDocument.uri`, or a hierarchy item's `uri`); else the primary's. */
  function routeOf(params: unknown): Promise<Link> {
    const p = (params ?? {}) as { textDocument?: { uri?: unknown }; item?: { uri?: unknown } };
    const uri = p.textDocument?.uri ?? p.item?.uri;
    const path = typeof uri === 'string' ? uriToPath(uri) : undefined;
    return linkOf((path !== undefined ? options.serverFor(path) : undefined) ?? options.primary);
  }

  function fromBroker(link: Link, m: Message): void {
    if (Message.isResponse(m)) {
      if (m.id !== null) inFlight.delete(m.id);
      if (m.id === initializeId && m.result !== undefined) options.onInitializeAnswer?.(m.result);
      return sendToEditor(m);
    }
    if (!Message.isRequest(m) && !Message.isNotification(m)) return;
    const tagged = link.tag ? tagTokens(m, link.tag) : m;
    if (Message.isRequest(tagged)) {
      // The primary's ids go as they are; a secondary's are tagged (askedByBroker is keyed by the id as text).
      const id = link.tag ? `${link.tag}${String(tagged.id)}` : tagged.id;
      askedByBroker.set(String(id), { link, id: tagged.id });
      const request: RequestMessage = { ...tagged, id };
      return sendToEditor(request);
    }
    sendToEditor(tagged);
  }

  const everyJoined = () => [...links.values()];
  const reply = (id: Id, result: unknown) => sendToEditor({ jsonrpc: '2.0', id, result } as ResponseMessage);
  const failed = (id: Id) => (err: unknown) => sendToEditor({ jsonrpc: '2.0', id, error: { code: -32603, message: `agent-lsp: ${err instanceof Error ? err.message : String(err)}` } });

  function fromEditorRequest(m: RequestMessage): void {
    if (m.method === 'initialize') {
      initializeParams = m.params;
      initializeId = m.id;
      if (lazy) return reply(m.id, options.cachedInitialize);
    }
    if (m.method === 'shutdown') {
      shutdownAsked = true;
      // The others first; the editor's answer is the primary's (ours when it was never joined).
      for (const link of everyJoined()) void link.then((l) => (l.server === options.primary ? undefined : l.request('shutdown', null)), () => undefined);
      if (!links.has(options.primary)) return reply(m.id, null);
    }
    if (m.method === 'workspace/symbol') return void workspaceSymbol(m);
    const route = m.method === 'initialize' || m.method === 'shutdown' ? linkOf(options.primary) : m.method.endsWith('/resolve') && lastRouted ? lastRouted : routeOf(m.params);
    if (!m.method.endsWith('/resolve')) lastRouted = route;
    inFlight.set(m.id, route);
    void route.then((l) => l.write(m), failed(m.id));
  }

  /** Every joined broker's symbols, one list (a broker that fails is left out; all failing is an error). */
  async function workspaceSymbol(m: RequestMessage): Promise<void> {
    const answers = await Promise.all(everyJoined().map((link) => link.then((l) => l.request(m.method, m.params), () => undefined)));
    const ok = answers.filter((a): a is ResponseMessage => a !== undefined && !a.error);
    const refused = answers.find((a) => a?.error)?.error;
    if (ok.length === 0 && refused) return sendToEditor({ jsonrpc: '2.0', id: m.id, error: refused });
    reply(m.id, ok.flatMap((a) => (Array.isArray(a.result) ? (a.result as unknown[]) : [])));
  }

  function fromEditorNotification(m: NotificationMessage): void {
    if (m.method === '$/cancelRequest') {
      const id = (m.params as { id?: Id } | undefined)?.id;
      const route = id !== undefined ? inFlight.get(id) : undefined;
      return void route?.then((l) => l.write(m), () => undefined);
    }
    const p = (m.params ?? {}) as { textDocument?: { uri?: unknown } };
    if (p.textDocument?.uri !== undefined) return void routeOf(m.params).then((l) => l.write(m), () => undefined);
    // initialized is the primary's (the others, and a lazy primary, got theirs when joined); the rest is everyone's.
    const to = m.method === 'initialized' ? (lazy ? [] : [linkOf(options.primary)]) : everyJoined();
    for (const link of to) void link.then((l) => l.write(m), () => undefined);
    if (m.method === 'exit') setTimeout(() => finish('exit'), 200).unref();
  }

  fromEditor.onClose(() => finish('the editor closed stdin'));
  // The primary is joined first, so the editor's initialize has somewhere to go (unless answered from the cache).
  if (!lazy) void linkOf(options.primary).catch((err: unknown) => finish(`the primary broker: ${String(err)}`));
  fromEditor.drainTo((m: Message) => {
    if (Message.isRequest(m)) return fromEditorRequest(m);
    if (Message.isNotification(m)) return fromEditorNotification(m);
    if (Message.isResponse(m) && m.id !== null) {
      const asked = askedByBroker.get(String(m.id));
      askedByBroker.delete(String(m.id));
      const answer: ResponseMessage = { ...m, id: asked?.id ?? null };
      if (asked) asked.link.write(answer);
    }
  });
  return ended;
}

/** A secondary broker's progress tokens, tagged so they never meet the primary's (window/workDoneProgress/create, $/progress). */
function tagTokens<M extends RequestMessage | NotificationMessage>(m: M, tag: string): M {
  if (m.method !== 'window/workDoneProgress/create' && m.method !== '$/progress') return m;
  const params = m.params as { token?: number | string } | undefined;
  if (params?.token === undefined) return m;
  return { ...m, params: { ...params, token: `${tag}${String(params.token)}` } };
}

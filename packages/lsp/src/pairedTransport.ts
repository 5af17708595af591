import { PassThrough } from 'node:stream';
import { Message, StreamMessageReader, StreamMessageWriter, type NotificationMessage, type RequestMessage, type ResponseMessage } from 'vscode-jsonrpc/node';
import type { Logger } from './logger.js';
import { mergeInitializeResults, PairedDiagnostics } from './pairedAnswers.js';
import { pullPairedDiagnostics } from './pairedPull.js';
import type { CompanionServer } from './serverProfile.js';
import type { ExitInfo, ServerTransport } from './serverProcess.js';

type Side = 'main' | 'companion';

interface Peer {
  transport: ServerTransport;
  writer: StreamMessageWriter;
}

/** Ids of the companion's own requests to the client, told apart from the main server's. */
const COMPANION_ID_PREFIX = 'agentLsp/companion/';

/**
 * Two language servers as one (CompanionServer): what the connection above writes is routed to
 * the main server, the companion or both, and their messages come back as one server's. Every
 * document goes to the main server and the companion's documents to the companion too; a request
 * on a companion document asks the side that answers it first, then the other when the first has
 * nothing; the companion's `tsserver/request` notifications are relayed to the main server.
 * Requests either server makes of the client keep their ids (the companion's prefixed); published
 * diagnostics of one document are merged. When either process ends, both are ended: the
 * connection sees one server die and restarts the pair.
 */
export function pairServers(main: ServerTransport, companionTransport: ServerTransport, companion: CompanionServer, logger: Logger): ServerTransport {
  const toClient = new PassThrough();
  const fromClient = new PassThrough();
  const clientWriter = new StreamMessageWriter(toClient);
  const peers: Record<Side, Peer> = {
    main: { transport: main, writer: new StreamMessageWriter(main.output) },
    companion: { transport: companionTransport, writer: new StreamMessageWriter(companionTransport.output) },
  };
  const companionDocs = new Set<string>();
  const diagnostics = new PairedDiagnostics();
  /** Our requests to either server (a client request, its fallback, a relay), by our id. */
  const pending = new Map<string, (response: ResponseMessage) => void>();
  /** The client's request in flight → where it went and under which id, for `$/cancelRequest`. */
  const inFlight = new Map<string | number, { side: Side; id: string }>();
  let nextId = 0;

  const write = (side: Side, message: Message) => void peers[side].writer.write(message).catch((err: Error) => logger.debug(`pair: write to ${side}: ${err.message}`));
  const toClientWrite = (message: Message) => void clientWriter.write(message).catch((err: Error) => logger.debug(`pair: write to client: ${err.message}`));

  function ask(side: Side, method: string, params: unknown): { id: string; answer: Promise<ResponseMessage> } {
    const id = `agentLsp/pair/${nextId++}`;
    const answer = new Promise<ResponseMessage>((resolve) => pending.set(id, resolve));
    write(side, { jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) } as RequestMessage);
    return { id, answer };
  }

  function isCompanionDoc(params: unknown): boolean {
    const uri = (params as { textDocument?: { uri?: unknown } } | undefined)?.textDocument?.uri;
    return typeof uri === 'string' && companionDocs.has(uri);
  }

  async function forwardRequest(request: RequestMessage): Promise<void> {
    const reply = (response: ResponseMessage) => {
      const answer: ResponseMessage = { ...response, id: request.id };
      toClientWrite(answer);
    };
    if (request.method === 'initialize' || request.method === 'shutdown') {
      const [a, b] = await Promise.all([ask('main', request.method, request.params).answer, ask('companion', request.method, request.params).answer]);
      if (request.method === 'initialize' && !a.error && !b.error) return reply({ jsonrpc: '2.0', id: request.id, result: mergeInitializeResults(a.result, b.result, companion.answersFirst) });
      return reply(a.error ? a : b.error ? b : a);
    }
    if (request.method === 'textDocument/diagnostic' && companion.relay === 'tsserver') {
      return reply({ jsonrpc: '2.0', id: request.id, ...(await pullPairedDiagnostics((side, method, params) => ask(side, method, params).answer, request.params, isCompanionDoc(request.params))) });
    }
    const order: Side[] = !isCompanionDoc(request.params) ? ['main'] : companion.answersFirst.includes(request.method) ? ['companion', 'main'] : ['main', 'companion'];
    let response: ResponseMessage | undefined;
    for (const side of order) {
      const sent = ask(side, request.method, request.params);
      inFlight.set(request.id ?? '', { side, id: sent.id });
      response = await sent.answer;
      if (response.error || !isEmpty(response.result)) break;
    }
    inFlight.delete(request.id ?? '');
    if (response) reply(response);
  }

  function fromClientMessage(message: Message): void {
    if (Message.isRequest(message)) {
      void forwardRequest(message);
    } else if (Message.isResponse(message)) {
      // The client answers a server's request: the companion's ids carry our prefix.
      const id = message.id;
      if (typeof id === 'string' && id.startsWith(COMPANION_ID_PREFIX)) write('companion', { ...message, id: JSON.parse(id.slice(COMPANION_ID_PREFIX.length)) as number | string } as ResponseMessage);
      else write('main', message);
    } else if (Message.isNotification(message)) {
      fromClientNotification(message);
    }
  }

  function fromClientNotification(note: NotificationMessage): void {
    if (note.method === '$/cancelRequest') {
      const target = inFlight.get((note.params as { id: string | number }).id);
      if (target) write(target.side, { ...note, params: { id: target.id } } as NotificationMessage);
      return;
    }
    if (note.method === 'textDocument/didOpen') {
      const doc = (note.params as { textDocument: { uri: string; languageId: string } }).textDocument;
      if (companion.languageIds.includes(doc.languageId)) companionDocs.add(doc.uri);
    }
    write('main', note);
    if (!note.method.startsWith('textDocument/') || isCompanionDoc(note.params)) write('companion', note);
    if (note.method === 'textDocument/didClose') companionDocs.delete((note.params as { textDocument: { uri: string } }).textDocument.uri);
  }

  function fromServerMessage(side: Side, message: Message): void {
    if (Message.isResponse(message)) {
      const id = String(message.id);
      const settle = pending.get(id);
      pending.delete(id);
      settle?.(message);
    } else if (Message.isRequest(message)) {
      toClientWrite(side === 'companion' ? { ...message, id: `${COMPANION_ID_PREFIX}${JSON.stringify(message.id)}` } : message);
    } else if (Message.isNotification(message)) {
      if (side === 'companion' && message.method === 'tsserver/request') relayTsserver(message.params);
      else if (message.method === 'textDocument/publishDiagnostics') toClientWrite({ ...message, params: diagnostics.publish(side, message.params) } as NotificationMessage);
      else toClientWrite(message);
    }
  }

  /** `[[id, command, args]]` (one array parameter) → typescript.tsserverRequest → `[[id, body]]`. */
  function relayTsserver(params: unknown): void {
    const inner: unknown = Array.isArray(params) && Array.isArray(params[0]) ? params[0] : params;
    if (!Array.isArray(inner) || inner.length < 2 || typeof inner[1] !== 'string') return logger.warn(`pair: a tsserver/request without [id, command, args]: ${JSON.stringify(params).slice(0, 200)}`);
    const [id, command, args] = inner as [unknown, string, unknown];
    void ask('main', 'workspace/executeCommand', { command: 'typescript.tsserverRequest', arguments: [command, args] }).answer.then((response) => {
      if (response.error) logger.debug(`pair: tsserver ${command} failed: ${response.error.message}`);
      const body = (response.result as { body?: unknown } | null | undefined)?.body ?? null;
      write('companion', { jsonrpc: '2.0', method: 'tsserver/response', params: [[id, body]] } as NotificationMessage);
    });
  }

  new StreamMessageReader(fromClient).listen(fromClientMessage);
  for (const side of ['main', 'companion'] as const) new StreamMessageReader(peers[side].transport.input).listen((m) => fromServerMessage(side, m));

  const terminate = async (graceMs?: number) => {
    await Promise.all([main.terminate(graceMs), companionTransport.terminate(graceMs)]);
    toClient.end();
  };
  const exited: Promise<ExitInfo> = Promise.race([
    main.exited.then((info) => ({ ...info, reason: `main server: ${info.reason}` })),
    companionTransport.exited.then((info) => ({ ...info, reason: `companion server: ${info.reason}` })),
  ]);
  // One side gone is the pair gone: the other is ended, and the connection restarts both.
  void exited.then(() => terminate(500));
  return { input: toClient, output: fromClient, pid: main.pid, companionPid: companionTransport.pid, exited, terminate };
}

/** An answer with nothing in it: the other server is asked. */
function isEmpty(result: unknown): boolean {
  if (result === null || result === undefined) return true;
  if (Array.isArray(result)) return result.length === 0;
  const items = (result as { items?: unknown }).items;
  return Array.isArray(items) && items.length === 0;
}

/**
 * Who a broker client is, for `daemon-status`: an MCP front on stdio, an HTTP server's session, or
 * an editor (any other LSP client, through `agent-lsp lsp` or connected directly). Fronts say which
 * they are by the clientInfo name of their initialize; everything else is an editor.
 */
export type BrokerClientKind = 'front' | 'http' | 'editor';

export const CLIENT_NAME_BY_KIND = { front: 'agent-lsp', http: 'agent-lsp-http' } as const;

export function clientKindOf(clientName: string | undefined): BrokerClientKind {
  if (clientName === CLIENT_NAME_BY_KIND.front) return 'front';
  if (clientName === CLIENT_NAME_BY_KIND.http) return 'http';
  return 'editor';
}

/** One connected client as daemon.json lists it. */
export interface BrokerClientInfo {
  kind: BrokerClientKind;
  /** The initialize processId (an editor's own pid when it sends one). */
  pid?: number;
  /** The client's name (clientInfo.name), when it gave one. */
  name?: string;
  /** When it connected (ISO time). */
  since: string;
}

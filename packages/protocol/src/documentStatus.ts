import { RequestType } from './lspValues.js';

export interface BrokerDocumentStatusParams {
  uri: string;
}

export interface BrokerDocumentStatusResult {
  /** Other clients (an editor with unsaved changes) holding this document with a text other than the asker's. */
  otherTexts: number;
}

/**
 * Client → broker: whether other clients hold another text of a document. The broker answers
 * each client on its own text; this lets an agent say that its answer (for the disk) is not what
 * an editor with unsaved changes sees.
 */
export const BrokerDocumentStatusRequest = {
  method: '$/agentLsp/documentStatus',
  type: new RequestType<BrokerDocumentStatusParams, BrokerDocumentStatusResult, void>('$/agentLsp/documentStatus'),
} as const;

export interface BrokerSettledDiagnosticsParams {
  uri: string;
}

/** The asker's version of the document and the server's diagnostics for it. */
export interface BrokerSettledDiagnosticsResult {
  version: number;
  diagnostics: unknown[];
}

/**
 * Client → broker: the server's last push for a document when the broker knows it settles — sent
 * for the text the asker holds, after the server read every change that may affect it (the
 * broker's own probes prove that; a push the server sent between reading a watched-file change
 * and the client's own probe's answer cannot be told apart on the client's side) — else null.
 */
export const BrokerSettledDiagnosticsRequest = {
  method: '$/agentLsp/settledDiagnostics',
  type: new RequestType<BrokerSettledDiagnosticsParams, BrokerSettledDiagnosticsResult | null, void>('$/agentLsp/settledDiagnostics'),
} as const;

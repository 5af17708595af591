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

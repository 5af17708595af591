import { RequestType0 } from './lspValues.js';

export interface BrokerEpochResult {
  /**
   * How many state-changing notifications the broker has sent its server so far (documents opened,
   * changed or closed by any client or by the broker, watched-file events, folders): an answer
   * computed at one value may differ from one computed at another. Never decreases for one server.
   */
  epoch: number;
  /** The server's pid: a restarted server starts a new count. */
  serverPid?: number;
  /** False when the broker's watcher cannot see outside edits (the OS's watch limit): nothing may be cached. */
  watching: boolean;
}

/**
 * Client → broker: the server's change count, after the broker has told it of every file change
 * the OS already reported (the same door a forwarded request passes). A front's cache of read-only
 * answers keys cross-file answers by it, so an outside edit, or another client's unsaved edit,
 * makes an earlier answer unreachable — without a watcher of the front's own.
 */
export const BrokerEpochRequest = {
  method: '$/agentLsp/epoch',
  type: new RequestType0<BrokerEpochResult, void>('$/agentLsp/epoch'),
} as const;

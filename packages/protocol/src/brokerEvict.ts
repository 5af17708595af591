import { RequestType } from './lspValues.js';

export interface BrokerEvictParams {
  /** Why, for the broker's log: the memory budget, the usage measured, who asked. */
  reason: string;
}

export interface BrokerEvictResult {
  /** True: the broker has begun its graceful stop (as `$/agentLsp/stop`). False: it refused, and keeps serving. */
  evicted: boolean;
  /** Why it refused: clients connected, just started, stopping already. */
  refused?: string;
}

/**
 * Client → broker: stop if idle, to keep brokers within the memory budget. The broker decides on
 * its own state at the moment the request arrives (its clients other than the asker, whether a
 * front is still attaching), so a broker that just gained a client is never evicted, however old
 * the asker's view of daemon.json was.
 */
export const BrokerEvictRequest = {
  method: '$/agentLsp/evict',
  type: new RequestType<BrokerEvictParams, BrokerEvictResult, void>('$/agentLsp/evict'),
} as const;

/**
 * The broker's own LSP extensions (`$/agentLsp/*`), declared once and imported by both ends.
 * Any LSP client may connect to a broker; these are what our front uses beyond plain LSP.
 */
export const AGENT_LSP_PROTOCOL_VERSION = 1;

export type BrokerState = 'starting' | 'indexing' | 'ready' | 'restarting' | 'stopping';

export interface BrokerProgress {
  title?: string;
  message?: string;
  percentage?: number;
}

/** Found in the broker's initialize answer under `capabilities.experimental.agentLsp`. */
export interface AgentLspExperimental {
  protocol: number;
  key: string;
  state: BrokerState;
  ready: boolean;
  progress?: BrokerProgress;
}

export interface BrokerStatusParams {
  state: BrokerState;
  ready: boolean;
  progress?: BrokerProgress;
}

/** Broker → client: readiness changed. */
export const BrokerStatusNotification = { method: '$/agentLsp/status' } as const;

/** Client → broker: stop the broker and its server (daemon-stop). */
export const BrokerStopNotification = { method: '$/agentLsp/stop' } as const;

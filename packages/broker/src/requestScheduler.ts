/** Requests in flight at the server at once, by default: enough for a concurrent server, few enough that a hover waits for only a handful of others. */
export const DEFAULT_MAX_IN_FLIGHT = 4;
/** A request in flight longer than this stops counting against the bound (a long poll or a hung request must not block everyone). */
export const LONG_REQUEST_MS = 30_000;

/** Why a queued request left the queue without being sent. */
export type DropReason = 'cancelled' | 'client gone' | 'stopping';

/** One client request waiting for its turn at the server. */
export interface QueuedRequest {
  readonly client: number;
  /**
   * Sends it. Called synchronously when its turn comes, so that the request is counted in flight
   * (for a lease's drain) before anything else can run; settles when the server has answered.
   */
  send(): Promise<unknown>;
  /** Called instead of send() when it leaves the queue unsent. */
  drop(reason: DropReason): void;
  /** Whether it may go beside another client's exclusive section now (a read LeaseManager.readableBeside lets through). */
  beside?(): boolean;
}

export interface RequestSchedulerOptions {
  /** At most this many requests in flight at the server; 0 means unbounded (no fair queuing). */
  maxInFlight: number;
  /** Whether `client` may send now: false while another client holds or is taking an exclusive section. */
  admits(client: number): boolean;
  longRequestMs?: number;
}

interface Waiter {
  request: QueuedRequest;
  /** Sent without taking a slot (a long poll): only the exclusive-section gate applies. */
  unbounded: boolean;
  done: () => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/**
 * Per-client fair queuing in front of the server: a bounded number of requests in flight, and
 * the next one picked round-robin between the clients that have one waiting, so that one agent's
 * flood of requests cannot starve the others (a server like pyright or tsserver works through
 * what it was sent in order). Only requests go through it: notifications and cancels never wait
 * behind requests here.
 */
export class RequestScheduler {
  /** Waiting requests by client; the Map's order is the round-robin order (a served client moves to the back). */
  private readonly queues = new Map<number, Waiter[]>();
  private counted = 0;
  private disposed = false;

  constructor(private readonly options: RequestSchedulerOptions) {}

  /**
   * Queues a request; resolves once it has been sent or dropped. An abort of `signal` while it
   * waits removes it without sending it.
   */
  enqueue(request: QueuedRequest, signal?: AbortSignal, unbounded = false): Promise<void> {
    if (this.disposed) {
      request.drop('stopping');
      return Promise.resolve();
    }
    if (signal?.aborted) {
      request.drop('cancelled');
      return Promise.resolve();
    }
    return new Promise<void>((done) => {
      const waiter: Waiter = { request, unbounded, done, signal, onAbort: () => this.remove(waiter, 'cancelled') };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      const queue = this.queues.get(request.client);
      if (queue) queue.push(waiter);
      else this.queues.set(request.client, [waiter]);
      this.pump();
    });
  }

  /** Sends what may go now. Call it when the exclusive-section state changed. */
  pump(): void {
    for (;;) {
      const next = this.pick();
      if (!next) return;
      this.start(next);
    }
  }

  /** The client left: its waiting requests are dropped, never sent. */
  dropClient(client: number): void {
    const queue = this.queues.get(client);
    if (!queue) return;
    this.queues.delete(client);
    for (const w of queue) this.finish(w, 'client gone');
  }

  /** Requests counted in flight (against the bound) and waiting. */
  get stats(): { inFlight: number; queued: number } {
    let queued = 0;
    for (const q of this.queues.values()) queued += q.length;
    return { inFlight: this.counted, queued };
  }

  dispose(): void {
    this.disposed = true;
    for (const client of [...this.queues.keys()]) {
      const queue = this.queues.get(client) ?? [];
      this.queues.delete(client);
      for (const w of queue) this.finish(w, 'stopping');
    }
  }

  private hasRoom(): boolean {
    return this.options.maxInFlight <= 0 || this.counted < this.options.maxInFlight;
  }

  /** The first admitted client in round-robin order whose head may go, taken off its queue. */
  private pick(): Waiter | undefined {
    const room = this.hasRoom();
    for (const [client, queue] of this.queues) {
      const head = queue[0];
      if (!head || !(room || head.unbounded) || !(this.options.admits(client) || head.request.beside?.() === true)) continue;
      queue.shift();
      // Served: to the back of the round, or out of it when nothing else waits.
      this.queues.delete(client);
      if (queue.length > 0) this.queues.set(client, queue);
      return head;
    }
    return undefined;
  }

  private start(w: Waiter): void {
    w.signal?.removeEventListener('abort', w.onAbort);
    let counted = !w.unbounded;
    if (counted) this.counted++;
    const uncount = () => {
      if (!counted) return;
      counted = false;
      clearTimeout(timer);
      this.counted--;
      this.pump();
    };
    const timer = counted ? setTimeout(uncount, this.options.longRequestMs ?? LONG_REQUEST_MS) : undefined;
    timer?.unref();
    let settled: Promise<unknown>;
    try {
      settled = w.request.send();
    } catch (err) {
      settled = Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    w.done();
    settled.then(uncount, uncount);
  }

  private remove(w: Waiter, reason: DropReason): void {
    const queue = this.queues.get(w.request.client);
    const i = queue?.indexOf(w) ?? -1;
    if (!queue || i < 0) return;
    queue.splice(i, 1);
    if (queue.length === 0) this.queues.delete(w.request.client);
    this.finish(w, reason);
  }

  private finish(w: Waiter, reason: DropReason): void {
    w.signal?.removeEventListener('abort', w.onAbort);
    w.request.drop(reason);
    w.done();
  }
}

import { describe, expect, it } from 'vitest';
import { RequestScheduler, type DropReason } from './requestScheduler.js';

/** A scheduler whose "server" is a list of sent requests the test answers by hand. */
function harness(maxInFlight: number, admits: (client: number) => boolean = () => true) {
  const scheduler = new RequestScheduler({ maxInFlight, admits });
  const sent: string[] = [];
  const dropped: { name: string; reason: DropReason }[] = [];
  const answers = new Map<string, () => void>();
  const submit = (client: number, name: string, options: { signal?: AbortSignal; unbounded?: boolean; beside?: () => boolean } = {}) =>
    scheduler.enqueue(
      {
        client,
        send: () => {
          sent.push(name);
          return new Promise<void>((r) => answers.set(name, r));
        },
        drop: (reason) => dropped.push({ name, reason }),
        ...(options.beside ? { beside: options.beside } : {}),
      },
      options.signal,
      options.unbounded,
    );
  /** The server answers `name`; the slot frees once the promise chain ran. */
  const answer = async (name: string) => {
    const a = answers.get(name);
    if (!a) throw new Error(`${name} was not sent`);
    a();
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { scheduler, sent, dropped, submit, answer };
}

describe('RequestScheduler', () => {
  it('keeps at most maxInFlight requests at the server and sends the next when one is answered', async () => {
    const h = harness(2);
    for (let i = 0; i < 5; i++) void h.submit(1, `a${i}`);
    expect(h.sent).toEqual(['a0', 'a1']);
    expect(h.scheduler.stats).toEqual({ inFlight: 2, queued: 3 });
    await h.answer('a1');
    expect(h.sent).toEqual(['a0', 'a1', 'a2']);
    await h.answer('a0');
    await h.answer('a2');
    expect(h.sent).toEqual(['a0', 'a1', 'a2', 'a3', 'a4']);
  });

  it('sends a request another client\'s section holds back only while it may go beside that section (asked when its turn comes)', () => {
    let held = true;
    let readable = false;
    const h = harness(2, () => !held);
    void h.submit(1, 'hover', { beside: () => readable });
    void h.submit(1, 'references');
    expect(h.sent).toEqual([]);
    readable = true;
    h.scheduler.pump();
    expect(h.sent).toEqual(['hover']);
    held = false;
    h.scheduler.pump();
    expect(h.sent).toEqual(['hover', 'references']);
  });

  it('keeps one client\'s requests in the order they came', async () => {
    const h = harness(1);
    for (let i = 0; i < 4; i++) void h.submit(7, `r${i}`);
    for (let i = 0; i < 3; i++) await h.answer(`r${i}`);
    expect(h.sent).toEqual(['r0', 'r1', 'r2', 'r3']);
  });

  it('takes the next request round-robin between clients, so a flood does not starve a light client', async () => {
    const h = harness(1);
    for (let i = 0; i < 6; i++) void h.submit(1, `flood${i}`);
    void h.submit(2, 'hover0');
    void h.submit(2, 'hover1');
    void h.submit(3, 'other0');
    for (const name of ['flood0', 'flood1', 'hover0', 'other0', 'flood2', 'hover1']) await h.answer(name);
    expect(h.sent).toEqual(['flood0', 'flood1', 'hover0', 'other0', 'flood2', 'hover1', 'flood3']);
  });

  it('resolves enqueue() once the request was sent, not before', async () => {
    const h = harness(1);
    let firstSent = false;
    let secondSent = false;
    void h.submit(1, 'a').then(() => (firstSent = true));
    void h.submit(1, 'b').then(() => (secondSent = true));
    await Promise.resolve();
    expect([firstSent, secondSent]).toEqual([true, false]);
    await h.answer('a');
    expect(secondSent).toBe(true);
  });

  it('removes a cancelled request from the queue without sending it', async () => {
    const h = harness(1);
    void h.submit(1, 'a');
    const cancel = new AbortController();
    const waiting = h.submit(1, 'b', { signal: cancel.signal });
    void h.submit(1, 'c');
    cancel.abort();
    await waiting;
    expect(h.dropped).toEqual([{ name: 'b', reason: 'cancelled' }]);
    await h.answer('a');
    expect(h.sent).toEqual(['a', 'c']);
    // Already cancelled when it arrives: never queued.
    const gone = new AbortController();
    gone.abort();
    await h.submit(2, 'd', { signal: gone.signal });
    expect(h.dropped.map((d) => d.name)).toEqual(['b', 'd']);
  });

  it('drops the waiting requests of a client that disconnects and gives their turns to the others', async () => {
    const h = harness(1);
    void h.submit(1, 'a0');
    void h.submit(1, 'a1');
    void h.submit(1, 'a2');
    void h.submit(2, 'b0');
    h.scheduler.dropClient(1);
    expect(h.dropped).toEqual([
      { name: 'a1', reason: 'client gone' },
      { name: 'a2', reason: 'client gone' },
    ]);
    await h.answer('a0');
    expect(h.sent).toEqual(['a0', 'b0']);
    expect(h.scheduler.stats).toEqual({ inFlight: 1, queued: 0 });
  });

  it('holds the requests of clients the exclusive section does not admit, and lets the holder\'s pass them', async () => {
    let holder: number | undefined;
    const h = harness(2, (client) => holder === undefined || holder === client);
    holder = 1;
    void h.submit(2, 'other0');
    void h.submit(2, 'other1');
    void h.submit(1, 'holder0');
    void h.submit(1, 'holder1');
    expect(h.sent).toEqual(['holder0', 'holder1']);
    await h.answer('holder0');
    await h.answer('holder1');
    expect(h.sent).toEqual(['holder0', 'holder1']);
    holder = undefined;
    h.scheduler.pump();
    expect(h.sent).toEqual(['holder0', 'holder1', 'other0', 'other1']);
  });

  it('sends everything at once when unbounded (0), and long polls without taking a slot', () => {
    const unbounded = harness(0);
    for (let i = 0; i < 20; i++) void unbounded.submit(i % 3, `u${i}`);
    expect(unbounded.sent).toHaveLength(20);
    const h = harness(1);
    void h.submit(1, 'a');
    void h.submit(2, 'poll', { unbounded: true });
    void h.submit(3, 'b');
    expect(h.sent).toEqual(['a', 'poll']);
    expect(h.scheduler.stats.inFlight).toBe(1);
  });

  it('stops counting a request that stays in flight too long, so a hung one cannot block everyone', async () => {
    const scheduler = new RequestScheduler({ maxInFlight: 1, admits: () => true, longRequestMs: 20 });
    const sent: string[] = [];
    const send = (name: string) => () => {
      sent.push(name);
      return new Promise<void>(() => undefined);
    };
    void scheduler.enqueue({ client: 1, send: send('hung'), drop: () => undefined });
    const next = scheduler.enqueue({ client: 2, send: send('next'), drop: () => undefined });
    expect(sent).toEqual(['hung']);
    await next;
    expect(sent).toEqual(['hung', 'next']);
  });

  it('drops what waits when disposed, and whatever comes after', async () => {
    const h = harness(1);
    void h.submit(1, 'a');
    void h.submit(1, 'b');
    h.scheduler.dispose();
    await h.submit(2, 'c');
    expect(h.dropped).toEqual([
      { name: 'b', reason: 'stopping' },
      { name: 'c', reason: 'stopping' },
    ]);
  });
});

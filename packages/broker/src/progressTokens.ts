/**
 * Clients choose their own workDoneToken / partialResultToken values, so two clients may pick the
 * same one. The broker prefixes them per client on the way to the server and strips the prefix on
 * the way back, so each client's progress goes to it alone.
 */
export function namespaceTokens(params: unknown, prefix: string): unknown {
  if (!params || typeof params !== 'object' || Array.isArray(params)) return params;
  const p = params as Record<string, unknown>;
  if (p['workDoneToken'] === undefined && p['partialResultToken'] === undefined) return params;
  const out = { ...p };
  for (const field of ['workDoneToken', 'partialResultToken'] as const) {
    const token = p[field];
    // The type marker brings a numeric token back as a number.
    if (typeof token === 'number') out[field] = `${prefix}n:${token}`;
    else if (typeof token === 'string') out[field] = `${prefix}s:${token}`;
  }
  return out;
}

/** The owner's original token, when `token` is one of the client's namespaced tokens. */
export function ownToken(token: unknown, prefix: string): string | number | undefined {
  if (typeof token !== 'string' || !token.startsWith(prefix)) return undefined;
  const rest = token.slice(prefix.length);
  if (rest.startsWith('n:')) return Number(rest.slice(2));
  if (rest.startsWith('s:')) return rest.slice(2);
  return undefined;
}

/** Whether a token was namespaced for some client (and so must not be fanned out). */
export function isClientToken(token: unknown): boolean {
  return typeof token === 'string' && /^agentLsp\/c\d+\//.test(token);
}

type ProgressToken = string | number;

/** `$/progress` params. */
export interface ProgressNotice {
  token: ProgressToken;
  value: unknown;
}

/**
 * One client's share of the progress the server reports under tokens it created itself (with
 * `window/workDoneProgress/create`, which the broker answers). A client may take `$/progress` only
 * for a token it was told to create: at a token's `begin`, a client that supports server-created
 * progress is asked to create it (the request goes out before the begin, on the same socket), and
 * gets that token's reports until its `end`. A client that does not support it, that refused the
 * token, or that came after the begin gets none of it.
 */
export class ServerProgressTokens {
  /** The client said `window.workDoneProgress`. */
  supported = false;
  private readonly created = new Set<ProgressToken>();

  constructor(private readonly create: (token: ProgressToken) => Promise<unknown>) {}

  /** Whether this progress may reach the client (asking it to create the token at its begin). */
  admit(params: ProgressNotice): boolean {
    const { token } = params;
    const kind = (params.value as { kind?: unknown } | null)?.kind;
    if (kind === 'begin' && this.supported && !this.created.has(token)) {
      this.created.add(token);
      this.create(token).catch(() => this.created.delete(token));
    }
    if (!this.created.has(token)) return false;
    if (kind === 'end') this.created.delete(token);
    return true;
  }
}

export interface Page<T> {
  items: T[];
  total: number;
  complete: boolean;
  offset: number;
  limit: number;
  returned: number;
}

/** Cuts one page out of a full answer; `complete` says whether nothing is left after it. */
export function page<T>(all: readonly T[], offset: number | undefined, limit: number | undefined, defaultLimit: number): Page<T> {
  const off = offset ?? 0;
  const lim = limit ?? defaultLimit;
  const items = all.slice(off, off + lim);
  return { items, total: all.length, complete: off + items.length >= all.length, offset: off, limit: lim, returned: items.length };
}

export function pageHeader(p: { total?: number | undefined; offset?: number | undefined; returned?: number | undefined; complete?: boolean | undefined }, noun: string): string {
  const total = p.total ?? 0;
  const off = p.offset ?? 0;
  const returned = p.returned ?? 0;
  if (total === 0) return `No ${noun}.`;
  const shown = p.complete ? '' : ` (showing ${off + 1}-${off + returned}; pass offset=${off + returned} for more)`;
  return `${total} ${noun}${shown}:`;
}

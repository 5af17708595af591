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

/** A page's counts, as every paged result carries them (pagingOutput in schemas.ts). */
export function pageFields<T>(p: Page<T>): Omit<Page<T>, 'items'> {
  return { total: p.total, complete: p.complete, offset: p.offset, limit: p.limit, returned: p.returned };
}

/**
 * The first line of a paged list: how many there are and, when this page is not all of them,
 * which ones it shows and where the next page starts — or that the offset is past the end.
 */
export function pageHeader(p: { total?: number | undefined; offset?: number | undefined; returned?: number | undefined }, noun: string): string {
  const total = p.total ?? 0;
  const off = p.offset ?? 0;
  const returned = p.returned ?? 0;
  if (total === 0) return `No ${noun}.`;
  if (returned === 0 && off >= total) return `${total} ${noun}; offset=${off} is past the end (pass an offset below ${total}, or 0 to start over).`;
  if (off === 0 && returned >= total) return `${total} ${noun}:`;
  const last = off + returned;
  const more = last < total ? `; pass offset=${last} for more` : '';
  return `${total} ${noun} (showing ${off + 1}–${last} of ${total}${more}):`;
}

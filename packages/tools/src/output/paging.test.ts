import { describe, expect, it } from 'vitest';
import { page, pageHeader } from './paging.js';

const TEN = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];

describe('page', () => {
  it('starts at the beginning with the default limit', () => {
    expect(page(TEN, undefined, undefined, 3)).toEqual({
      items: ['a', 'b', 'c'],
      total: 10,
      complete: false,
      offset: 0,
      limit: 3,
      returned: 3,
    });
  });

  it('takes the page the offset and limit ask for', () => {
    const p = page(TEN, 4, 2, 3);
    expect(p.items).toEqual(['e', 'f']);
    expect(p).toMatchObject({ offset: 4, limit: 2, returned: 2, complete: false });
  });

  it('is complete when the page reaches the last item exactly', () => {
    const p = page(TEN, 7, 3, 100);
    expect(p.items).toEqual(['h', 'i', 'j']);
    expect(p.complete).toBe(true);
  });

  it('is complete with a short last page', () => {
    const p = page(TEN, 8, 5, 100);
    expect(p.items).toEqual(['i', 'j']);
    expect(p).toMatchObject({ returned: 2, limit: 5, complete: true });
  });

  it('is complete and empty past the end', () => {
    expect(page(TEN, 50, 5, 100)).toMatchObject({ items: [], total: 10, returned: 0, complete: true });
  });

  it('is complete and empty for an empty answer', () => {
    expect(page([], undefined, undefined, 20)).toMatchObject({ items: [], total: 0, returned: 0, complete: true });
  });

  it('pages through everything without gaps or repeats', () => {
    const seen: string[] = [];
    let offset = 0;
    for (;;) {
      const p = page(TEN, offset, 4, 100);
      seen.push(...p.items);
      if (p.complete) break;
      offset += p.returned;
    }
    expect(seen).toEqual(TEN);
  });

  it('does not change the full answer', () => {
    const all = [...TEN];
    page(all, 2, 3, 100).items.push('z');
    expect(all).toEqual(TEN);
  });
});

describe('pageHeader', () => {
  it('says there is nothing', () => {
    expect(pageHeader({ total: 0 }, 'references')).toBe('No references.');
    expect(pageHeader({}, 'symbols')).toBe('No symbols.');
  });

  it('gives the count alone when the page is complete', () => {
    expect(pageHeader(page(TEN, undefined, undefined, 20), 'references')).toBe('10 references:');
  });

  it('says what is shown, of how many, and how to get the rest', () => {
    expect(pageHeader(page(TEN, undefined, undefined, 3), 'references')).toBe('10 references (showing 1–3 of 10; pass offset=3 for more):');
    expect(pageHeader(page(TEN, 3, 4, 20), 'references')).toBe('10 references (showing 4–7 of 10; pass offset=7 for more):');
  });

  it('says where the last page of several is', () => {
    expect(pageHeader(page(TEN, 6, 4, 20), 'symbols')).toBe('10 symbols (showing 7–10 of 10):');
    const many = Array.from({ length: 669 }, (_, i) => i);
    expect(pageHeader(page(many, 600, 100, 100), 'references')).toBe('669 references (showing 601–669 of 669):');
  });

  it('says when the offset is past the end', () => {
    expect(pageHeader(page(TEN, 10, 5, 20), 'symbols')).toBe('10 symbols; offset=10 is past the end (pass an offset below 10, or 0 to start over).');
    expect(pageHeader(page(TEN, 50, undefined, 20), 'symbols')).toMatch(/offset=50 is past the end/);
  });
});

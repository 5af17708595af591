// The peers benchmark reads each MCP server's find_references answer from its own wording; a
// misread count would call a complete answer incomplete (or the reverse). The samples are the
// servers' real answers on examples/workspace/py (compute_total: 7 references with its declaration).
import { describe, expect, it } from 'vitest';
import { cclspReferences, completeness, lsmcpReferences, originalReferences, oursReferences, serenaReferences, symbolAt } from './peerAnswers.mjs';

const text = (t: string, isError = false) => ({ content: [{ type: 'text', text: t }], isError });

describe('peer answers', () => {
  it('reads ours from structuredContent', () => {
    expect(oursReferences({ content: [], structuredContent: { total: 7, complete: true } })).toEqual({ references: 7, ready: true });
    expect(oursReferences({ content: [], structuredContent: { total: 3, complete: false } }).ready).toBe(false);
  });

  it("reads the original's count and its not-ready answer", () => {
    const answer = 'GCF profile=generic\n## [7]{EndCol,EndLine,FilePath,StartCol,StartLine}\n18|6|/w/shop/pricing.py|5|6\n39|1|/w/shop/checkout.py|26|1\n';
    expect(originalReferences(text(answer))).toEqual({ references: 7, ready: true });
    const indexing = originalReferences(text('find_references: workspace is still being indexed by the daemon (started 1s ago).', true));
    expect(indexing.ready).toBe(false);
  });

  it("counts Serena's referencing symbols, one entry per reference", () => {
    const answer = JSON.stringify({
      'shop/checkout.py': { File: [{ name_path: 'checkout' }], Variable: [{ name_path: 'receipt/total' }, { name_path: 'label' }], Function: [{ name_path: 'average' }] },
      'shop/reports.py': { File: [{ name_path: 'reports' }], Function: [{ name_path: 'daily' }] },
    });
    expect(serenaReferences(text(answer))).toEqual({ references: 6, ready: true });
    expect(serenaReferences(text('The answer is too long (200000 characters)')).references).toBeNaN();
  });

  it("counts cclsp's location lines for the symbol itself, not the other symbols whose names contain it", () => {
    const answer = [
      'Results for reverse (function) at /w/django/urls/base.py:27:5:',
      '/w/django/urls/base.py:27:5',
      '/w/django/urls/base.py:89:21',
      '/w/django/urls/base.py:174:23',
      '',
      'Results for reverse_lazy (variable) at /w/django/urls/base.py:89:1:',
      '/w/django/urls/base.py:89:1',
      '/w/django/views/generic/edit.py:3:31',
      '',
      'Results for to_be_reversed (variable) at /w/django/urls/base.py:171:9:',
      '/w/django/urls/base.py:171:9',
    ].join('\n');
    expect(cclspReferences(text(answer), 'reverse')).toEqual({ references: 3, ready: true, others: 2 });
    expect(cclspReferences(text(answer), 'reverse_lazy').references).toBe(2);
  });

  it("reads lsmcp's count", () => {
    expect(lsmcpReferences(text('Found 7 references to "compute_total"\n\n\nshop/pricing.py:6:5\n6: def compute_total('))).toEqual({ references: 7, ready: true });
  });

  it('judges completeness against the server, less the declaration where a peer leaves it out', () => {
    expect(completeness(7, 7, true)).toEqual({ expected: 7, complete: true });
    expect(completeness(6, 7, false)).toEqual({ expected: 6, complete: true });
    expect(completeness(6, 7, true).complete).toBe(false);
    expect(completeness(Number.NaN, 7, true).complete).toBe(false);
  });

  it('finds the symbol a position pattern points at', () => {
    expect(symbolAt('def @@reverse(viewname')).toBe('reverse');
    expect(() => symbolAt('no mark')).toThrow(/no identifier/);
  });
});

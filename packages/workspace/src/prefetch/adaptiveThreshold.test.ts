import { describe, expect, it } from 'vitest';
import { AdaptiveThreshold } from './adaptiveThreshold.js';

describe('AdaptiveThreshold', () => {
  it('stays at its start until enough has been observed', () => {
    const t = new AdaptiveThreshold();
    for (let i = 0; i < 9; i++) { t.record('wasted'); t.adapt(); }
    expect(t.value).toBe(0.5);
  });

  it('rises when speculations are mostly wasted, up to its maximum', () => {
    const t = new AdaptiveThreshold();
    for (let i = 0; i < 10; i++) { t.record('wasted'); t.adapt(); }
    expect(t.value).toBeGreaterThan(0.5);
    for (let i = 0; i < 100; i++) { t.record('wasted'); t.adapt(); }
    expect(t.value).toBe(0.85);
  });

  it('falls when held-back predictions would have answered the agent, down to its minimum', () => {
    const t = new AdaptiveThreshold();
    for (let i = 0; i < 10; i++) { t.record('held_back'); t.adapt(); }
    expect(t.value).toBeLessThan(0.5);
    for (let i = 0; i < 100; i++) { t.record('held_back'); t.adapt(); }
    expect(t.value).toBe(0.3);
  });

  it('holds when speculations mostly hit', () => {
    const t = new AdaptiveThreshold();
    for (let i = 0; i < 60; i++) { t.record(i % 4 === 0 ? 'wasted' : 'hit'); t.adapt(); }
    expect(t.value).toBe(0.5);
  });

  it('forgets what fell out of its window', () => {
    const t = new AdaptiveThreshold({ window: 20 });
    for (let i = 0; i < 20; i++) { t.record('wasted'); t.adapt(); }
    const high = t.value;
    for (let i = 0; i < 20; i++) { t.record('held_back'); t.adapt(); }
    expect(t.value).toBeLessThan(high);
  });

  it('moves one step per agent query, however many observations came in since the last', () => {
    const t = new AdaptiveThreshold();
    for (let i = 0; i < 30; i++) t.record('wasted');
    expect(t.value).toBe(0.5);
    t.adapt();
    expect(t.value).toBe(0.55);
  });
});

import { describe, expect, it } from 'vitest';
import { selectTools } from '../catalog.js';

describe('tool schemas', () => {
  it('every tool builds its zod shapes on first read, and the same ones after', () => {
    for (const def of selectTools()) {
      for (const key of ['input', 'output'] as const) {
        expect(typeof Object.getOwnPropertyDescriptor(def, key)?.get, `${def.name}.${key} is built on first read`).toBe('function');
        const shape = def[key];
        expect(Object.keys(shape).length > 0 || key === 'input', `${def.name}.${key}`).toBe(true);
        expect(def[key], `${def.name}.${key} is built once`).toBe(shape);
      }
    }
  });
});

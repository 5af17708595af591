import { describe, expect, it } from 'vitest';
import { LazySchemaValidator } from './lazySchemaValidator.js';

describe('LazySchemaValidator', () => {
  it('validates as the SDK validator does once asked', () => {
    const validator = new LazySchemaValidator();
    const check = validator.getValidator<{ name: string }>({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
    expect(check({ name: 'x' })).toMatchObject({ valid: true, data: { name: 'x' } });
    const bad = check({ name: 3 });
    expect(bad.valid).toBe(false);
    expect(bad.errorMessage).toMatch(/name/);
  });

  it('builds no Ajv until a schema is asked for', () => {
    const validator = new LazySchemaValidator();
    expect((validator as unknown as { ajv: unknown }).ajv).toBeUndefined();
    validator.getValidator({ type: 'string' });
    expect((validator as unknown as { ajv: unknown }).ajv).toBeDefined();
  });
});

import { describe, expect, it } from 'vitest';
import { enclosingGoroutine } from './concurrentCallers.js';

/** The pattern at the `@@` of a Go source whose enclosing function starts at offset 0. */
function at(source: string): string | undefined {
  const site = source.indexOf('@@');
  return enclosingGoroutine(source.replace('@@', ''), 0, site);
}

describe('enclosingGoroutine', () => {
  it('finds the go func literal and the .Go(func literal) around a call, not a plain literal', () => {
    expect(at('func Run() {\n\tgo func() {\n\t\t@@f()\n\t}()\n}')).toBe('go func literal');
    expect(at('func Run(g *errgroup.Group) {\n\tg.Go(func() error {\n\t\t@@f()\n\t\treturn nil\n\t})\n}')).toBe('.Go(func literal)');
    expect(at('func Run() {\n\tgo func() {\n\t\tlater := func() { @@f() }\n\t\tlater()\n\t}()\n}')).toBeUndefined();
    expect(at('func Run() {\n\tgo func() { g() }()\n\t@@f()\n}')).toBeUndefined();
  });

  it('is not misled by braces and keywords in strings, runes and comments, nor by interface{} and struct{} in signatures', () => {
    expect(at('func Run() {\n\ts := "go func() {"\n\t_ = \'{\'\n\t// go func() {\n\t/* } */\n\t@@f()\n}')).toBeUndefined();
    expect(at('func Run() {\n\tgo func(v interface{}, w struct{ a int }) {\n\t\t@@f()\n\t}(1, struct{ a int }{})\n}')).toBe('go func literal');
    expect(at('func Run() {\n\tgo func() {\n\t\tx := `}`\n\t\t@@f()\n\t}()\n}')).toBe('go func literal');
  });
});

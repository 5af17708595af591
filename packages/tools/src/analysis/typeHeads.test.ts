import { describe, expect, it } from 'vitest';
import { classHead, mayBeBase, offsetAt, positionAt } from './typeHeads.js';

/** The bases named after the class name, with the offset of each name in the text. */
function bases(text: string, name: string, python: boolean): string[] {
  const at = text.indexOf(name) + name.length;
  const head = classHead(text, positionAt(text, at), python);
  return head.bases.map((b) => `${b.name}@${text.slice(b.offset, b.offset + b.name.length)}`);
}

describe('classHead', () => {
  it('reads Python bases, skipping keyword arguments and following dotted names', () => {
    expect(bases('class Square(Rectangle, typing.Protocol, metaclass=ABCMeta):\n    pass\n', 'Square', true)).toEqual(['Rectangle@Rectangle', 'Protocol@Protocol']);
    expect(bases('class Plain:\n    pass\n', 'Plain', true)).toEqual([]);
    expect(bases('class Box[T](Generic[T], Base):\n    pass\n', 'Box', true)).toEqual(['Generic@Generic', 'Base@Base']);
  });

  it('reads TypeScript extends and implements, generic arguments left out', () => {
    expect(bases('export class Rectangle extends Shape<number> implements HasArea, Named {\n}', 'Rectangle', false)).toEqual(['Shape@Shape', 'HasArea@HasArea', 'Named@Named']);
    expect(bases('interface A extends B, C {}', 'A', false)).toEqual(['B@B', 'C@C']);
    expect(bases('class Solo {\n}', 'Solo', false)).toEqual([]);
  });

  it('takes only the bases themselves: not type parameters\' constraints, not type arguments', () => {
    expect(bases('export class Box<T extends Item, U = Map<string, T>> extends Base<T> {\n}', 'Box', false)).toEqual(['Base@Base']);
    expect(bases('export interface OperatorFunction<T, R> extends UnaryFunction<Observable<T>, Observable<R>> {}', 'OperatorFunction', false)).toEqual(['UnaryFunction@UnaryFunction']);
    expect(bases('interface Handler extends Wrapped<(x: number) => Observable<number>>, Named {}', 'Handler', false)).toEqual(['Wrapped@Wrapped', 'Named@Named']);
    expect(bases('class Sub<T> extends Outer<{ a: T }> implements Api<T>, Other {}', 'Sub', false)).toEqual(['Outer@Outer', 'Api@Api', 'Other@Other']);
  });

  it('reads C++ base clauses with access specifiers, not qualified names', () => {
    expect(bases('struct Circle final : public Shape, private virtual ns::Base {', 'Circle', false)).toEqual(['Shape@Shape', 'Base@Base']);
    expect(bases('struct Point { int x; };', 'Point', false)).toEqual([]);
  });

  it('says which uses may be bases from the token before them, per language', () => {
    const may = (text: string, ext: string) => mayBeBase(text, text.lastIndexOf('Obs'), ext);
    expect(['class A extends Obs {', 'class A extends rx.Obs {', 'class A implements B,\n  Obs {'].map((t) => may(t, '.ts'))).toEqual([true, true, true]);
    expect(['let a: Obs', 'new Obs()', 'f<Obs>()', 'import { Obs }', 'x extends Fn<Obs>'].map((t) => may(t, '.ts'))).toEqual([false, false, false, false, false]);
    expect([may('class A(Obs):', '.py'), may('class A(B, mod.Obs):', '.py'), may('x: Obs = 1', '.py')]).toEqual([true, true, false]);
    expect([may('struct A : public ns::Obs {', '.cpp'), may('struct A : Obs {', '.cpp')]).toEqual([true, true]);
  });

  it('maps offsets and LSP positions both ways', () => {
    const text = 'ab\ncdé\nf';
    expect(offsetAt(text, { line: 1, character: 2 })).toBe(5);
    expect(positionAt(text, 5)).toEqual({ line: 1, character: 2 });
    expect(positionAt(text, offsetAt(text, { line: 2, character: 0 }))).toEqual({ line: 2, character: 0 });
  });
});

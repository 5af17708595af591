// What the editing tools' field cases (fieldEditCases.ts) ask on each corpus, spread into the
// specs of fieldSpecs.ts: the quick tier's few and the full sweep's more. Positions are named by a
// snippet of the file, as there.
import { gccSyntax, goBuild, pyrightCli, tsc } from './fieldCheckers.js';
import type { FieldSpec } from './fieldSuite.js';

/**
 * The editing tools' cases (fieldEditCases.ts), spread into fieldSpecs.ts's specs: a symbol used
 * elsewhere that safe_delete_symbol must refuse, a body replaced, a planted misspelt name or
 * missing import and its quick fix, an unused symbol planted and deleted.
 */
export const RXJS_EDITS_QUICK: Pick<FieldSpec, 'deleteReferenced' | 'replaceBodies' | 'fixes' | 'inserts'> = {
  deleteReferenced: [{ file: 'src/internal/util/isFunction.ts', needle: 'isFunction(value' }],
  replaceBodies: [{ file: 'src/internal/util/isFunction.ts', needle: 'isFunction(value', body: "  return typeof value === 'function' && value !== null;", checker: tsc }],
  fixes: [{ file: 'src/internal/util/args.ts', planted: 'export const fieldPlanted = isFuncton(last);', needle: 'isFuncton', checker: tsc }],
  // Above a class method's doc comment, at the method's indentation.
  inserts: [{ file: 'src/internal/Observable.ts', needle: 'lift<R>(operator', side: 'before', code: 'fieldInserted(): number {\n  return 1;\n}', name: 'fieldInserted', checker: tsc }],
};
export const GO_STD_EDITS_QUICK: Pick<FieldSpec, 'deleteReferenced' | 'replaceBodies' | 'fixes' | 'inserts'> = {
  // Walk calls itself: those uses are inside it and do not count. IsValid is a method below its
  // type, which position-addressed symbol tools once did not find (innermostAt).
  deleteReferenced: [
    { file: 'go/ast/walk.go', needle: 'func Walk(', at: 5 },
    { file: 'go/token/position.go', needle: 'func (p Pos) IsValid', at: 13 },
  ],
  replaceBodies: [{ file: 'go/ast/walk.go', needle: 'func Inspect(', at: 5, body: '\tif f == nil {\n\t\treturn\n\t}\n\tWalk(inspector(f), node)', checker: goBuild }],
  fixes: [{ file: 'go/ast/walk.go', planted: 'var fieldPlanted = strings.ToUpper("x")', needle: 'strings', checker: goBuild }],
  // Below a method declared below its type.
  inserts: [{ file: 'go/token/position.go', needle: 'func (p Pos) IsValid', at: 13, side: 'after', code: 'func (p Pos) FieldInserted() bool {\n\treturn p == NoPos\n}', name: '(Pos).FieldInserted', checker: goBuild }],
};
export const RXJS_EDITS_FULL: Pick<FieldSpec, 'deleteReferenced' | 'deleteUnused' | 'replaceBodies' | 'fixes' | 'inserts'> = {
  deleteReferenced: [...RXJS_EDITS_QUICK.deleteReferenced!, { file: 'src/internal/util/args.ts', needle: 'function last<', at: 9 }],
  deleteUnused: [
    {
      file: 'src/internal/util/args.ts',
      before: 'export function popScheduler(',
      planted: '/** Planted by the field test: used nowhere. */\nexport function fieldUnused(args: any[]): number {\n  return args.length;\n}',
      name: 'fieldUnused',
      checker: tsc,
    },
  ],
  replaceBodies: [...RXJS_EDITS_QUICK.replaceBodies!, { file: 'src/internal/util/isDate.ts', needle: 'isValidDate(value', body: '  if (!(value instanceof Date)) {\n    return false;\n  }\n  return !isNaN(value.getTime());', checker: tsc }],
  fixes: [...RXJS_EDITS_QUICK.fixes!, { file: 'src/internal/util/not.ts', planted: 'export const fieldPlanted = isFunction(not);', needle: 'isFunction', checker: tsc }],
  inserts: [
    ...RXJS_EDITS_QUICK.inserts!,
    { file: 'src/internal/util/isFunction.ts', needle: 'isFunction(value', side: 'after', code: 'export function fieldInserted(value: unknown): boolean {\n  return value === undefined;\n}', name: 'fieldInserted', checker: tsc },
  ],
};
export const GO_STD_EDITS_FULL: Pick<FieldSpec, 'deleteUnused' | 'replaceBodies' | 'fixes' | 'inserts'> = {
  deleteUnused: [
    {
      file: 'go/ast/walk.go',
      before: 'type inspector func(Node) bool',
      planted: '// fieldUnused is planted by the field test: used nowhere.\nfunc fieldUnused(n Node) bool {\n\treturn n != nil\n}',
      name: 'fieldUnused',
      checker: goBuild,
    },
  ],
  replaceBodies: [
    ...GO_STD_EDITS_QUICK.replaceBodies!,
    { file: 'go/token/position.go', needle: 'func (p Pos) IsValid', at: 13, body: '\treturn p > NoPos', checker: goBuild },
    // A body with a type error: errors_after must be the error the compiler finds.
    { file: 'go/token/position.go', needle: 'func (p Pos) IsValid() bool', at: 13, body: '\treturn "not a bool"', checker: goBuild },
  ],
  fixes: [...GO_STD_EDITS_QUICK.fixes!, { file: 'go/token/position.go', planted: 'var fieldPlanted = bytes.NewReader(nil)', needle: 'bytes', checker: goBuild }],
  // Above a function and its doc comment.
  inserts: [...GO_STD_EDITS_QUICK.inserts!, { file: 'go/ast/walk.go', needle: 'func Inspect(', at: 5, side: 'before', code: '// fieldInserted is inserted by the field test.\nfunc fieldInserted(n Node) bool {\n\treturn n == nil\n}', name: 'fieldInserted', checker: goBuild }],
};

/** Django (pyright): pyright offers no quick fixes for an undefined name or a misspelling, so no fixes case. */
export const DJANGO_EDITS_FULL: Pick<FieldSpec, 'deleteReferenced' | 'deleteUnused' | 'replaceBodies' | 'inserts'> = {
  deleteReferenced: [{ file: 'django/utils/text.py', needle: 'def capfirst(', at: 4 }],
  deleteUnused: [
    {
      file: 'django/utils/text.py',
      before: '@keep_lazy_text\ndef normalize_newlines(',
      planted: '# Planted by the field test: used nowhere.\ndef field_unused(value):\n    return value',
      name: 'field_unused',
      checker: pyrightCli,
    },
  ],
  replaceBodies: [
    {
      file: 'django/utils/text.py',
      needle: 'def capfirst(',
      at: 4,
      body: '    """Capitalize the first letter of a string."""\n    if not x:\n        return x\n    return str(x)[0].upper() + str(x)[1:]',
      checker: pyrightCli,
    },
  ],
  // Above a decorated function (its decorator too), and below a method.
  inserts: [
    { file: 'django/utils/text.py', needle: 'def slugify(', at: 4, side: 'before', code: 'def field_inserted(value):\n    return value', name: 'field_inserted', checker: pyrightCli },
    { file: 'django/utils/functional.py', needle: 'def __get__(self, instance, cls=None):', at: 4, side: 'after', code: 'def field_inserted(self):\n    return self.name', name: 'field_inserted', checker: pyrightCli },
  ],
};
/** sqlite (clangd) on the includer: a function main calls, a local misspelt (clang's "did you mean"). */
export const SQLITE_EDITS_FULL: Pick<FieldSpec, 'deleteReferenced' | 'deleteUnused' | 'replaceBodies' | 'fixes' | 'inserts'> = {
  deleteReferenced: [{ file: 'main.c', needle: 'int open_and_report(void)', at: 4 }],
  deleteUnused: [{ file: 'main.c', before: 'int main(void) {', planted: '/* Planted by the field test: used nowhere. */\nint field_unused(void) {\n  return 0;\n}', name: 'field_unused', checker: gccSyntax }],
  replaceBodies: [{ file: 'main.c', needle: 'int open_and_report(void)', at: 4, body: '  sqlite3 *db = 0;\n  if (sqlite3_open(":memory:", &db) != SQLITE_OK) return 1;\n  return sqlite3_close(db);', checker: gccSyntax }],
  fixes: [{ file: 'main.c', planted: 'int field_planted(void) { sqlite3 *db = 0; return sqlite3_close(dbb); }', needle: 'dbb', checker: gccSyntax }],
  inserts: [{ file: 'main.c', needle: 'int open_and_report(void)', at: 4, side: 'after', code: 'int field_inserted(void) {\n  return 1;\n}', name: 'field_inserted', checker: gccSyntax }],
};

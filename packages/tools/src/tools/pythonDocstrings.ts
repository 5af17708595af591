/**
 * Reads a Python symbol's documentation from the source with the `ast` module, never importing it:
 * `python -m pydoc` imports the module, so module-level code of the workspace would run for a
 * read-only question (scripts, settings modules that connect to databases, anything with side
 * effects). The script prints a signature line, the docstring indented below it, and for a class
 * its methods' signatures with their docstrings; exit status 3 when the path names nothing.
 */
export const DOCSTRING_READER = String.raw`
import ast, sys

path, qualified = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8") as f:
    source = f.read()
tree = ast.parse(source, path)
unparse = getattr(ast, "unparse", None)


def text_of(node):
    if unparse is not None:
        return unparse(node)
    return ast.get_source_segment(source, node) or "..."


def names_of(statement):
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [statement.name]
    if isinstance(statement, ast.Assign):
        return [t.id for t in statement.targets if isinstance(t, ast.Name)]
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return [statement.target.id]
    return []


def signature(node):
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        head = ("async def " if isinstance(node, ast.AsyncFunctionDef) else "def ") + node.name
        text = head + "(" + text_of(node.args) + ")"
        return text + (" -> " + text_of(node.returns) if node.returns is not None else "")
    if isinstance(node, ast.ClassDef):
        parts = [text_of(b) for b in node.bases] + [text_of(k) for k in node.keywords]
        return "class " + node.name + ("(" + ", ".join(parts) + ")" if parts else "")
    return (ast.get_source_segment(source, node) or "").splitlines()[0]


def docstring(node, siblings):
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return ast.get_docstring(node)
    # An attribute docstring: a string literal right after the assignment.
    following = siblings[siblings.index(node) + 1:siblings.index(node) + 2]
    if following and isinstance(following[0], ast.Expr) and isinstance(following[0].value, ast.Constant) and isinstance(following[0].value.value, str):
        return ast.cleandoc(following[0].value.value)
    return None


def indented(text, prefix):
    return "\n".join(prefix + line if line else "" for line in text.splitlines())


def find(body, parts):
    for statement in body:
        if parts[0] in names_of(statement):
            if len(parts) == 1:
                return statement, body
            if isinstance(statement, ast.ClassDef):
                return find(statement.body, parts[1:])
    return None


found = find(tree.body, qualified.split("."))
if found is None:
    sys.exit(3)
node, siblings = found
lines = ["@" + text_of(d) for d in getattr(node, "decorator_list", [])]
lines.append(signature(node))
doc = docstring(node, siblings)
if doc:
    lines.append(indented(doc, "    "))
if isinstance(node, ast.ClassDef):
    members = [m for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if members:
        lines.append("")
        lines.append("    Methods:")
        for m in members:
            lines.append(indented(signature(m), "        "))
            member_doc = ast.get_docstring(m)
            if member_doc:
                lines.append(indented(member_doc, "            "))
print("\n".join(lines))
`;

/** The argv that reads the documentation; the script itself goes to the interpreter's stdin. */
export function docstringReaderArgv(python: string, file: string, qualified: string): string[] {
  // -I: isolated (no user site, no PYTHONPATH, not the cwd on sys.path); `-` reads the program from stdin.
  return [python, '-I', '-', file, qualified];
}

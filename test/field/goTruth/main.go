// The ground truth of the Go concurrency field cases, read with go/ast from every .go file under a
// root (no type checking, no language server): the calls that run in another goroutine, and per
// file the struct types holding a synchronisation primitive, their methods, and the exported
// top-level symbols. Printed as JSON on stdout; positions are 1-based lines and byte columns.
package main

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Site is a call running in another goroutine: where its callee's name is.
type Site struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Pattern string `json:"pattern"`
}

// FileFacts is what blast_radius answers about one file.
type FileFacts struct {
	Guarded  []string `json:"guarded"`
	Exported []string `json:"exported"`
}

type truth struct {
	Concurrent []Site                `json:"concurrent"`
	Files      map[string]*FileFacts `json:"files"`
}

func main() {
	root := os.Args[1]
	out := truth{Concurrent: []Site{}, Files: map[string]*FileFacts{}}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		site := func(call *ast.CallExpr, pattern string) {
			var at token.Pos
			switch fun := call.Fun.(type) {
			case *ast.SelectorExpr:
				at = fun.Sel.Pos()
			case *ast.Ident:
				at = fun.Pos()
			default:
				return
			}
			p := fset.Position(at)
			out.Concurrent = append(out.Concurrent, Site{rel, p.Line, p.Column, pattern})
		}
		// Every call in a function literal's body (nested literals included) runs in its goroutine.
		inLiteral := func(lit *ast.FuncLit, pattern string) {
			ast.Inspect(lit.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					site(call, pattern)
				}
				return true
			})
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.GoStmt:
				// Only the called function runs in the new goroutine; its arguments are evaluated here.
				if lit, ok := s.Call.Fun.(*ast.FuncLit); ok {
					inLiteral(lit, "go func literal")
				} else {
					site(s.Call, "go statement")
				}
			case *ast.CallExpr:
				if sel, ok := s.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Go" {
					for _, arg := range s.Args {
						if lit, ok := arg.(*ast.FuncLit); ok {
							inLiteral(lit, ".Go(func literal)")
						}
					}
				}
			}
			return true
		})
		out.Files[rel] = facts(file)
		return nil
	})
	if err != nil {
		panic(err)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}

// isPrimitive: sync.Mutex, sync.RWMutex, any sync/atomic type, semaphore.Weighted.
func isPrimitive(sel *ast.SelectorExpr) bool {
	pkg, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	switch pkg.Name {
	case "sync":
		return sel.Sel.Name == "Mutex" || sel.Sel.Name == "RWMutex"
	case "atomic":
		return ast.IsExported(sel.Sel.Name)
	case "semaphore":
		return sel.Sel.Name == "Weighted"
	}
	return false
}

func holdsPrimitive(st *ast.StructType) bool {
	found := false
	for _, field := range st.Fields.List {
		ast.Inspect(field.Type, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && isPrimitive(sel) {
				found = true
			}
			return !found
		})
	}
	return found
}

// receiver: the base type's name and gopls' method name prefix, (*T) or (T).
func receiver(fn *ast.FuncDecl) (string, string) {
	t := fn.Recv.List[0].Type
	star := ""
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = "*", s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	name := t.(*ast.Ident).Name
	return name, "(" + star + name + ")"
}

func facts(file *ast.File) *FileFacts {
	f := &FileFacts{Guarded: []string{}, Exported: []string{}}
	guarded := map[string]bool{}
	for _, decl := range file.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, spec := range gen.Specs {
			switch s := spec.(type) {
			case *ast.TypeSpec:
				if st, ok := s.Type.(*ast.StructType); ok && holdsPrimitive(st) {
					guarded[s.Name.Name] = true
					f.Guarded = append(f.Guarded, s.Name.Name)
				}
				if ast.IsExported(s.Name.Name) {
					f.Exported = append(f.Exported, s.Name.Name)
				}
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if ast.IsExported(n.Name) {
						f.Exported = append(f.Exported, n.Name)
					}
				}
			}
		}
	}
	for _, decl := range file.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok {
			continue
		}
		if fn.Recv == nil {
			if ast.IsExported(fn.Name.Name) {
				f.Exported = append(f.Exported, fn.Name.Name)
			}
			continue
		}
		base, prefix := receiver(fn)
		name := prefix + "." + fn.Name.Name
		if guarded[base] {
			f.Guarded = append(f.Guarded, name)
		}
		// A method other modules can call: exported, of an exported type.
		if ast.IsExported(fn.Name.Name) && ast.IsExported(base) {
			f.Exported = append(f.Exported, name)
		}
	}
	return f
}

package main

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// TestFlagsRead: every flag a command lists in its help is read by that
// command: by its own work (its run function and the functions of this
// package it calls, found in the source) or by the plumbing every command
// goes through (run and newClient), for the output format and the
// settings of the Client. A flag listed but ignored (--as-of of a command
// that answers the same on any date) fails.
func TestFlagsRead(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	funcs := map[string][]*ast.FuncDecl{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				funcs[fd.Name.Name] = append(funcs[fd.Name.Name], fd)
			}
		}
	}
	// reads returns the fields of o (the name every function here gives
	// the *opts) and the flags looked up in o.set that the functions
	// named reach, following calls when deep.
	reads := func(deep bool, names ...string) map[string]bool {
		out, seen := map[string]bool{}, map[string]bool{}
		var visit func(string)
		visit = func(name string) {
			if seen[name] {
				return
			}
			seen[name] = true
			for _, d := range funcs[name] {
				ast.Inspect(d.Body, func(n ast.Node) bool {
					switch x := n.(type) {
					case *ast.SelectorExpr:
						if id, ok := x.X.(*ast.Ident); ok && id.Name == "o" {
							out[x.Sel.Name] = true
						}
						// A field of a struct of opts: o.ask.dryRun.
						if in, ok := x.X.(*ast.SelectorExpr); ok {
							if id, ok := in.X.(*ast.Ident); ok && id.Name == "o" {
								out[in.Sel.Name+"."+x.Sel.Name] = true
							}
						}
					case *ast.IndexExpr:
						if sel, ok := x.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "set" {
							if lit, ok := x.Index.(*ast.BasicLit); ok {
								out["set:"+strings.Trim(lit.Value, `"`)] = true
							}
						}
					case *ast.CallExpr:
						if !deep {
							break
						}
						switch f := x.Fun.(type) {
						case *ast.Ident:
							visit(f.Name)
						case *ast.SelectorExpr:
							visit(f.Sel.Name)
						}
					}
					return true
				})
			}
		}
		for _, n := range names {
			visit(n)
		}
		return out
	}
	shared := reads(false, "run")
	for k := range reads(true, "newClient") {
		shared[k] = true
	}
	if len(funcs["run"]) == 0 || len(funcs["newClient"]) == 0 {
		t.Fatal("no run or newClient in the source")
	}

	settingFlags := map[string]bool{}
	for _, st := range wire.Settings {
		if st.Flag != "" {
			settingFlags[st.Flag] = true
		}
	}
	for _, cmd := range commands {
		name := runtime.FuncForPC(reflect.ValueOf(cmd.run).Pointer()).Name()
		name = name[strings.LastIndex(name, ".")+1:]
		if len(funcs[name]) == 0 {
			t.Errorf("%s: its run function %s is not a function of this package's source", cmd.name, name)
			continue
		}
		own := reads(true, name)
		var o opts
		fs := flagSet(&cmd, &o)
		fields := reflect.ValueOf(&o).Elem()
		fs.VisitAll(func(f *flag.Flag) {
			if settingFlags[f.Name] {
				return // read by resolveSettings for every command, checked by the settings table's tests
			}
			var ptr uintptr
			if l, ok := f.Value.(listFlag); ok {
				ptr = uintptr(unsafe.Pointer(l.list))
			} else {
				ptr = reflect.ValueOf(f.Value).Pointer()
			}
			field := ""
			for i := range fields.NumField() {
				if fields.Field(i).UnsafeAddr() == ptr {
					field = fields.Type().Field(i).Name
				}
				// The flags of a command's own struct of opts (o.ask).
				if sub := fields.Field(i); sub.Kind() == reflect.Struct {
					for j := range sub.NumField() {
						if sub.Field(j).UnsafeAddr() == ptr {
							field = fields.Type().Field(i).Name + "." + sub.Type().Field(j).Name
						}
					}
				}
			}
			if field == "" {
				t.Errorf("%s --%s: no field of opts", cmd.name, f.Name)
				return
			}
			for _, r := range []string{field, field + "Date", "set:" + f.Name} {
				if own[r] || shared[r] {
					return
				}
			}
			t.Errorf("%s lists --%s in its help but never reads it (opts.%s)", cmd.name, f.Name, field)
		})
	}
}

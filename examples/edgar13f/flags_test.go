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

// TestHelpFlagsTrue: what a command's --help says of the common flags is
// what the command does. ask needs --as-of (it has no default); ask-eval
// refuses --as-of (each question has its own date), so its help does not
// list it; the agent commands answer no 13F rows, so they take no
// --no-redact; --format names the formats the command writes (csv not for
// the agent commands, parquet for panel and frame) and its real default
// (eval and ask-eval print a table also off a terminal). A common flag a
// command does not take is refused saying why.
func TestHelpFlagsTrue(t *testing.T) {
	usage := func(cmd, name string) (string, bool) {
		for i := range commands {
			if commands[i].name != cmd {
				continue
			}
			var o opts
			f := flagSet(&commands[i], &o).Lookup(name)
			if f == nil {
				return "", false
			}
			return f.Usage, true
		}
		t.Fatalf("no command %s", cmd)
		return "", false
	}
	for _, c := range []struct {
		cmd, flag string
		listed    bool
		has, not  []string
	}{
		{"ask", "as-of", true, []string{"(required)"}, []string{"default today"}},
		{"ask-eval", "as-of", false, nil, nil},
		{"ask", "no-redact", false, nil, nil},
		{"ask-eval", "no-redact", false, nil, nil},
		{"holdings", "as-of", true, []string{"(default today)"}, nil},
		{"ask", "format", true, []string{"table or json", "(default table on a terminal, else json)"}, []string{"csv"}},
		{"ask-eval", "format", true, []string{"table or json", "(default table)"}, []string{"csv", "else json"}},
		{"eval", "format", true, []string{"table, json or csv", "(default table)"}, []string{"else json"}},
		{"panel", "format", true, []string{"parquet"}, nil},
		{"frame", "format", true, []string{"parquet"}, nil},
		{"holdings", "format", true, []string{"table, json or csv (default table on a terminal, else json)"}, []string{"parquet"}},
	} {
		u, ok := usage(c.cmd, c.flag)
		if ok != c.listed {
			t.Errorf("%s --help lists --%s: %v, want %v", c.cmd, c.flag, ok, c.listed)
			continue
		}
		for _, s := range c.has {
			if !strings.Contains(u, s) {
				t.Errorf("%s --%s: help %q lacks %q", c.cmd, c.flag, u, s)
			}
		}
		for _, s := range c.not {
			if strings.Contains(u, s) {
				t.Errorf("%s --%s: help %q says %q", c.cmd, c.flag, u, s)
			}
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ask-eval", "q.json", "--dry-run", "--as-of", "2025-01-01"}, "edgar13f ask-eval: --as-of does not apply: each question is asked as of its own as_of\n"},
		{[]string{"ask", "why?", "--as-of", "2025-01-01", "--no-redact"}, "edgar13f ask: --no-redact does not apply:"},
		{[]string{"company", "apple", "--as-of", "2025-01-01"}, "edgar13f company: --as-of does not apply:"},
		{[]string{"ask", "why?"}, "edgar13f ask: missing --as-of"},
	} {
		var stdout, stderr strings.Builder
		code := run(t.Context(), c.args, &stdout, &stderr, func(string) string { return "" })
		if code != exitUsage || !strings.HasPrefix(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d, stderr starting %q", c.args, code, stderr.String(), exitUsage, c.want)
		}
	}
}

// TestHelpUsageLine: the first line of every command's --help is
// "Usage: edgar13f COMMAND ARGS [flags]", with no doubled space where a
// command takes no arguments (panel).
func TestHelpUsageLine(t *testing.T) {
	for _, cmd := range commands {
		var stdout, stderr strings.Builder
		if code := run(t.Context(), append(strings.Fields(cmd.name), "--help"), &stdout, &stderr, func(string) string { return "" }); code != exitOK {
			t.Fatalf("%s --help: exit %d", cmd.name, code)
		}
		first, _, _ := strings.Cut(stdout.String(), "\n")
		want := strings.Join(strings.Fields("Usage: edgar13f "+cmd.name+" "+cmd.args+" [flags]"), " ")
		if first != want {
			t.Errorf("%s --help begins %q, want %q", cmd.name, first, want)
		}
	}
}

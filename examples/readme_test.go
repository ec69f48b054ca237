package examples_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
)

// This file holds the READMEs to the programs: every command, flag, MCP
// tool, HTTP route and environment variable that README.md and
// examples/README.md name must exist in the programs, every one the
// programs have must be named there, and every shell block marked
// "offline" must run, as written, against the repository's mirror.

// readmes are the files held to the programs, relative to the module root.
var readmes = []string{"README.md", "examples/README.md"}

// programs are the example programs, by directory under examples/.
var programs = []string{"edgar13f", "edgar13f-mcp", "edgar13f-http"}

// foreignFlags are flags the READMEs name of programs that are not the
// project's: the MCP Inspector's command line and Claude Code's. A flag is
// listed here only with the program it belongs to.
var foreignFlags = map[string]string{
	"--cli":            "MCP Inspector",
	"--method":         "MCP Inspector",
	"--tool-name":      "MCP Inspector",
	"--tool-arg":       "MCP Inspector",
	"--tool-args-json": "MCP Inspector",
	"--env":            "claude mcp add",
}

// foreignRunners start a line whose words name the project's programs as
// arguments of another program, with that program's flags.
var foreignRunners = map[string]bool{"npx": true, "claude": true}

// foreignEnv are environment variables the READMEs name that no example
// program reads, with what reads them.
var foreignEnv = map[string]string{
	"EDGAR13F_OPENSEARCH_TEST_URL": "the OpenSearch store's conformance test against a real node",
}

// surface is what the programs offer, read from the programs themselves.
type surface struct {
	commands map[string]map[string]bool // CLI command ("holdings", "datasets sync") -> its flags ("--as-of")
	flags    map[string]map[string]bool // program -> flags of the program itself (edgar13f-mcp, edgar13f-http)
	tools    map[string]bool            // MCP tools, from tools/list with a model configured
	routes   map[string]bool            // HTTP routes, "GET /healthz"
	env      map[string]bool            // environment variables any program reads
}

// claims are what the READMEs say the programs offer.
type claims struct {
	commands map[string][]string // CLI command -> where it is named
	flags    map[string][]string // "CMD --flag", or "PROGRAM --flag" -> where
	anyFlags map[string][]string // "--flag" named in prose -> where
	tools    map[string][]string
	routes   map[string][]string
	env      map[string][]string
	offline  []block
}

// block is a fenced shell block of a README marked offline.
type block struct {
	file string
	line int
	text string
}

var (
	flagRE        = regexp.MustCompile(`^\s+-{1,2}([a-z][a-z0-9-]*)`)
	commandRE     = regexp.MustCompile(`^\s+edgar13f ([a-z0-9-]+(?: [a-z]+)?)\b`)
	envRE         = regexp.MustCompile(`\b(SEC_USER_AGENT|ANTHROPIC_API_KEY|EDGAR13F_[A-Z0-9_]+)\b`)
	routeRE       = regexp.MustCompile(`\b(GET|POST|PUT|PATCH|DELETE) +(/[A-Za-z0-9_{}./-]*)`)
	toolRE        = regexp.MustCompile("`([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\\(")
	inlineRE      = regexp.MustCompile("`([^`]+)`")
	proseFlagRE   = regexp.MustCompile(`(?:^|[\s(\[,])(--[a-z][a-z0-9-]*)`)
	commandWordRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
)

// parseHelp reads a program's --help text: the lines after a heading
// "Flags:" (or any line of the Go flag package's "  -name type" form) give
// flags, lines "  edgar13f CMD" commands, lines "  GET /path" routes and
// lines "  NAME" in capitals environment variables.
func parseHelp(text string) (flags, commands, routes, env []string) {
	for _, line := range strings.Split(text, "\n") {
		if m := flagRE.FindStringSubmatch(line); m != nil {
			flags = append(flags, "--"+m[1])
		}
		if m := commandRE.FindStringSubmatch(line); m != nil {
			commands = append(commands, m[1])
		}
		if m := routeRE.FindStringSubmatch(line); m != nil && strings.HasPrefix(strings.TrimSpace(line), m[1]) {
			routes = append(routes, m[1]+" "+m[2])
		}
		// A setting: "  NAME" or "  NAME, --flag".
		if f := strings.Fields(line); len(f) > 0 && strings.HasPrefix(line, "  ") {
			if name := strings.TrimSuffix(f[0], ","); envRE.FindString(name) == name {
				env = append(env, name)
				if len(f) > 1 && strings.HasPrefix(f[1], "--") {
					flags = append(flags, f[1])
				}
			}
		}
	}
	return flags, commands, routes, env
}

// invocations finds the project's programs in the words of a shell line:
// "edgar13f CMD ...", "go run ./examples/edgar13f CMD ...",
// "edgar13f-http ...", and returns each as program, command (for the CLI)
// and the flags given.
type invocation struct {
	program, command string
	flags            []string
}

func invocations(words []string, commands map[string]map[string]bool) []invocation {
	if len(words) > 0 && foreignRunners[words[0]] {
		return nil // the programs are arguments of another program here
	}
	var out []invocation
	for i := 0; i < len(words); i++ {
		w := words[i]
		prog := ""
		switch {
		case w == "go" && i+2 < len(words) && words[i+1] == "run" && strings.HasPrefix(words[i+2], "./examples/"):
			prog = strings.TrimPrefix(words[i+2], "./examples/")
			i += 2
		case slices.Contains(programs, filepath.Base(w)) && (i == 0 || !strings.HasPrefix(words[i-1], "-")):
			prog = filepath.Base(w)
		default:
			continue
		}
		inv := invocation{program: prog}
		j := i + 1
		if prog == "edgar13f" && j < len(words) && commandWordRE.MatchString(words[j]) {
			inv.command = words[j]
			if j+1 < len(words) && commands[words[j]+" "+words[j+1]] != nil {
				inv.command += " " + words[j+1]
				j++
			}
			j++
		}
		for ; j < len(words) && !testkit.ShellOperators[words[j]]; j++ {
			if w := words[j]; strings.HasPrefix(w, "--") && len(w) > 2 {
				name, _, _ := strings.Cut(w, "=")
				inv.flags = append(inv.flags, name)
			}
		}
		i = j - 1
		out = append(out, inv)
	}
	return out
}

// readClaims reads what the READMEs name. commands is the CLI's command
// set, used to tell a two-word command ("datasets sync") from a command
// and its argument.
func readClaims(files map[string]string, commands map[string]map[string]bool) claims {
	c := claims{commands: map[string][]string{}, flags: map[string][]string{}, anyFlags: map[string][]string{},
		tools: map[string][]string{}, routes: map[string][]string{}, env: map[string][]string{}}
	add := func(m map[string][]string, k, where string) { m[k] = append(m[k], where) }
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		lines := strings.Split(files[name], "\n")
		inFence, fenceInfo, fenceStart := false, "", 0
		var fence []string
		for n := 0; n < len(lines); n++ {
			line := lines[n]
			where := fmt.Sprintf("%s:%d", name, n+1)
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				if !inFence {
					inFence, fenceInfo, fenceStart, fence = true, strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "```")), n+1, nil
				} else {
					inFence = false
					info := strings.Fields(fenceInfo)
					if len(info) > 1 && slices.Contains(info[1:], "offline") {
						c.offline = append(c.offline, block{file: name, line: fenceStart, text: strings.Join(fence, "\n")})
					}
				}
				continue
			}
			for _, m := range envRE.FindAllString(line, -1) {
				add(c.env, m, where)
			}
			for _, m := range routeRE.FindAllStringSubmatch(line, -1) {
				add(c.routes, m[1]+" "+m[2], where)
			}
			for _, m := range toolRE.FindAllStringSubmatch(line, -1) {
				add(c.tools, m[1], where)
			}
			if inFence {
				fence = append(fence, line)
				lang := strings.Fields(fenceInfo + " x")[0]
				if lang != "sh" && lang != "x" && lang != "bash" {
					continue // Go and JSON blocks
				}
				// Join continued lines.
				full := line
				for strings.HasSuffix(full, "\\") && n+1 < len(lines) {
					n++
					fence = append(fence, lines[n])
					full = strings.TrimSuffix(full, "\\") + " " + lines[n]
				}
				// A usage line such as "(--ticker, --cik, --form," names its
				// flags without giving them to a command.
				for _, f := range proseFlagRE.FindAllStringSubmatch(full, -1) {
					add(c.anyFlags, f[1], where)
				}
				for _, inv := range invocations(testkit.ShellWords(full), commands) {
					key := inv.program
					if inv.command != "" {
						key = inv.command
						add(c.commands, inv.command, where)
					}
					for _, f := range inv.flags {
						add(c.flags, key+" "+f, where)
					}
				}
				continue
			}
			for _, m := range inlineRE.FindAllStringSubmatch(line, -1) {
				code := m[1]
				for _, inv := range invocations(testkit.ShellWords(code), commands) {
					if inv.command != "" {
						add(c.commands, inv.command, where)
						for _, f := range inv.flags {
							add(c.flags, inv.command+" "+f, where)
						}
					}
				}
				for _, f := range proseFlagRE.FindAllStringSubmatch(code, -1) {
					add(c.anyFlags, f[1], where)
				}
			}
		}
	}
	return c
}

// check returns every mismatch between what the READMEs claim and what
// the programs offer, one line each, sorted.
func check(c claims, s surface) []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	allFlags := map[string]bool{}
	for _, fs := range s.commands {
		for f := range fs {
			allFlags[f] = true
		}
	}
	for _, fs := range s.flags {
		for f := range fs {
			allFlags[f] = true
		}
	}
	named := map[string]bool{}
	for k, where := range c.commands {
		if s.commands[k] == nil {
			bad("%s: names the command edgar13f %s, which the CLI does not have", where[0], k)
		}
	}
	for k, where := range c.flags {
		cmd, f, _ := strings.Cut(k, " ")
		if strings.Contains(f, " ") { // a two-word command
			sub, flag, _ := strings.Cut(f, " ")
			cmd, f = cmd+" "+sub, flag
		}
		named[f] = true
		switch {
		case s.commands[cmd] != nil:
			if !s.commands[cmd][f] && f != "--help" {
				bad("%s: gives edgar13f %s the flag %s, which it does not take", where[0], cmd, f)
			}
		case s.flags[cmd] != nil:
			if !s.flags[cmd][f] && f != "--help" {
				bad("%s: gives %s the flag %s, which it does not take", where[0], cmd, f)
			}
		}
	}
	for f, where := range c.anyFlags {
		named[f] = true
		if !allFlags[f] && foreignFlags[f] == "" && f != "--help" {
			bad("%s: names the flag %s, which no program takes", where[0], f)
		}
	}
	for t, where := range c.tools {
		if !s.tools[t] {
			bad("%s: names the MCP tool %s, which the server does not list", where[0], t)
		}
	}
	for r, where := range c.routes {
		if !s.routes[r] {
			bad("%s: names the HTTP route %s, which the HTTP API does not serve", where[0], r)
		}
	}
	for e, where := range c.env {
		if !s.env[e] && foreignEnv[e] == "" {
			bad("%s: names the environment variable %s, which no program reads", where[0], e)
		}
	}
	for k := range s.commands {
		if c.commands[k] == nil {
			bad("the CLI has the command %q, which no README names as edgar13f %s", k, k)
		}
	}
	for f := range allFlags {
		if !named[f] && f != "--help" {
			bad("a program takes the flag %s, which no README names", f)
		}
	}
	for t := range s.tools {
		if c.tools[t] == nil {
			bad("the MCP server lists the tool %s, which no README names as %s(...)", t, t)
		}
	}
	for r := range s.routes {
		if c.routes[r] == nil {
			bad("the HTTP API serves %s, which no README names", r)
		}
	}
	for e := range s.env {
		if c.env[e] == nil {
			bad("a program reads %s, which no README names", e)
		}
	}
	sort.Strings(out)
	return out
}

// TestCheck plants each kind of false claim and of unnamed surface and
// checks that check reports it.
func TestCheck(t *testing.T) {
	s := surface{
		commands: map[string]map[string]bool{"holdings": {"--as-of": true, "--top": true}, "datasets sync": {"--from": true}},
		flags:    map[string]map[string]bool{"edgar13f-http": {"--addr": true}},
		tools:    map[string]bool{"list_13f_filings": true},
		routes:   map[string]bool{"GET /healthz": true},
		env:      map[string]bool{"SEC_USER_AGENT": true},
	}
	good := "Run `edgar13f holdings 1 --as-of 2024-01-01` or `edgar13f datasets sync --from 2023-01-01`, `list_13f_filings(cik)`.\n" +
		"`--top` keeps; `edgar13f-http --addr :1` serves GET /healthz; set SEC_USER_AGENT.\n" +
		"```sh offline\nedgar13f holdings 1 \\\n  --top 3\n```\n"
	commands := s.commands
	if got := check(readClaims(map[string]string{"R.md": good}, commands), s); len(got) != 0 {
		t.Fatalf("a true README fails: %q", got)
	}
	if c := readClaims(map[string]string{"R.md": good}, commands); len(c.offline) != 1 || !strings.Contains(c.offline[0].text, "--top 3") {
		t.Fatalf("offline blocks = %+v", c.offline)
	}
	tests := []struct {
		name, text, want string
	}{
		{"missing command", "`edgar13f ask why`", "names the command edgar13f ask"},
		{"missing flag of a command", "```sh\nedgar13f holdings 1 --limit 3\n```", "gives edgar13f holdings the flag --limit"},
		{"flag of a two-word command", "```\nedgar13f datasets sync --as-of 2024-01-01\n```", "gives edgar13f datasets sync the flag --as-of"},
		{"flag in a go run line", "```sh\ngo run ./examples/edgar13f holdings 1 --nope\n```", "gives edgar13f holdings the flag --nope"},
		{"missing program flag", "```sh\nedgar13f-http --port 1\n```", "gives edgar13f-http the flag --port"},
		{"flag in prose", "use `--frobnicate`", "names the flag --frobnicate"},
		{"missing tool", "`ask_filings(question)`", "names the MCP tool ask_filings"},
		{"missing route", "POST /ask answers", "names the HTTP route POST /ask"},
		{"missing variable", "EDGAR13F_NOPE=1", "names the environment variable EDGAR13F_NOPE"},
		{"unnamed command", "", `the CLI has the command "holdings"`},
		{"unnamed flag", "", "a program takes the flag --addr"},
		{"unnamed tool", "", "lists the tool list_13f_filings"},
		{"unnamed route", "", "serves GET /healthz"},
		{"unnamed variable", "", "reads SEC_USER_AGENT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := good + tt.text
			if strings.HasPrefix(tt.name, "unnamed") {
				text = ""
			}
			got := check(readClaims(map[string]string{"R.md": text}, commands), s)
			if !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, tt.want) }) {
				t.Errorf("check = %q, want a line with %q", got, tt.want)
			}
		})
	}
}

// readSurface builds the programs into bin and reads what they offer:
// the CLI's commands and flags and the programs' environment from their
// --help, the HTTP routes from edgar13f-http --help, and the MCP tools
// from a real tools/list with a model configured (so that ask_filings is
// listed).
func readSurface(t *testing.T, bin string) surface {
	t.Helper()
	s := surface{commands: map[string]map[string]bool{}, flags: map[string]map[string]bool{}, tools: map[string]bool{},
		routes: map[string]bool{}, env: map[string]bool{}}
	help := func(prog string, args ...string) string {
		cmd := exec.Command(filepath.Join(bin, prog), append(args, "--help")...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s --help: %v\n%s", prog, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	for _, prog := range programs {
		flags, commands, routes, env := parseHelp(help(prog))
		for _, e := range env {
			s.env[e] = true
		}
		for _, r := range routes {
			s.routes[r] = true
		}
		if prog == "edgar13f" {
			for _, c := range commands {
				cf, _, _, cenv := parseHelp(help(prog, strings.Fields(c)...))
				s.commands[c] = map[string]bool{}
				for _, f := range cf {
					s.commands[c][f] = true
				}
				for _, e := range cenv {
					s.env[e] = true
				}
			}
			continue
		}
		s.flags[prog] = map[string]bool{"--help": true, "--version": true}
		for _, f := range flags {
			s.flags[prog][f] = true
		}
	}
	if len(s.commands) < 10 || len(s.env) < 5 {
		t.Fatalf("read too little from the programs' help: %d commands, %d variables", len(s.commands), len(s.env))
	}

	checkRoutesServed(t, bin, s.routes)

	cmd := testkit.Command(t, filepath.Join(bin, "edgar13f-mcp"), []string{
		"EDGAR13F_FIXTURE_DIR=" + testkit.Mirror(), "EDGAR13F_CHAT_URL=http://127.0.0.1:9/v1", "EDGAR13F_AGENT_MODEL=m"})
	session := testkit.Connect(t, cmd)
	res, err := session.ListTools(testkit.Context(t), &mcp.ListToolsParams{})
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	for _, tool := range res.Tools {
		s.tools[tool.Name] = true
	}
	return s
}

// checkRoutesServed starts the HTTP API over the mirror on a port of the
// system's choosing and fails the test for each route its help lists that
// it answers "no endpoint": the help is held to the server as the READMEs
// are held to the help.
func checkRoutesServed(t *testing.T, bin string, routes map[string]bool) {
	t.Helper()
	ctx, cancel := context.WithCancel(testkit.Context(t))
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "edgar13f-http"), "--addr", "127.0.0.1:0")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "EDGAR13F_CACHE_DIR=" + t.TempDir(),
		"EDGAR13F_FIXTURE_DIR=" + testkit.Mirror()}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); _ = cmd.Wait() }()
	sc := bufio.NewScanner(stderr)
	base := ""
	for base == "" && sc.Scan() {
		if _, addr, ok := strings.Cut(sc.Text(), "listening on "); ok {
			base = addr
		}
	}
	if base == "" {
		t.Fatal("edgar13f-http did not say where it listens")
	}
	go func() { _, _ = io.Copy(io.Discard, stderr) }()
	if len(routes) == 0 {
		t.Fatal("edgar13f-http --help lists no routes")
	}
	for r := range routes {
		method, path, _ := strings.Cut(r, " ")
		path = strings.ReplaceAll(path, "{chunk_id}", "0123456789abcdef")
		req, err := http.NewRequestWithContext(ctx, method, base+path, strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", r, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusNotFound && bytes.Contains(body, []byte("no endpoint")) || resp.StatusCode == http.StatusMethodNotAllowed {
			t.Errorf("edgar13f-http --help lists %s, which the server does not serve: %d %s", r, resp.StatusCode, body)
		}
	}
}

// TestREADMEsMatchPrograms fails when README.md or examples/README.md
// names a command, flag, MCP tool, HTTP route or environment variable the
// programs do not have, or when a program has one the READMEs do not name.
func TestREADMEsMatchPrograms(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries")
	}
	bin := buildPrograms(t)
	s := readSurface(t, bin)
	files := map[string]string{}
	for _, name := range readmes {
		b, err := os.ReadFile(filepath.Join("..", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	c := readClaims(files, s.commands)
	for _, line := range check(c, s) {
		t.Error(line)
	}
	if len(c.offline) == 0 {
		t.Error("no README shell block is marked offline")
	}
}

// buildPrograms builds every example program into a fresh directory.
func buildPrograms(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	for _, p := range programs {
		if _, err := testkit.Build(bin, "./"+p, false); err != nil {
			t.Fatal(err)
		}
	}
	return bin
}

// TestOfflineREADMEBlocks runs every README shell block marked "offline"
// (```sh offline) as written, with bash from the module root, the freshly
// built programs first on PATH, no EDGAR settings in the environment and a
// private HOME and cache: each must exit 0 and print something.
func TestOfflineREADMEBlocks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries and runs the README's commands")
	}
	bin := buildPrograms(t)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, name := range readmes {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	blocks := readClaims(files, nil).offline
	if len(blocks) == 0 {
		t.Fatal("no README shell block is marked offline")
	}
	for _, b := range blocks {
		t.Run(fmt.Sprintf("%s:%d", b.file, b.line), func(t *testing.T) {
			home := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			// The HTTP API's default address is the README's; another run of
			// this test on the machine may hold it, so the block gets a free
			// port of its own in place of it.
			text, addr := b.text, defaultHTTPAddr
			if strings.Contains(text, defaultHTTPAddr) {
				addr = freeAddr(t)
				text = strings.ReplaceAll(text, defaultHTTPAddr, addr)
			}
			cmd := exec.CommandContext(ctx, "bash", "-e", "-o", "pipefail", "-c", text)
			cmd.Dir = root
			cmd.Env = []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + home,
				"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "TMPDIR=" + t.TempDir(),
				"GOPATH=" + goEnv(t, "GOPATH"), "GOCACHE=" + goEnv(t, "GOCACHE"), "GOMODCACHE=" + goEnv(t, "GOMODCACHE"),
				"GOFLAGS=" + os.Getenv("GOFLAGS"), "GOTOOLCHAIN=local", "GOPROXY=off", "GOBIN=" + t.TempDir(),
				"EDGAR13F_HTTP_ADDR=" + addr}
			// The block runs in a process group of its own, killed whole when
			// it ends, so that a server it started in the background and did
			// not stop (a block that failed half way) cannot outlive it.
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
			cmd.WaitDelay = 10 * time.Second
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			if err != nil {
				t.Fatalf("block at %s:%d failed: %v\n--- block\n%s\n--- stdout\n%s\n--- stderr\n%s", b.file, b.line, err, b.text, out.String(), errb.String())
			}
			if strings.TrimSpace(out.String()) == "" {
				t.Fatalf("block at %s:%d printed nothing\n--- stderr\n%s", b.file, b.line, errb.String())
			}
			sc := bufio.NewScanner(&out)
			for i := 0; i < 5 && sc.Scan(); i++ {
				t.Log(sc.Text())
			}
		})
	}
}

// defaultHTTPAddr is the address edgar13f-http listens on by default.
const defaultHTTPAddr = "127.0.0.1:8801"

// freeAddr returns a loopback address with a port no listener holds now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// goEnv returns the value of a go env variable, so that a block's "go run"
// uses the test's own module and build caches.
func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

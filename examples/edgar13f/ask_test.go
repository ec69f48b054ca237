package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/edgar13f/edgar13f/examples/internal/testkit"
	"github.com/edgar13f/edgar13f/examples/internal/wire"
)

// The shipped question file of the agent, from this directory.
var questionsFile = filepath.Join("..", "..", "agent", "testdata", "questions.json")

// askArgs asks NVIDIA's revenue as of a day after its 10-K, limited to
// NVIDIA (indexed first from the mirror).
var askArgs = []string{"ask", "What", "was", "NVIDIA's", "revenue", "for", "fiscal", "2025?", "--as-of", "2025-03-01", "--ticker", "NVDA"}

// ask answers from the scripted model over the mirror: the answer with
// its citations and grounding in the ask_filings JSON and as a table, each
// tool call on stderr as it runs; exit 0.
func TestAskAnswered(t *testing.T) {
	m := testkit.NewChatModel(t, testkit.RevenueScript("$130.5 billion"))
	env := searchEnv(t, m.Env()...)
	stdout, stderr, code := exe(t, env, append(askArgs, "--format", "json")...)
	if code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	res := decodeJSON(t, stdout)
	if res["status"] != "answered" || res["disclaimer"] != wire.AskDisclaimer || res["as_of"] != "2025-03-01" || res["model"] != testkit.ChatModelName ||
		!strings.Contains(res["answer"].(string), "$130.5 billion [c:") || res["draft"] != nil {
		t.Fatalf("answer %v", res)
	}
	cits := res["citations"].([]any)
	if len(cits) != 1 {
		t.Fatalf("citations %v", cits)
	}
	cit := cits[0].(map[string]any)
	if cit["accession_number"] != nvidiaAccession || cit["item"] != "7" || !strings.HasSuffix(cit["url"].(string), "nvda-20250126.htm") || cit["chunk_id"] == nil {
		t.Errorf("citation %v", cit)
	}
	g := res["grounding"].(map[string]any)
	if g["numbers"] != 1.0 || len(g["grounded"].([]any)) != 1 || len(g["ungrounded"].([]any)) != 0 {
		t.Errorf("grounding %v", g)
	}
	// Progress: the filing indexed, then the tool call with its company
	// and query, one line each (not a line before the filing is read and
	// another after), the query written once.
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "[1] index_filings NVDA: filing "+nvidiaAccession) ||
		!strings.HasPrefix(last, fmt.Sprintf("[%d] search_filings NVDA %q: ", len(lines), "revenue for fiscal year 2025 was")) || !strings.HasSuffix(last, "5 hits NVDA 10-K FY2025 Item 7") ||
		strings.Count(last, `"revenue for fiscal year 2025 was"`) != 1 {
		t.Errorf("progress on stderr:\n%s", stderr)
	}

	// The same question as a table, with no progress when asked.
	stdout, stderr, code = exe(t, env, append(askArgs, "--format", "table", "--progress=false")...)
	id := cit["chunk_id"].(string)
	for _, want := range []string{"As of 2025-03-01, model " + testkit.ChatModelName + ": answered", "Answer:\nNVIDIA's revenue for fiscal year 2025 was $130.5 billion [c:" + id + "].",
		"[c:" + id + "]  " + id + "  " + nvidiaAccession + "  10-K  7", "Grounding: 1 numbers, 1 grounded, 0 ungrounded: every figure is grounded"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, stdout)
		}
	}
	if code != 0 || stderr != "" {
		t.Errorf("table: exit %d, stderr %q", code, stderr)
	}
}

// An answer whose figure no cited source holds, after its repair round,
// is not an answer: status ungrounded, the figure listed, exit 3.
func TestAskUngrounded(t *testing.T) {
	m := testkit.NewChatModel(t, testkit.RevenueScript("$131 billion"))
	env := searchEnv(t, m.Env()...)
	stdout, _, code := exe(t, env, append(askArgs, "--format", "json")...)
	res := decodeJSON(t, stdout)
	if code != 3 || res["status"] != "ungrounded" || res["answer"] != nil || !strings.Contains(res["draft"].(string), "$131 billion") {
		t.Fatalf("exit %d, %v", code, res)
	}
	if u := res["grounding"].(map[string]any)["ungrounded"].([]any); len(u) != 1 || u[0].(map[string]any)["text"] != "$131 billion" {
		t.Errorf("ungrounded %v", u)
	}
	stdout, _, code = exe(t, env, append(askArgs, "--format", "table")...)
	if code != 3 || !strings.Contains(stdout, "No answer (ungrounded). The model's draft, not to be taken as an answer:") ||
		!strings.Contains(stdout, `- ungrounded "$131 billion"`) || !strings.Contains(stdout, "NOT grounded") || strings.Contains(stdout, "Answer:") {
		t.Errorf("table: exit %d\n%s", code, stdout)
	}
}

// A model API that fails is a failure (exit 1) naming it; no model
// configured, a usage error naming the settings (exit 2), as are the
// other usage errors, all before anything is indexed.
func TestAskExits(t *testing.T) {
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"model not found"}}`, http.StatusBadRequest)
	}))
	defer broken.Close()
	env := searchEnv(t, "EDGAR13F_CHAT_URL="+broken.URL+"/v1", "EDGAR13F_AGENT_MODEL=absent")
	stdout, stderr, code := exe(t, env, append(askArgs, "--format", "json")...)
	if code != 1 || stdout != "" || !strings.Contains(stderr, "edgar13f: agent: openai model request failed with HTTP status 400") {
		t.Errorf("broken model: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}

	fixture := searchEnv(t)
	for _, tt := range []struct {
		name string
		env  []string
		args []string
		want []string // in stderr
	}{
		{"no model", fixture, askArgs, []string{"edgar13f ask: no language model configured", "ANTHROPIC_API_KEY", "EDGAR13F_CHAT_URL", "EDGAR13F_AGENT_MODEL"}},
		{"chat url without model", append(searchEnv(t), "EDGAR13F_CHAT_URL=http://127.0.0.1:1/v1"), askArgs, []string{"EDGAR13F_CHAT_URL is set, so EDGAR13F_AGENT_MODEL must name the model"}},
		{"eval no model", fixture, []string{"ask-eval", questionsFile}, []string{"edgar13f ask-eval: no language model configured", "ANTHROPIC_API_KEY"}},
		{"no as-of", fixture, []string{"ask", "why?"}, []string{"edgar13f ask: missing --as-of"}},
		{"no question", fixture, []string{"ask", "--as-of", "2025-03-01"}, []string{"edgar13f ask: ask takes one or more arguments, QUESTION...; got none"}},
		{"csv", fixture, append(askArgs, "--format", "csv"), []string{"ask writes a table or json, not csv"}},
		{"bad date", fixture, []string{"ask", "why?", "--as-of", "2025-02-30"}, []string{"--as-of must be a date"}},
		{"no questions file", fixture, []string{"ask-eval", "nope.json", "--dry-run"}, []string{"edgar13f ask-eval: open nope.json"}},
		{"eval as-of", fixture, []string{"ask-eval", questionsFile, "--dry-run", "--as-of", "2025-01-01"}, []string{"--as-of does not apply"}},
		{"empty ticker", fixture, append(askArgs, "--ticker", ","), []string{"empty ticker"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := exe(t, tt.env, tt.args...)
			if code != 2 || stdout != "" {
				t.Errorf("exit %d, stdout %q; want 2 and nothing", code, stdout)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}
}

// The dry run of the shipped questions, as the README runs it: index the
// questions' reports from the mirror, then replay every plan with no
// model. All ten pass; a file with a planted fault fails with exit 3
// saying which question and why, as does a store without the reports.
func TestAskEvalDryRun(t *testing.T) {
	env := searchEnv(t)
	stdout, stderr, code := exe(t, env, "index", "AAPL", "NVDA", "TSLA", "JNJ", "WMT", "--form", "10-K,10-Q", "--as-of", "2025-09-01", "--format", "json")
	if code != 0 {
		t.Fatalf("index: exit %d\n%s", code, stderr)
	}
	if n := len(decodeJSON(t, stdout)["indexed"].([]any)); n != 9 {
		t.Fatalf("indexed %d filings, want the 9 filings of the questions' 8 reports (Tesla's 10-K with its 10-K/A)", n)
	}
	stdout, stderr, code = exe(t, env, "ask-eval", questionsFile, "--dry-run")
	if code != 0 || stderr != "" || !strings.Contains(stdout, "10 questions: 10 pass, 0 fail; expected figures in tool outputs 30/30; reference answers grounded 10/10; leaks 0") ||
		strings.Contains(stdout, "FAIL") {
		t.Fatalf("dry run: exit %d, stderr %q\n%s", code, stderr, stdout)
	}
	if !regexp.MustCompile(`(?m)^aapl-q3-fy2025-before-filing\s+2025-07-31\s+3/3\s+0/0\s+0/0\s+0/0\s+0\s+0\s+PASS$`).MatchString(stdout) {
		t.Errorf("the question before Apple's 10-Q:\n%s", stdout)
	}
	stdout, _, code = exe(t, env, "ask-eval", questionsFile, "--dry-run", "--format", "json")
	res := decodeJSON(t, stdout)
	if code != 0 || res["status"] != "pass" || res["passed"] != 10.0 || res["figures_found"] != 30.0 || len(res["replays"].([]any)) != 10 {
		t.Fatalf("json: exit %d, %v", code, res)
	}
	first := res["replays"].([]any)[0].(map[string]any)
	if first["id"] != "aapl-fy2024-net-sales" || first["pass"] != true || len(first["steps"].([]any)) != 3 || len(first["citations"].([]any)) != 2 {
		t.Errorf("first replay %v", first)
	}

	// A planted fault: a reference answer writing a rounding of a figure.
	b, err := os.ReadFile(questionsFile)
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(b), "were $94,036 million, up 10%", "were $94.0 billion, up 10%", 1)
	if bad == string(b) {
		t.Fatal("the planted fault changed nothing")
	}
	badFile := filepath.Join(t.TempDir(), "questions.json")
	if err := os.WriteFile(badFile, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, code = exe(t, env, "ask-eval", badFile, "--dry-run", "--format", "table")
	if code != 3 || !strings.Contains(stdout, "10 questions: 9 pass, 1 fail") ||
		!strings.Contains(stdout, "aapl-q3-fy2025-net-sales fails:\n- expected figure \"$94,036 million\" is not in the reference answer\n- the reference answer's \"$94.0 billion\" is in no source it cites") {
		t.Errorf("planted fault: exit %d\n%s", code, stdout)
	}

	// A store without the reports: every figure is missing, and the
	// report says what to index.
	stdout, _, code = exe(t, searchEnv(t), "ask-eval", questionsFile, "--dry-run")
	if code != 3 || !strings.Contains(stdout, "holds no filing of AAPL, NVDA, TSLA, JNJ, WMT: index their reports first") || !strings.Contains(stdout, "0 pass, 10 fail") {
		t.Errorf("empty store: exit %d\n%s", code, stdout)
	}
}

// ask-eval with a model: the scripted model answers the one question it
// can (NVIDIA's revenue) and the report counts it.
func TestAskEvalWithModel(t *testing.T) {
	env := searchEnv(t)
	if _, stderr, code := exe(t, env, "index", "NVDA", "--form", "10-K", "--as-of", "2025-03-01"); code != 0 {
		t.Fatalf("index: exit %d\n%s", code, stderr)
	}
	qs := `[{"id":"nvda","question":"What was NVIDIA's revenue for fiscal 2025?","as_of":"2025-03-15","tickers":["NVDA"],` +
		`"expected":[{"figure":"$130.5 billion","where":"Item 7"}],"absent":[{"figure":"$46,743 million","where":"a later 10-Q"}]}]`
	file := filepath.Join(t.TempDir(), "q.json")
	if err := os.WriteFile(file, []byte(qs), 0o644); err != nil {
		t.Fatal(err)
	}
	m := testkit.NewChatModel(t, testkit.RevenueScript("$130.5 billion"))
	stdout, stderr, code := exe(t, append(env, m.Env()...), "ask-eval", file, "--progress")
	if code != 0 || !strings.Contains(stdout, "1 questions: 1 answered (grounded rate 1.000), 0 ungrounded, 0 other, 0 failed") ||
		!strings.Contains(stdout, "expected figures found 1/1, leaks 0") || !strings.Contains(stdout, "tokens 2000 in, 20 out") {
		t.Errorf("exit %d, stderr %q\n%s", code, stderr, stdout)
	}
	stdout, _, code = exe(t, append(env, m.Env()...), "ask-eval", file, "--format", "json")
	res := decodeJSON(t, stdout)
	if code != 0 || res["answered"] != 1.0 || res["grounded_rate"] != 1.0 || res["expected_found"] != 1.0 {
		t.Errorf("json: exit %d, %v", code, res)
	}
	if len(m.Requests()) != 4 {
		t.Errorf("%d model requests, want 2 per run", len(m.Requests()))
	}
}

// Both commands are in the usage text and have their help with examples.
func TestAskHelp(t *testing.T) {
	stdout, _, code := exe(t, nil, "--help")
	if code != 0 || !strings.Contains(stdout, "edgar13f ask QUESTION...") || !strings.Contains(stdout, "edgar13f ask-eval QUESTIONS.json") ||
		!strings.Contains(stdout, "EDGAR13F_CHAT_URL") {
		t.Errorf("usage: exit %d\n%s", code, stdout)
	}
	for _, cmd := range []string{"ask", "ask-eval"} {
		stdout, _, code := exe(t, nil, cmd, "--help")
		if code != 0 || !strings.HasPrefix(stdout, fmt.Sprintf("Usage: edgar13f %s ", cmd)) || !strings.Contains(stdout, "Examples:\n  edgar13f ") {
			t.Errorf("%s --help: exit %d\n%s", cmd, code, stdout)
		}
	}
}

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgar13f/edgar13f"
	"github.com/edgar13f/edgar13f/examples/internal/testkit"
)

// TestHolders answers get_holders_as_of from the test mirror's Data Sets
// windows, imported on first use; declines name the reason.
func TestHolders(t *testing.T) {
	s := testkit.Connect(t, command(t, "EDGAR13F_FIXTURE_DIR="+mirror))
	// Import every window first, so that each answer's data_through is
	// the mirror's last window whichever cases run.
	if r := call(t, s, "get_holders_as_of", `{"cusip":"037833100","period":"2013-06-30","as_of":"2026-11-30"}`); r.obj["data_through"] != "2026-08-31" {
		t.Fatalf("warm-up: %v", r.obj)
	}
	ia, ip, us := edgar13f.InvalidArgument, edgar13f.InvalidPeriod, edgar13f.UnsupportedRequest
	tests := []struct {
		name, args string
		decline    edgar13f.Reason
	}{
		{"holders_apple_2023q3", `{"cusip":"037833100","period":"2023-09-30","as_of":"2024-05-15"}`, ""},
		{"holders_max_1", `{"cusip":"037833100","period":"2023-09-30","as_of":"2024-05-15","max_holders":1}`, ""},
		{"holders_option_lower_case", `{"cusip":"n14506104","period":"2026-06-30","as_of":"2026-08-14"}`, ""},
		{"holders_before_filing", `{"cusip":"037833100","period":"2023-09-30","as_of":"2023-10-01"}`, ""},
		{"holders_redacted_cusip", `{"cusip":"78462F103","period":"2023-09-30","as_of":"2024-05-15"}`, ""},
		{"holders_bad_cusip", `{"cusip":"03783310","period":"2023-09-30","as_of":"2024-05-15"}`, ia},
		{"holders_cusip_array", `{"cusip":["037833100"],"period":"2023-09-30","as_of":"2024-05-15"}`, ia},
		{"holders_max_zero", `{"cusip":"037833100","period":"2023-09-30","as_of":"2024-05-15","max_holders":0}`, ia},
		{"holders_max_501", `{"cusip":"037833100","period":"2023-09-30","as_of":"2024-05-15","max_holders":501}`, ia},
		{"holders_max_string", `{"cusip":"037833100","period":"2023-09-30","as_of":"2024-05-15","max_holders":"5"}`, ia},
		{"holders_unknown_argument", `{"cusip":"037833100","period":"2023-09-30","as_of":"2024-05-15","cik":"1067983"}`, ia},
		{"holders_bad_period", `{"cusip":"037833100","period":"2023-09-29","as_of":"2024-05-15"}`, ip},
		{"holders_bad_cusip_bad_period", `{"cusip":"x","period":"2023-09-29","as_of":"2024-05-15"}`, ia},
		{"holders_before_data_sets", `{"cusip":"037833100","period":"2010-03-31","as_of":"2010-05-15"}`, us},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := call(t, s, "get_holders_as_of", tt.args)
			if r.isError {
				t.Fatalf("isError true: %v", r.obj)
			}
			if tt.decline == "" {
				if r.obj["status"] != "ok" {
					t.Fatalf("status %v, want ok: %v", r.obj["status"], r.obj)
				}
				testkit.GoldenJSON(t, tt.name, r.obj)
				return
			}
			got := map[string]any{"status": r.obj["status"], "reason": r.obj["reason"]}
			want := map[string]any{"status": "declined", "reason": string(tt.decline)}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s\nmessage: %v", diff, r.obj["message"])
			}
		})
	}
}

// TestHoldersProgress: the first call imports its windows and sends MCP
// progress notifications for the caller's token; a second call imports
// nothing and sends none.
//
// The server sends a call's notifications before its result, and the
// client handles notifications one at a time in the order they arrive, but
// may do so after it has returned the result. So the test waits for a
// barrier instead of a while: a third call, on windows not yet imported,
// whose first notification is handled only after every notification the
// server sent for the first two calls.
func TestHoldersProgress(t *testing.T) {
	var mu sync.Mutex
	notes := map[any][]*mcp.ProgressNotificationParams{}
	barrier := make(chan struct{})
	var once sync.Once
	client := mcp.NewClient(&mcp.Implementation{Name: "edgar13f-example-test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			notes[req.Params.ProgressToken] = append(notes[req.Params.ProgressToken], req.Params)
			mu.Unlock()
			if req.Params.ProgressToken == "barrier" {
				once.Do(func() { close(barrier) })
			}
		},
	})
	ctx := testkit.Context(t)
	s, err := client.Connect(ctx, &mcp.CommandTransport{Command: command(t, "EDGAR13F_FIXTURE_DIR="+mirror)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ask := func(token, period, asOf string) {
		p := &mcp.CallToolParams{Name: "get_holders_as_of", Arguments: json.RawMessage(`{"cusip":"037833100","period":"` + period + `","as_of":"` + asOf + `"}`)}
		p.SetProgressToken(token)
		res, err := s.CallTool(ctx, p)
		if err != nil || res.IsError {
			t.Fatalf("call: %v %v", res, err)
		}
	}
	ask("cold", "2023-09-30", "2024-05-15")
	ask("warm", "2023-09-30", "2024-05-15")
	ask("barrier", "2023-06-30", "2023-08-14") // imports the window before the first three
	select {
	case <-barrier:
	case <-ctx.Done():
		t.Fatal("the call importing 2023Q2 sent no progress")
	}
	mu.Lock()
	defer mu.Unlock()
	windows := map[string]bool{}
	for _, n := range notes["cold"] {
		if n.Total != 3 || n.Progress > n.Total {
			t.Errorf("notification %+v", n)
		}
		if _, w, ok := strings.Cut(n.Message, "window "); ok {
			windows[strings.Fields(w)[0]] = true
		}
	}
	if len(windows) != 3 {
		t.Errorf("progress named windows %v, want the 3 covering 2023-10-01 to 2024-05-15", windows)
	}
	if n := len(notes["warm"]); n != 0 {
		t.Errorf("warm call sent %d notifications", n)
	}
	for token := range notes {
		if token != "cold" && token != "warm" && token != "barrier" {
			t.Errorf("notification for token %v, asked for none", token)
		}
	}
}

// TestProgressNotes: of an import's reports (already limited to whole
// percents per stage), a handful a window becomes a notification, with a
// progress value that only grows and ends at the number of windows.
func TestProgressNotes(t *testing.T) {
	var n progressNotes
	var sent []float64
	const windows = 4
	send := func(p edgar13f.Progress) {
		p.Count = windows
		if v, ok := n.next(p); ok {
			sent = append(sent, v)
		}
	}
	for i := 1; i <= windows; i++ {
		w := fmt.Sprint("w", i)
		send(edgar13f.Progress{Window: w, Stage: "download", Index: i})
		send(edgar13f.Progress{Window: w, Stage: "download", Done: 9, Total: 9, Index: i})
		send(edgar13f.Progress{Window: w, Stage: "filings", Index: i})
		for _, stage := range []string{"infotable", "sorting"} {
			for pc := int64(0); pc <= 100; pc++ {
				send(edgar13f.Progress{Window: w, Stage: stage, Done: pc, Total: 100, Index: i})
			}
		}
		send(edgar13f.Progress{Window: w, Stage: "done", Done: 100, Total: 100, Index: i})
	}
	if len(sent) < windows+1 || len(sent) > 12*windows {
		t.Errorf("%d notifications for %d windows: %v", len(sent), windows, sent)
	}
	for i := 1; i < len(sent); i++ {
		if sent[i] <= sent[i-1] {
			t.Errorf("progress went from %v to %v", sent[i-1], sent[i])
		}
	}
	if sent[0] != 0 || sent[len(sent)-1] != windows {
		t.Errorf("progress from %v to %v, want 0 to %d", sent[0], sent[len(sent)-1], windows)
	}
	t.Logf("%d notifications for %d windows", len(sent), windows)
}

package oracle

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestResolve(t *testing.T) {
	const q1, q2 = 100, 191 // periods as day numbers
	hr := func(acc string, filed, period int) Filing {
		return Filing{Accession: acc, Form: FormHR, Filed: filed, Period: period}
	}
	hra := func(acc string, filed, period, no int, typ string) Filing {
		return Filing{Accession: acc, Form: FormHRA, Filed: filed, Period: period, AmendNo: no, AmendType: typ}
	}
	nt := func(acc, form string, filed, period int) Filing {
		return Filing{Accession: acc, Form: form, Filed: filed, Period: period}
	}
	tests := []struct {
		name    string
		filings []Filing
		period  int
		asOf    int
		want    Answer
	}{
		{name: "no filings", period: q1, asOf: 500, want: Answer{Reason: UnknownCIK}},
		{
			name:    "only filings after asOf",
			filings: []Filing{hr("a-1", 140, q1)},
			period:  q1, asOf: 139,
			want: Answer{Reason: UnknownCIK},
		},
		{
			name:    "filed exactly on asOf is visible",
			filings: []Filing{hr("a-1", 140, q1)},
			period:  q1, asOf: 140,
			want: Answer{Base: "a-1"},
		},
		{
			name:    "other period only",
			filings: []Filing{hr("a-1", 140, q1)},
			period:  q2, asOf: 300,
			want: Answer{Reason: NotYetFiled},
		},
		{
			name:    "notice for the period",
			filings: []Filing{hr("a-1", 140, q1), nt("a-2", FormNTA, 230, q2)},
			period:  q2, asOf: 300,
			want: Answer{Reason: NoticeOnly},
		},
		{
			name:    "notice not yet visible",
			filings: []Filing{hr("a-1", 140, q1), nt("a-2", FormNT, 230, q2)},
			period:  q2, asOf: 229,
			want: Answer{Reason: NotYetFiled},
		},
		{
			name:    "only new holdings with notice",
			filings: []Filing{hra("a-1", 140, q1, 1, NewHoldings), nt("a-2", FormNT, 141, q1)},
			period:  q1, asOf: 300,
			want: Answer{Reason: NoticeOnly},
		},
		{
			name:    "only new holdings",
			filings: []Filing{hra("a-1", 140, q1, 1, NewHoldings)},
			period:  q1, asOf: 300,
			want: Answer{Reason: NotYetFiled},
		},
		{
			name: "supplements in order after base",
			filings: []Filing{
				hra("a-4", 160, q1, 2, NewHoldings),
				hr("a-1", 140, q1),
				hra("a-3", 150, q1, 1, NewHoldings),
			},
			period: q1, asOf: 300,
			want: Answer{Base: "a-1", Supplements: []string{"a-3", "a-4"}},
		},
		{
			name: "restatement supersedes earlier new holdings",
			filings: []Filing{
				hr("a-1", 140, q1),
				hra("a-2", 150, q1, 1, NewHoldings),
				hra("a-3", 160, q1, 2, Restatement),
				hra("a-4", 170, q1, 3, NewHoldings),
			},
			period: q1, asOf: 300,
			want: Answer{Base: "a-3", Supplements: []string{"a-4"}},
		},
		{
			name: "restatement not yet visible",
			filings: []Filing{
				hr("a-1", 140, q1),
				hra("a-2", 150, q1, 1, NewHoldings),
				hra("a-3", 160, q1, 2, Restatement),
			},
			period: q1, asOf: 159,
			want: Answer{Base: "a-1", Supplements: []string{"a-2"}},
		},
		{
			name: "unspecified amendment is a restatement",
			filings: []Filing{
				hr("a-1", 140, q1),
				hra("a-2", 150, q1, 1, ""),
			},
			period: q1, asOf: 300,
			want: Answer{Base: "a-2"},
		},
		{
			name: "same day: amendment number beats accession",
			filings: []Filing{
				hr("a-1", 140, q1),
				hra("a-5", 150, q1, 1, Restatement),
				hra("a-2", 150, q1, 2, NewHoldings),
			},
			period: q1, asOf: 300,
			want: Answer{Base: "a-5", Supplements: []string{"a-2"}},
		},
		{
			name: "same day: restatement numbered after new holdings wins",
			filings: []Filing{
				hr("a-1", 140, q1),
				hra("a-2", 150, q1, 2, Restatement),
				hra("a-5", 150, q1, 1, NewHoldings),
			},
			period: q1, asOf: 300,
			want: Answer{Base: "a-2"},
		},
		{
			name: "same day: original counts as unnumbered",
			filings: []Filing{
				{Accession: "a-9", Form: FormHR, Filed: 140, Period: q1, AmendNo: 7},
				hra("a-2", 140, q1, 1, NewHoldings),
			},
			period: q1, asOf: 300,
			want: Answer{Base: "a-9", Supplements: []string{"a-2"}},
		},
		{
			name: "same day, same number: accession decides",
			filings: []Filing{
				hr("a-3", 140, q1),
				hr("a-2", 140, q1),
			},
			period: q1, asOf: 300,
			want: Answer{Base: "a-3"},
		},
		{
			name: "several originals: last wins",
			filings: []Filing{
				hr("a-9", 140, q1),
				hra("a-5", 141, q1, 1, NewHoldings),
				hr("a-1", 145, q1),
			},
			period: q1, asOf: 300,
			want: Answer{Base: "a-1"},
		},
		{
			name: "original form ignores its amendment type",
			filings: []Filing{
				hr("a-1", 140, q1),
				{Accession: "a-2", Form: FormHR, Filed: 150, Period: q1, AmendType: NewHoldings},
			},
			period: q1, asOf: 300,
			want: Answer{Base: "a-2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Resolve(tt.filings, tt.period, tt.asOf)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Resolve(%d, %d) mismatch (-want +got):\n%s", tt.period, tt.asOf, diff)
			}
		})
	}
}

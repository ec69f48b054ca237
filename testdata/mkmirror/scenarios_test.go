package main

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// brief renders an answer as "decline" or "base+supplement+...".
func brief(a answer) string {
	if a.decline != "" {
		return a.decline
	}
	s := []string{a.base.acc}
	for _, r := range a.supplements {
		s = append(s, r.acc)
	}
	return strings.Join(s, "+")
}

func TestResolve(t *testing.T) {
	recs := []rec{
		{acc: "A1", form: "13F-HR", filed: "2025-02-10", period: "2024-12-31", kind: "ORIGINAL"},
		{acc: "A2", form: "13F-HR/A", filed: "2025-02-20", period: "2024-12-31", amendNo: 1, kind: "NEW HOLDINGS"},
		{acc: "A3", form: "13F-HR/A", filed: "2025-03-05", period: "2024-12-31", amendNo: 2, kind: "RESTATEMENT"},
		{acc: "A4", form: "13F-HR/A", filed: "2025-04-01", period: "2024-12-31", amendNo: 3, kind: "NEW HOLDINGS"},
		{acc: "B1", form: "13F-HR", filed: "2025-05-10", period: "2025-03-31", kind: "ORIGINAL"},
		{acc: "B6", form: "13F-HR/A", filed: "2025-05-20", period: "2025-03-31", amendNo: 2, kind: "NEW HOLDINGS"},
		{acc: "B7", form: "13F-HR/A", filed: "2025-05-20", period: "2025-03-31", amendNo: 1, kind: "RESTATEMENT"},
		{acc: "C1", form: "13F-HR", filed: "2025-08-10", period: "2025-06-30", kind: "ORIGINAL"},
		{acc: "C2", form: "13F-HR/A", filed: "2025-08-20", period: "2025-06-30", amendNo: 1, kind: "UNSPECIFIED"},
		{acc: "N1", form: "13F-NT", filed: "2025-02-14", period: "2025-09-30", kind: "NOTICE"},
		{acc: "H1", form: "13F-HR/A", filed: "2025-11-20", period: "2025-12-31", amendNo: 1, kind: "NEW HOLDINGS"},
	}
	tests := []struct {
		period, asOf, want string
	}{
		{"2024-12-31", "2025-02-09", "unknown_cik"},
		{"2024-12-31", "2025-02-10", "A1"},
		{"2024-12-31", "2025-02-20", "A1+A2"},
		{"2024-12-31", "2025-03-05", "A3"},
		{"2024-12-31", "2025-04-01", "A3+A4"},
		{"2025-03-31", "2025-05-09", "not_yet_filed"},
		{"2025-03-31", "2025-05-19", "B1"},
		{"2025-03-31", "2025-05-20", "B7+B6"},
		{"2025-06-30", "2025-08-20", "C2"},
		{"2025-09-30", "2025-02-13", "not_yet_filed"},
		{"2025-09-30", "2025-02-14", "notice_only"},
		{"2025-12-31", "2025-11-20", "not_yet_filed"},
	}
	for _, tt := range tests {
		t.Run(tt.period+"@"+tt.asOf, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, brief(resolve(recs, tt.period, tt.asOf))); diff != "" {
				t.Errorf("resolve (-want +got):\n%s", diff)
			}
		})
	}
}

func TestContainerRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		docs []doc
	}{
		{"cover only", []doc{{typ: "13F-NT", filename: "primary_doc.xml", body: []byte("<a/>\n")}}},
		{"cover and table", []doc{
			{typ: "13F-HR/A", filename: "primary_doc.xml", body: []byte("<?xml version=\"1.0\"?>\n<a>\n</a>\n")},
			{typ: "INFORMATION TABLE", filename: "index.xml", body: []byte("\n<b/>\n")},
		}},
	}
	h := header{acc: "0009000001-25-000001", form: "13F-HR", period: "2024-12-31", filed: "2025-02-10",
		accepted: time.Date(2025, 2, 11, 0, 12, 31, 0, time.UTC), name: "X", cik10: "0009000001"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hdr, got, err := splitContainer(container(h, tt.docs))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.docs, got, cmp.AllowUnexported(doc{})); diff != "" {
				t.Errorf("documents (-want +got):\n%s", diff)
			}
			want := map[string]string{"ACCEPTANCE-DATETIME": "20250210191231", "ACCESSION NUMBER": "0009000001-25-000001", "COMPANY DATA/CENTRAL INDEX KEY": "0009000001"}
			for k, v := range want {
				if diff := cmp.Diff(v, hdr[k]); diff != "" {
					t.Errorf("header %s (-want +got):\n%s", k, diff)
				}
			}
		})
	}
}

package infotable

import "testing"

func TestNorm(t *testing.T) {
	for in, want := range map[string]string{"SH": "SH", "sh": "SH", "Prn": "PRN", "PRN": "PRN", "": "!", "S": "!", "SHS": "!", " SH": "!"} {
		got, ok := NormShPrn([]byte(in))
		if !ok {
			got = "!"
		}
		if got != want {
			t.Errorf("NormShPrn(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"": "", "Put": "PUT", "CALL": "CALL", "call": "CALL", "P": "!", "PUTS": "!", " ": "!"} {
		got, ok := NormPutCall([]byte(in))
		if !ok {
			got = "!"
		}
		if got != want {
			t.Errorf("NormPutCall(%q) = %q, want %q", in, got, want)
		}
	}
}

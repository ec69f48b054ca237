package bounds

import "testing"

// TestCheck: a value inside the range, ends included, passes; one outside
// is reported with its name, value and range.
func TestCheck(t *testing.T) {
	for _, tt := range []struct {
		v    int
		want string
	}{
		{1, ""}, {5, ""}, {20, ""},
		{0, "Limit 0 is outside 1 to 20"},
		{21, "Limit 21 is outside 1 to 20"},
		{-3, "Limit -3 is outside 1 to 20"},
	} {
		err := Check("Limit", tt.v, 1, 20)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("Check(Limit, %d, 1, 20) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

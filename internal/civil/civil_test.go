package civil

import (
	"testing"
	"time"
)

// TestParseISO checks every day of 1900-2100 and every 97th day of the rest
// of 1000-9999 against time.Date, and that malformed and impossible dates
// are refused.
func TestParseISO(t *testing.T) {
	dense0, dense1 := DayOf(1900, time.January, 1), DayOf(2100, time.December, 31)
	step := func(d Day) Day {
		if dense0 <= d && d <= dense1 {
			return 1
		}
		return 97
	}
	for d := DayOf(1000, time.January, 1); d <= DayOf(9999, time.December, 31); d += step(d) {
		s := d.String()
		got, ok := ParseISO(s)
		if !ok || got != d {
			t.Fatalf("ParseISO(%q) = %d, %t; want %d", s, got, ok, d)
		}
		if got, ok := ParseISO([]byte(s)); !ok || got != d {
			t.Fatalf("ParseISO([]byte(%q)) = %d, %t; want %d", s, got, ok, d)
		}
	}
	for _, s := range []string{"", "2023-02-29", "2024-02-30", "2023-04-31", "2023-13-01", "2023-00-10",
		"2023-01-00", "0999-12-31", "2023-1-01", "2023/01/01", "2023-01-01 ", "+023-01-01", "２023-01-01"} {
		if got, ok := ParseISO(s); ok {
			t.Errorf("ParseISO(%q) = %d, want no date", s, got)
		}
	}
}

func TestDay(t *testing.T) {
	d := DayOf(2023, time.January, 3)
	if d != 19360 || d.String() != "2023-01-03" || !d.Time().Equal(time.Date(2023, 1, 3, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("DayOf(2023-01-03) = %d (%s, %s)", d, d, d.Time())
	}
	if y, m, dd := d.Date(); y != 2023 || m != time.January || dd != 3 {
		t.Errorf("Date() = %d %s %d", y, m, dd)
	}
	if DayOf(2024, time.March, 0) != DayOf(2024, time.February, 29) {
		t.Error("day 0 is not the last day of the month before")
	}
	if Day(-1).String() != "1969-12-31" {
		t.Errorf("Day(-1) = %s", Day(-1))
	}
}

func TestDigits(t *testing.T) {
	for in, want := range map[string]int{"0": 0, "07": 7, "2025": 2025, "": 0} {
		if got, ok := Digits(in); !ok || got != want {
			t.Errorf("Digits(%q) = %d, %t; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"-1", "+1", " 1", "1a", "١"} {
		if got, ok := Digits([]byte(in)); ok {
			t.Errorf("Digits(%q) = %d, want refused", in, got)
		}
	}
}

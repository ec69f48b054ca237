package civil

import (
	"testing"
	"time"
)

// timeDay is the Day of a date computed by package time: the reference
// the calendar arithmetic is checked against.
func timeDay(y int, m time.Month, d int) Day {
	return Day(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// TestParseISO checks every day of 1900-2100 and every 97th day of the rest
// of years 1-9999 against package time, and that malformed and impossible
// dates and years outside 1-9999 are refused.
func TestParseISO(t *testing.T) {
	if MinDay != timeDay(1, time.January, 1) || MaxDay != timeDay(9999, time.December, 31) {
		t.Fatalf("MinDay %d MaxDay %d; want %d and %d", MinDay, MaxDay, timeDay(1, time.January, 1), timeDay(9999, time.December, 31))
	}
	dense0, dense1 := timeDay(1900, time.January, 1), timeDay(2100, time.December, 31)
	step := func(d Day) Day {
		if dense0 <= d && d <= dense1 {
			return 1
		}
		return 97
	}
	for d := MinDay; d <= MaxDay; d += step(d) {
		y, m, dd := time.Unix(int64(d)*86400, 0).UTC().Date()
		if got := DayOf(y, m, dd); got != d {
			t.Fatalf("DayOf(%d, %d, %d) = %d; want %d", y, m, dd, got, d)
		}
		if gy, gm, gd := d.Date(); gy != y || gm != m || gd != dd {
			t.Fatalf("Day(%d).Date() = %d-%d-%d; want %d-%d-%d", d, gy, gm, gd, y, m, dd)
		}
		s := d.String()
		got, ok := ParseISO(s)
		if !ok || got != d {
			t.Fatalf("ParseISO(%q) = %d, %t; want %d", s, got, ok, d)
		}
		if got, ok := ParseISO([]byte(s)); !ok || got != d {
			t.Fatalf("ParseISO([]byte(%q)) = %d, %t; want %d", s, got, ok, d)
		}
		if gy, gm, gd, ok := ParseYMD(s); !ok || gy != y || gm != m || gd != dd {
			t.Fatalf("ParseYMD(%q) = %d-%d-%d, %t", s, gy, gm, gd, ok)
		}
	}
	for _, s := range []string{"", "2023-02-29", "2024-02-30", "2023-04-31", "2023-13-01", "2023-00-10",
		"2023-01-00", "0000-12-31", "1900-02-29", "2023-1-01", "2023/01/01", "2023-01-01 ", "+023-01-01", "２023-01-01"} {
		if got, ok := ParseISO(s); ok {
			t.Errorf("ParseISO(%q) = %d, want no date", s, got)
		}
		if y, m, d, ok := ParseYMD(s); ok {
			t.Errorf("ParseYMD(%q) = %d-%d-%d, want no date", s, y, m, d)
		}
	}
	for _, s := range []string{"0001-01-01", "0999-12-31", "2000-02-29", "9999-12-31"} {
		if _, ok := ParseISO(s); !ok {
			t.Errorf("ParseISO(%q) refused", s)
		}
	}
}

func TestValid(t *testing.T) {
	for _, c := range []struct {
		y    int
		m    time.Month
		d    int
		want bool
	}{
		{2024, time.February, 29, true}, {2023, time.February, 29, false}, {2023, time.April, 31, false},
		{0, time.January, 1, false}, {10000, time.January, 1, false}, {2023, 0, 1, false}, {2023, 13, 1, false},
		{2023, time.January, 0, false}, {1, time.January, 1, true}, {9999, time.December, 31, true},
	} {
		if got := Valid(c.y, c.m, c.d); got != c.want {
			t.Errorf("Valid(%d, %d, %d) = %t; want %t", c.y, c.m, c.d, got, c.want)
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

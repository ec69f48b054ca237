// Package bounds checks the numeric arguments of every question against
// their ranges, so that every out-of-range value is reported in the same
// words: "<name> <value> is outside <lo> to <hi>".
package bounds

import "fmt"

// Check returns nil when lo <= v <= hi, and otherwise an error whose
// message is "<name> <v> is outside <lo> to <hi>". Callers decline with
// that message.
func Check(name string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("%s %d is outside %d to %d", name, v, lo, hi)
	}
	return nil
}

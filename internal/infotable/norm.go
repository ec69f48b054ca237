package infotable

import "bytes"

// NormShPrn returns the sshPrnamtType s as a [Row] holds it: "SH" or
// "PRN", whatever the case it was filed in. ok is false for anything else.
// Readers of the same rows from other sources (the Form 13F Data Sets)
// use it so that both give the same values.
func NormShPrn(s []byte) (v string, ok bool) {
	switch {
	case bytes.EqualFold(s, []byte("SH")):
		return "SH", true
	case bytes.EqualFold(s, []byte("PRN")):
		return "PRN", true
	}
	return "", false
}

// NormPutCall returns the putCall s as a [Row] holds it: "" when blank,
// else "PUT" or "CALL", whatever the case it was filed in. ok is false for
// anything else.
func NormPutCall(s []byte) (v string, ok bool) {
	switch {
	case len(s) == 0:
		return "", true
	case bytes.EqualFold(s, []byte("PUT")):
		return "PUT", true
	case bytes.EqualFold(s, []byte("CALL")):
		return "CALL", true
	}
	return "", false
}

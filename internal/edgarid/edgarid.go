// Package edgarid holds what EDGAR's documents share about who filed what,
// written once for every reader: CIKs, accession numbers, CUSIPs, the 13F
// form types and the index page a filing is cited by. The reference rule in internal/oracle keeps its own copy of the
// form types on purpose: it is the independent check of the rule.
package edgarid

import "strings"

// The 13F submission types, as EDGAR writes them.
const (
	Form13FHR  = "13F-HR"   // holdings report
	Form13FHRA = "13F-HR/A" // amendment to a holdings report
	Form13FNT  = "13F-NT"   // notice: holdings reported by other managers
	Form13FNTA = "13F-NT/A" // amendment to a notice
)

// Is13F reports whether form is one of the four 13F submission types,
// exactly as EDGAR writes them (upper case).
func Is13F[T ~string | ~[]byte](form T) bool {
	switch string(form) {
	case Form13FHR, Form13FHRA, Form13FNT, Form13FNTA:
		return true
	}
	return false
}

// ParseCIK returns the CIK written in s: 1 to 10 ASCII digits, leading
// zeros allowed ("0001067983" and "1067983" are both 1067983).
func ParseCIK[T ~string | ~[]byte](s T) (uint64, bool) {
	if len(s) == 0 || len(s) > 10 {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return n, true
}

// CIK10 returns the CIK written in s, as ParseCIK reads it, in EDGAR's
// ten-digit form, zero-padded: "1067983" and "0001067983" both give
// "0001067983".
func CIK10[T ~string | ~[]byte](s T) (string, bool) {
	if _, ok := ParseCIK(s); !ok {
		return "", false
	}
	b := [10]byte{'0', '0', '0', '0', '0', '0', '0', '0', '0', '0'}
	copy(b[10-len(s):], s)
	return string(b[:]), true
}

// IsAccession reports whether s is a dashed accession number: 10, 2 and 6
// digits separated by dashes, as in 0000950123-23-011029.
func IsAccession[T ~string | ~[]byte](s T) bool {
	if len(s) != 20 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if i == 10 || i == 13 {
			if s[i] != '-' {
				return false
			}
		} else if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// IsCUSIP reports whether s is written as a CUSIP: 9 ASCII letters or
// digits (the check digit is not verified: EDGAR's tables carry CUSIPs as
// filed).
func IsCUSIP(s string) bool {
	if len(s) != 9 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z') {
			return false
		}
	}
	return true
}

// ArchivesBase is the folder of every filing's folder.
const ArchivesBase = "https://www.sec.gov/Archives/edgar/data/"

// FolderURL is the folder of a filing (cik without leading zeros, dashed
// accession), ending in "/".
func FolderURL(cik, accession string) string {
	return ArchivesBase + cik + "/" + strings.ReplaceAll(accession, "-", "") + "/"
}

// IndexURL is the EDGAR index page a filing is cited by.
func IndexURL(cik, accession string) string {
	return FolderURL(cik, accession) + accession + "-index.htm"
}

package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"time"
)

// companyFiles are the company-data documents copied from shared/edgar/xbrl:
// XBRL company facts of three US GAAP filers and an IFRS (20-F) filer, and
// the ticker list company search reads.
var companyFiles = []struct {
	src, dst, what string
	compact        bool // remove insignificant JSON white space
}{
	{"xbrl/CIK0000320193.json", "data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json",
		"Apple Inc. companyfacts, latest filed 2024-11-01", false},
	{"xbrl/CIK0001045810.json", "data.sec.gov/api/xbrl/companyfacts/CIK0001045810.json",
		"NVIDIA CORP companyfacts, latest filed 2024-11-20", false},
	{"xbrl/CIK0001640147-pretty.json", "data.sec.gov/api/xbrl/companyfacts/CIK0001640147.json",
		"SNOWFLAKE INC. companyfacts", true},
	{"xbrl/lpa-ifrs-excerpt.json", "data.sec.gov/api/xbrl/companyfacts/CIK0001997711.json",
		"Logistic Properties of the Americas (20-F filer, ifrs-full) companyfacts excerpt: 4 of its tags; `cik` is a string and labels are null in this fixture, which EDGAR does not serve", false},
	{"xbrl/company_tickers.json", "www.sec.gov/files/company_tickers.json",
		"company_tickers.json snapshot of 2024-05 (9,610 rows)", false},
}

// company copies the company-data documents into the mirror. Snowflake's
// file was pretty-printed by the project it comes from; it is stored with
// the white space removed (json.Compact keeps every token, so values and key
// order are unchanged), as EDGAR serves it.
//
// The companyfacts documents are also zipped as EDGAR zips them into its
// bulk file, www.sec.gov/Archives/edgar/daily-index/xbrl/companyfacts.zip:
// one member CIK##########.json per filer, deflated, the bytes of each
// member those of the mirror's companyfacts API document.
func (g *gen) company() error {
	var zipped bytes.Buffer
	zw := zip.NewWriter(&zipped)
	for _, f := range companyFiles {
		b, err := g.readShared(f.src)
		if err != nil {
			return err
		}
		note := fmt.Sprintf("%s; copy of shared/edgar/%s (byte-for-byte)", f.what, f.src)
		if f.compact {
			var c bytes.Buffer
			if err := json.Compact(&c, b); err != nil {
				return fmt.Errorf("mkmirror: %s: %w", f.src, err)
			}
			b = c.Bytes()
			note = fmt.Sprintf("%s; shared/edgar/%s with insignificant JSON white space removed (json.Compact: every token, value and key order unchanged)", f.what, f.src)
		}
		if err := g.put(f.dst, b, true, note); err != nil {
			return err
		}
		if strings.HasPrefix(f.dst, "data.sec.gov/api/xbrl/companyfacts/") {
			w, err := zw.CreateHeader(&zip.FileHeader{Name: path.Base(f.dst), Method: zip.Deflate,
				Modified: time.Date(2024, 11, 21, 0, 0, 0, 0, time.UTC)})
			if err != nil {
				return fmt.Errorf("mkmirror: %w", err)
			}
			if _, err := w.Write(b); err != nil {
				return fmt.Errorf("mkmirror: %w", err)
			}
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("mkmirror: %w", err)
	}
	return g.put("www.sec.gov/Archives/edgar/daily-index/xbrl/companyfacts.zip", zipped.Bytes(), true,
		"EDGAR's bulk XBRL file, as EDGAR zips it (members CIK##########.json, deflated) but holding only the four companyfacts documents of mirror/data.sec.gov/api/xbrl/companyfacts/, byte for byte")
}

package companies_test

import "github.com/edgar13f/edgar13f"

// date is a Date written as in the tests' tables.
func date(s string) edgar13f.Date { return edgar13f.MustParseDate(s) }

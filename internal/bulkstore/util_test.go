package bulkstore

import (
	"slices"

	"github.com/edgar13f/edgar13f/internal/civil"
)

func sortFiled(fs []Filing) { slices.SortFunc(fs, compareFiled) }

func uniq(ds []civil.Day) []civil.Day {
	slices.Sort(ds)
	return slices.Compact(ds)
}

func sortInts(xs []int64) { slices.Sort(xs) }

// sortHolders orders holders as Holders does.
func sortHolders(hs []Holder) {
	slices.SortFunc(hs, func(a, b Holder) int { return compareHolders(&a, &b) })
}

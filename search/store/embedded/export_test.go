package embedded

// SetLexGroup makes lexicon segments merge n shards at most, for the
// tests of package embedded_test, and returns what undoes it.
func SetLexGroup(n int) func() {
	old := lexGroup
	lexGroup = n
	return func() { lexGroup = old }
}

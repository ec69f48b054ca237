package testkit

import "strings"

// ShellOperators are the shell words that end a command, as ShellWords
// returns them.
var ShellOperators = map[string]bool{"|": true, ";": true, "&": true, "(": true, ")": true, "<": true, ">": true}

// ShellWords splits one shell line into words, honouring single and
// double quotes and backslash escapes; it stops at a comment.
func ShellWords(line string) []string {
	var words []string
	var cur strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			} else if ch == '\\' && quote == '"' && i+1 < len(line) {
				i++
				cur.WriteByte(line[i])
			} else {
				cur.WriteByte(ch)
			}
		case ch == '\'' || ch == '"':
			quote, in = ch, true
		case ch == '\\' && i+1 < len(line):
			i++
			cur.WriteByte(line[i])
			in = true
		case ch == '#' && !in:
			return words
		case ch == ' ' || ch == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		case ch == '|' || ch == ';' || ch == '&' || ch == '>' || ch == '<' || ch == '(' || ch == ')':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
			words = append(words, string(ch))
		default:
			cur.WriteByte(ch)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

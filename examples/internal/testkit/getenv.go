package testkit

import "strings"

// Getenv returns a getenv over env, "NAME=value" strings (the last of a
// name wins), and nothing of the process's environment.
func Getenv(env []string) func(string) string {
	m := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return func(k string) string { return m[k] }
}

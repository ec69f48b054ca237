package opensearch

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLauncherVectorModule checks the JVM options node/run.sh gives the
// node for each Java version (a stand-in java that reports it): from Java
// 20 on the incubating vector module, as the OpenSearch distribution's
// jvm.options add it, so that Lucene can compute vector distances with
// SIMD; past Java 23, Lucene 9.12's last known version, the version
// Lucene must accept too; and the quick JIT tier by default.
func TestLauncherVectorModule(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	const module = "--add-modules=jdk.incubator.vector"
	const upper = "-Dorg.apache.lucene.vectorization.upperJavaFeatureVersion="
	for _, tc := range []struct {
		version  string // java.specification.version
		opts     *string
		want     []string
		wantNone []string
	}{
		{version: "17", want: []string{"-XX:TieredStopAtLevel=1", "-Xmx1g"}, wantNone: []string{module, upper}},
		{version: "1.8", wantNone: []string{module, upper}},
		{version: "21", want: []string{module, "-XX:TieredStopAtLevel=1"}, wantNone: []string{upper}},
		{version: "23", opts: new(string), want: []string{module}, wantNone: []string{upper, "-XX:TieredStopAtLevel=1"}},
		{version: "25", opts: new(string), want: []string{module, upper + "25"}, wantNone: []string{"-XX:TieredStopAtLevel=1"}},
	} {
		dir := t.TempDir()
		java := filepath.Join(dir, "java")
		script := "#!/bin/sh\necho 'Property settings:' >&2\necho '    java.specification.version = " + tc.version + "' >&2\necho 'openjdk version' >&2\n"
		if err := os.WriteFile(java, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", "node/run.sh", "javaopts")
		cmd.Env = append(os.Environ(), "EDGAR13F_OPENSEARCH_JAVA="+java)
		cmd.Env = slices.DeleteFunc(cmd.Env, func(e string) bool {
			return strings.HasPrefix(e, "EDGAR13F_OPENSEARCH_JAVA_OPTS=") || strings.HasPrefix(e, "EDGAR13F_OPENSEARCH_HEAP=")
		})
		if tc.opts != nil {
			cmd.Env = append(cmd.Env, "EDGAR13F_OPENSEARCH_JAVA_OPTS="+*tc.opts)
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("Java %s: run.sh javaopts: %v\n%s", tc.version, err, out)
		}
		opts := strings.Fields(string(out))
		for _, w := range tc.want {
			if !slices.Contains(opts, w) {
				t.Errorf("Java %s: options %q lack %s", tc.version, opts, w)
			}
		}
		for _, w := range tc.wantNone {
			if slices.ContainsFunc(opts, func(o string) bool { return strings.HasPrefix(o, w) }) {
				t.Errorf("Java %s: options %q hold %s", tc.version, opts, w)
			}
		}
	}
}

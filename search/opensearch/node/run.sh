#!/usr/bin/env bash
# A single OpenSearch 2.19.6 node with the k-NN plugin, built from Maven
# Central artifacts (pom.xml) and run from the classpath (TestNode.java):
# what the OpenSearch store's tests run against. Needs Java 17 and Maven.
#
#   run.sh build        build the node (mvn package) unless it is built
#   run.sh start [DIR]  build if needed, start a node keeping its data,
#                       log and pid in DIR (default: a new temporary
#                       directory), wait until the cluster is green or
#                       yellow, and print its URL (http://127.0.0.1:PORT,
#                       a free loopback port) on the last line
#   run.sh stop DIR     stop the node started in DIR and wait for it
#   run.sh test [ARGS]  start a node, run the OpenSearch store's go test
#                       (ARGS, default: -count=1 ./...) with
#                       EDGAR13F_OPENSEARCH_TEST_URL set to it, stop it
#   run.sh exec -- CMD [ARGS]
#                       start a node, run CMD in the current directory
#                       with EDGAR13F_OPENSEARCH_TEST_URL set to it (e.g.
#                       go -C examples test ./..., the example programs'
#                       search tests on both stores), stop it
#
#   run.sh javaopts     print the JVM options start would use
#
# The node's log is DIR/node.log. Its heap is EDGAR13F_OPENSEARCH_HEAP
# (default 1g). EDGAR13F_OPENSEARCH_JAVA is the java command (default:
# java). EDGAR13F_OPENSEARCH_JAVA_OPTS are more JVM options; the
# default, -XX:TieredStopAtLevel=1 (the JIT's quick tier only), halved the
# CPU a fresh node spent on starting and on the conformance cases; set it
# empty for a long benchmark, where the full JIT pays off. On Java 20 or
# later the node gets --add-modules=jdk.incubator.vector, as the
# OpenSearch distribution's jvm.options give it, so that Lucene computes
# vector distances with SIMD instructions (only with the full JIT: Lucene
# does not use them under the quick tier); Lucene 9.12 does so up to
# Java 23 unless told the newer version, which the launcher does. A temporary DIR
# is made in /dev/shm when there is one (a test node's data need not
# outlive it, and memory spares it the disk's fsyncs), else in TMPDIR.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
jar="$here/target/opensearch-test-node-1.jar"

build() {
	if [ -f "$jar" ] && [ -d "$here/target/knn" ] && [ -d "$here/target/lib" ] \
		&& [ -z "$(find "$here/pom.xml" "$here/src" -newer "$jar" -type f | head -1)" ]; then
		return
	fi
	echo "building the OpenSearch test node (mvn package)" >&2
	mvn -q -B -f "$here/pom.xml" package >&2
}

tempdir() {
	local base="${TMPDIR:-/tmp}"
	if [ -d /dev/shm ] && [ -w /dev/shm ]; then
		base=/dev/shm
	fi
	mktemp -d "$base/edgar13f-opensearch.XXXXXX"
}

log_tail() {
	echo "--- last lines of $1/node.log" >&2
	tail -n 60 "$1/node.log" >&2 || true
}

# javaopts prints the JVM options of the node, one a line.
javaopts() {
	local java="${EDGAR13F_OPENSEARCH_JAVA:-java}" heap="${EDGAR13F_OPENSEARCH_HEAP:-1g}" v
	printf '%s\n' -Xms"$heap" -Xmx"$heap" -XX:+UseG1GC
	# The feature version: 17 of "17.0.15", 21 of "21".
	v="$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -1)"
	if [ -n "$v" ] && [ "$v" -ge 20 ]; then
		echo --add-modules=jdk.incubator.vector
		if [ "$v" -gt 23 ]; then
			echo -Dorg.apache.lucene.vectorization.upperJavaFeatureVersion="$v"
		fi
	fi
	# shellcheck disable=SC2086 # the options are words
	[ -z "${EDGAR13F_OPENSEARCH_JAVA_OPTS--XX:TieredStopAtLevel=1}" ] || printf '%s\n' ${EDGAR13F_OPENSEARCH_JAVA_OPTS--XX:TieredStopAtLevel=1}
	printf '%s\n' -Djava.awt.headless=true -Dlog4j.shutdownHookEnabled=false -Dlog4j2.disable.jmx=true
}

start() {
	local dir="${1:-}"
	if [ -z "$dir" ]; then
		dir="$(tempdir)"
	fi
	mkdir -p "$dir"
	dir="$(cd "$dir" && pwd)"
	if [ -f "$dir/pid" ] && kill -0 "$(cat "$dir/pid")" 2>/dev/null; then
		echo "a node is already running in $dir (pid $(cat "$dir/pid"))" >&2
		exit 1
	fi
	build
	rm -f "$dir/url"
	local t0=$SECONDS opts
	mapfile -t opts < <(javaopts)
	"${EDGAR13F_OPENSEARCH_JAVA:-java}" "${opts[@]}" \
		-cp "$jar:$here/target/lib/*:$here/target/knn/*" \
		org.edgar13f.node.TestNode "$dir" >"$dir/node.log" 2>&1 </dev/null &
	echo $! >"$dir/pid"
	local pid=$! url="" health=""
	for _ in $(seq 1 240); do
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "the OpenSearch test node exited before it was ready" >&2
			log_tail "$dir"
			exit 1
		fi
		if [ -z "$url" ] && [ -s "$dir/url" ]; then
			url="$(cat "$dir/url")"
		fi
		if [ -n "$url" ]; then
			health="$(curl -sf "$url/_cluster/health?wait_for_status=yellow&timeout=1s" 2>/dev/null || true)"
			case "$health" in
			*'"status":"green"'* | *'"status":"yellow"'*) break ;;
			esac
		fi
		sleep 0.5
	done
	case "$health" in
	*'"status":"green"'* | *'"status":"yellow"'*) ;;
	*)
		echo "the OpenSearch test node was not ready after 120 s" >&2
		log_tail "$dir"
		stop "$dir"
		exit 1
		;;
	esac
	echo "OpenSearch test node ready in $((SECONDS - t0)) s; dir $dir" >&2
	echo "$url"
}

stop() {
	local dir="$1"
	[ -f "$dir/pid" ] || return 0
	local pid
	pid="$(cat "$dir/pid")"
	if kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid"
		for _ in $(seq 1 60); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.5
		done
		if kill -0 "$pid" 2>/dev/null; then
			echo "the OpenSearch test node did not stop in 30 s; killing it" >&2
			kill -KILL "$pid" 2>/dev/null || true
		fi
	fi
	rm -f "$dir/pid" "$dir/url"
}

case "${1:-}" in
build) build ;;
javaopts) javaopts ;;
start) start "${2:-}" ;;
stop)
	[ -n "${2:-}" ] || { echo "usage: run.sh stop DIR" >&2; exit 2; }
	stop "$2"
	;;
test)
	shift
	dir="$(tempdir)"
	url="$(start "$dir")"
	trap 'stop "$dir"; rm -rf "$dir"' EXIT
	[ $# -gt 0 ] || set -- -count=1 ./...
	if ! (cd "$here/.." && EDGAR13F_OPENSEARCH_TEST_URL="$url" go test "$@"); then
		log_tail "$dir"
		exit 1
	fi
	;;
exec)
	shift
	[ "${1:-}" = "--" ] && shift
	[ $# -gt 0 ] || { echo "usage: run.sh exec -- CMD [ARGS]" >&2; exit 2; }
	dir="$(tempdir)"
	url="$(start "$dir")"
	trap 'stop "$dir"; rm -rf "$dir"' EXIT
	if ! EDGAR13F_OPENSEARCH_TEST_URL="$url" "$@"; then
		log_tail "$dir"
		exit 1
	fi
	;;
*)
	sed -n '2,36p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
	;;
esac

#!/usr/bin/env bash
# Checks the edgar13f-mcp server with a real MCP client, the MCP Inspector
# CLI from npm: tools/list, get_holdings_as_of calls and the --tool-arg form
# that examples/README.md gives, list_13f_filings in the contract's order
# (oldest first), a null argument declined, the bulk tool get_holders_as_of (which
# imports the Data Sets windows it needs on first use) and the company
# tools, against the recorded EDGAR mirror (testdata/mirror), failing on any
# wrong answer.
# Run from anywhere; needs go, npm, python3 and node (the Inspector declares
# 22.19 or later; its CLI mode also runs on Node 20).
set -euo pipefail

INSPECTOR_VERSION=2.12.0
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "inspector_check: installing @modelcontextprotocol/inspector@$INSPECTOR_VERSION" >&2
npm install --prefix "$tmp/npm" --no-audit --no-fund --loglevel=error \
	"@modelcontextprotocol/inspector@$INSPECTOR_VERSION" >&2

(cd "$root/examples" && go build -o "$tmp/edgar13f-mcp" ./edgar13f-mcp)

inspect() {
	# A private HOME keeps the Inspector's catalog and client files out of the user's.
	HOME="$tmp/home" timeout 120 "$tmp/npm/node_modules/.bin/mcp-inspector" --cli --format json -q \
		-e "EDGAR13F_FIXTURE_DIR=$root/testdata/mirror" -e "EDGAR13F_CACHE_DIR=$tmp/cache" \
		"$tmp/edgar13f-mcp" "$@"
}
mkdir -p "$tmp/home"

inspect --method tools/list >"$tmp/list.json"
inspect --method tools/call --tool-name get_holdings_as_of \
	--tool-args-json '{"cik":"1067983","period":"2023-09-30","as_of":"2024-05-15","max_positions":2}' >"$tmp/call.json"
inspect --method tools/call --tool-name get_holdings_as_of \
	--tool-args-json '{"cik":"1067983","period":"2023-09-29","as_of":"2024-05-15"}' >"$tmp/decline.json"
# The README's form: --tool-arg reads a value as JSON when it parses, so a
# CIK goes quoted; a bare number is declined.
inspect --method tools/call --tool-name list_13f_filings \
	--tool-arg 'cik="1067983"' --tool-arg as_of=2024-05-15 --tool-arg period=2023-09-30 >"$tmp/args.json"
inspect --method tools/call --tool-name list_13f_filings \
	--tool-arg cik=1067983 --tool-arg as_of=2024-05-15 >"$tmp/args_number.json"
# Every 13F filing of a manager, three of them made on one day.
inspect --method tools/call --tool-name list_13f_filings \
	--tool-args-json '{"cik":"1067983","as_of":"2025-12-31"}' >"$tmp/all_filings.json"
# JSON null is no value: declined, saying what the argument must be.
inspect --method tools/call --tool-name get_holdings_as_of \
	--tool-args-json '{"cik":"1067983","period":"2023-09-30","as_of":"2024-05-15","max_positions":null}' >"$tmp/null.json"
# Every manager at once, from the mirror's Data Sets windows.
inspect --method tools/call --tool-name get_holders_as_of \
	--tool-args-json '{"cusip":"037833100","period":"2023-09-30","as_of":"2024-05-15"}' >"$tmp/holders.json"
# Company data.
inspect --method tools/call --tool-name search_company \
	--tool-args-json '{"name":"apple","limit":3}' >"$tmp/search.json"
inspect --method tools/call --tool-name get_financial_facts \
	--tool-args-json '{"cik":"320193","concept":"revenue","as_of":"2010-01-25","years":2}' >"$tmp/facts.json"
inspect --method tools/call --tool-name get_filing_section \
	--tool-args-json '{"cik":"320193","accession":"0000320193-24-000123","item":"1A","as_of":"2024-11-01","max_chars":400}' >"$tmp/section.json"
inspect --method tools/call --tool-name get_filing_section \
	--tool-args-json '{"cik":"320193","accession":"0000320193-24-000123","item":"1A","as_of":"2024-10-31"}' >"$tmp/section_early.json"

python3 - "$tmp" <<'PY'
import json, sys

tmp = sys.argv[1]
def load(name):
    with open(f"{tmp}/{name}") as f:
        return json.load(f)["result"]

errors = []
def check(what, got, want):
    if got != want:
        errors.append(f"{what}: got {got!r}, want {want!r}")

tools = {t["name"]: t for t in load("list.json")["tools"]}
missing = {"list_13f_filings", "get_holdings_as_of", "diff_holdings", "get_holders_as_of",
           "search_company", "list_filings", "get_financial_facts", "get_filing_section",
           "index_filings", "search_filings", "get_chunk"} - set(tools)
check("missing tools", sorted(missing), [])
for name, t in tools.items():
    a = t.get("annotations", {})
    # index_filings writes the filing search's local index; every other tool only reads.
    check(f"{name} readOnlyHint", a.get("readOnlyHint"), name != "index_filings")
    check(f"{name} idempotentHint", a.get("idempotentHint"), True)

def answer(name):
    res = load(name)
    check(f"{name} isError", res.get("isError", False), False)
    return json.loads(res["content"][0]["text"])

a = answer("call.json")
check("status", a["status"], "ok")
check("disclaimer", a["disclaimer"], "13F reports long positions only; data may lag the period end by up to 45 days.")
check("cik", a["cik"], "1067983")
check("accession_number", a["accession_number"], "0000950123-23-011029")
check("source_accessions", a["source_accessions"], ["0000950123-23-011029", "0000950123-24-005653"])
check("filing_date", a["filing_date"], "2023-11-16")
check("total_positions", a["total_positions"], 44)
check("truncated", a["truncated"], True)
check("order", a["order"], "value_desc")
check("rows", len(a["holdings"]), 25)
check("cusips", sorted({h["cusip"] for h in a["holdings"]}), ["037833100", "060505104"])
check("value sum", sum(h["value"] for h in a["holdings"]), 156753093002 + 28279487924)

d = answer("decline.json")
check("decline", (d.get("status"), d.get("reason")), ("declined", "invalid_period"))

f = answer("args.json")
check("--tool-arg answer", (f["status"], f["cik"], f["as_of"]), ("ok", "1067983", "2024-05-15"))
# The contract's order: filing date, then accession number, oldest first.
check("--tool-arg filings", [x["accession_number"] for x in f["filings"]], ["0000950123-23-010898", "0000950123-23-011029", "0000950123-24-005653"])
check("--tool-arg filings order", [(x["filing_date"], x["accession_number"]) for x in f["filings"]],
      sorted((x["filing_date"], x["accession_number"]) for x in f["filings"]))
al = answer("all_filings.json")
check("all filings order", [(x["filing_date"], x["accession_number"]) for x in al["filings"]],
      sorted((x["filing_date"], x["accession_number"]) for x in al["filings"]))
check("all filings of 2024-05-15", [x["accession_number"] for x in al["filings"] if x["filing_date"] == "2024-05-15"],
      ["0000950123-24-005622", "0000950123-24-005653", "0000950123-24-005664"])
nu = answer("null.json")
check("max_positions null", (nu.get("status"), nu.get("reason"), nu.get("message")),
      ("declined", "invalid_argument", 'argument "max_positions" must be an integer from 1 to 200, not null; to leave it unset, omit it'))
n = answer("args_number.json")
check("--tool-arg bare number", (n.get("status"), n.get("reason")), ("declined", "invalid_argument"))

h = answer("holders.json")
check("holders", (h["status"], h["complete"], h["data_through"], h["total_holders"]), ("ok", True, "2024-05-31", 1))
check("holder", [(x["cik"], x["accession_number"], x["value_usd"], len(x["rows"])) for x in h["holders"]],
      [("1067983", "0000950123-23-011029", 156753093002, 12)])

s = answer("search.json")
check("search_company", [(m["cik"], m["ticker"]) for m in s["matches"]][:2], [("320193", "AAPL"), ("1418121", "APLE")])
fa = answer("facts.json")
check("facts", [(v["fiscal_year"], v["value"], v["first_reported_value"], v["accession_number"]) for v in fa["values"]],
      [(2009, 42905000000, 36537000000, "0001193125-10-012091"), (2008, 37491000000, 32479000000, "0001193125-10-012091")])
se = answer("section.json")
check("section", (se["status"], se["title"], se["truncated"], len(se["text"]) <= 400, se["text"].startswith("Item 1A. Risk Factors")),
      ("ok", "Risk Factors", True, True, True))
e = answer("section_early.json")
check("section before filing", (e.get("status"), e.get("reason")), ("declined", "not_yet_filed"))

if errors:
    print("inspector_check: FAIL", *errors, sep="\n  ", file=sys.stderr)
    sys.exit(1)
print(f"inspector_check: ok ({len(tools)} tools; holdings {a['accession_number']} with {len(a['holdings'])} rows; "
      f"holders through {h['data_through']}; facts {len(fa['values'])} years; section {se['title']})")
PY

// Package agent answers questions about SEC filings with a language model
// that calls tools, as they could have been answered on a given date, and
// checks that every figure of the answer is written in a source it cites.
//
// An [Agent] offers the model four tools, all bound to the asOf date of the
// question: resolve_company (company search; names and tickers are
// current, not point in time), search_filings and get_chunk (the filing
// search of package github.com/edgar13f/edgar13f/search, through a
// [Searcher]) and get_financial_facts (XBRL facts as known on asOf). No
// tool takes a date: the model cannot move the question in time, and a
// date among its arguments is refused.
//
//	m, err := model.New(model.FromEnv(os.Getenv))
//	if errors.Is(err, model.ErrNoModel) {
//		log.Fatal(err) // the message says which variables to set
//	}
//	a, err := agent.New(client, engine, m)
//	res, err := a.Ask(ctx, "What were Apple's total net sales in fiscal 2024?", edgar13f.MustParseDate("2025-01-15"))
//	if res.Status == agent.StatusAnswered {
//		fmt.Println(res.Answer, res.Citations)
//	}
//
// # Citations and grounding
//
// The model cites chunks as [c:CHUNK_ID] and XBRL facts by the accession
// number of their filing, [f:ACCESSION_NUMBER]. A citation is valid only
// when a tool returned that chunk or fact for this question. [Ground]
// then checks every number of the answer (amounts, percentages, counts,
// dates) against the cited sources: the same value, sign and kind must be
// written there, after separators, currency signs, parentheses and scale
// words are read. A derived figure, a rounding included, is not grounded.
// An answer that fails gets one repair round, in which the model is told
// which figures and citations failed; still failing, it is returned with
// [StatusUngrounded] and the list, never as an answer.
//
// # Models
//
// The language model is a Model of package
// [github.com/edgar13f/edgar13f/agent/model]: the Anthropic Messages API
// or an OpenAI-compatible chat completions API with tools (such as a local
// model served by Ollama, vLLM or llama.cpp), chosen by model.New from a
// model.Config. Any other implementation of the interface works too.
//
// # Evaluation
//
// [Agent.Evaluate] runs a file of questions ([LoadQuestions]) and reports
// the grounded rate, citations and tool calls per answer, latency, tokens,
// and how many of the figures each question expects the answers hold.
// testdata/questions.json holds ten analyst questions over the 10-K and
// 10-Q reports of Apple, NVIDIA, Tesla, Johnson & Johnson and Walmart,
// with the figures verified in the documents.
//
// [DryRun] needs no model: each question carries an oracle plan (the tool
// calls an analyst would make) and a reference answer citing what those
// calls return. The dry run replays every plan through the same tools,
// bound to the question's asOf, and reports whether each expected figure
// is in a tool output, whether the reference answer passes the grounding
// check, and whether a figure of a later filing leaked: the proof that
// the tools can answer the questions.
package agent

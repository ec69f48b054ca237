// Writes cl100k.jsonl: texts and their cl100k_base token ids as tiktoken's
// encode_ordinary gives them (the npm package "tiktoken", tiktoken's own
// core compiled to WebAssembly, with its ranks built in).
//
//	node gen_cl100k.js TEXTDIR > cl100k.jsonl
//
// TEXTDIR holds the plain text of real reports (one .txt per report, lines
// as internal/sections writes them); lines and blocks of lines are sampled
// from them. Random texts come from a seeded generator, so a rerun with the
// same inputs writes the same file.
const fs = require("fs");
const path = require("path");
const { get_encoding } = require("tiktoken");
const enc = get_encoding("cl100k_base");

const out = [];
const add = (text) => out.push(JSON.stringify({ text, ids: Array.from(enc.encode_ordinary(text)) }));

// Known vectors and edge cases of the pattern.
[
  "", "hello world", "tiktoken is great!", "antidisestablishmentarianism", "2 + 2 = 4",
  "お誕生日おめでとう", "rer", "'rer", "today\n ", "today\n \n", "today\n  \n", " \u00850", "👍",
  "a\n\nb\n\nc", "'RE", "'s 'S 'ſ 'T 'Re 'rE 'VE 'm 'LL 'lL 'D 'x 'sam", "don't you're we've I'm they'll he'd",
  "hello <|endoftext|>", "  leading", "trailing  ", "\t\tfoo", "a \n b", " \r\n\r\n x", "x \u00a0y", "x\u3000\u3000y",
  "1234567", "12,345.67", "$(1,234)", "(4)%", "—%", "U.S. dollar", "e\u0301t\u00e9", "½²Ⅻ٣٤٥",
  "•Item", "“quoted”", "Apple Inc. | 2024 Form 10-K | 12", "a | b | c", "x\u2028y\u2029z", "\u200bzero",
  "ß İstanbul ǅ", "!!abc", "...\n\n", " ...\n", "?!\r\n", "-".repeat(300), "a".repeat(1000),
  "0".repeat(50), " ".repeat(200), "\n".repeat(50), " \n".repeat(40), "ab".repeat(400), "é".repeat(300),
  "Ω≈ç√∫˜µ≤≥÷", "🇺🇸🏳️‍🌈", "\u0000\u0001\u007f", "I'd've", "’s", "x's", "can't",
].forEach(add);

// Random texts over an alphabet that exercises every alternative.
let seed = 20240928;
const rnd = () => {
  seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const alphabet = [
  " ", " ", " ", "\n", "\n", "\r", "\t", "\u00a0", "\u0085", "\u3000", "\u2028", "\v", "\f",
  "'", "'", "s", "S", "t", "r", "e", "E", "v", "m", "l", "L", "d", "ſ", "a", "Z", "é", "\u0301",
  "0", "9", "½", "²", "Ⅻ", "٣", ".", ",", "$", "(", ")", "-", "|", "•", "’", "“", "😀", "誕",
  "ß", "İ", "\u200b", "the", " the", "Company", " net", " sales", "2024", "%", "—", "_", "/",
];
for (let n = 0; n < 1500; n++) {
  let s = "";
  const len = 1 + Math.floor(rnd() * 30);
  for (let k = 0; k < len; k++) s += alphabet[Math.floor(rnd() * alphabet.length)];
  add(s);
}

// Real report text: every 97th line, and 40 blocks of 12 lines.
const dir = process.argv[2];
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".txt")).sort()) {
  const lines = fs.readFileSync(path.join(dir, f), "utf8").split("\n");
  for (let i = 0; i < lines.length; i += 97) add(lines[i]);
  for (let b = 0; b < 4; b++) {
    const at = Math.floor(rnd() * Math.max(1, lines.length - 12));
    add(lines.slice(at, at + 12).join("\n"));
  }
}
process.stdout.write(out.join("\n") + "\n");

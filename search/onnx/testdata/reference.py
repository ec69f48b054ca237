"""Records the reference token ids and vectors the tests of search/onnx check.

For each model of search/onnx and each text of sentences.json it records:

- ids: the token ids of the Hugging Face `tokenizers` library reading the
  model's tokenizer.json, truncated to the model's window (256 tokens for
  all-MiniLM-L6-v2, 512 for bge-small-en-v1.5), [CLS] and [SEP] included;
- vectors: the text's vector from `sentence-transformers` (its ONNX backend
  running the same graph, with the model's pooling, window and
  normalisation as its model card configures them), one text per batch:
  an int8 graph quantises its activations with one scale per batch, so
  its vectors move a little with the texts batched together;
- query_vectors (bge-small-en-v1.5 only): the vector of the text as a
  query, with the model's query prompt.

It also writes slices.json: 900 slices (20 to 400 characters, from a seeded
random start) of the text of three real reports in testdata/documents,
with the ids each fp32 model's tokenizer.json gives them, untruncated (an
int8 model's tokenizer.json is the same file as its fp32 model's).

Run it from the repository root after search/onnx/setup.sh:

    python3 -m venv /tmp/ref && /tmp/ref/bin/pip install torch \
        'sentence-transformers==5.1.2' 'transformers==4.57.1' \
        'optimum-onnx[onnxruntime]==0.1.0' 'tokenizers==0.22.2'
    /tmp/ref/bin/python search/onnx/testdata/reference.py \
        > search/onnx/testdata/reference.json

The install directory is $EDGAR13F_ONNX_DIR, else ~/.cache/edgar13f/onnx.
"""

import gzip
import html
import json
import os
import random
import re
import shutil
import sys
import tempfile

import numpy as np
import sentence_transformers
import tokenizers
from sentence_transformers import SentenceTransformer

HERE = os.path.dirname(os.path.abspath(__file__))
DIR = os.environ.get("EDGAR13F_ONNX_DIR") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "edgar13f", "onnx")

BGE_PROMPT = "Represent this sentence for searching relevant passages: "

# name -> (graph, tokenizer.json, window, pooling, layers, query prompt);
# the architecture is BERT with 384 hidden units, 12 heads, 1536 inner.
MODELS = {
    "all-MiniLM-L6-v2": ("all-minilm-l6-v2.onnx", "all-minilm-l6-v2-tokenizer.json", 256, "mean", 6, None),
    "all-MiniLM-L6-v2-q": ("all-minilm-l6-v2-q.onnx", "all-minilm-l6-v2-q-tokenizer.json", 256, "mean", 6, None),
    "bge-small-en-v1.5": ("bge-small-en-v1.5.onnx", "bge-small-en-v1.5-tokenizer.json", 512, "cls", 12, BGE_PROMPT),
    "bge-small-en-v1.5-q": ("bge-small-en-v1.5-q.onnx", "bge-small-en-v1.5-q-tokenizer.json", 512, "cls", 12, BGE_PROMPT),
}


def model_dir(tmp, name, graph, tok, window, pooling, layers, prompt):
    """Lays out a sentence-transformers model directory around the graph."""
    d = os.path.join(tmp, name)
    os.makedirs(os.path.join(d, "onnx"))
    os.makedirs(os.path.join(d, "1_Pooling"))
    os.symlink(os.path.join(DIR, graph), os.path.join(d, "onnx", "model.onnx"))
    shutil.copy(os.path.join(DIR, tok), os.path.join(d, "tokenizer.json"))

    def put(path, obj):
        with open(os.path.join(d, path), "w") as f:
            json.dump(obj, f)

    put("config.json", {
        "architectures": ["BertModel"], "model_type": "bert", "hidden_size": 384,
        "num_hidden_layers": layers, "num_attention_heads": 12, "intermediate_size": 1536,
        "hidden_act": "gelu", "max_position_embeddings": 512, "type_vocab_size": 2,
        "vocab_size": 30522, "layer_norm_eps": 1e-12, "pad_token_id": 0,
    })
    put("tokenizer_config.json", {
        "tokenizer_class": "BertTokenizer", "do_lower_case": True, "model_max_length": 512,
        "cls_token": "[CLS]", "sep_token": "[SEP]", "pad_token": "[PAD]", "unk_token": "[UNK]",
        "mask_token": "[MASK]",
    })
    put("special_tokens_map.json", {
        "cls_token": "[CLS]", "sep_token": "[SEP]", "pad_token": "[PAD]", "unk_token": "[UNK]",
        "mask_token": "[MASK]",
    })
    put("modules.json", [
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"},
    ])
    put("sentence_bert_config.json", {"max_seq_length": window, "do_lower_case": False})
    put("config_sentence_transformers.json", {
        "prompts": {"query": prompt} if prompt else {}, "default_prompt_name": None,
        "similarity_fn_name": "cosine",
    })
    put("1_Pooling/config.json", {
        "word_embedding_dimension": 384,
        "pooling_mode_cls_token": pooling == "cls",
        "pooling_mode_mean_tokens": pooling == "mean",
        "pooling_mode_max_tokens": False,
        "pooling_mode_mean_sqrt_len_tokens": False,
    })
    return d


def report_slices():
    """900 slices of the text of three real reports, seeded."""
    rnd = random.Random(7)
    out = []
    docs = os.path.join(HERE, "..", "..", "..", "testdata", "documents")
    for name in ("jnj-10-k-2025-02-13.htm.gz", "nvda-10-q-2025-08-27.htm.gz", "aapl-10-q-2025-08-01.htm.gz"):
        with gzip.open(os.path.join(docs, name), "rt", errors="replace") as f:
            t = f.read()
        t = re.sub(r"(?is)<(script|style).*?</\1>", " ", t)
        t = html.unescape(re.sub(r"<[^>]+>", " ", t))
        for _ in range(300):
            a = rnd.randrange(len(t) - 400)
            out.append(t[a:a + rnd.randrange(20, 400)])
    return out


def write_slices():
    texts = report_slices()
    ids = {}
    for name, (graph, tok, *_rest) in MODELS.items():
        if name.endswith("-q"):
            continue
        t = tokenizers.Tokenizer.from_file(os.path.join(DIR, tok))
        t.no_padding()
        t.no_truncation()
        ids[name] = [e.ids for e in t.encode_batch(texts)]
    with open(os.path.join(HERE, "slices.json"), "w") as f:
        json.dump({"generator": "search/onnx/testdata/reference.py", "tokenizers": tokenizers.__version__,
                   "texts": texts, "ids": ids}, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")


def main():
    write_slices()
    with open(os.path.join(HERE, "sentences.json")) as f:
        sentences = json.load(f)["sentences"]
    out = {
        "generator": "search/onnx/testdata/reference.py",
        "sentence_transformers": sentence_transformers.__version__,
        "tokenizers": tokenizers.__version__,
        "models": {},
    }
    with tempfile.TemporaryDirectory() as tmp:
        for name, (graph, tok, window, pooling, layers, prompt) in MODELS.items():
            t = tokenizers.Tokenizer.from_file(os.path.join(DIR, tok))
            t.no_padding()
            t.enable_truncation(max_length=window)
            ids = [t.encode(s).ids for s in sentences]

            d = model_dir(tmp, name, graph, tok, window, pooling, layers, prompt)
            m = SentenceTransformer(d, backend="onnx", device="cpu", local_files_only=True)
            # The tokenizer sentence-transformers uses must be the same.
            st_ids = m.tokenize(sentences)["input_ids"].tolist()
            for i, (a, b) in enumerate(zip(ids, st_ids)):
                b = b[: len(a)]
                if a != b:
                    sys.exit(f"{name}: sentence {i}: tokenizers {a[:20]} but sentence-transformers {b[:20]}")
            vec = m.encode(sentences, batch_size=1, convert_to_numpy=True)
            rec = {"window": window, "pooling": pooling, "ids": ids,
                   "vectors": np.round(vec, 6).tolist()}
            if prompt:
                q = m.encode(sentences, prompt_name="query", batch_size=1, convert_to_numpy=True)
                rec["query_prompt"] = prompt
                rec["query_vectors"] = np.round(q, 6).tolist()
            out["models"][name] = rec
            print(f"{name}: {len(sentences)} texts", file=sys.stderr)
    json.dump(out, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

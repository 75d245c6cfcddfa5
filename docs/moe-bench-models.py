#!/usr/bin/env python3
"""Random-weight mixture-of-experts models with the layer shapes of real ones, fewer layers.

A layer of Qwen3-30B-A3B reads the same weights per token whatever its numbers are, so a file
of a few of its layers times mlx and llama.cpp side by side (docs/performance.sh) without the
60 GB download. The files are GGUF, written here without llama.cpp's Python package, in the
layout llama.cpp's converter gives the architecture, so llama.cpp reads them too.

    python3 docs/moe-bench-models.py --out DIR [--shapes qwen3-30b-a3b] [--layers 4]
                                     [--quantize BIN/llama-quantize] [--tokenizer DIR]

Writes DIR/<shape>-<layers>l-F16.gguf and, with --quantize, -Q8_0, -Q4_0 and -Q4_K_M beside it:
docs/performance.sh DIR BIN <shape>-<layers>l compares them. The vocabulary is the Qwen3
tokenizer's (--tokenizer, default ../shared/testdata/tokenizers/qwen3). Needs python3-numpy.
"""
import argparse, json, os, struct, subprocess, sys

import numpy as np

# name: architecture, hidden, layers of the real model, heads, KV heads, head size, dense FFN,
# experts, experts per token, expert FFN, vocabulary, RoPE base, norm epsilon, context.
SHAPES = {
    "qwen3-30b-a3b": dict(arch="qwen3moe", hidden=2048, layers=48, heads=32, kv_heads=4, head_dim=128,
                          ffn=6144, experts=128, used=8, expert_ffn=768, vocab=151936, theta=1e6,
                          eps=1e-6, ctx=40960),
}

F32, F16 = 0, 1  # ggml types
ALIGN = 32

# GGUF value types
U32, I32, F32V, BOOL, STR, ARR = 4, 5, 6, 7, 8, 9


def gguf_string(s):
    b = s.encode("utf-8")
    return struct.pack("<Q", len(b)) + b


def gguf_value(v):
    """The type and encoding of a metadata value: int (as uint32), float, bool, str, a list of one
    of them, or ("i32", list of int)."""
    if isinstance(v, tuple):
        return ARR, struct.pack("<IQ", I32, len(v[1])) + struct.pack(f"<{len(v[1])}i", *v[1])
    if isinstance(v, bool):
        return BOOL, struct.pack("<B", v)
    if isinstance(v, int):
        return U32, struct.pack("<I", v)
    if isinstance(v, float):
        return F32V, struct.pack("<f", v)
    if isinstance(v, str):
        return STR, gguf_string(v)
    t, _ = gguf_value(v[0])
    return ARR, struct.pack("<IQ", t, len(v)) + b"".join(gguf_value(x)[1] for x in v)


def vocabulary(tokenizer_dir, size):
    """Tokens, token types and merges of a tokenizer.json, padded to size."""
    tj = json.load(open(os.path.join(tokenizer_dir, "tokenizer.json"), encoding="utf-8"))
    ids = dict(tj["model"]["vocab"])
    special = set()
    for t in tj.get("added_tokens", []):
        ids[t["content"]] = t["id"]
        if t.get("special"):
            special.add(t["id"])
    tokens = [None] * size
    for tok, i in ids.items():
        if i < size:
            tokens[i] = tok
    types = []
    for i, t in enumerate(tokens):
        if t is None:
            tokens[i] = f"[PAD{i}]"
            types.append(4)  # user defined
        else:
            types.append(3 if i in special else 1)  # control, normal
    merges = [m if isinstance(m, str) else " ".join(m) for m in tj["model"].get("merges", [])]
    return tokens, types, merges


def tensors(s, layers):
    """(name, ggml type, shape outermost first) of every tensor, in llama.cpp's qwen3moe layout."""
    hid, hd, e, ff = s["hidden"], s["head_dim"], s["experts"], s["expert_ffn"]
    out = [("token_embd.weight", F16, (s["vocab"], hid)), ("output_norm.weight", F32, (hid,)),
           ("output.weight", F16, (s["vocab"], hid))]
    for i in range(layers):
        p = f"blk.{i}."
        out += [(p + "attn_norm.weight", F32, (hid,)),
                (p + "attn_q.weight", F16, (s["heads"] * hd, hid)),
                (p + "attn_k.weight", F16, (s["kv_heads"] * hd, hid)),
                (p + "attn_v.weight", F16, (s["kv_heads"] * hd, hid)),
                (p + "attn_output.weight", F16, (hid, s["heads"] * hd)),
                (p + "attn_q_norm.weight", F32, (hd,)), (p + "attn_k_norm.weight", F32, (hd,)),
                (p + "ffn_norm.weight", F32, (hid,)),
                (p + "ffn_gate_inp.weight", F32, (e, hid)),
                (p + "ffn_gate_exps.weight", F16, (e, ff, hid)),
                (p + "ffn_up_exps.weight", F16, (e, ff, hid)),
                (p + "ffn_down_exps.weight", F16, (e, hid, ff))]
    return out


def write_gguf(path, name, s, layers, tokenizer_dir, seed):
    tokens, types, merges = vocabulary(tokenizer_dir, s["vocab"])
    a = s["arch"] + "."
    meta = [("general.architecture", s["arch"]), ("general.name", f"{name} {layers} layers (random weights)"),
            ("general.file_type", 1),  # mostly F16
            (a + "context_length", s["ctx"]), (a + "embedding_length", s["hidden"]), (a + "block_count", layers),
            (a + "feed_forward_length", s["ffn"]), (a + "attention.head_count", s["heads"]),
            (a + "attention.head_count_kv", s["kv_heads"]), (a + "attention.key_length", s["head_dim"]),
            (a + "attention.value_length", s["head_dim"]), (a + "rope.freq_base", float(s["theta"])),
            (a + "attention.layer_norm_rms_epsilon", float(s["eps"])),
            (a + "expert_count", s["experts"]), (a + "expert_used_count", s["used"]),
            (a + "expert_feed_forward_length", s["expert_ffn"]),
            ("tokenizer.ggml.model", "gpt2"), ("tokenizer.ggml.pre", "qwen2"),
            ("tokenizer.ggml.tokens", tokens), ("tokenizer.ggml.token_type", ("i32", types)),
            ("tokenizer.ggml.merges", merges), ("tokenizer.ggml.bos_token_id", 151643),
            ("tokenizer.ggml.eos_token_id", 151645), ("tokenizer.ggml.add_bos_token", False)]
    ts = tensors(s, layers)
    head = b"GGUF" + struct.pack("<IQQ", 3, len(ts), len(meta))
    for k, v in meta:
        t, enc = gguf_value(v)
        head += gguf_string(k) + struct.pack("<I", t) + enc
    offset = 0
    for n, typ, shape in ts:
        head += gguf_string(n) + struct.pack("<I", len(shape))
        head += b"".join(struct.pack("<Q", d) for d in reversed(shape))  # innermost first
        head += struct.pack("<IQ", typ, offset)
        offset += -(-int(np.prod(shape)) * (4 if typ == F32 else 2) // ALIGN) * ALIGN
    rng = np.random.default_rng(seed)
    with open(path, "wb") as f:
        f.write(head + b"\0" * (-len(head) % ALIGN))
        for n, typ, shape in ts:
            written = 0
            if typ == F32 and not n.endswith("ffn_gate_inp.weight"):
                written = f.write(np.ones(shape, dtype=np.float32).tobytes())  # norms
            else:
                rows, cols = int(np.prod(shape[:-1])), shape[-1]
                step = max(1, (1 << 24) // cols)
                for r in range(0, rows, step):
                    a = rng.standard_normal((min(step, rows - r), cols), dtype=np.float32) * 0.02
                    written += f.write(a.astype(np.float32 if typ == F32 else np.float16).tobytes())
            f.write(b"\0" * (-written % ALIGN))
    print(path, flush=True)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--shapes", default="qwen3-30b-a3b", help="comma list of " + ", ".join(SHAPES))
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--quantize", help="llama-quantize, to write Q8_0, Q4_0 and Q4_K_M files too")
    ap.add_argument("--tokenizer", default=os.path.join(root, "..", "shared", "testdata", "tokenizers", "qwen3"))
    ap.add_argument("--seed", type=int, default=1234)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for name in a.shapes.split(","):
        if name not in SHAPES:
            sys.exit(f"unknown shape {name!r} (known: {', '.join(SHAPES)})")
        s = SHAPES[name]
        if not 1 <= a.layers <= s["layers"]:
            sys.exit(f"--layers {a.layers}: {name} has 1 to {s['layers']}")
        base = os.path.join(a.out, f"{name}-{a.layers}l")
        write_gguf(base + "-F16.gguf", name, s, a.layers, a.tokenizer, a.seed)
        for q in ("Q8_0", "Q4_0", "Q4_K_M") if a.quantize else ():
            r = subprocess.run([a.quantize, base + "-F16.gguf", f"{base}-{q}.gguf", q], capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"llama-quantize {q}: {r.stderr[-2000:]}")
            print(f"{base}-{q}.gguf", flush=True)


if __name__ == "__main__":
    main()

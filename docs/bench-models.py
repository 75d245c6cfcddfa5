#!/usr/bin/env python3
"""Random-weight models with the layer shapes of real ones, for speed comparisons.

A layer reads the same weights per token whatever its numbers are, so a file with a real model's
shapes (and, for the large ones, a few of its layers) times mlx and llama.cpp side by side
(docs/performance.sh) without the download. The files are GGUF, written here without llama.cpp's
Python package, in the layout llama.cpp's converter gives each architecture, so llama.cpp reads
them too.

    python3 docs/bench-models.py --out DIR [--shapes NAME,...] [--layers N] [--mtp]
                                 [--quantize BIN/llama-quantize] [--tokenizer DIR]

Writes DIR/<shape>-<layers>l-F16.gguf and, with --quantize, -Q8_0, -Q4_0 and -Q4_K_M beside it
(and -MXFP4_MOE for gpt-oss): docs/performance.sh DIR BIN <shape>-<layers>l compares them.
--layers defaults to each shape's own bench depth (see SHAPES). Every vocabulary is the Qwen3
tokenizer's (--tokenizer, default ../shared/testdata/tokenizers/qwen3), padded to the shape's
size with unused tokens. --mtp adds the Qwen3.5 shapes' multi-token prediction layer (files
named <shape>-<layers>l-mtp-*). Needs python3-numpy.
"""
import argparse, json, os, struct, subprocess, sys

import numpy as np

# Each shape: its GGUF architecture, the real model's hyper-parameters (transformers' config of
# the released checkpoint), "layers" (the real depth) and "bench" (the default depth written).
SHAPES = {
    "qwen3-30b-a3b": dict(arch="qwen3moe", hidden=2048, layers=48, bench=4, heads=32, kv_heads=4,
                          head_dim=128, ffn=6144, experts=128, used=8, expert_ffn=768, vocab=151936,
                          theta=1e6, eps=1e-6, ctx=40960),
    "gemma-3-1b": dict(arch="gemma3", hidden=1152, layers=26, bench=26, heads=4, kv_heads=1, head_dim=256,
                       ffn=6912, vocab=262144, theta=1e6, local_theta=1e4, window=512, eps=1e-6, ctx=32768),
    # Every fifth layer global with heads of 512 (a quarter rotated), the last 20 of 35 layers
    # reuse the KV of the last earlier layer of their kind and have MLPs twice as wide.
    "gemma-4-e2b": dict(arch="gemma4", hidden=1536, layers=35, bench=10, heads=8, kv_heads=1, head_dim=256,
                        global_head_dim=512, ffn=6144, shared_kv=20, per_layer=256, vocab=262144,
                        theta=1e6, local_theta=1e4, window=512, period=5, partial=0.25, softcap=30.0,
                        eps=1e-6, ctx=131072),
    "phi-4-mini": dict(arch="phi3", hidden=3072, layers=32, bench=32, heads=24, kv_heads=8, head_dim=128,
                       ffn=8192, vocab=200064, theta=1e4, partial=0.75, eps=1e-5, ctx=131072, orig_ctx=4096),
    "gpt-oss-20b": dict(arch="gpt-oss", hidden=2880, layers=24, bench=4, heads=64, kv_heads=8, head_dim=64,
                        ffn=2880, experts=32, used=4, expert_ffn=2880, vocab=201088, theta=150000.0, window=128,
                        yarn=32.0, orig_ctx=4096, eps=1e-5, ctx=131072),
    # Three Gated DeltaNet layers to one gated attention layer.
    "qwen3.5-2b": dict(arch="qwen35", hidden=2048, layers=24, bench=24, heads=8, kv_heads=2, head_dim=256,
                       ffn=6144, lin_k_heads=16, lin_v_heads=16, lin_k_dim=128, lin_v_dim=128, conv=4,
                       vocab=248320, theta=1e7, partial=0.25, sections=[11, 11, 10, 0], eps=1e-6,
                       ctx=262144, tie=True),
    # feed_forward_length is not read by llama.cpp for qwen35moe; mlx needs it, so it holds the
    # shared expert's size.
    "qwen3.5-35b-a3b": dict(arch="qwen35moe", hidden=2048, layers=40, bench=4, heads=16, kv_heads=2,
                            head_dim=256, ffn=512, lin_k_heads=16, lin_v_heads=32, lin_k_dim=128, lin_v_dim=128,
                            conv=4, experts=256, used=8, expert_ffn=512, shared_ffn=512, vocab=248320,
                            theta=1e7, partial=0.25, sections=[11, 11, 10, 0], eps=1e-6, ctx=262144),
}
QUANTS = ("Q8_0", "Q4_0", "Q4_K_M")

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


# A tensor is (name, ggml type, shape outermost first, fill); fill is "rand" (normal, σ 0.02),
# a number, or a list of numbers.
def rand(name, *shape):
    return (name, F16, shape, "rand")


def vec(name, n, fill=1.0):
    return (name, F32, (n,), fill)


def attention(p, s, q_rows, kv_rows, head_dim, norms=True, kv=True):
    """Separate q, k, v and output projections, with per-head q/k norms."""
    hid = s["hidden"]
    out = [rand(p + "attn_q.weight", q_rows, hid)]
    if kv:
        out += [rand(p + "attn_k.weight", kv_rows, hid), rand(p + "attn_v.weight", kv_rows, hid)]
    out.append(rand(p + "attn_output.weight", hid, s["heads"] * head_dim))
    if norms:
        out.append(vec(p + "attn_q_norm.weight", head_dim))
        if kv:
            out.append(vec(p + "attn_k_norm.weight", head_dim))
    return out


def mlp(p, hid, ffn, suffix=""):
    return [rand(p + f"ffn_gate{suffix}.weight", ffn, hid), rand(p + f"ffn_up{suffix}.weight", ffn, hid),
            rand(p + f"ffn_down{suffix}.weight", hid, ffn)]


def experts(p, s, bias=False):
    hid, e, ff = s["hidden"], s["experts"], s["expert_ffn"]
    out = [(p + "ffn_gate_inp.weight", F32, (e, hid), "rand"),
           rand(p + "ffn_gate_exps.weight", e, ff, hid), rand(p + "ffn_up_exps.weight", e, ff, hid),
           rand(p + "ffn_down_exps.weight", e, hid, ff)]
    if bias:
        out += [(p + "ffn_gate_inp.bias", F32, (e,), 0.0), (p + "ffn_gate_exps.bias", F32, (e, ff), 0.0),
                (p + "ffn_up_exps.bias", F32, (e, ff), 0.0), (p + "ffn_down_exps.bias", F32, (e, hid), 0.0)]
    return out


def gemma4_swa(s, i):
    return (i + 1) % s["period"] != 0


def gemma4_shared_from(s, layers):
    """The first layer that reuses an earlier layer's KV, the real model's share of layers."""
    return layers - s["shared_kv"] * layers // s["layers"]


def gated_deltanet(p, s):
    hid, kd, vd = s["hidden"], s["lin_k_heads"] * s["lin_k_dim"], s["lin_v_heads"] * s["lin_v_dim"]
    vh = s["lin_v_heads"]
    return [rand(p + "attn_qkv.weight", 2 * kd + vd, hid), rand(p + "attn_gate.weight", vd, hid),
            (p + "ssm_conv1d.weight", F32, (2 * kd + vd, s["conv"]), "rand"),
            vec(p + "ssm_dt.bias", vh, 0.0), (p + "ssm_a", F32, (vh,), -1.0),
            rand(p + "ssm_alpha.weight", vh, hid), rand(p + "ssm_beta.weight", vh, hid),
            vec(p + "ssm_norm.weight", s["lin_v_dim"]), rand(p + "ssm_out.weight", hid, vd)]


def tensors(s, layers, mtp=False):
    """Every tensor of the shape with layers layers, in llama.cpp's layout for its architecture,
    and with mtp (Qwen3.5 only) its multi-token prediction layer after them."""
    arch, hid, hd = s["arch"], s["hidden"], s["head_dim"]
    q, kv = s["heads"] * hd, s["kv_heads"] * hd
    out = [rand("token_embd.weight", s["vocab"], hid), vec("output_norm.weight", hid)]
    if arch in ("qwen3moe", "gpt-oss", "qwen35moe"):
        out.append(rand("output.weight", s["vocab"], hid))
    if arch == "gemma4":
        pl = s["per_layer"] * layers
        ghd = s["global_head_dim"]
        rot = int(ghd * s["partial"] / 2)
        out += [rand("per_layer_token_embd.weight", s["vocab"], pl), rand("per_layer_model_proj.weight", pl, hid),
                vec("per_layer_proj_norm.weight", s["per_layer"]),
                vec("rope_freqs.weight", ghd // 2, [1.0] * rot + [1e30] * (ghd // 2 - rot))]
    if arch == "phi3":
        rot = int(hd * s["partial"]) // 2
        out += [vec("rope_factors_long.weight", rot), vec("rope_factors_short.weight", rot)]
    for i in range(layers):
        p = f"blk.{i}."
        out.append(vec(p + "attn_norm.weight", hid))
        if arch == "qwen3moe":
            out += attention(p, s, q, kv, hd) + [vec(p + "ffn_norm.weight", hid)] + experts(p, s)
        elif arch == "gemma3":
            out += attention(p, s, q, kv, hd) + mlp(p, hid, s["ffn"])
            out += [vec(p + n + ".weight", hid) for n in ("post_attention_norm", "ffn_norm", "post_ffw_norm")]
        elif arch == "gemma4":
            d = hd if gemma4_swa(s, i) else s["global_head_dim"]
            shared = i >= gemma4_shared_from(s, layers)
            out += attention(p, s, s["heads"] * d, s["kv_heads"] * d, d, kv=not shared)
            out += mlp(p, hid, s["ffn"] * (2 if shared else 1))
            out += [vec(p + n + ".weight", hid) for n in ("post_attention_norm", "ffn_norm", "post_ffw_norm",
                                                          "post_norm")]
            out += [rand(p + "inp_gate.weight", s["per_layer"], hid), rand(p + "proj.weight", hid, s["per_layer"]),
                    vec(p + "layer_output_scale.weight", 1)]
        elif arch == "phi3":
            out += [rand(p + "attn_qkv.weight", q + 2 * kv, hid), rand(p + "attn_output.weight", hid, q),
                    vec(p + "ffn_norm.weight", hid), rand(p + "ffn_up.weight", 2 * s["ffn"], hid),
                    rand(p + "ffn_down.weight", hid, s["ffn"])]
        elif arch == "gpt-oss":
            out += [rand(p + "attn_q.weight", q, hid), vec(p + "attn_q.bias", q, 0.0),
                    rand(p + "attn_k.weight", kv, hid), vec(p + "attn_k.bias", kv, 0.0),
                    rand(p + "attn_v.weight", kv, hid), vec(p + "attn_v.bias", kv, 0.0),
                    rand(p + "attn_output.weight", hid, q), vec(p + "attn_output.bias", hid, 0.0),
                    vec(p + "attn_sinks.weight", s["heads"], 0.0), vec(p + "post_attention_norm.weight", hid)]
            out += experts(p, s, bias=True)
        else:  # qwen35, qwen35moe
            mixer = attention(p, s, 2 * q, kv, hd) if (i + 1) % 4 == 0 else gated_deltanet(p, s)
            out += mixer + qwen35_ffn(p, s)
    if mtp:
        # The multi-token prediction layer as llama.cpp's converter writes Qwen3.5's: a gated
        # attention layer after the model's, with the nextn input stage.
        p = f"blk.{layers}."
        out += [vec(p + "attn_norm.weight", hid)] + attention(p, s, 2 * q, kv, hd) + qwen35_ffn(p, s)
        out += [rand(p + "nextn.eh_proj.weight", hid, 2 * hid)]
        out += [vec(p + f"nextn.{n}.weight", hid) for n in ("enorm", "hnorm", "shared_head_norm")]
    return out


def qwen35_ffn(p, s):
    """The norm and feed-forward part of a Qwen3.5 layer: an MLP, or experts and a shared one."""
    hid = s["hidden"]
    out = [vec(p + "post_attention_norm.weight", hid)]
    if s["arch"] == "qwen35":
        return out + mlp(p, hid, s["ffn"])
    return out + experts(p, s) + mlp(p, hid, s["shared_ffn"], "_shexp") + [rand(p + "ffn_gate_inp_shexp.weight", hid)]


def metadata(s, layers, mtp=False):
    """The architecture's hyper-parameters under llama.cpp's keys (without the prefix)."""
    arch, hd = s["arch"], s["head_dim"]
    m = dict(context_length=s["ctx"], embedding_length=s["hidden"], block_count=layers + int(mtp))
    m["attention.head_count"], m["attention.head_count_kv"] = s["heads"], s["kv_heads"]
    m["attention.key_length"] = m["attention.value_length"] = hd
    m["rope.freq_base"], m["attention.layer_norm_rms_epsilon"] = float(s["theta"]), float(s["eps"])
    if "ffn" in s:
        m["feed_forward_length"] = s["ffn"]
    if "experts" in s:
        m["expert_count"], m["expert_used_count"] = s["experts"], s["used"]
        m["expert_feed_forward_length"] = s["expert_ffn"]
    if "window" in s:
        m["attention.sliding_window"] = s["window"]
    if "local_theta" in s:
        m["rope.freq_base_swa"] = float(s["local_theta"])
    if arch == "gemma4":
        ghd, shared = s["global_head_dim"], layers - gemma4_shared_from(s, layers)
        m["attention.key_length"] = m["attention.value_length"] = ghd
        m["attention.key_length_swa"] = m["attention.value_length_swa"] = hd
        m["rope.dimension_count"], m["rope.dimension_count_swa"] = ghd, hd
        m["attention.shared_kv_layers"], m["embedding_length_per_layer_input"] = shared, s["per_layer"]
        m["attention.sliding_window_pattern"] = [gemma4_swa(s, i) for i in range(layers)]
        m["feed_forward_length"] = ("i32", [s["ffn"] * (2 if i >= layers - shared else 1) for i in range(layers)])
        m["final_logit_softcapping"] = s["softcap"]
    if arch == "phi3":
        m["rope.dimension_count"] = int(hd * s["partial"])
        m["rope.scaling.original_context_length"] = s["orig_ctx"]
        m["rope.scaling.attn_factor"] = float(np.sqrt(1 + np.log(s["ctx"] / s["orig_ctx"]) / np.log(s["orig_ctx"])))
    if arch == "gpt-oss":
        m.update({"rope.scaling.type": "yarn", "rope.scaling.factor": s["yarn"],
                  "rope.scaling.original_context_length": s["orig_ctx"], "rope.scaling.yarn_beta_fast": 32.0,
                  "rope.scaling.yarn_beta_slow": 1.0})
    if arch in ("qwen35", "qwen35moe"):
        m.update({"ssm.conv_kernel": s["conv"], "ssm.state_size": s["lin_k_dim"],
                  "ssm.group_count": s["lin_k_heads"], "ssm.time_step_rank": s["lin_v_heads"],
                  "ssm.inner_size": s["lin_v_heads"] * s["lin_v_dim"], "full_attention_interval": 4,
                  "attention.recurrent_layers": [(i + 1) % 4 != 0 for i in range(layers)] + [False] * mtp,
                  "rope.dimension_count": int(hd * s["partial"]), "rope.dimension_sections": ("i32", s["sections"])})
    if arch == "qwen35moe":
        m["expert_shared_feed_forward_length"] = s["shared_ffn"]
    if mtp:
        m["nextn_predict_layers"] = 1
    return m


SLAB = 1 << 24  # values per write
_pools = {}


def noise(rng, dtype):
    """Two slabs of normal values (σ 0.02) of dtype, drawn once: every tensor reads windows of
    them at random offsets, since drawing each value anew makes the large files slow to write and
    random weights of any kind time the same."""
    if dtype not in _pools:
        _pools[dtype] = (rng.standard_normal(2 * SLAB, dtype=np.float32) * 0.02).astype(dtype)
    return _pools[dtype]


def fill(f, rng, typ, shape, how):
    """Writes one tensor's values, a slab at a time, and returns the bytes written."""
    if how != "rand":
        a = np.broadcast_to(np.asarray(how, dtype=np.float32), shape)
        return f.write(np.ascontiguousarray(a).tobytes())
    pool = noise(rng, np.float32 if typ == F32 else np.float16)
    written, total = 0, int(np.prod(shape))
    for start in range(0, total, SLAB):
        n = min(SLAB, total - start)
        at = int(rng.integers(0, len(pool) - n + 1))
        written += f.write(pool[at:at + n].tobytes())
    return written


def write_gguf(path, name, s, layers, tokenizer_dir, seed, mtp=False):
    tokens, types, merges = vocabulary(tokenizer_dir, s["vocab"])
    a = s["arch"] + "."
    meta = [("general.architecture", s["arch"]), ("general.name", f"{name} {layers} layers (random weights)"),
            ("general.file_type", 1)]  # mostly F16
    meta += [(a + k, v) for k, v in metadata(s, layers, mtp).items()]
    meta += [("tokenizer.ggml.model", "gpt2"), ("tokenizer.ggml.pre", "qwen2"),
             ("tokenizer.ggml.tokens", tokens), ("tokenizer.ggml.token_type", ("i32", types)),
             ("tokenizer.ggml.merges", merges), ("tokenizer.ggml.bos_token_id", 151643),
             ("tokenizer.ggml.eos_token_id", 151645), ("tokenizer.ggml.add_bos_token", False)]
    ts = tensors(s, layers, mtp)
    head = b"GGUF" + struct.pack("<IQQ", 3, len(ts), len(meta))
    for k, v in meta:
        t, enc = gguf_value(v)
        head += gguf_string(k) + struct.pack("<I", t) + enc
    offset = 0
    for n, typ, shape, _ in ts:
        head += gguf_string(n) + struct.pack("<I", len(shape))
        head += b"".join(struct.pack("<Q", d) for d in reversed(shape))  # innermost first
        head += struct.pack("<IQ", typ, offset)
        offset += -(-int(np.prod(shape)) * (4 if typ == F32 else 2) // ALIGN) * ALIGN
    rng = np.random.default_rng(seed)
    with open(path, "wb") as f:
        f.write(head + b"\0" * (-len(head) % ALIGN))
        for n, typ, shape, how in ts:
            f.write(b"\0" * (-fill(f, rng, typ, shape, how) % ALIGN))
    print(path, flush=True)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--shapes", default="qwen3-30b-a3b", help="comma list of " + ", ".join(SHAPES))
    ap.add_argument("--layers", type=int, help="layers to write (default: the shape's bench depth)")
    ap.add_argument("--quantize", help="llama-quantize, to write Q8_0, Q4_0 and Q4_K_M files too")
    ap.add_argument("--types", default=",".join(QUANTS + ("MXFP4_MOE",)),
                    help="comma list of the quantized types to write (MXFP4_MOE only for gpt-oss)")
    ap.add_argument("--drop-f16", action="store_true", help="delete the F16 file once quantized")
    ap.add_argument("--tokenizer", default=os.path.join(root, "..", "shared", "testdata", "tokenizers", "qwen3"))
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--mtp", action="store_true",
                    help="add the multi-token prediction layer (Qwen3.5 shapes; files named <shape>-<layers>l-mtp)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for name in a.shapes.split(","):
        if name not in SHAPES:
            sys.exit(f"unknown shape {name!r} (known: {', '.join(SHAPES)})")
        s = SHAPES[name]
        layers = a.layers or s["bench"]
        if not 1 <= layers <= s["layers"]:
            sys.exit(f"--layers {layers}: {name} has 1 to {s['layers']}")
        if s["arch"] in ("qwen35", "qwen35moe") and layers < 4:
            sys.exit(f"--layers {layers}: {name}'s first attention layer is its fourth")
        if s["arch"] == "gemma4" and not any(not gemma4_swa(s, i) for i in range(gemma4_shared_from(s, layers))):
            sys.exit(f"--layers {layers}: {name} needs a global layer before its shared ones (try {s['bench']})")
        if a.mtp and s["arch"] not in ("qwen35", "qwen35moe"):
            sys.exit(f"--mtp: {name} has no multi-token prediction layer")
        base = os.path.join(a.out, f"{name}-{layers}l" + "-mtp" * a.mtp)
        write_gguf(base + "-F16.gguf", name, s, layers, a.tokenizer, a.seed, a.mtp)
        types = [q for q in a.types.split(",") if q != "MXFP4_MOE" or s["arch"] == "gpt-oss"]
        for q in types if a.quantize else ():
            r = subprocess.run([a.quantize, base + "-F16.gguf", f"{base}-{q}.gguf", q], capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"llama-quantize {q}: {r.stderr[-2000:]}")
            print(f"{base}-{q}.gguf", flush=True)
        if a.quantize and a.drop_f16:
            os.remove(base + "-F16.gguf")


if __name__ == "__main__":
    main()

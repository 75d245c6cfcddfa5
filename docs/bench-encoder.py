#!/usr/bin/env python3
"""Writes a random-weight BERT encoder of bge-base-en-v1.5's shape (hidden 768,
12 layers of 12 heads, MLP 3072, bge's WordPiece vocabulary of 30522 tokens,
CLS pooling) as a sentence-transformers directory and its float32 GGUF
conversion by llama.cpp's converter, for docs/embed-bench.sh.

    PYTHONPATH=HFSHIM:LLAMA_SRC/gguf-py /usr/bin/python3 docs/bench-encoder.py LLAMA_SRC OUT_DIR

It reuses the generator of the encoder test models
(models/fixture/encoders.py) at the real size; OUT_DIR gets bge-base/ and
bge-base-F32.gguf. Quantize that with llama-quantize for F16 or Q8_0 rows.
"""
import importlib.util
import sys
from pathlib import Path

if len(sys.argv) != 3:
    sys.exit(__doc__)
llama_src, out = sys.argv[1], Path(sys.argv[2])
spec = importlib.util.spec_from_file_location(
    "encoders", Path(__file__).resolve().parent.parent / "models/fixture/encoders.py")
enc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(enc)
enc.HID, enc.HEADS, enc.LAYERS, enc.FFN = 768, 12, 12, 3072
cfg = dict(enc.MODELS["bert"][0], hidden_size=enc.HID, num_attention_heads=enc.HEADS,
           num_hidden_layers=enc.LAYERS, intermediate_size=enc.FFN)
out.mkdir(parents=True, exist_ok=True)
enc.write_dir(out / "bge-base", "bert", cfg, "cls", enc.vocab_from_gguf(), 1)
enc.convert(out / "bge-base", out / "bge-base-F32.gguf")
print(out / "bge-base-F32.gguf")

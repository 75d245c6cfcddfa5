package runtime

import (
	"bytes"
	"context"
	"encoding/binary"
	"flag"
	"os"
	"testing"

	"github.com/mlxrun/mlx/models/chat"
	"github.com/mlxrun/mlx/runtime/kernels"
	"github.com/mlxrun/mlx/runtime/kvcache"
	"github.com/mlxrun/mlx/runtime/model"
)

var mtpData = flag.String("mtp-data", "", "write every trained case's conversation as the trained Qwen3.5 model answers it, with its final hidden states, to this file (input of models/fixture/mtp/train.py)")

// TestMTPTrainingData writes, when -mtp-data names a file, what the MTP
// fixture's layer is trained on: for each case of cases.json, the token
// ids of its prompt and of the model's greedy answer with its stop token,
// and the model's final hidden state (after the output norm) at every
// position. Little-endian: the number of conversations, the hidden size,
// then per conversation its length n, n int32 ids and n×hidden float32.
func TestMTPTrainingData(t *testing.T) {
	if *mtpData == "" {
		t.Skip("no -mtp-data file")
	}
	e, dir := loadTrained(t, "qwen3.5")
	m, hid := e.model, e.cfg.HiddenSize
	pool := kernels.NewPool(2)
	defer pool.Close()
	st, err := m.NewState(pool, 512, 1, 512)
	if err != nil {
		t.Fatal(err)
	}
	arena, err := kvcache.NewArenaShapes(kvcache.F32, m.KVShapes(), BlockSize, 512/BlockSize)
	if err == nil {
		err = arena.SetState(m.StateElems())
	}
	if err != nil {
		t.Fatal(err)
	}
	kv := kvcache.NewPool(arena)
	var out bytes.Buffer
	prompts := casePrompts(t, e, dir)
	binary.Write(&out, binary.LittleEndian, [2]int32{int32(len(prompts)), int32(hid)})
	for _, ids := range prompts {
		answer, _, _, res := collect(t, e, Request{Prompt: ids, Params: greedy(128)})
		ids = append(ids, answer...)
		if res.StopToken >= 0 {
			ids = append(ids, res.StopToken)
		}
		c := arena.NewCache()
		if !kv.Grow(c, len(ids)) {
			t.Fatalf("%d tokens do not fit", len(ids))
		}
		b := model.Batch{AllHidden: true}
		fillBatch(&b, c, ids, 0)
		if _, err := st.Forward(&b); err != nil {
			t.Fatal(err)
		}
		binary.Write(&out, binary.LittleEndian, int32(len(ids)))
		binary.Write(&out, binary.LittleEndian, ids)
		binary.Write(&out, binary.LittleEndian, st.Hiddens())
		kv.Drop(c)
	}
	if err := os.WriteFile(*mtpData, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// casePrompts returns the conversations of cases.json rendered with the
// chat template of the model in dir, as token ids.
func casePrompts(t *testing.T, e *Engine, dir string) [][]int32 {
	t.Helper()
	ts, err := chat.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var cases []trainedCase
	readJSON(t, fixturePath(t, "trained", "cases.json"), &cases)
	var out [][]int32
	for _, c := range cases {
		msgs, err := chat.ParseMessages(c.Messages)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		prompt, err := ts.Render(context.Background(), chat.Input{Messages: msgs, Tools: c.Tools, AddGenerationPrompt: true, Tokens: ts.Tokens})
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		out = append(out, e.Tokenizer().Encode(prompt, false))
	}
	return out
}

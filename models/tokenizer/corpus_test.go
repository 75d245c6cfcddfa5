package tokenizer

import (
	"math/rand"
	"strings"
)

// corpusBlocks are samples of the kinds of text a tokenizer meets: prose,
// code, numbers, several scripts, emoji sequences and odd whitespace.
var corpusBlocks = []string{
	"The quick brown fox jumps over the lazy dog. It's 3:45pm and we'll see what they've done.",
	"func main() {\n\tfmt.Println(\"hello, world\")\n\tfor i := 0; i < 10; i++ {\n\t\tx[i] = i * 2\n\t}\n}\n",
	"def f(x):\n    return {'a': [1, 2, 3], \"b\": None}  # comment\n\n\n",
	"Prices: $1,234.56, €99, 3.14159, 1e-9, 0x1F, 2024-01-31T12:00:00Z, +44 20 7946 0958",
	"我想在apple工作1314151天～ 今天天气很好，我们去公园散步吧。東京は日本の首都です。",
	"한국어 텍스트도 있습니다. Привет, как дела? Ελληνικά γράμματα. नमस्ते दुनिया",
	"مرحبا بالعالم، كيف حالك؟ שלום עולם. สวัสดีชาวโลก ក្រុងភ្នំពេញ",
	"Emoji: 😀 🚀 👩‍👩‍👧‍👦 🏳️‍🌈 😶‍🌫️ 👍🏽 ❤️ 🦙🦙 ✅ 1️⃣",
	"   leading spaces\ttabs\t\tand   runs    of     spaces\n\n\n\r\n\u00a0nbsp\u3000ideographic\u2028sep",
	"Ünïcödé façade naïve café résumé Ångström ß ſ K ﬁ İstanbul ΣΑΣ ǅ",
	"<html><body class=\"x\">a &amp; b</body></html> `code` **bold** _it_ [link](http://x.y/z?q=1&r=2)",
	"I'M SURE YOU'LL SEE IT'S HE'D THEY'RE WE'VE 'quoted' \"double\" ''''```",
	"\n", " ", "\t\t", "0", "00000000000000000", "a", "....!!!!????", "---===***",
}

// mixedText returns about n bytes of corpus blocks in a seeded random
// order, joined by spaces and newlines.
func mixedText(n int, seed int64) string {
	rng := rand.New(rand.NewSource(seed))
	seps := []string{" ", "\n", "  ", "\n\n", "", "\t"}
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(corpusBlocks[rng.Intn(len(corpusBlocks))])
		b.WriteString(seps[rng.Intn(len(seps))])
	}
	return b.String()
}

package tokenizer

// ggufPre is what a tokenizer.ggml.pre name stands for: the split regexes
// of the original tokenizer.json (applied in order, each isolating its
// matches) and the flags llama.cpp sets for it.
type ggufPre struct {
	regexes      []string
	ignoreMerges bool
	addBOS       bool
}

// Split patterns of the pre-tokenizer families, as written in the original
// models' tokenizer.json files.
const (
	rxPoro      = ` ?[^(\s|.,!?…。，、।۔،)]+`
	rxSeedCoder = contrHF + `|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1}| ?[^\s\p{L}\p{N}\r\n]+|\s*[\r\n]+|\s+(?!\S)|\s+`
	rxBailing   = `'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+`
	rxMiniCPM5  = contrHF + `|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}+| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	// The letters of deepseek-llm. Code points that NFC normalization
	// replaces (U+1F7D, U+1FBE, U+1FD3, U+1FDB, U+2126, U+212A) are escaped,
	// so that normalizing this file cannot change the class.
	rxDeepseekL = `\s?[A-Za-zµÀ-ÖØ-öø-ƺƼ-ƿǄ-ʓʕ-ʯͰ-ͳͶͷͻ-ͽͿΆΈ-ΊΌΎ-ΡΣ-ϵϷ-ҁҊ-ԯԱ-ՖႠ-ჅᎠ-Ᏽᏸ-ᏽᲐ-ᲺᲽ-Ჿᴀ-ᴫᵫ-ᵷᵹ-ᶚḀ-ἕἘ-Ἕἠ-ὅὈ-Ὅὐ-ὗὙὛὝὟ-\x{1F7D}ᾀ-ᾴᾶ-ᾼ\x{1FBE}ῂ-ῄῆ-ῌῐ-\x{1FD3}ῖ-\x{1FDB}ῠ-Ῥῲ-ῴῶ-ῼℂℇℊ-ℓℕℙ-ℝℤ\x{2126}ℨ\x{212A}-ℭℯ-ℴℹℼ-ℿⅅ-ⅉⅎↃↄⰀ-ⱻⱾ-ⳤⳫ-ⳮⳲⳳꙀ-ꙭꚀ-ꚛꜢ-ꝯꝱ-ꞇꞋ-ꞎꭰ-ꮿﬀ-ﬆﬓ-ﬗＡ-Ｚａ-ｚ𐐀-𐑏𐒰-𐓓𐓘-𐓻𐲀-𐲲𐳀-𐳲𑢠-𑣟𞤀-𞥃]+`
)

var (
	preDefault = ggufPre{regexes: []string{`[\p{P}\$\+<=>\^~\|]+`, patGPT2Strict, `\p{N}+`, `[0-9][0-9][0-9]`}}
	preLlama3  = ggufPre{regexes: []string{patLlama3}, ignoreMerges: true, addBOS: true}
	preGPT2    = ggufPre{regexes: []string{patGPT2Strict}}
	preQwen2   = ggufPre{regexes: []string{patQwen2}}
	preStar    = ggufPre{regexes: []string{`\p{N}`, patGPT2Strict}}
	preDSV3    = ggufPre{regexes: []string{`\p{N}{1,3}`, patCJKKana, patDSV3}}
	prePoro    = ggufPre{regexes: []string{rxPoro}}
	preGPT4o   = ggufPre{regexes: []string{patO200k}}
)

// ggufPres maps tokenizer.ggml.pre values to their pre-tokenizers, with the
// names llama.cpp accepts.
var ggufPres = map[string]ggufPre{
	"default": preDefault,

	"llama3": preLlama3, "llama-v3": preLlama3, "llama-bpe": preLlama3, "falcon3": preLlama3,
	"falcon-h1": preLlama3, "pixtral": preLlama3, "midm-2.0": preLlama3, "lfm2": preLlama3,
	"dbrx": {regexes: []string{patLlama3}}, "smaug-bpe": {regexes: []string{patLlama3}},
	"chatglm-bpe": {regexes: []string{patLlama3}}, "glm4": {regexes: []string{patLlama3}},

	"qwen2": preQwen2, "deepseek-r1-qwen": preQwen2, "megrez": preQwen2, "stablelm2": preQwen2,
	"hunyuan": preQwen2, "grok-2": preQwen2, "solar-open": preQwen2, "kormo": preQwen2,
	"qwen35":     {regexes: []string{patQwen35}},
	"seed-coder": {regexes: []string{rxSeedCoder}},
	"bailingmoe": {regexes: []string{rxBailing}}, "bailingmoe2": {regexes: []string{rxBailing}},
	"minicpm5": {regexes: []string{`\p{N}{1,3}`, rxMiniCPM5}, ignoreMerges: true},

	"gpt-2": preGPT2, "phi-2": preGPT2, "jina-es": preGPT2, "jina-de": preGPT2, "gigachat": preGPT2,
	"jina-v1-en": preGPT2, "jina-v2-es": preGPT2, "jina-v2-de": preGPT2, "jina-v2-code": preGPT2,
	"roberta-bpe": preGPT2, "mpt": preGPT2, "olmo": preGPT2, "jais": preGPT2, "trillion": preGPT2,
	"granite-docling": preGPT2, "exaone4": preGPT2, "a.x-4.0": preGPT2, "mellum": preGPT2,
	"modern-bert": preGPT2,

	"starcoder": preStar, "refact": preStar, "command-r": preStar, "smollm": preStar,
	"codeshell": preStar, "exaone": preStar, "minerva-7b": preStar, "mellum2": preStar,

	"falcon":         {regexes: []string{"[\\p{P}\\$\\+<=>\\^~\\|`]+", patGPT2Strict, `[0-9][0-9][0-9]`}},
	"deepseek-coder": {regexes: []string{`[\r\n]`, `\s?\p{L}+`, `\s?\p{P}+`, patCJK, `\p{N}`}},
	"deepseek-llm":   {regexes: []string{`[\r\n]`, rxDeepseekL, "\\s?[!-/:-~！-／：-～‘-‟　-。]+", `\s+$`, patCJK, `\p{N}+`}},
	"deepseek-v3":    preDSV3, "hunyuan-dense": preDSV3, "joyai-llm": preDSV3, "hy_v4": preDSV3,

	"poro-chat": prePoro, "bloom": prePoro, "gpt3-finnish": prePoro,
	"viking": {regexes: []string{rxPoro, `\p{N}`}},
	"tekken": {regexes: []string{patTekken}, ignoreMerges: true, addBOS: true},
	"gpt-4o": preGPT4o, "llama4": preGPT4o, "minimax-m2": preGPT4o, "kanana2": preGPT4o,
	"superbpe": {regexes: []string{`\p{N}+`, `(?=(\d{3})+(?!\d))`}},
	"chameleon": {regexes: []string{`<sentinel:[0-9]+>`, `(IMGIMG)((A|B|C|D|E|F|G|H|I){1,4})Z`,
		`([\t\n]|    |  )`, `\p{N}`, "[\\p{P}!-/:-@\\[-`{-~]", patGPT2Strict}, addBOS: true},
}

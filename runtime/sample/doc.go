// Package sample picks the next token from a model's logits and detects the
// stop conditions of a sequence. It depends on the standard library only.
//
// A Sampler serves one sequence; the engine calls Sample once per generated
// token. For a given seed the tokens depend only on the logits: the random
// numbers come from a PCG generator seeded with it (math/rand/v2), one draw
// per non-greedy token.
//
// # Order of processing
//
// As in llama.cpp (and Hugging Face, save where temperature goes):
//
//  1. On the raw logits: repetition_penalty over the distinct prompt and
//     output tokens (Hugging Face: a positive logit is divided by it, a
//     negative one multiplied), then frequency_penalty and presence_penalty
//     over the output tokens (OpenAI: logit −= count·frequency +
//     presence·[count>0]), then logit_bias, then the masks: EOS and
//     stop_token_ids to −Inf until min_tokens tokens exist, EOS always under
//     ignore_eos.
//  2. temperature 0: the largest logit, the lowest id among equals (no filter
//     can drop the largest logit, so they are skipped).
//  3. top_k, typical_p, top_p, min_p, each on the softmax (temperature 1) of
//     the candidates the previous step kept, each keeping at least one.
//  4. temperature: softmax of logit/temperature over what is left, and a draw.
//
// Filters never sort the whole vocabulary: top_k selects with a heap;
// top_p without top_k sums probability per band of log-distance from the
// maximum and sorts only the bands the nucleus reaches; min_p alone is a
// threshold. typical_p without top_k does sort the whole vocabulary.
//
// # Log-probabilities
//
// Result.Logprob and Result.Top come from the log-softmax of the logits as the
// model produced them, before penalties, bias, masks, filters and
// temperature, as the OpenAI API reports them: they describe the model, not
// the sampling settings.
//
// # Stop conditions
//
// Stop token ids and EOS are checked on the token (Sampler.IsStop); stop
// strings on the decoded text (StopMatcher). The length limit is the
// engine's; Params.Budget computes it.
package sample

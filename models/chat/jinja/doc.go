// Package jinja renders Jinja templates the way Python's jinja2 does inside
// Hugging Face transformers' apply_chat_template: an immutable sandbox with
// trim_blocks and lstrip_blocks, the loop controls, the {% generation %} tag,
// and Python value semantics (reprs, integer and float arithmetic, slicing,
// string methods, undefined values).
//
// A template is parsed once with Parse and rendered any number of times,
// concurrently, with Template.Render. Values passed in are built from JSON
// (FromJSON keeps object key order, as Python dicts do) or from Go values
// (FromGo). Rendering is bounded in output size, work and call depth, so a
// hostile template fails with an error instead of exhausting the machine.
package jinja

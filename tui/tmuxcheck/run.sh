#!/usr/bin/env bash
# Checks the terminal chat end to end: builds mlx, runs `mlx run MODEL` in a
# detached tmux session of fixed size, types into it like a person, and
# asserts on the captured screens: an answer streams in, /set and /show
# work, a bad /set value is refused, Ctrl+C stops a long answer and keeps
# its beginning, /save writes a transcript that /load reads back, /bye
# exits with status 0, and the terminal is restored (main screen, cursor
# shown, mouse reporting off, cooked mode).
#
# The fixture model has random weights, so its answers are nonsense: those
# checks are on the structure of the screen, not on the words. A second
# part runs the same chat with a scripted model (main.go here) whose
# answers are known: a haiku shows on three lines, and the conversation
# stays on the screen after /bye.
#
# Usage: tui/tmuxcheck/run.sh [MODEL]
#   MODEL      default: $MLX_TESTDATA/gguf/llama-tiny-Q8_0.gguf
#   MLX_BIN    use this mlx binary instead of building one
set -euo pipefail
cd "$(dirname "$0")/../.."

export MLX_TESTDATA="${MLX_TESTDATA:-$(cd ../shared/testdata 2>/dev/null && pwd || true)}"
model="${1:-$MLX_TESTDATA/gguf/llama-tiny-Q8_0.gguf}"
[ -e "$model" ] || { echo "tmux-check: no model at $model (set MLX_TESTDATA)" >&2; exit 1; }

if ! command -v tmux >/dev/null; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		apt-get install -y tmux >/dev/null || { apt-get update >/dev/null && apt-get install -y tmux >/dev/null; }
	else
		echo "tmux-check: tmux is not installed" >&2; exit 1
	fi
fi
export LANG="${LANG:-C.UTF-8}" LC_ALL="${LC_ALL:-C.UTF-8}"

tmp=$(mktemp -d)
sock="mlx-tmuxcheck-$$"
t() { tmux -L "$sock" -f /dev/null "$@"; }
trap 't kill-server 2>/dev/null || true; rm -rf "$tmp"' EXIT

mlx="${MLX_BIN:-}"
if [ -z "$mlx" ]; then
	mlx="$tmp/mlx"
	go build -o "$mlx" .
fi

pane=chat
screen() { t capture-pane -p -t "$pane"; }
fail() {
	echo "tmux-check: FAIL: $*" >&2
	echo "--- screen:" >&2
	screen >&2 || true
	exit 1
}
# wait_for TEXT [SECONDS]: until TEXT is on the screen; mlx exiting first
# fails at once.
wait_for() {
	local deadline=$((SECONDS + ${2:-20})) s
	until s=$(screen) && grep -qF -- "$1" <<<"$s"; do
		[ $SECONDS -lt $deadline ] || fail "no \"$1\" on the screen after ${2:-20} s"
		grep -q "^mlx-exit=" <<<"$s" && fail "mlx exited before \"$1\" appeared"
		sleep 0.1
	done
}
# wait_idle: until no answer is streaming.
wait_idle() { wait_for "ctrl+t reasoning · /help" "${1:-60}"; }
say() { t send-keys -t "$pane" -l -- "$1"; t send-keys -t "$pane" Enter; }
step() { printf 'tmux-check: %s\n' "$*"; }

step "start $mlx run $(basename "$model") in tmux (100x30)"
t new-session -d -s "$pane" -x 100 -y 30 \
	"'$mlx' run --threads 2 '$model'; echo mlx-exit=\$?; stty -a > '$tmp/stty'; exec sleep 600"
wait_for ">>> Send a message" 60
name=$(basename "$model" .gguf)
screen | grep -qE "^ $name · ctx 0/[0-9]+ " || fail "the status line does not show the model and the context"

step "settings: /set max_tokens 24, /set temperature 0"
say "/set max_tokens 24"
wait_for "Set max_tokens to 24."
say "/set temperature 0"
wait_for "Set temperature to 0."

step "a question streams an answer"
say "Hello there"
wait_for ">>> Hello there"
wait_idle
wait_for "cut at max_tokens (24)"
# The answer: after the question and a blank line, indented text.
screen | awk '/^>>> Hello there$/ { q = NR } q && NR == q + 2 && /^  [^ ]/ { ok = 1 } END { exit !ok }' ||
	fail "no answer below the question"
screen | grep -qE "^ $name · ctx [1-9][0-9]*/[0-9]+ · [0-9.]+ tok/s" || fail "the status line lacks the context in use or tokens/s"

step "/show lists the settings and the model"
say "/show"
wait_for "max_tokens     24"
wait_for "temperature    0"
wait_for "architecture   "

step "a bad value is refused"
say "/set temperature hot"
wait_for "✗ invalid setting: temperature must be a number from 0 to 2 (0 is greedy), not \"hot\""

step "Ctrl+C stops a long answer and keeps its beginning"
say "/set max_tokens 0"
wait_for "Set max_tokens to 0."
say "Tell me a long story"
wait_for "ctrl+c stops"
sleep 0.2 # the tiny model fills its 2048-token context in well under a second
t send-keys -t "$pane" C-c
wait_idle 10
wait_for "— stopped"
screen | awk '/^  — stopped$/ { s = NR } { if (!s) prev = $0 } END { exit !(s && prev ~ /^  [^ ]/) }' ||
	fail "the stopped answer is not above its note"

step "/save writes a transcript, /load reads it back"
say "/save $tmp/chat.md"
wait_for "Saved 4 messages to"
head -1 "$tmp/chat.md" | grep -qF "<!-- mlx chat transcript v1 -->" || fail "the transcript lacks its first line"
grep -qx "## You" "$tmp/chat.md" || fail "the transcript lacks the person's messages"
say "/clear"
wait_for "New conversation."
say "/load $tmp/chat.md"
wait_for "Loaded 4 messages from"

step "Ctrl+C when idle asks for a second one"
t send-keys -t "$pane" C-c
wait_for "press ctrl+c again to exit"

step "/bye exits with status 0 and restores the terminal"
say "/bye"
wait_for "mlx-exit=" 10
screen | grep -qx "mlx-exit=0" || fail "mlx exited with a non-zero status"
screen | grep -qF "ctrl+t reasoning" && fail "the chat is still on the screen after exit"
screen | grep -qF "Loaded 4 messages from" || fail "the conversation did not stay on the screen after exit"
[ "$(t display -p -t "$pane" '#{alternate_on}')" = 0 ] || fail "the alternate screen is still on"
[ "$(t display -p -t "$pane" '#{cursor_flag}')" = 1 ] || fail "the cursor is still hidden"
[ "$(t display -p -t "$pane" '#{mouse_any_flag}#{mouse_button_flag}#{mouse_all_flag}')" = 000 ] ||
	fail "mouse reporting is still on"
for _ in $(seq 50); do [ -s "$tmp/stty" ] && break; sleep 0.1; done
grep -qE '(^| )icanon( |$)' "$tmp/stty" && grep -qE '(^| )echo( |$)' "$tmp/stty" ||
	fail "the terminal was left in raw mode: $(cat "$tmp/stty")"

step "scripted model: a haiku shows on three lines"
t kill-session -t "$pane"
rm -f "$tmp/stty"
go build -o "$tmp/scripted" ./tui/tmuxcheck
t new-session -d -s "$pane" -x 100 -y 30 "'$tmp/scripted'; echo mlx-exit=\$?; exec sleep 600"
wait_for ">>> Send a message" 20
say "Write a haiku about rain"
wait_for "puddles hold the sky"
wait_idle
haiku_lines() {
	screen | awk '/^>>> Write a haiku about rain$/ { q = NR }
		q && NR == q + 2 && $0 == "  Soft rain on the roof" { a = NR }
		a && NR == a + 1 && $0 == "  whispers to the sleeping town" { b = NR }
		b && NR == b + 1 && $0 == "  puddles hold the sky" { ok = 1 }
		END { exit !ok }'
}
haiku_lines || fail "the haiku is not on three lines below the question"

step "the conversation stays on the screen after /bye"
say "/bye"
wait_for "mlx-exit=" 10
screen | grep -qx "mlx-exit=0" || fail "the chat exited with a non-zero status"
screen | grep -qF "ctrl+t reasoning" && fail "the status line is still on the screen after exit"
haiku_lines || fail "the haiku is not on the screen after /bye"
[ "$(t display -p -t "$pane" '#{alternate_on}')" = 0 ] || fail "the alternate screen is still on"

step "ok"

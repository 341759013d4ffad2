#!/usr/bin/env bash
# Reproduce the agent-strength figures of docs/results.md with the arena: each pairing over
# GAMES 2-player games, seats rotated on shared deals, JSON figures and a PNG per pairing in
# docs/results/. Slow: at one second per move a pairing takes hours on one core; an iteration
# budget (e.g. ismcts:600) makes the strength independent of the machine's load. Each pairing
# keeps a journal of its games (docs/results/NAME.jsonl): run the script again after an
# interruption and it plays only the games that are missing.
# Usage: scripts/measure_strength.sh [GAMES] [WORKERS] [ISMCTS-SETTING] [GAME-ID...]
# (the game ids limit the run to those games; by default all four are measured). The quick
# expert-against-heuristic pairings always play 1000 games, as in docs/results.md.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-400}
workers=${2:-2}
ismcts=${3:-ismcts:1s}
shift $(($# < 3 ? $# : 3))
all="auf-die-eier awimbawe auweier auf-die-nuesse"
for id in "$@"; do
    [[ " $all " == *" $id "* ]] || { echo "unknown game id: $id (choose from: $all)" >&2; exit 2; }
done
only=" ${*:-$all} "
out=docs/results
expert_games=1000  # the expert pairings are quick: more games, as in docs/results.md
mkdir -p "$out"
run() {  # name, game, agents[, games, seed]; the figures replace the old ones only when the
    # run completes
    .venv/bin/spieltisch arena "$2" --players 2 --agents "$3" --games "${4:-$games}" \
        --seed "${5:-11}" --workers "$workers" --journal "$out/$1.jsonl" --json \
        --plot "$out/$1.png" > "$out/$1.json.part"
    mv "$out/$1.json.part" "$out/$1.json"
}
if [[ $only == *" auf-die-eier "* ]]; then
    run eier-expert-heuristic auf-die-eier expert,heuristic "$expert_games" 2026
fi
if [[ $only == *" auf-die-nuesse "* ]]; then
    run nuesse-expert-heuristic auf-die-nuesse expert,heuristic "$expert_games"
fi
tag=${ismcts//[:.]/}  # ismcts:600 -> ismcts600, ismcts:1s -> ismcts1s
for game in awimbawe auweier auf-die-nuesse; do
    [[ $only == *" $game "* ]] || continue
    run "$game-$tag-random" "$game" "$ismcts,random"
    run "$game-$tag-heuristic" "$game" "$ismcts,heuristic"
done

#!/usr/bin/env bash
# Reproduce the agent-strength figures of docs/results.md with the arena: each pairing over
# GAMES 2-player games, seats rotated on shared deals, JSON figures and a PNG per pairing in
# docs/results/. Slow: at one second per move a pairing takes hours on one core; an iteration
# budget (e.g. ismcts:600) makes the strength independent of the machine's load.
# Usage: scripts/measure_strength.sh [GAMES] [WORKERS] [ISMCTS-SETTING]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-400}
workers=${2:-2}
ismcts=${3:-ismcts:1s}
out=docs/results
mkdir -p "$out"
run() {  # name, game, agents
    .venv/bin/spieltisch arena "$2" --players 2 --agents "$3" --games "$games" --seed 11 \
        --workers "$workers" --json --plot "$out/$1.png" > "$out/$1.json"
}
run eier-expert-heuristic auf-die-eier expert,heuristic
tag=${ismcts//[:.]/}  # ismcts:600 -> ismcts600, ismcts:1s -> ismcts1s
for game in awimbawe auweier auf-die-nuesse; do
    run "$game-$tag-random" "$game" "$ismcts,random"
    run "$game-$tag-heuristic" "$game" "$ismcts,heuristic"
done

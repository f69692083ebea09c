#!/usr/bin/env bash
# docs/adding_a_game.md's list of files is what the example game needed:
#   - every file it says to create exists for games/testing/tiny_tricks, and
#     the game's folder holds nothing else;
#   - every file it says to edit names the game, and no other file outside
#     the game's folder does (the generic code needs no edit for a game);
#   - the whole list stays within 15 files.
# Usage: adding_a_game_test.sh TOP
set -euo pipefail
top=$1
cd "$top"
doc=docs/adding_a_game.md
game=tiny_tricks
folder=games/testing/$game
status=0

# The first column of the table between <!-- files:KIND --> markers, with
# <g> and games/<g>/ made concrete.
files() {
  sed -n "/<!-- files:$1 -->/,/<!-- \/files:$1 -->/p" "$doc" |
    grep -E '^\| `' | sed -E 's/^\| `([^`]+)`.*/\1/' | sed "s/<g>/$game/g"
}

mapfile -t create < <(files create)
mapfile -t outside < <(files create-outside)
mapfile -t edit < <(files edit)
if [ ${#create[@]} -eq 0 ] || [ ${#outside[@]} -eq 0 ] || [ ${#edit[@]} -eq 0 ]; then
  echo "FAIL: $doc lost one of its file tables"; exit 1
fi
total=$(( ${#create[@]} + ${#outside[@]} + ${#edit[@]} ))
echo "$doc lists ${#create[@]} files in the folder, ${#outside[@]} beside it and ${#edit[@]} edits ($total in all)"
if [ "$total" -gt 15 ]; then
  echo "FAIL: more than 15 files to add a game"; status=1
fi

for f in "${create[@]}"; do
  [ -f "$folder/$f" ] || { echo "FAIL: the list says to create $folder/$f; the example game has none"; status=1; }
done
while IFS= read -r f; do
  rel=${f#"$folder"/}
  printf '%s\n' "${create[@]}" | grep -qxF "$rel" ||
    { echo "FAIL: $f is in the example game's folder but not in $doc"; status=1; }
done < <(git ls-files "$folder")
for f in "${outside[@]}"; do
  [ -f "$f" ] || { echo "FAIL: the list says to create $f; it does not exist"; status=1; }
done
for f in "${edit[@]}"; do
  grep -q "$game" "$f" || { echo "FAIL: $f, a listed edit, does not name $game"; status=1; }
done

# Nothing else names the game: the generic code needed no edit.
allowed=$(printf '%s\n' "${outside[@]}" "${edit[@]}" "$doc")
while IFS= read -r f; do
  case "$f" in "$folder"/*|tests/adding_a_game_test.sh) continue ;; esac
  printf '%s\n' "$allowed" | grep -qxF "$f" ||
    { echo "FAIL: $f names $game, but only the game's folder, the registration and the docs index may"; status=1; }
done < <(git grep -l -I "$game" -- . || true)

[ $status -eq 0 ] && echo "ok: the example game needed exactly the listed files"
exit $status

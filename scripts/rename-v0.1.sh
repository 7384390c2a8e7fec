#!/bin/sh
# rename-v0.1.sh: the v0.1.0 renames of exported names (stutter and
# clashes, issue 35), applied to every .go and .md file under the current
# directory. Idempotent: run it again on a branch that still uses the old
# names (cd repo && sh scripts/rename-v0.1.sh), then gofmt.
#
#   rangeset.RangeSet → Set, RangeConfig → Config, RangeHistory → History,
#     RangeKey → Key, RangePredictor → Predictor (Range stays)
#   molding.MoldCandidate → Candidate, MoldConfig → Config
#   agent.SimAgent → Agent, NewSimAgent → New, SimConfig → Config,
#     SimStats → Stats
#   swf.FieldNames[i] → swf.FieldName(i)
#   ibl.QueuedFeatures / NotQueuedFeatures (vars) → ibl.QueuedFeatures() / ibl.NotQueuedFeatures()
set -e
files=$(find . -path ./.git -prune -o \( -name '*.go' -o -name '*.md' \) -type f ! -name CHANGELOG.md -print) # the changelog keeps the old names
# Inside a package the bare names change; elsewhere the qualified ones.
inpkg() { # dir old new
	for f in $files; do
		case $f in ./$1/*) perl -pi -e "s/\\b$2\\b/$3/g" "$f" ;; esac
	done
}
qual() { # pkg old new
	perl -pi -e "s/\\b$1\\.$2\\b/$1.$3/g" $files
}
for p in RangeSet:Set RangeConfig:Config RangeHistory:History RangeKey:Key RangePredictor:Predictor; do
	inpkg estmodel/rangeset "${p%%:*}" "${p##*:}"
	qual rangeset "${p%%:*}" "${p##*:}"
done
for p in MoldCandidate:Candidate MoldConfig:Config; do
	inpkg varq/molding "${p%%:*}" "${p##*:}"
	qual molding "${p%%:*}" "${p##*:}"
done
for p in NewSimAgent:New SimAgent:Agent SimConfig:Config SimStats:Stats; do
	inpkg varq/agent "${p%%:*}" "${p##*:}"
	qual agent "${p%%:*}" "${p##*:}"
done
perl -pi -e 's/\bswf\.FieldNames\[([^\]]+)\]/swf.FieldName($1)/g' $files
for f in $files; do
	case $f in ./swf/*.go) perl -pi -e 's/\bFieldNames\[([^\]]+)\]/FieldName($1)/g' "$f" ;; esac
done
perl -pi -e 's/\bibl\.(QueuedFeatures|NotQueuedFeatures)\b(?!\()/ibl.$1()/g' $files

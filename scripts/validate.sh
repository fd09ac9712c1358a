#!/usr/bin/env bash
# Validation runs of the ns-classical model on meshes finer than the committed ones (issue 6):
# too long for CI (about 40 minutes on one core of the development machine in all, most of it
# the finest cylinder mesh), so they live here. CI runs the small verification cases
# (tests/verification/ns_test.cpp).
#
#   scripts/validate.sh                 everything below
#   scripts/validate.sh cavity          lid-driven cavity, Re 100 / 400 / 1000, vs Ghia et al. (1982)
#   scripts/validate.sh cylinder        DFG 2D-1 (Re 20): c_D, c_L, dp on four mesh levels, both models
#   scripts/validate.sh cylinder3d      DFG 3D-1Z (Re 20): c_D, c_L, dp on three mesh levels
#   scripts/validate.sh cavity3d        3D cavity to its steady state, np = 1 and np = 2
#   --bin PATH                          the streamcfd binary (default: build/src/app/streamcfd)
#   --out DIR                           where results go (default: build-validation/, git-ignored)
#
# ns-exact against ns-classical on the same cases: scripts/exact_vs_classical.py.
#
# Meshes come from scripts/make-meshes.sh (made into meshes/generated/ when missing). The cavity
# profiles are plotted by scripts/plot_cavity.py (PNG per Re in the output folder; needs numpy and
# matplotlib, found through $PYTHON, default python3). The np = 2 run uses $MPIRUN (default mpirun;
# as root or in a container e.g. MPIRUN="mpirun --allow-run-as-root --oversubscribe"). Exit status 1 when a check fails: the
# cavity centrelines must lie within 0.02 of Ghia's table (Re 100, 400) or 0.03 (Re 1000), and
# every run must complete; the DFG 2D-1 figures of the finest level (4) must lie in the reference
# intervals for both models, and the DFG 3D-1Z drag of the finest level (3) within 1 % of 6.185
# (at the time of writing it is 4.5 % low and this check fails: docs/methods.md). The finest
# levels are GPU work: DFG 2D-1 level 4 takes about 3 (ns-classical) and 12 (ns-exact) minutes
# on an H200, about 40 minutes and several hours on one CPU core; DFG 3D-1Z (run at Courant
# number 2, which gives the steady drag of 0.5 to 0.03 %) level 2 30 s and level 3 (1.09M tets)
# 5.5 minutes on an H100.
# CYLINDER_LEVELS (default "1 2 3 4") and CYLINDER3D_LEVELS (default "1 2 3") choose the levels;
# the checks apply to the last one given.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/build/src/app/streamcfd"
out="$root/build-validation"
python=${PYTHON:-python3}
what=()
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin=$(realpath "$2"); shift ;;
    --out) out=$(realpath -m "$2"); shift ;;
    cavity|cylinder|cylinder3d|cavity3d) what+=("$1") ;;
    -h|--help) sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "validate.sh: unknown argument '$1' (valid: cavity cylinder cylinder3d cavity3d --bin --out)" >&2
       exit 2 ;;
  esac
  shift
done
[ ${#what[@]} -gt 0 ] || what=(cavity cylinder cylinder3d cavity3d)
[ -x "$bin" ] || { echo "validate.sh: no streamcfd binary at $bin (build it, or pass --bin)" >&2; exit 2; }
mkdir -p "$out"
gen="$root/meshes/generated"
failed=0

mesh() {  # mesh NAME LEVEL: the path of meshes/generated/NAME-LEVEL.msh, made when missing
  [ -f "$gen/$1-$2.msh" ] || "$root/scripts/make-meshes.sh" --levels "$2" "$1" >&2
  echo "$gen/$1-$2.msh"
}

# figure JSON NAME...: the named figures of a run summary, space-separated.
figure() {
  "$python" - "$@" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
f = d["figures"]
f["steps"], f["seconds"], f["iterations"] = d["steps"], d["seconds"]["solve"], d["solver"]["iterations_mean"]
print(" ".join(repr(f[k]) for k in sys.argv[2:]))
EOF
}

summary() {  # summary NAME: the run summary of $out/NAME (either model)
  ls "$out/$1"/*_summary.json
}

run() {  # run NAME ARGS...: streamcfd run ARGS into $out/NAME, summary line on success
  local name=$1; shift
  if ! "$bin" run "$@" --quiet --set output.directory="$out/$name" >"$out/$name.log" 2>&1; then
    echo "  $name: FAILED (see $out/$name.log)"; failed=1; return 1
  fi
  read -r steps secs its <<<"$(figure "$(summary "$name")" steps seconds iterations)"
  awk -v n="$name" -v s="$steps" -v t="$secs" -v i="$its" \
    'BEGIN { printf "  %-14s %6d steps, %7.1f s (%.1f ms/step), %.0f CG iterations/step\n", n, s, t, 1000 * t / s, i }'
}

if [[ " ${what[*]} " == *" cavity "* ]]; then
  echo "== lid-driven cavity vs Ghia et al. (1982), mesh cavity-3 (h = 1/64, 9,516 triangles)"
  m=$(mesh cavity 3)
  for spec in "100 20 0.02" "400 30 0.02" "1000 60 0.03"; do
    read -r re end tol <<<"$spec"
    run "cavity-re$re" "$root/cases/cavity2d/case.toml" --set mesh.file="$m" \
      --set fluid.reynolds="$re" --set time.end="$end" || continue
    "$python" "$root/scripts/plot_cavity.py" --re "$re" --ghia "$root/cases/cavity2d/ghia1982.csv" \
      --vertical "$out/cavity-re$re/lines/vertical.csv" \
      --horizontal "$out/cavity-re$re/lines/horizontal.csv" \
      --png "$out/cavity-re$re.png" --max-dev "$tol" || failed=1
  done
fi

if [[ " ${what[*]} " == *" cylinder "* ]]; then
  echo "== DFG 2D-1 (Re 20): reference c_D [5.57, 5.59], c_L [0.0104, 0.0110], dp [0.1172, 0.1176]"
  read -r -a levels <<<"${CYLINDER_LEVELS:-1 2 3 4}"
  for model in ns-classical ns-exact; do
    for level in "${levels[@]}"; do
      m=$(mesh channel2d-cylinder "$level")
      # Steady from t ~ 8 (c_D to 1e-5; c_L oscillates by 2e-4 about its value there on level 4).
      run "cylinder-$model-$level" "$root/cases/cylinder2d/case.toml" --set mesh.file="$m" \
        --set physics.model="$model" --set time.end=8 || continue
      read -r cd cl p0 p1 <<<"$(figure "$(summary "cylinder-$model-$level")" \
        drag_coefficient lift_coefficient probe0_p probe1_p)"
      dp=$(awk -v a="$p0" -v b="$p1" 'BEGIN{print a-b}')
      awk -v m="$model" -v l="$level" -v cd="$cd" -v cl="$cl" -v dp="$dp" \
        'BEGIN { printf "  %s level %d: c_D %.4f  c_L %.5f  dp %.5f\n", m, l, cd, cl, dp }'
      if [ "$level" = "${levels[-1]}" ]; then
        awk -v l="$level" -v cd="$cd" -v cl="$cl" -v dp="$dp" 'BEGIN {
          bad = ""
          if (cd < 5.57 || cd > 5.59) bad = bad " c_D"
          if (cl < 0.0104 || cl > 0.0110) bad = bad " c_L"
          if (dp < 0.1172 || dp > 0.1176) bad = bad " dp"
          if (bad != "") { printf "  level %d: outside the reference interval:%s\n", l, bad; exit 1 }
          printf "  level %d: c_D, c_L and dp inside the reference intervals\n", l }' || failed=1
      fi
    done
  done
fi

if [[ " ${what[*]} " == *" cylinder3d "* ]]; then
  echo "== DFG 3D-1Z (Re 20, t = 4): reference c_D 6.185 (within 1 %), c_L 0.0094"
  read -r -a levels <<<"${CYLINDER3D_LEVELS:-1 2 3}"
  for level in "${levels[@]}"; do
    m=$(mesh channel3d-cylinder "$level")
    run "cylinder3d-$level" "$root/cases/cylinder3d/case.toml" --set mesh.file="$m" \
      --set time.cfl=2 || continue
    read -r cd cl p0 p1 <<<"$(figure "$(summary "cylinder3d-$level")" drag_coefficient \
      lift_coefficient probe0_p probe1_p)"
    awk -v l="$level" -v cd="$cd" -v cl="$cl" -v p0="$p0" -v p1="$p1" \
      'BEGIN { printf "  level %d: c_D %.4f (%+.1f %%)  c_L %.5f  dp %.5f\n", l, cd,
               100 * (cd / 6.185 - 1), cl, p0 - p1 }'
    if [ "$level" = "${levels[-1]}" ]; then
      awk -v cd="$cd" 'BEGIN { if (cd < 0.99 * 6.185 || cd > 1.01 * 6.185) {
          print "  c_D is not within 1 % of 6.185"; exit 1 } print "  c_D within 1 % of 6.185" }' ||
        failed=1
    fi
  done
fi

if [[ " ${what[*]} " == *" cavity3d "* ]]; then
  echo "== 3D cavity, Re 100, to t = 10 (steady), np = 1 and np = 2"
  mpirun=${MPIRUN:-mpirun}
  run cavity3d-np1 "$root/cases/cavity3d/case.toml" || true
  # shellcheck disable=SC2086 # MPIRUN may carry options
  if $mpirun -np 2 "$bin" run "$root/cases/cavity3d/case.toml" --quiet \
      --set output.directory="$out/cavity3d-np2" >"$out/cavity3d-np2.log" 2>&1; then
    for n in 1 2; do
      echo "  np $n: $(figure "$out/cavity3d-np$n/ns-classical_summary.json" kinetic_energy probe2_ux probe4_ux)" \
        "(kinetic energy, u at (0.5, 0.5, 0.5), u at (0.5, 0.9, 0.5))"
    done
    "$python" - "$out/cavity3d-np1/lines" "$out/cavity3d-np2/lines" <<'EOF' || failed=1
import csv, sys
worst = 0.0
for name in ("vertical", "horizontal"):
    a, b = ([list(map(float, r)) for r in list(csv.reader(open(f"{d}/{name}.csv")))[1:]] for d in sys.argv[1:])
    worst = max(worst, max(abs(x - y) for ra, rb in zip(a, b) for x, y in zip(ra[4:7], rb[4:7])))
print(f"  centrelines: largest velocity difference np = 1 vs 2: {worst:.2e}")
sys.exit(0 if worst < 1e-6 else 1)
EOF
  else
    echo "  cavity3d-np2: FAILED (see $out/cavity3d-np2.log)"; failed=1
  fi
fi

exit "$failed"
